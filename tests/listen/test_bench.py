"""The listen benchmark: its split keeps tuning and held-back material apart, and its
quick run works end to end (a smoke test: no figure is checked against a target)."""

from __future__ import annotations

from narrator.voice.commands import COMMAND_IDS, CommandSet
from workshop.bench import listen
from workshop.bench.listen_data import (
    HELD_BACK_TALK,
    HELD_BACK_VOICES,
    TUNING_TALK,
    TUNING_VOICES,
    held_back_sentence,
)


def test_the_parts_share_no_voice_talk_or_seat_sentence(english: CommandSet) -> None:
    assert not set(TUNING_VOICES) & set(HELD_BACK_VOICES)
    assert not set(TUNING_TALK) & set(HELD_BACK_TALK)
    assert len(HELD_BACK_TALK) >= 40
    assert any(s.startswith(("flite:", "festival:")) for s in HELD_BACK_VOICES)
    tuning = listen.clips(english, False, 6, None)
    held = listen.clips(english, True, 6, None)
    seated = {c.spec.text for c in tuning if c.want and c.want[1] is not None}
    assert seated and not seated & {c.spec.text for c in held}
    assert {c.spec.voice for c in held} == set(HELD_BACK_VOICES)
    # Every command equally often, and the rooms all used.
    said = [c.want[0] for c in held if c.want and not c.spec.table]
    assert {said.count(name) for name in COMMAND_IDS} == {6}
    assert {(c.spec.reverb > 0, c.spec.babble > 0) for c in held if not c.spec.table} == {
        (False, False), (True, False), (False, True), (True, True)}


def test_quick_run_reports_every_figure() -> None:
    out = listen.run(True)
    for key in ("command_accuracy", "false_accepts", "command_latency_ms_p50",
                "command_latency_ms_p95", "recognizer_rtf", "listen_per_command",
                "listen_confusion"):
        assert key in out, key
    assert 0.0 <= float(out["command_accuracy"]) <= 1.0
    assert out["false_accepts"] == f"{int(float(out['false_accept_rate']) * 6)} of 6"
    assert out["listen_command_clips"] == len(COMMAND_IDS)
    # The wake-word setting is measured as a line of its own, on the same talk.
    assert out["wake_listen_command_clips"] == len(COMMAND_IDS)
    assert out["wake_false_accepts"] == f"{int(float(out['wake_false_accept_rate']) * 6)} of 6"


def test_the_wake_word_run_keeps_the_split(english: CommandSet) -> None:
    woken = CommandSet.for_language("en", "narrator")
    held = [c.spec.text for c in listen.clips(woken, True, 6, 0)]
    assert held and all(text.startswith("narrator ") for text in held)
    for text in held:
        plain = text.removeprefix("narrator ")
        assert english.sentences[plain][1] is None or held_back_sentence(plain), text
