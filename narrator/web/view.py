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

The view is a frozen `View`; its `to_json()` is the one place it becomes JSON, and it
writes only the fields declared PUBLIC (tests/web/test_view_value.py). `GET /api/state`
serves that JSON; the contract's keys are `game` (id, rules,
lang, phase, day, over, winner), `seats` (seat, name, alive, fouls, nominated), `speaker`
and `timer_left`; the rest are additions the page uses (the game's `input` and `deal`
among them: chosen per game, said aloud).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from types import MappingProxyType
from typing import Any, Final

from narrator.engine.state import LIFT, Elimination, State
from narrator.engine.tasks import SpeechTask, VoteOn
from narrator.engine.voting import counted_by_hand
from narrator.engine.words import GamePhase

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
    best_move: bool = False  # does the night's first victim speak, and so name a best move
    # How the players give their inputs (pads, keypad, both: the cues say it aloud) and
    # how the cards were dealt (cards, phone): chosen per game, public.
    input: str = ""
    deal: str = "cards"
    judge: bool = False  # a judge at the table takes the night's choices (public: they sit there)
    teams: tuple[tuple[str, str], ...] = ()  # (role, team): shown with the roles at the end

    def name(self, seat: int) -> str:
        return self.names[seat - 1] if 0 < seat <= len(self.names) else ""


@dataclass(frozen=True)
class Timer:
    """The open day window as the box runs it: seconds left, counting down or not."""

    left: float
    running: bool


# A field the page may serve to anyone: only fields declared so reach `to_json`. A field
# PUBLIC_UNLESS_NONE is left out while it is None (a finished game's reason and roles, an
# abandoned game's mark), as the page has always read it.
PUBLIC: Final = MappingProxyType({"public": True, "omitted": False})
PUBLIC_UNLESS_NONE: Final = MappingProxyType({"public": True, "omitted": True})


def to_json(value: Any) -> Any:
    """The view's JSON, for every client: the one place a view becomes JSON. A dataclass
    gives its public fields in their declared order, and nothing else."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)
                if f.metadata.get("public")
                and not (f.metadata.get("omitted") and getattr(value, f.name) is None)}
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_json(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class GameView:
    id: str = field(metadata=PUBLIC)
    rules: str = field(metadata=PUBLIC)
    lang: str = field(metadata=PUBLIC)
    phase: GamePhase = field(metadata=PUBLIC)
    day: int = field(metadata=PUBLIC)
    over: bool = field(metadata=PUBLIC)
    winner: str | None = field(metadata=PUBLIC)
    paused: bool = field(metadata=PUBLIC)
    # Public: the whole table heard night zero called again and the game paused.
    redo_night_zero: bool = field(metadata=PUBLIC)
    forfeit: bool = field(metadata=PUBLIC)  # the rule set's, public: the page offers the button
    best_move: bool = field(metadata=PUBLIC)  # the rule set's: the page offers "Best move"
    input: str = field(metadata=PUBLIC)
    deal: str = field(metadata=PUBLIC)
    judge: bool = field(metadata=PUBLIC)
    # Once the game is over: why, and the formats its protocol was written in; True for
    # an abandoned game only.
    reason: str | None = field(default=None, metadata=PUBLIC_UNLESS_NONE)
    abandoned: bool | None = field(default=None, metadata=PUBLIC_UNLESS_NONE)
    protocols: tuple[str, ...] | None = field(default=None, metadata=PUBLIC_UNLESS_NONE)


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int = field(metadata=PUBLIC)
    name: str = field(metadata=PUBLIC)
    alive: bool = field(metadata=PUBLIC)
    fouls: int = field(metadata=PUBLIC)
    nominated: bool = field(metadata=PUBLIC)
    role: str | None = field(default=None, metadata=PUBLIC_UNLESS_NONE)  # once the game is over
    team: str | None = field(default=None, metadata=PUBLIC_UNLESS_NONE)  # with the role


@dataclass(frozen=True, slots=True)
class NominationView:
    by: int = field(metadata=PUBLIC)
    target: int = field(metadata=PUBLIC)


@dataclass(frozen=True, slots=True)
class BallotView:
    kind: str = field(metadata=PUBLIC)
    round: int = field(metadata=PUBLIC)
    candidates: tuple[int, ...] = field(metadata=PUBLIC)
    # by candidate ("lift" for a lift-all vote), in the order each got its first vote
    votes: Mapping[str, tuple[int, ...]] = field(metadata=PUBLIC)
    current: int | None = field(metadata=PUBLIC)  # the seat being voted on


@dataclass(frozen=True, slots=True)
class EliminationView:
    seat: int = field(metadata=PUBLIC)
    how: str = field(metadata=PUBLIC)  # for a night's, the phase only until the game is over
    phase: GamePhase = field(metadata=PUBLIC)
    number: int = field(metadata=PUBLIC)


@dataclass(frozen=True, slots=True)
class View:
    """The page's view of a game: `to_json()` is what `GET /api/state` serves."""

    game: GameView = field(metadata=PUBLIC)
    seats: tuple[SeatView, ...] = field(metadata=PUBLIC)
    speaker: int = field(metadata=PUBLIC)
    timer_left: float | None = field(metadata=PUBLIC)
    timer_running: bool = field(metadata=PUBLIC)
    moment: str = field(metadata=PUBLIC)
    said: str = field(metadata=PUBLIC)
    nominations: tuple[NominationView, ...] = field(metadata=PUBLIC)
    ballot: BallotView | None = field(metadata=PUBLIC)
    counting: bool = field(metadata=PUBLIC)  # the host counts the ballot (no timer then)
    eliminations: tuple[EliminationView, ...] = field(metadata=PUBLIC)
    fault: str | None = field(metadata=PUBLIC)  # a technical pause: the journal cannot be written
    unsaved: bool = field(metadata=PUBLIC)  # ...for so long that the game went on without it
    # The box's, not the game's: the voice cache warming up, the voice commands' status.
    voice_cache: Mapping[str, int] | None = field(default=None, metadata=PUBLIC_UNLESS_NONE)
    voice: Mapping[str, Any] | None = field(default=None, metadata=PUBLIC_UNLESS_NONE)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = to_json(self)
        return out


