"""`legal()` is the truth: random games that check the engine's legal-action query.

A game is played by a seeded random host and table that mostly let time run, and mix in
what a real table does wrong or corrects: fouls, removals, undo, pause, taps and votes
at the wrong moment, nonsense. At every step:
- a sample of the actions `Game.legal()` offers is tried on a copy: each must be accepted;
- a sample of other actions is tried on a copy: each one the engine refuses must not be
  among the offered ones;
- the action played must never make the engine fail with anything but a RuleError.

The property tests (tests/engine/test_legal.py) run it on Hypothesis's seeds and
`narrator bench --only legal` on 10,000 seeded games per rule set. A broken promise
raises `LegalityError` naming the rule set, seed and step, so it can be replayed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from narrator.engine.actions import (
    Action,
    AddTime,
    BestMove,
    Choose,
    EndSpeech,
    Entry,
    Forfeit,
    Foul,
    Hold,
    Nominate,
    Pause,
    Remove,
    Repeat,
    Resume,
    Second,
    StartVoting,
    Tap,
    Undo,
    Verdict,
    Vote,
    WindowClosed,
    Withdraw,
)
from narrator.engine.deal import deal
from narrator.engine.game import Game
from narrator.engine.ruleset import RuleSet
from narrator.engine.tasks import NightInput
from narrator.errors import RuleError

MAX_ACTIONS = 20_000


class LegalityError(AssertionError):
    """`legal()` and the engine disagree (or the engine failed)."""


@dataclass(frozen=True, slots=True)
class Played:
    actions: int  # actions applied, refused ones not counted
    tried: int  # actions tried on copies
    outcome: str  # the winner, as the game ended


def play_checked(rules: RuleSet, seed: int, samples: int = 2) -> Played:
    """Play one random game of `rules` from `seed`, checking legal() at every step."""
    rnd = random.Random(seed)
    seats = rnd.choice(sorted(rules.deck))
    cards = deal(rules, seats, seed)
    known = rnd.random() < 0.7  # else the box learns the roles from taps at night zero
    game = Game(rules, seats, seed, cards if known else None)
    # How often this table corrects and errs: some games are calm, some are rough.
    rough = rnd.choice((0.02, 0.1, 0.3))
    applied = tried = 0
    for step in range(MAX_ACTIONS):
        if game.over:
            outcome = game.state.outcome
            return Played(applied, tried, outcome.winner or "" if outcome else "")
        where = f"{rules.name} seed {seed} step {step} ({game.state.phase_label()})"
        offered = game.legal()
        if not offered:
            raise LegalityError(f"{where}: nothing is legal in a running game")
        for action in rnd.sample(offered, min(samples, len(offered))):
            tried += 1
            problem = _refusal(game, action, where)
            if problem is not None:
                raise LegalityError(f"{where}: legal() offers {action}, the engine refuses it: "
                                    f"{problem}")
        for action in _others(game, rnd, samples):
            tried += 1
            problem = _refusal(game, action, where)
            if problem is not None and action in offered:
                raise LegalityError(f"{where}: legal() offers {action}, the engine refuses it: "
                                    f"{problem}")
        action = _choose(game, rnd, offered, cards, known, rough)
        try:
            game.apply(action)
            applied += 1
        except RuleError as exc:
            if action in offered:
                raise LegalityError(f"{where}: legal() offers {action}, the engine refuses it: "
                                    f"{exc}") from None
        except Exception as exc:
            raise LegalityError(f"{where}: {action} makes the engine fail: {exc!r}") from exc
    raise LegalityError(f"{rules.name} seed {seed}: the game did not end in {MAX_ACTIONS} actions")


def _refusal(game: Game, action: Action, where: str) -> str | None:
    """Why the engine refuses `action` now (None: accepted), tried on a copy."""
    if isinstance(action, Undo):
        return None if game.history else "nothing to undo"
    try:
        game.engine.apply(game.state.clone(), action)
    except RuleError as exc:
        return str(exc)
    except Exception as exc:
        raise LegalityError(f"{where}: {action} makes the engine fail: {exc!r}") from exc
    return None


def _choose(game: Game, rnd: random.Random, offered: list[Action], cards: list[str],
            known: bool, rough: float) -> Action:
    st = game.state
    task = st.current
    if not known and st.number == 0 and isinstance(task, NightInput) and rnd.random() < 0.9:
        # Night zero without a deal: the holders show themselves, one tap each.
        roles = game.engine.rules.step_index[task.step].roles
        for seat in range(1, st.seats + 1):
            if cards[seat - 1] in roles and seat not in st.tapped:
                return Tap(seat)
        return offered[0]
    r = rnd.random()
    if r < rough / 3:
        return rnd.choice(_others(game, rnd, 1) or offered)
    if r < rough:
        corrections = [a for a in offered if isinstance(a, Foul | Remove | Undo | Pause | Resume)]
        if corrections:
            pick = rnd.choice(corrections)
            if not isinstance(pick, Remove) or rnd.random() < 0.3:
                return pick
    if r < 0.5 or len(offered) == 1:
        return offered[0]  # let time run: WindowClosed is always first
    # A forfeit ends the game at once: offered and tried on a copy, never played.
    plain = [a for a in offered if not isinstance(a, Foul | Remove | Undo | Pause | Resume | Forfeit)]
    return rnd.choice(plain or offered)


def _others(game: Game, rnd: random.Random, n: int) -> list[Action]:
    """`n` actions of any kind with plausible and implausible seats."""
    st = game.state
    seats = st.seats

    def seat() -> int:
        return rnd.randint(0, seats + 1) if rnd.random() < 0.1 else rnd.randint(1, seats)

    makers = (
        lambda: Tap(seat()), lambda: Vote(seat()), lambda: Nominate(seat()),
        lambda: Nominate(seat(), by=seat()), lambda: Second(seat()), lambda: Hold(seat()),
        lambda: Choose(seat(), seat()), lambda: Choose(None, seat()), lambda: Entry(seat()),
        lambda: EndSpeech(), lambda: Withdraw(), lambda: StartVoting(),
        lambda: BestMove(tuple(rnd.sample(range(1, seats + 1), 3))),
        lambda: Verdict(seat(), seat()), lambda: AddTime(30), lambda: Repeat(),
        lambda: Pause(), lambda: Resume(), lambda: Foul(seat()), lambda: Remove(seat()),
        lambda: WindowClosed(st.window + rnd.choice((-1, 0, 1))),
    )
    return [rnd.choice(makers)() for _ in range(n)]
