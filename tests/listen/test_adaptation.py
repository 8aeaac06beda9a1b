"""Adapting pocketsphinx's acoustic model (narrator adapt), for real: sphinxtrain's tools
on espeak-ng recordings, the result loaded by the real recognizer, and the command's
one-line refusals of bad input.

tests/data/adaptation/mllr_matrix was made by `narrator adapt --method mllr` from 392
clips of the listen benchmark's tuning part (its five tuning voices, four rooms; another
seed than the tuning figures'): a few KB, so the recognizer's loading of a transform is
tested without running sphinxtrain.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from narrator.boxconfig import default_adaptation, load_settings
from narrator.cli import main
from narrator.voice import adaptation
from narrator.voice.commands import CommandSet
from narrator.voice.listen_clips import ClipSpec, speak_all
from narrator.voice.pocketsphinx_settings import ADAPTED_THRESHOLDS, THRESHOLDS
from narrator.voice.recognizer import chunked, read_audio, recognize
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer
from narrator.voice.recognizers import make_recognizer

TRANSFORM = Path(__file__).parents[1] / "data" / "adaptation" / "mllr_matrix"
SAID = ["pause", "foul seat three", "start voting", "next speaker", "add thirty seconds",
        "resume"]


def _heard(recognizer: PocketsphinxRecognizer, path: Path) -> list[tuple[str, int | None]]:
    return [(c.command, c.seat) for c in recognize(recognizer, chunked(read_audio(path)))]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A club's folder: commands said by two voices, and transcript.txt."""
    folder = tmp_path_factory.mktemp("club")
    specs = [ClipSpec(text, voice) for voice in ("en-us", "en-gb+f2") for text in SAID]
    lines = []
    for spec, path in zip(specs, speak_all(specs, folder), strict=True):
        lines.append(f"{path.name} {spec.text}")
    (folder / "transcript.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_a_committed_transform_loads_and_a_clip_decodes_with_it(
        recordings: Path, english: CommandSet) -> None:
    clip = recordings / ClipSpec("foul seat three", "en-us").key()
    plain = PocketsphinxRecognizer(english)
    adapted = PocketsphinxRecognizer(english, adaptation=TRANSFORM)
    assert _heard(adapted, clip.with_suffix(".wav")) == [("foul", 3)]
    assert _heard(plain, clip.with_suffix(".wav")) == [("foul", 3)]
    # The thresholds tuned with an adaptation, one for every command.
    assert adapted.thresholds == ADAPTED_THRESHOLDS and plain.thresholds == THRESHOLDS
    assert set(ADAPTED_THRESHOLDS) == set(THRESHOLDS) == {n for n, _ in english.sentences.values()}
    # Both decoders are given the transform, and it changes what they compute.
    assert adapted.decoders.grammar.config["mllr"] == str(TRANSFORM)
    assert adapted.decoders.free.config["mllr"] == str(TRANSFORM)
    scores = []
    for recognizer in (plain, adapted):
        decoder = recognizer.decoders.grammar
        decoder.start_utt()
        decoder.process_raw(read_audio(clip.with_suffix(".wav")), full_utt=True)
        decoder.end_utt()
        scores.append(decoder.hyp().best_score)
    assert scores[0] != scores[1]


def test_adapting_for_real_then_listening_with_it(recordings: Path, english: CommandSet,
                                                  tmp_path: Path) -> None:
    # mllr to a path of its own; map (the default) where the box looks for it.
    for method, out in (("mllr", tmp_path / "mllr"), ("map", default_adaptation(tmp_path))):
        where = ["--out", str(out)] if method == "mllr" else ["--state-dir", str(tmp_path)]
        assert main(["adapt", "--recordings", str(recordings), "--method", method,
                     *where]) == 0
        if method == "mllr":
            rows = out.read_text().split()
            assert rows[:3] == ["1", "3", "13"]  # one class, three streams of 13
        else:
            assert sorted(p.name for p in out.iterdir()) == sorted(adaptation.MODEL_FILES)
            base = adaptation.model_dir()
            assert (out / "means").read_bytes() != (base / "means").read_bytes()
            assert (out / "sendump").read_bytes() == (base / "sendump").read_bytes()
        recognizer = PocketsphinxRecognizer(english, adaptation=out)
        clip = recordings / f"{ClipSpec('start voting', 'en-gb+f2').key()}.wav"
        assert _heard(recognizer, clip) == [("start_voting", None)]


def test_a_new_adaptation_replaces_the_old_whole(tmp_path: Path) -> None:
    out = tmp_path / "adaptation" / "en"
    for n in (1, 2):
        result = tmp_path / f"work{n}"
        result.mkdir()
        (result / "means").write_text(f"model {n}")
        adaptation._replace(result, out)
        assert (out / "means").read_text() == f"model {n}"
    assert sorted(p.name for p in out.parent.iterdir()) == ["en"]
    transform = tmp_path / "mllr"
    transform.write_text("1")
    adaptation._replace(transform, out)  # a transform file in place of a model folder
    assert out.read_text() == "1"
    again = tmp_path / "work3"
    again.mkdir()
    adaptation._replace(again, out)  # and a model folder in place of a transform file
    assert out.is_dir()


def test_the_box_uses_the_adaptation_when_it_is_there(tmp_path: Path) -> None:
    settings = load_settings(None, {"state_dir": str(tmp_path)})
    assert settings.recognizer.adaptation == default_adaptation(tmp_path)
    absent = make_recognizer("pocketsphinx", "en", adaptation=default_adaptation(tmp_path))
    assert isinstance(absent, PocketsphinxRecognizer)
    assert absent.decoders.grammar.config["mllr"] is None
    target = default_adaptation(tmp_path)
    target.parent.mkdir(parents=True)
    shutil.copy(TRANSFORM, target)
    present = make_recognizer("pocketsphinx", "en", adaptation=target)
    assert isinstance(present, PocketsphinxRecognizer)
    assert present.decoders.free.config["mllr"] == str(target)