def public_state(info: GameInfo, st: State, timer: Timer | None = None, said: str = "",
                 protocols: Sequence[str] = (), *, fault: str | None = None,
                 unsaved: bool = False, every_cue: bool = False) -> View:
    """The page's view of a game. `timer` and `said` come from the box (its performer);
    `protocols` are the formats written for a finished game (json, html, polemica)."""
    over = st.phase == "over"
    day = st.phase == "day"
    game = GameView(
        id=info.id, rules=info.rules, lang=info.lang, phase=st.phase, day=st.number, over=over,
        winner=st.outcome.winner if over and st.outcome else None,
        paused=bool(st.paused) and not over,
        redo_night_zero=bool(st.night_zero.redo_night_zero) and not over,
        forfeit=info.forfeit, best_move=info.best_move, input=info.input, deal=info.deal,
        judge=info.judge,
        reason=(st.outcome.reason if st.outcome else None) if over else None,
        protocols=tuple(protocols) if over else None)
    today = _nominated(st) if day else set()
    teams = dict(info.teams)
    seats = tuple(SeatView(s, info.name(s), bool(st.alive[s]), int(st.fouls[s]), s in today,
                           st.roles[s] if over else None,
                           teams.get(st.roles[s], "") if over else None)
                  for s in range(1, st.seats + 1))
    task = st.current if day else None
    return View(
        game=game,
        seats=seats,
        speaker=task.seat if isinstance(task, SpeechTask) else 0,
        timer_left=round(timer.left, 1) if day and timer is not None else None,
        timer_running=bool(day and timer is not None and timer.running),
        moment=task.name if task else "",
        said=said if over or every_cue or not _names_a_role(info, said) else "",
        nominations=tuple(NominationView(n.by, n.target) for n in st.nominations) if day else (),
        ballot=_ballot(st) if day else None,
        counting=day and counted_by_hand(st),
        eliminations=tuple(_elimination(e, over) for e in st.eliminations),
        fault=fault, unsaved=unsaved)


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


def _ballot(st: State) -> BallotView | None:
    b = st.ballot
    if b is None:
        return None
    task = st.current
    votes: dict[str, list[int]] = {}
    for cast in b.votes:  # by candidate, in the order each got its first vote
        votes.setdefault("lift" if cast.candidate == LIFT else str(cast.candidate), []).append(cast.voter)
    return BallotView(b.kind, b.round, tuple(b.candidates),
                      {k: tuple(sorted(voters)) for k, voters in votes.items()},
                      task.seat if isinstance(task, VoteOn) else None)


def _elimination(e: Elimination, over: bool) -> EliminationView:
    shown = e.how if over or (e.phase == "day" and e.how in PUBLIC_HOW) else e.phase
    return EliminationView(e.seat, shown, e.phase, e.number)
