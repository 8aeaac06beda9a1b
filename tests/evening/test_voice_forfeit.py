"""Sport's forfeit by voice ("severe breach by player seven" / "поражение команды игрока
семь"): repeated back, and acted on only after "yes", like every command that changes the
game."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.engine.actions import Forfeit
from narrator.evening import GameSetup
from narrator.voice.command_confirm import Act, Ask, Confirmer
from narrator.voice.commands import Command, CommandSet, to_action
from narrator.voice.listener import VoiceListener
from narrator.voice.recognizer import FakeRecognizer
from tests.box.test_service import make_service


def test_forfeit_is_a_command_in_both_languages_that_waits_for_yes() -> None:
    for lang, said in (("en", "severe breach by player seven"),
                       ("ru", "поражение команды игрока семь")):
        commands = CommandSet.for_language(lang)
        heard = commands.parse(said)
        assert heard is not None and heard.command == "forfeit" and heard.seat == 7
        confirmer = Confirmer(FakeClock())
        assert [type(d) for d in confirmer.hear(heard)] == [Ask]
        yes = commands.parse("yes" if lang == "en" else "да")
        assert yes is not None
        act = confirmer.hear(yes)
        assert isinstance(act[0], Act) and to_action(act[0].command) == Forfeit(7)


class SilentMicrophone:
    def chunks(self, stop: object = None) -> Iterator[bytes]:
        return iter(())


@pytest.mark.parametrize("rules", ["sport", "club"])
def test_a_voice_forfeit_is_asked_back_then_ends_the_game(tmp_path: Path, rules: str) -> None:
    """Sport: asked, then done on "yes". Club (no forfeit): "not now" at once, not asked."""
    clock = FakeClock()
    service, _panel, speaker = make_service(tmp_path, clock, FakeKeypad())
    service.evening.setup = GameSetup(rules=rules)
    listener = VoiceListener(FakeRecognizer([]), SilentMicrophone(), clock)  # type: ignore[arg-type]
    listener.on_decision = service._voice_decision
    service.ports.voice = listener

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while service.box is None or service.box.game.state.phase != "day" \
                or not service.box.performer.idle:
            assert await clock.step()
        box = service.box
        seat = box.game.state.living()[0]
        listener.heard(Command("forfeit", seat=seat, text="forfeit"))
        ask = service.book.render("confirm_forfeit", {"seat": seat})
        if rules == "club":
            for _ in range(200):
                if speaker.said[-1][1] == service.book.render("not_now"):
                    break
                assert await clock.step()
            assert listener.confirmer.pending is None
            assert ask not in [text for _at, text in speaker.said]
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return
        while speaker.said[-1][1] != ask:
            assert await clock.step()
        assert not box.game.over  # asked, not done
        listener.heard(Command("yes", text="yes"))
        for _ in range(2000):
            if box.game.over:
                break
            assert await clock.step()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        outcome = box.game.state.outcome
        assert outcome is not None and outcome.reason == "forfeit"
        said = [text for _at, text in speaker.said]
        assert said.index(ask) < len(said)

    asyncio.run(main())
