"""The pocketsphinx back end for real, on espeak-ng voices (the bench measures it on a
larger sample; here a regression guard)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from narrator.voice.commands import Command, CommandSet
from narrator.voice.listen_clips import ClipSpec, concatenate, read_wav, speak_all, speech_end
from narrator.voice.pocketsphinx_settings import PocketsphinxSettings
from narrator.voice.recognizer import chunked, read_audio, recognize
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer
from tests.listen.conftest import OPENING, TALK, stream

SAID = [("next speaker", "next_speaker", None), ("i nominate player number seven", "nominate", 7),
        ("foul seat three", "foul", 3), ("pause", "pause", None),
        ("add thirty seconds", "add_time", None), ("nominate twelve", "nominate", 12),
        ("thank you", "next_speaker", None), ("start voting", "start_voting", None),
        ("foul sixteen", "foul", 16), ("resume", "resume", None)]


def heard(recognizer: PocketsphinxRecognizer, path: Path) -> list[tuple[str, int | None]]:
    return [(c.command, c.seat) for c in recognize(recognizer, chunked(read_audio(path)))]


def _heard_with_first_at(recognizer: PocketsphinxRecognizer, audio: bytes
                         ) -> tuple[list[Command], float | None]:
    """Everything heard in `audio` fed in chunks as from the microphone, and how many
    seconds of it had been fed when the first command came out."""
    fed, got, at = 0.0, [], None
    for chunk in chunked(audio):
        fed += len(chunk) / 32000
        out = recognizer.accept(chunk)
        if out and at is None:
            at = fed
        got += out
    got += recognizer.flush()
    return got, at


def test_commands_in_three_voices(clips: Path, sphinx: PocketsphinxRecognizer) -> None:
    # Commands 0.3 s apart (closer than a table gives them): most are heard, and what is
    # heard is nearly always what was said (a seat the two decoders disagree on is
    # dropped, to be said again, rather than guessed).
    right = wrong = total = 0
    for voice in ("en-us", "en-gb", "en-us+f3"):
        path = stream(clips, f"commands-{voice}", [s for s, _, _ in SAID], voice)
        got = heard(sphinx, path)
        want = [(c, s) for _, c, s in SAID]
        right += sum(1 for item in want if item in got)
        wrong += sum(1 for item in got if item not in want)
        total += len(want)
        assert len(got) <= len(want), f"{voice}: extra commands {got}"
    assert right / total >= 0.8, f"{right} of {total}, {wrong} wrong"
    assert wrong <= 1, f"{wrong} commands heard that were not said"


def test_table_talk_is_no_command(clips: Path, sphinx: PocketsphinxRecognizer) -> None:
    for voice in ("en-us", "en-gb+f2"):
        path = stream(clips, f"talk-{voice}", TALK, voice, gap=0.5)
        assert heard(sphinx, path) == []


def test_commands_in_a_stream_keep_their_time(clips: Path, english: CommandSet) -> None:
    specs = [ClipSpec(OPENING, "en-us"), ClipSpec("next speaker", "en-us"),
             ClipSpec("I think seat four was lying yesterday", "en-us"),
             ClipSpec("foul seat three", "en-us")]
    paths = speak_all(specs, clips)
    path = concatenate(paths, clips / "timed.wav", gap=0.5)
    got = list(recognize(PocketsphinxRecognizer(english), chunked(read_audio(path), 0.37)))
    assert [(c.command, c.seat) for c in got] == [("next_speaker", None), ("foul", 3)]
    starts, t = [], 0.0
    for p in paths:
        starts.append(t)
        t += len(read_audio(p)) / 32000 + 0.5
    # The command starts where its clip's speech starts (0.4 s of lead-in noise).
    assert abs(got[0].at - (starts[1] + 0.4)) < 0.3
    assert abs(got[1].at - (starts[3] + 0.4)) < 0.3


def test_muted_speech_is_skipped(clips: Path, english: CommandSet) -> None:
    audio = read_audio(stream(clips, "muted", ["start voting", "resume"], "en-us"))
    recognizer = PocketsphinxRecognizer(english)
    chunks = list(chunked(audio, 0.1))
    # Hear everything but the last two seconds, where "resume" is.
    cut = len(chunks) - 20
    out = [c for chunk in chunks[:cut] for c in recognizer.accept(chunk)]
    for chunk in chunks[cut:]:
        recognizer.skip(chunk)
    out += recognizer.flush()
    assert [c.command for c in out] == ["start_voting"]


def test_a_command_ends_while_quieter_talk_runs_on(clips: Path, english: CommandSet) -> None:
    # Other talk, further from the microphone, starts as the command ends and goes on:
    # voice activity never ends, but the grammar's running hypothesis is a whole command
    # followed by quieter sound, so the command comes out before the talk is over.
    command, talk = speak_all([ClipSpec("start voting", "en-us", tail=0.1),
                               ClipSpec(TALK[0] + " " + TALK[2], "en-gb+f2", lead=0.0)],
                              clips)
    said = read_wav(command)
    under = (read_wav(talk).astype(np.float64) * 0.2).astype(np.int16)
    audio = np.concatenate([said, under]).tobytes()
    recognizer = PocketsphinxRecognizer(english, PocketsphinxSettings(early_end=0.2))
    got, at = _heard_with_first_at(recognizer, audio)
    assert [(c.command, c.seat) for c in got] == [("start_voting", None)]
    assert at is not None and at < len(said) / 16000 + 0.6, (at, len(audio) / 32000)


def test_a_command_is_decoded_ahead_and_ends_before_quieter_talk(clips: Path,
                                                                english: CommandSet) -> None:
    # The default recogniser: once the command's loud stretch is over it is decoded while
    # the endpointer still hears speech (the quieter talk), and both decoders hear it word
    # for word, so it comes out before the talk is over; the talk is no command.
    command, talk = speak_all([ClipSpec("next speaker", "en-us", tail=0.1),
                               ClipSpec(TALK[1] + " " + TALK[3], "en-gb+f2", lead=0.0)],
                              clips)
    said = read_wav(command)
    under = (read_wav(talk).astype(np.float64) * 0.2).astype(np.int16)
    audio = np.concatenate([said, under]).tobytes()
    recognizer = PocketsphinxRecognizer(english)
    got, at = _heard_with_first_at(recognizer, audio)
    assert [(c.command, c.seat) for c in got] == [("next_speaker", None)]
    assert at is not None and at < len(said) / 16000 + 0.5, (at, len(audio) / 32000)


def test_a_decode_ahead_is_not_done_again_at_the_end(clips: Path, english: CommandSet) -> None:
    # Dry: the endpointer ends the utterance a silence window after the speech; by then the
    # utterance was decoded ahead, and that decode is the one used.
    [path] = speak_all([ClipSpec("start voting", "en-us")], clips)
    recognizer = PocketsphinxRecognizer(english, PocketsphinxSettings(ahead_end=False))
    assert heard(recognizer, path) == [("start_voting", None)]
    assert recognizer.ahead_used == 1


def test_a_decode_ahead_is_done_before_it_is_judged(clips: Path, english: CommandSet) -> None:
    # In the microphone's chunks the utterance is decoded as soon as the pad after its loud
    # stretch has come and judged 0.05 s of audio later: the chunk the command comes out
    # in runs no decode (its CPU was spent while that audio came), and the command is out
    # within 0.3 s of audio after the voice's last sound.
    spec = ClipSpec("start voting", "en-us")
    [path] = speak_all([spec], clips)
    recognizer = PocketsphinxRecognizer(english)
    fed, got, decodes_then, at = 0.0, [], -1, None
    for chunk in chunked(read_audio(path)):
        fed += len(chunk) / 32000
        before = recognizer.decodes
        out = recognizer.accept(chunk)
        if out and at is None:
            at, decodes_then = fed, recognizer.decodes - before
        got += out
    got += recognizer.flush()
    assert [(c.command, c.seat) for c in got] == [("start_voting", None)]
    assert at is not None and decodes_then == 0, (at, decodes_then)
    # The free decoder's and the grammar's, and at most one the rest of the command made
    # void (a pause between "start" and "voting" is as long as the pad).
    assert 2 <= recognizer.decodes <= 3
    assert at - speech_end(spec) < 0.3, (at, speech_end(spec))
