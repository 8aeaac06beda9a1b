"""The grammar's decode is skipped at an utterance's end only when its transcript could
not change what decide() makes of the utterance: the same commands come out, for less CPU."""

from __future__ import annotations

import random
from pathlib import Path

from narrator.voice.commands import Command, CommandSet
from narrator.voice.listen_clips import ClipSpec, speak_all
from narrator.voice.phone_distance import PhoneSequences
from narrator.voice.pocketsphinx_decoder import decide, similarity
from narrator.voice.pocketsphinx_settings import PocketsphinxSettings
from narrator.voice.recognizer import chunked, read_audio, recognize
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer
from tests.listen.conftest import TALK, stream


def test_phone_sequences_match_similarity_to_the_last_bit() -> None:
    rng = random.Random(3)
    phones = ["AA", "AE", "AH", "B", "D", "EH", "F", "IH", "K", "L", "M", "N", "P", "S", "T",
              "UW", "V", "Z"]
    candidates = [[rng.choice(phones) for _ in range(rng.randint(0, 12))] for _ in range(40)]
    sequences = PhoneSequences(candidates)
    for _ in range(60):
        other = [rng.choice([*phones, "XX"]) for _ in range(rng.randint(0, 20))]
        assert sequences.similarities(other) == [similarity(c, other) for c in candidates]


def test_skipping_the_grammar_gives_the_same_commands(clips: Path, english: CommandSet) -> None:
    # Talk between commands: the talk's ends are where the grammar is not needed.
    said = ["foul seat three", TALK[2], "pause", TALK[4]]
    path = stream(clips, "grammar-skip", said, "en-gb", gap=0.8)
    audio = read_audio(path)
    runs = []
    for skip in (False, True):
        recognizer = PocketsphinxRecognizer(english, PocketsphinxSettings(skip_needless_grammar=skip))
        got = [(c.command, c.seat, round(c.at, 3)) for c in recognize(recognizer, chunked(audio))]
        runs.append((got, recognizer))
    (full, every), (skipped, some) = runs
    assert skipped == full
    assert ("foul", 3) in [(c, s) for c, s, _ in full]
    assert every.grammar_skipped == 0 and some.grammar_skipped >= 2
    assert some.decodes == every.decodes - some.grammar_skipped
    # Where the grammar was skipped, what it said (heard in the run that asked it) made
    # no difference to decide().
    skipped_at = [i for i, (forced, _, _) in enumerate(some.heard) if forced == ""]
    assert len(skipped_at) >= 2
    for i in skipped_at:
        forced, free, score = every.heard[i]
        assert some.heard[i][1] == free
        with_grammar = decide(english, forced, free, score, every.thresholds)
        assert with_grammar == decide(english, "", free, 0.0, every.thresholds)


def test_a_long_speech_is_not_decoded_ahead_again_and_again(clips: Path,
                                                            english: CommandSet) -> None:
    # Talk with short pauses (under the endpointer's window: one long utterance): no decode
    # ahead of more than AHEAD_LONGEST seconds, where every pause used to decode all of it
    # again from its start.
    [path] = speak_all([ClipSpec(", ".join(TALK[:4]), "en-us")], clips)
    recognizer = PocketsphinxRecognizer(english)
    longest = recognizer.settings.ahead_longest
    assert longest is not None
    lengths: list[float] = []
    ahead = recognizer._decode_ahead
    transcript = recognizer.decoders.transcript
    in_ahead = [False]

    def decode_ahead() -> Command | None:
        in_ahead[0] = True
        try:
            return ahead()
        finally:
            in_ahead[0] = False

    def timed(decoder: object, speech: bytes) -> str:
        if in_ahead[0]:
            lengths.append(len(speech) / 32000)
        return transcript(decoder, speech)

    recognizer._decode_ahead = decode_ahead  # type: ignore[method-assign]
    recognizer.decoders.transcript = timed  # type: ignore[method-assign]
    assert not list(recognize(recognizer, chunked(read_audio(path))))
    assert max(lengths) <= longest, lengths
