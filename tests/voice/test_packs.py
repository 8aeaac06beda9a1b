"""Voice packs: made here from synthetic clips (a tone per item), played for the texts
they cover, whole or composed, with the TTS voice for the rest; checked for bad files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from narrator.cli import main
from narrator.phrases.book import PhraseBook
from narrator.voice.cache import WavCache
from narrator.voice.loudness import TARGET_LUFS, loudness
from narrator.voice.packs import GAP_SECONDS, Item, Pack, PackSpeech, check, items, trim, words
from narrator.voice.speech import speech_cache
from narrator.voice.tts import Pyttsx3Renderer
from narrator.voice.voice_config import VoiceSettings
from narrator.voice.wav import Clip, read_wav, write_wav

ROOT = Path(__file__).resolve().parents[2]
RATE = 16000
RECORDED = ["Наступает ночь. Все закрывают глаза.", "Игрок номер", "ваша минута", "семь", "три",
            "голоса"]


def _id(text: str) -> str:
    return next(i.id for i in items(PhraseBook.load("ru")) if words(i.text) == words(text))


def _take(i: int, seconds: float = 0.4) -> Clip:
    """A synthetic take: silence, a tone (its pitch names the item), silence."""
    t = np.arange(int(seconds * RATE)) / RATE
    tone = 0.3 * np.sin(2 * np.pi * (300 + 50 * i) * t)
    quiet = np.zeros(int(0.5 * RATE))
    return Clip(np.concatenate([quiet, tone, quiet]).astype(np.float32), RATE)


@pytest.fixture
def pack(tmp_path: Path) -> Pack:
    made = Pack.new(tmp_path / "pack", "ru", RATE, "test club")
    for n, text in enumerate(RECORDED):
        made.add(Item(_id(text), text), _take(n))
    made.save()
    return Pack.load(tmp_path / "pack")


def test_the_items_cover_cues_parts_numbers_words_and_roles() -> None:
    found = {i.id: i.text for i in items(PhraseBook.load("ru"))}
    assert found["night_falls"] == "Наступает ночь. Все закрывают глаза."
    assert found["speaker.1"] == "ваша минута" and "speaker.0" not in found  # recorded once:
    assert sum(words(t) == ("игрок", "номер") for t in found.values()) == 1  # "Игрок номер"
    assert found["number.7"] == "семь" and found["number.f.1"] == "одна"
    assert found["word.голосов"] == "голосов" and found["word.минуты"] == "минуты"
    assert found["role.sheriff"] == "Шериф" and found["ordinal.3"] == "третий"


def test_a_take_is_trimmed_and_normalised(pack: Pack) -> None:
    stored = pack.clip(_id("семь"))
    assert stored.rate == RATE
    assert stored.seconds == pytest.approx(0.4 + 2 * 0.05, abs=0.03)
    assert loudness(stored) == pytest.approx(TARGET_LUFS, abs=0.2)
    assert trim(Clip(np.zeros(RATE, np.float32), RATE)).frames == 0


def test_the_pack_plays_its_clips_and_tts_the_rest(pack: Pack, tmp_path: Path) -> None:
    speech = speech_cache(VoiceSettings(language="ru", voice=f"pack:{pack.folder}",
                                        cache_dir=tmp_path / "cache"))
    assert isinstance(speech, PackSpeech)
    whole = speech.clip("Наступает ночь. Все закрывают глаза.")
    assert np.array_equal(whole.samples, pack.clip(_id(RECORDED[0])).samples)
    composed = speech.clip("Игрок номер семь, ваша минута.")
    parts = [pack.clip(_id(t)) for t in ("Игрок номер", "семь", "ваша минута")]
    gap = int(GAP_SECONDS * RATE)
    assert composed.frames == sum(p.frames for p in parts) + 2 * gap
    assert np.array_equal(composed.samples[: parts[0].frames], parts[0].samples)
    votes = PhraseBook.load("ru").render("vote_count", {"seat": 3, "votes": 7})
    assert votes == "Игрок номер три: семь голосов."  # "голосов" is not recorded
    assert speech.pieces(votes) is None
    said_by_tts = speech.clip(votes)
    assert said_by_tts.rate == 22050 and said_by_tts.frames > 0  # espeak-ng (the suite's TTS)
    assert speech.pieces("Игрок номер три: семь голоса.") == [
        _id(t) for t in ("Игрок номер", "три", "семь", "голоса")]
    assert (speech.composed, speech.spoken_by_tts) == (2, 1)
    assert speech.prepare([votes, "Игрок номер семь, ваша минута."]) == 0  # on disk already
    speech.close()


def test_a_damaged_clip_falls_back_to_tts_once(pack: Pack, tmp_path: Path) -> None:
    pack.path(_id("семь")).write_bytes(b"RIFF....WAVE")
    tts = WavCache(tmp_path / "cache", Pyttsx3Renderer("zle/ru", 160), "ru")
    speech = PackSpeech(pack, tts)
    text = "Игрок номер семь, ваша минута."
    assert speech.clip(text).rate == 22050
    assert speech.pieces(text) is None  # the bad item is not tried again
    assert speech.clip("Наступает ночь. Все закрывают глаза.").rate == RATE


def test_check_names_bad_files_and_lists_what_is_missing(pack: Pack,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["voice-pack", "check", str(pack.folder)]) == 0
    out = capsys.readouterr().out
    assert f"{pack.folder}: {len(RECORDED)} clips" in out and ": Мафия засыпает." in out
    write_wav(pack.path("number.3"), Clip(np.zeros(RATE, np.float32), RATE))
    write_wav(pack.path("speaker.1"), _take(1).at_rate(22050))
    pack.path("word.голоса").write_bytes(b"not a wav")
    problems, missing = check(pack, PhraseBook.load("ru"))
    assert sorted(problems) == sorted([
        f"{pack.path('number.3')}: silent",
        f"{pack.path('speaker.1')}: sample rate 22050 Hz, the pack's is 16000 Hz",
        f"{pack.path('word.голоса')}: not a 16-bit WAV: file does not start with RIFF id"])
    assert "Мафия засыпает." in {i.text for i in missing}
    assert main(["voice-pack", "check", str(pack.folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3


def test_a_wrong_manifest_is_one_line_and_exit_2(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "manifest.yaml").write_text("format: 1\nlang: de\nrate: 16000\n", encoding="utf-8")
    assert main(["say", "x", "--lang", "ru", "--voice", f"pack:{folder}",
                 "--out", str(tmp_path / "x.wav")]) == 2
    assert capsys.readouterr().err.strip() == (
        f"narrator: --voice: voice 'pack:{folder}': "
        f"{folder}/manifest.yaml: lang: expected one of en, ru, got 'de'")


def test_say_with_a_pack_writes_the_composed_clip(pack: Pack, tmp_path: Path) -> None:
    out = tmp_path / "x.wav"
    done = subprocess.run([sys.executable, "-m", "narrator", "say", "--cue", "speaker",
                           "--param", "seat=7", "--lang", "ru", "--voice", f"pack:{pack.folder}",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    clip = read_wav(out)
    assert clip.rate == RATE
    parts = [pack.clip(_id(t)).frames for t in ("Игрок номер", "семь", "ваша минута")]
    assert clip.frames == sum(parts) + 2 * int(GAP_SECONDS * RATE)


def test_words_ignore_case_punctuation_and_yo() -> None:
    assert words("Ещё раз, пожалуйста!") == words("еще раз пожалуйста")
    assert words("Ито́го") == ("итого",)



def test_record_prompts_keeps_takes_and_saves_after_each(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.cli.voice_pack import record

    book = PhraseBook.load("ru")
    pack = Pack.new(tmp_path / "new", "ru", RATE)
    answers = iter(["", "s", "", "", "q"])
    takes = iter([_take(0), _take(1), Clip(np.zeros(RATE, np.float32), RATE)])
    assert record(pack, book, lambda: next(takes), lambda _prompt: next(answers),
                  only="number.") == 0
    out = capsys.readouterr().out
    assert "[1/" in out and "number.0" in out and "the recording is silent: not kept" in out
    saved = Pack.load(tmp_path / "new")
    assert sorted(saved.texts) == ["number.0", "number.2"]  # number.1 skipped, number.3 silent
    assert saved.clip("number.2").rate == RATE