def test_a_broken_adaptation_leaves_the_model_as_it_ships(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    broken = tmp_path / "mllr"
    broken.write_text("1\n3\nnot a transform\n")
    recognizer = make_recognizer("pocketsphinx", "en", adaptation=broken)
    assert isinstance(recognizer, PocketsphinxRecognizer)
    assert recognizer.decoders.grammar.config["mllr"] is None
    assert f"cannot load the adaptation {broken}" in caplog.text


def test_a_configured_adaptation_that_is_not_there_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "narrator.yaml"
    config.write_text(f"recognizer:\n  adaptation: {tmp_path / 'nowhere'}\n", encoding="utf-8")
    assert main(["adapt", "--recordings", str(tmp_path), "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "recognizer.adaptation: no such file or folder" in err


def test_sendump_weights_are_the_models_mixture_weights() -> None:
    weights = adaptation.sendump_weights(adaptation.model_dir() / "sendump")
    assert weights.shape == (5126, 3, 128)  # senones, streams, codewords (PTM)
    assert np.allclose(weights.sum(axis=2), 1.0)
    assert (weights > 0).all()


BAD = [
    ("missing folder", None, "no such folder"),
    ("no transcript", {}, "transcript.txt: no such file"),
    ("not a wav name", {"transcript.txt": "pause.mp3 pause\n"}, "line 1: expected 'name.wav"),
    ("no words", {"transcript.txt": "a.wav\n"}, "line 1: no words after a.wav"),
    ("unknown word", {"transcript.txt": "a.wav pause zzyzxq\n"},
     "line 1: not in the recognizer's dictionary: zzyzxq"),
    ("missing recording", {"transcript.txt": "# said at the club\n\na.wav pause\n"},
     "line 3: no such recording"),
    ("twice", {"transcript.txt": "a.wav pause\na.wav resume\n", "a.wav": b"RIFF"},
     "line 2: a.wav is listed before with other words"),
    ("too few", {"transcript.txt": "a.wav pause\n", "a.wav": b"RIFF"},
     "1 recordings; adapting needs at least 5"),
]


@pytest.mark.parametrize(("name", "files", "problem"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_one_line_and_exit_2(name: str, files: dict[str, str | bytes] | None,
                                          problem: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "club"
    if files is not None:
        folder.mkdir()
        for file, content in files.items():
            if isinstance(content, bytes):
                (folder / file).write_bytes(content)
            else:
                (folder / file).write_text(content, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["adapt", "--recordings", str(folder), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert problem in err
    assert not out.exists()


def test_a_recording_that_is_no_audio_is_one_line(recordings: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "club"
    shutil.copytree(recordings, folder)
    first = (folder / "transcript.txt").read_text().split()[0]
    (folder / first).write_bytes(b"not a wav at all")
    assert main(["adapt", "--recordings", str(folder), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and first in err and "not a PCM WAV file" in err


def test_missing_sphinxtrain_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(adaptation.AdaptationError, match="bw not found: adapting needs "
                       "sphinxtrain"):
        adaptation.tool("bw", dirs=[tmp_path])


def test_the_benchmarks_adaptation_material_is_a_clubs_folder(tmp_path: Path) -> None:
    # scripts/adapt-listen: the tuning part's clips (one voice here) pass adapt's checks.
    from workshop.bench.listen_adapt import recordings as tuning_recordings
    from workshop.bench.listen_data import HELD_BACK_TALK, TUNING_TALK

    folder = tuning_recordings(tmp_path / "club", per_command=1, voices=("en-us",))
    listed = adaptation.read_transcript(folder, adaptation.dictionary())
    said = {" ".join(r.words) for r in listed}
    assert len(listed) >= adaptation.FEWEST_RECORDINGS
    assert said & set(CommandSet.for_language("en").sentences)
    held_back = {" ".join(t.lower().replace(",", "").split()) for t in HELD_BACK_TALK}
    assert not said & held_back
    assert said & {t.lower() for t in TUNING_TALK}


def test_recording_a_club_member_then_going_on_later(
        recordings: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.cli.adapt import record
    from narrator.voice.wav import Clip
    from narrator.voice.wav import read_wav as read_clip

    said = read_clip(recordings / f"{ClipSpec('pause', 'en-us').key()}.wav")  # a real take
    takes: list[Clip] = []

    def take() -> Clip:
        clip = said if len(takes) != 1 else Clip.silence(0.1, 48000)  # 2nd: Enter twice
        takes.append(clip)
        return clip

    answers = iter(["", "", "s", "", "q"])
    folder = tmp_path / "club"
    assert record(folder, "anna", take, lambda _prompt: next(answers), per_command=1) == 0
    lines = (folder / "transcript.txt").read_text().splitlines()
    assert [line.split()[0] for line in lines] == ["anna-01.wav", "anna-04.wav"]
    sentences = CommandSet.for_language("en").sentences
    assert all(" ".join(line.split()[1:]) in sentences for line in lines)
    out = capsys.readouterr().out
    assert "too short, not kept" in out and "kept 2" in out
    assert read_audio(folder / "anna-01.wav") == read_audio(folder / "anna-04.wav")
    # Later: the same prompts, those kept are not asked again.
    answers = iter(["q"])
    record(folder, "anna", take, lambda _prompt: next(answers), per_command=1)
    assert f"{len(set(n for n, _ in sentences.values())) - 2} commands for anna" in \
        capsys.readouterr().out


def test_a_speaker_name_that_is_no_file_name_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["adapt", "--recordings", str(tmp_path), "--record", "../anna"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--record: a name of letters" in err
