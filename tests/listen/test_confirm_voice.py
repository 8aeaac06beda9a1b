"""Confirmations and rejections end to end: real WAVs (espeak-ng) streamed in 0.1 s chunks
through the real pocketsphinx recognizer into the confirmer, the clock advancing with
the audio, as the daemon's listener runs them."""

from __future__ import annotations

from pathlib import Path

from narrator.clock import FakeClock
from narrator.voice.command_confirm import Act, Answer, Ask, Confirmer, Decision, Drop
from narrator.voice.listen_clips import ClipSpec, concatenate, speak_all
from narrator.voice.recognizer import chunked, read_audio, seconds_of
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer


def play(recognizer: PocketsphinxRecognizer, path: Path) -> list[Decision]:
    clock = FakeClock()
    confirmer = Confirmer(clock, seconds=5.0)
    out: list[Decision] = []
    for chunk in chunked(read_audio(path)):
        clock.advance(seconds_of(chunk))
        out += confirmer.tick()
        for command in recognizer.accept(chunk):
            out += confirmer.hear(command)
    for command in recognizer.flush():
        out += confirmer.hear(command)
    clock.advance(10.0)
    return out + confirmer.tick()


def recording(clips: Path, name: str, texts: list[str], gap: float, voice: str) -> Path:
    return concatenate(speak_all([ClipSpec(t, voice) for t in texts], clips),
                       clips / f"{name}.wav", gap=gap)


def summary(decisions: list[Decision]) -> list[tuple[str, str, int | None]]:
    names = {Act: "act", Ask: "ask", Drop: "drop", Answer: "answer"}
    return [(names[type(d)], d.command.command, d.command.seat) for d in decisions]


def test_a_foul_acts_only_after_yes(clips: Path, sphinx: PocketsphinxRecognizer) -> None:
    path = recording(clips, "foul-yes", ["foul seat three", "yes"], 1.0, "en-gb")
    assert summary(play(sphinx, path)) == [("ask", "foul", 3), ("act", "foul", 3)]


def test_no_or_silence_drops_a_nomination(clips: Path, sphinx: PocketsphinxRecognizer) -> None:
    said_no = recording(clips, "nominate-no", ["i nominate player nine", "no"], 1.0, "en-us")
    assert summary(play(sphinx, said_no)) == [("ask", "nominate", 9), ("drop", "nominate", 9)]
    # Talk after the command is no "yes": the deadline passes and nothing is done.
    talk = recording(clips, "undo-talk", ["cancel that", "who wants coffee before we start"], 1.0,
                     "en-us")
    assert summary(play(sphinx, talk)) == [("ask", "undo", None), ("drop", "undo", None)]


def test_a_late_yes_does_not_act(clips: Path, sphinx: PocketsphinxRecognizer) -> None:
    path = recording(clips, "late-yes", ["disqualify player five", "yes"], 6.0, "en-us")
    assert summary(play(sphinx, path)) == [("ask", "remove", 5), ("drop", "remove", 5),
                                           ("answer", "yes", None)]


def test_timer_commands_act_at_once(clips: Path, sphinx: PocketsphinxRecognizer) -> None:
    path = recording(clips, "at-once", ["next speaker", "add thirty seconds", "pause"], 1.0,
                     "en-gb")
    assert summary(play(sphinx, path)) == [("act", "next_speaker", None),
                                           ("act", "add_time", None), ("act", "pause", None)]
