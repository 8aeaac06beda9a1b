"""The second look at an utterance in babble (FOREGROUND_DB): the free decoder's words in
the quieter talk around a command do not count against it; talk that goes on as loud
after a command's words still does."""

from __future__ import annotations

from pathlib import Path

from narrator.bench.listen_data import TUNING_TALK, TUNING_VOICES
from narrator.voice.commands import CommandSet
from narrator.voice.listen_clips import ClipSpec, make_babble, read_wav, speak_all
from narrator.voice.recognizer import CHUNK_SECONDS, chunked
from narrator.voice.recognizer_pocketsphinx import FOREGROUND_TUNED, PocketsphinxRecognizer


def _heard(recognizer: PocketsphinxRecognizer, path: Path) -> list[tuple[str, int | None]]:
    samples = read_wav(path).tobytes()
    out = []
    for chunk in chunked(samples, CHUNK_SECONDS):
        out += recognizer.accept(chunk)
    out += recognizer.flush()
    return [(c.command, c.seat) for c in out]


def test_a_nomination_in_babble_is_judged_on_its_loud_words(clips: Path,
                                                            english: CommandSet) -> None:
    # The listen benchmark's babble (other talk 10 dB under the command, all through the
    # clip): the free decoder hears "i nominate player one" and then words in the babble.
    babble = make_babble(TUNING_TALK[:12], TUNING_VOICES[:3], clips / "babble")
    spec = ClipSpec("i nominate player one", "en-gb+f2", speed=160, babble=0.3)
    [path] = speak_all([spec], clips, babble=babble)
    recognizer = PocketsphinxRecognizer(english)
    recognizer.foreground_db = FOREGROUND_TUNED
    assert _heard(recognizer, path) == [("nominate", 1)], recognizer.heard
    forced, free, _ = recognizer.heard[-1]
    assert len(free.split()) > len(forced.split())  # the babble's words were heard
    without = PocketsphinxRecognizer(english)
    without.foreground_db = None
    assert _heard(without, path) == [], without.heard


def test_talk_as_loud_after_a_command_word_is_still_talk(clips: Path,
                                                         english: CommandSet) -> None:
    # Nothing quieter to drop: the whole free transcript counts, as before.
    [path] = speak_all([ClipSpec("that foul was unfair", "en-us")], clips)
    recognizer = PocketsphinxRecognizer(english)
    recognizer.foreground_db = FOREGROUND_TUNED
    assert _heard(recognizer, path) == [], recognizer.heard
