"""What the organiser's page may know about a game: the public view, built field by field.

The view is a whitelist. Nothing is copied from the state wholesale, so a field the
engine adds tomorrow (a night choice, a learned role) stays off the page until someone
decides here that it is public. Before the game is over it holds:
- the phase and its number, paused or not, the cue the box is saying (heard by all);
- per seat: the name, alive or out, fouls, nominated today;
- in the day only: the speaker, the moment (speech, ballot...), the timer, today's
  nominations, the ballot as it is counted (hands are raised in the open), and whether
  the host counts it (the ballot then waits for the host's count: no timer);
- eliminations in order, with how only for day ones (a night kill's kind can be secret).
At night the timer is left out as well: nothing on the page moves with night input, so
two nights that differ only in the taps serve the same bytes (tests/web/test_view.py).
After the game: the winner, the reason, every role with its team and every elimination's
kind.

`GET /api/state` serves this dict as JSON; the contract's keys are `game` (id, rules,
lang, phase, day, over, winner), `seats` (seat, name, alive, fouls, nominated), `speaker`
and `timer_left`; the rest are additions the page uses (the game's `input` and `deal`
among them: chosen per game, said aloud).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from narrator.engine.state import LIFT, Elimination, State
from narrator.engine.tasks import SpeechTask, VoteOn
from narrator.engine.voting import counted_by_hand

# How players leave in the open, in the day (a night kill's kind may be a role's secret).
PUBLIC_HOW = ("vote", "fouls", "removed", "lifted")


@dataclass(frozen=True)
class GameInfo:
    """The game's public identity: from its header, not from its state."""

    id: str
    rules: str
    title: str  # for the set-up and the archive: not in the live view (it may name a role)
    lang: str
    names: tuple[str, ...] = ()  # by seat, seat 1 first; "" where none was given
    role_words: re.Pattern[str] | None = None  # the rule set's role names, any language
    forfeit: bool = False  # may the host give the game to the other team (sport, 001)
    # How the players give their inputs (pads, keypad, both: the cues say it aloud) and
    # how the cards were dealt (cards, phone): chosen per game, public.
    input: str = ""
    deal: str = "cards"
    teams: tuple[tuple[str, str], ...] = ()  # (role, team): shown with the roles at the end

    def name(self, seat: int) -> str:
        return self.names[seat - 1] if 0 < seat <= len(self.names) else ""


@dataclass(frozen=True)
class Timer:
    """The open day window as the box runs it: seconds left, counting down or not."""

    left: float
    running: bool


def public_state(info: GameInfo, st: State, timer: Timer | None = None, said: str = "",
                 protocols: Sequence[str] = ()) -> dict[str, Any]:
    """The page's view of a game. `timer` and `said` come from the box (its performer);
    `protocols` are the formats written for a finished game (json, html, polemica)."""
    over = st.phase == "over"
    day = st.phase == "day"
    winner = st.outcome.winner if over and st.outcome else None
    game: dict[str, Any] = {
        "id": info.id, "rules": info.rules, "lang": info.lang,
        "phase": st.phase, "day": st.number, "over": over, "winner": winner,
        "paused": bool(st.paused) and not over,
        # Public: the whole table heard night zero called again and the game paused.
        "redo_night_zero": bool(st.night_zero.redo_night_zero) and not over,
        "forfeit": info.forfeit,  # the rule set's, public: the page offers the button
        "input": info.input, "deal": info.deal,
    }
    if over:
        game["reason"] = st.outcome.reason if st.outcome else None
        game["protocols"] = list(protocols)
    today = _nominated(st) if day else set()
    seats: list[dict[str, Any]] = []
    for s in range(1, st.seats + 1):
        seat: dict[str, Any] = {"seat": s, "name": info.name(s), "alive": bool(st.alive[s]),
                                "fouls": int(st.fouls[s]), "nominated": s in today}
        if over:
            seat["role"] = st.roles[s]
            seat["team"] = dict(info.teams).get(st.roles[s], "")
        seats.append(seat)
    task = st.current if day else None
    moment = task.name if task else ""
    speaker = task.seat if isinstance(task, SpeechTask) else 0
    out: dict[str, Any] = {
        "game": game,
        "seats": seats,
        "speaker": speaker,
        "timer_left": round(timer.left, 1) if day and timer is not None else None,
        "timer_running": bool(day and timer is not None and timer.running),
        "moment": moment,
        "said": said if over or not _names_a_role(info, said) else "",
        "nominations": [{"by": n.by, "target": n.target} for n in st.nominations] if day else [],
        "ballot": _ballot(st) if day else None,
        "counting": day and counted_by_hand(st),
        "eliminations": [_elimination(e, over) for e in st.eliminations],
    }
    return out


def role_pattern(names: Iterable[str]) -> re.Pattern[str]:
    """Any of these role names as a word, in any of its forms ("mafia", "мафии", "дона"):
    a word's stem is the word less its last letter when it is long enough to bend."""
    stems = set()
    for name in names:
        for word in re.split(r"[\W_]+", name.lower()):
            if len(word) >= 3:
                stems.add(re.escape(word[:-1] if len(word) > 4 else word))
    if not stems:
        return re.compile(r"(?!x)x")
    return re.compile(r"(?<!\w)(?:" + "|".join(sorted(stems, key=len, reverse=True)) + r")\w*",
                      re.IGNORECASE)


def _names_a_role(info: GameInfo, text: str) -> bool:
    """A cue that names a role ("Mafia, wake up") stays off the page until the end: the
    page promises no role text at all before then, not only no seat's role."""
    return bool(text) and info.role_words is not None and info.role_words.search(text) is not None


def _nominated(st: State) -> set[int]:
    return {n.target for n in st.nominations if n.target}


def _ballot(st: State) -> dict[str, Any] | None:
    b = st.ballot
    if b is None:
        return None
    task = st.current
    votes: dict[str, list[int]] = {}
    for cast in b.votes:  # by candidate, in the order each got its first vote
        votes.setdefault("lift" if cast.candidate == LIFT else str(cast.candidate), []).append(cast.voter)
    return {
        "kind": b.kind,
        "round": b.round,
        "candidates": list(b.candidates),
        "votes": {k: sorted(voters) for k, voters in votes.items()},
        "current": task.seat if isinstance(task, VoteOn) else None,
    }


def _elimination(e: Elimination, over: bool) -> dict[str, Any]:
    shown = e.how if over or (e.phase == "day" and e.how in PUBLIC_HOW) else e.phase
    return {"seat": e.seat, "how": shown, "phase": e.phase, "number": e.number}
