"""Where a check's answer can be shown: a game whose rule set has private checks needs an
answer display (DESIGN.md invariant 3: the answer LEDs or the keypad's screen, never the
voice). A box with neither (a USB keypad and no seat panel, say) refuses such a set-up
before it starts, in one line naming the settings that give it one, rather than play a
game whose sheriff never learns anything."""

from __future__ import annotations

from collections.abc import Sequence

from narrator.errors import InputFileError
from narrator.evening.setup import GameSetup, Problem

CODE = "answer_display"


def answer_place(screen: bool, seen_panel: bool) -> str:
    """Where a check's answer shows on a box (phrases.book.ANSWER_PLACES), which the
    checkers' cues name: the keypad's screen when the box has one (`screen`) and no seat
    panel whose answer LEDs anyone sees (`seen_panel`: real pins, not mock ones), else the
    answer light. The hardware decides: the same for every game and every role."""
    return "screen" if screen and not seen_panel else "light"


def checking_roles(setup: GameSetup) -> list[str]:
    """The roles of this game's deck whose checks are shown privately ([] when the rule
    set's answers are public or it has no checks)."""
    from narrator.rules.settings import SettingError

    try:
        rules = setup.configured_rules().rules  # as resolved when the set-up was accepted
        deck = rules.deck_for(setup.seats)
    except (InputFileError, SettingError, ValueError, KeyError):
        return []  # the set-up's own check says what is wrong with it
    if rules.answers_public:
        return []
    roles: list[str] = []
    for step in (*rules.night_zero, *rules.night):
        # `answer`: a check's window (check); `show`: an ask's (narrator.engine.inquiry).
        if step.answer > 0 or step.args.get("show"):
            roles += [r for r in step.roles if deck.get(r) and r not in roles]
    return roles


def answer_display_problem(setup: GameSetup, where: str) -> Problem | None:
    """Why a box without an answer display can't play `setup` (`where`: what the box has,
    named by its settings), or None when it can. A judge's table needs none: the answers
    show on the judge's page (narrator.web.judge), and the judge shows them to the checker."""
    if setup.judge:
        return None
    roles = checking_roles(setup)
    if not roles:
        return None
    return Problem("rules", CODE,
                   f"{setup.rules}: the checks of {', '.join(roles)} are shown on answer LEDs or "
                   f"a keypad's screen, and this box has neither ({where}): give the pin map "
                   f"an 'answer:' pair of LEDs, use 'keypad: terminal' on a terminal, or set "
                   f"answers_public")


def without_display(keypads: Sequence[str], mock: bool = False) -> str:
    """What a box with no answer display has, in the words of its settings (`keypads`:
    the words naming each of its keypads, narrator.keypad_kinds; `mock`: its seat panel is
    on mock pins, whose answer LEDs nobody sees)."""
    panel = "mock pins (answer LEDs nobody sees)" if mock else "no seat panel"
    return "; ".join([panel, *dict.fromkeys(keypads)] if keypads else [panel, "keypad: none"])
