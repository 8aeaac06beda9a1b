""""Next speaker" pressed while the box is still announcing a speech does not skip it (found
by a stranger: "Player number six, your last word." then at once "Night falls.").

Whole games on a virtual clock in every rule set, with simulated players at pads and an
impatient host: the moment the box begins announcing any speech-like window (the day's
first speaker, every speech, last words, tie speeches, accusers' speeches), the host's
"next speaker" arrives from the page, the keypad, the voice, or the speaker's own long
press on the pad. Each is refused, and each speech is then given: its timer starts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from narrator.engine.actions import Action, EndSpeech, Hold
from narrator.engine.deal import deal
from narrator.engine.effects import Effect
from narrator.engine.registry import REGISTRY
from narrator.rules.loader import load_bundled
from tests.web.harness import Table, seat_players

SOURCES = ("page", "keypad", "voice", "pads")


class Impatient:
    """Presses "next speaker" as each speech-like window is announced, from each source in
    turn; notes the windows whose timer then started."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.box = table.box
        self.pressed: dict[int, str] = {}  # window -> the task's kind
        self.refused: list[tuple[str, str]] = []
        self.begun: set[int] = set()
        self.box.listeners.append(self.heard)
        self.box.on_refused = lambda action, source: self.refused.append((action.kind, source))
        self.box.performer.on_change.append(self.watch)

    def heard(self, _action: Action | None, _effects: list[Effect]) -> None:
        st = self.box.game.state
        task, window = st.current, st.window
        if st.phase != "day" or task is None or not window or window in self.pressed:
            return
        if "end_speech" not in REGISTRY.tasks[type(task)].accepts:
            return
        assert not self.box.performer.timers.is_open(window)  # still being announced
        source = SOURCES[len(self.pressed) % len(SOURCES)]
        self.pressed[window] = type(task).__name__
        press: Action = Hold(st.speaker) if source == "pads" else EndSpeech()
        self.box.submit(press, source)  # type: ignore[arg-type]

    def watch(self) -> None:
        self.begun.update(w for w in self.box.performer.timers.open_windows() if w in self.pressed)


# boxed has no speech "next speaker" ends: its day is a timed discussion ("to the vote"
# ends it) and its dead say no last word.
@pytest.mark.parametrize("rules", ["sport", "club", "classic"])
def test_next_speaker_during_the_announcement_skips_no_speech(tmp_path: Path, rules: str) -> None:
    async def main() -> tuple[dict[int, str], list[tuple[str, str]], set[int]]:
        table = Table(tmp_path, rules=rules, roles=deal(load_bundled(rules), 10, 4), seed=4)
        host = Impatient(table)
        seat_players(table, seed=4)
        try:
            await table.until(lambda: table.box.game.over, limit=200_000)
        finally:
            await table.box.stop()
        return host.pressed, host.refused, host.begun

    pressed, refused, begun = asyncio.run(main())
    assert pressed, "no speech was announced"
    # Every early press was refused, whatever it came from, and every speech was given.
    assert len(refused) == len(pressed), (refused, pressed)
    assert {source for _kind, source in refused} == set(SOURCES[:len(pressed)])
    skipped = {w: kind for w, kind in pressed.items() if w not in begun}
    assert not skipped, f"speeches skipped by an early press: {skipped}"
    expected = {"sport": {"Speech", "LastWord", "TieSpeech"}, "club": {"Speech", "LastWord"},
                "classic": {"AccuserSpeech", "TieSpeech"}}[rules]
    assert set(pressed.values()) >= expected, pressed
