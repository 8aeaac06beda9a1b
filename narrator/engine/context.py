"""The working context of one engine step, and the shapes of the hooks that receive it.

Task handlers and rule hooks receive a Ctx and use its helpers to speak, open windows,
light seats and take players out, so every effect is built in one place. The hooks
themselves are plain values: a task's `TaskSpec`, a night step's `Ability`, an
`Intervention`, a win check, an elimination hook. `Registry` holds all of them by name;
narrator.engine.registry builds the one the engine uses, and the Ctx carries it, so a
hook reaches another hook through `ctx.hooks` and no module imports the registry back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from narrator.engine.actions import Action
from narrator.engine.cues import outcome_cues
from narrator.engine.effects import (
    Effect,
    Eliminated,
    GameOver,
    OpenWindow,
    Outcome,
    Param,
    Record,
    Say,
    SeatLights,
    Sound,
)
from narrator.engine.rule_sections import Role, Step
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import Elimination, Pick, State, Window
from narrator.engine.tasks import Task
from narrator.engine.words import GamePhase, RecordEvent
from narrator.errors import RuleError

T = TypeVar("T", bound=Task)


@dataclass(slots=True)
class Ctx:
    rules: RuleSet
    state: State
    hooks: Registry
    out: list[Effect] = field(default_factory=list)
    # The dimmed seats of `day_lights`, kept while the eliminations list they came from
    # is the state's and has not grown (it is only ever appended to).
    _dim_of: list[Elimination] | None = field(default=None, init=False)
    _dim_len: int = field(default=0, init=False)
    _dim: tuple[int, ...] = field(default=(), init=False)
    # While `check_win` runs: the sides' count, shared by the win checks (wins.sides).
    checking_win: bool = field(default=False, init=False)
    counted: dict[str, int] | None = field(default=None, init=False)

    # speech and sound
    def say(self, cue: str, **params: Param) -> None:
        # A rule set may say an engine cue in its own words (classic's first night).
        said = Say(self.rules.cue_words.get(cue, cue), params)
        self.out.append(said)
        self.state.last_say = said

    def say_seat(self, cue: str, seat: int) -> None:
        """`say(cue, seat=seat)`: most cues a game says name one seat (a call-out's
        numbers, the speakers, the ballots)."""
        said = Say(self.rules.cue_words.get(cue, cue), {"seat": seat})
        self.out.append(said)
        self.state.last_say = said

    def sound(self, name: str) -> None:
        self.out.append(Sound(name))

    def record(self, event: RecordEvent, secret: bool = False, **data: Any) -> None:
        self.out.append(Record(event, data, secret))

    # windows
    def wait(self, task: Task, purpose: str, seconds: float, seat: int | None = None) -> bool:
        """Open a window for `task` and stop the agenda until it closes. Returns True."""
        st = self.state
        st.current = task
        window = st.window = st.windows = st.windows + 1
        _describe(st, purpose, seconds, seat or 0)
        self.out.append(OpenWindow(window, purpose, seconds, seat))
        return True

    def say_seat_and_wait(self, task: Task, cue: str, seat: int, purpose: str,
                          seconds: float) -> bool:
        """`say_seat(cue, seat)` then `wait(task, purpose, seconds)` (no seat), in one
        call: what every number of a call-out does, most of a game's moments."""
        said = Say(self.rules.cue_words.get(cue, cue), {"seat": seat})
        st = self.state
        st.last_say = said
        st.current = task
        window = st.window = st.windows = st.windows + 1
        _describe(st, purpose, seconds, 0)
        out = self.out
        out.append(said)
        out.append(OpenWindow(window, purpose, seconds, None))
        return True

    def push(self, *tasks: Task) -> None:
        """Put tasks at the front of the agenda, in the given order."""
        self.state.agenda[0:0] = tasks

    # lights
    def day_lights(self, on: tuple[int, ...] = (), blink: tuple[int, ...] = ()) -> None:
        # The dimmed seats are the eliminated ones (only `eliminate` takes a seat out).
        gone = self.state.eliminations
        if gone is not self._dim_of or len(gone) != self._dim_len:
            self._dim = tuple(sorted([e.seat for e in gone]))
            self._dim_of = gone
            self._dim_len = len(gone)
        self.out.append(SeatLights(on, blink, self._dim))

    def dark(self) -> None:
        self.out.append(SeatLights())

    # rules
    def step(self, step_id: str) -> Step:
        step = self.rules.step_index.get(step_id)
        if step is None:
            raise RuleError(f"no night step {step_id!r}")
        return step

    def ability(self, step: Step) -> Ability:
        return self.hooks.abilities[step.ability]

    # players
    def role(self, seat: int) -> Role:
        return self.rules.roles[self.state.roles[seat]]

    def require_alive(self, seat: int, what: str = "seat") -> None:
        st = self.state
        if not isinstance(seat, int) or not 1 <= seat <= st.seats:
            raise RuleError(f"{what} {seat!r} is not a seat at this table (1-{st.seats})",
                            "no_such_seat", seat=seat if isinstance(seat, int) else 0)
        if not st.alive[seat]:
            raise RuleError(f"{what} {seat} is out of the game", "seat_out", seat=seat)

    def eliminate(self, seat: int, how: str, phase: GamePhase | None = None,
                  number: int | None = None) -> None:
        st = self.state
        if not st.alive[seat]:
            return
        st.alive[seat] = False
        st.gone[seat] = how
        phase = phase or st.phase
        number = st.number if number is None else number
        st.eliminations.append(Elimination(seat, how, phase, number))
        self.out.append(Eliminated(seat, how, phase, number))
        for hook in self.hooks.on_elimination:
            hook(self, seat, how)

    def check_win(self) -> bool:
        """Run the rule set's win checks; end the game if one of them holds."""
        outcome: Outcome | None = None
        self.checking_win = True
        try:
            for name in self.rules.win:
                outcome = self.hooks.wins[name](self)
                if outcome is not None:
                    break
        finally:
            self.checking_win = False
            self.counted = None
        if outcome is None:
            return False
        self.game_over(outcome)
        return True

    def game_over(self, outcome: Outcome) -> None:
        st = self.state
        st.phase = "over"
        st.outcome = outcome
        st.agenda = []
        st.current = None
        st.window = 0
        # The reveal at the table: every seat not of the town blinks (the page lists roles).
        roles = self.rules.roles
        self.day_lights(blink=tuple(s for s in range(1, st.seats + 1)
                                    if st.roles[s] in roles and roles[st.roles[s]].team != "red"))
        self.sound("chime")
        for cue in outcome_cues(outcome.winner, outcome.reason, self.rules.cues):
            self.say(cue)
        self.record(RecordEvent.GAME_OVER, reason=outcome.reason, winner=outcome.winner)
        self.record(RecordEvent.ROLES, secret=True, roles=st.roles[1:])
        self.out.append(GameOver(outcome))


def _describe(st: State, purpose: str, seconds: float, seat: int) -> None:
    """The open window's description (`st.open`), kept when the window before had the
    same one: most windows are a call-out's beats, alike but for their number."""
    opened = st.open
    # 30 and 30.0 are equal but not one JSON: the type is compared too.
    if (opened is None or opened.purpose != purpose or opened.seconds != seconds
            or opened.seat != seat or type(opened.seconds) is not type(seconds)):
        st.open = Window(purpose, seconds, seat)


# --- tasks --------------------------------------------------------------------------------


def _no_input(ctx: Ctx, task: Any, action: Action) -> None:
    raise RuleError(f"{action.kind} is not expected now ({task.name})", "not_now")


def waits_only(ctx: Ctx, task: Task) -> bool:
    """The start of tasks that are only ever the open window's task (ctx.wait names them),
    never queued on the agenda."""
    raise RuleError(f"{task.name} is not an agenda task")


@dataclass(slots=True)
class TaskSpec(Generic[T]):
    """What a task does. `start` runs when the task reaches the front of the agenda; it
    returns True when it opened a window and the agenda must wait. While that window is
    open, actions aimed at the moment (taps, votes, nominations...) go to `act`; when the
    window closes, `closed` runs (None: nothing to do then, the agenda just goes on).
    """

    start: Callable[[Ctx, T], bool]
    act: Callable[[Ctx, T, Action], None] = _no_input
    closed: Callable[[Ctx, T], None] | None = None
    # Which action kinds `act` may accept: the legal-action query asks this before generating.
    accepts: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Intervention:
    """An action a rule hook takes whatever task holds the window (a judge's verdict in
    the middle of a vote): `act` checks it fully before changing anything; `legal` lists
    the concrete actions of this kind the engine would accept now."""

    act: Callable[[Ctx, Action], None]
    legal: Callable[[RuleSet, State], list[Action]]


# --- night abilities ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attack:
    """One attempt on a seat tonight: how it kills, the morning's words for a death by it
    ("": the engine's `night_victim`), and its step's place in the night."""

    how: str
    news: str = ""
    order: int = 0


@dataclass(frozen=True, slots=True)
class News:
    """A line of the morning's news about a seat, after the deaths, in the night's order.
    `always`: said even when the rule set tells only the deaths (a silenced player)."""

    order: int
    cue: str
    seat: int
    always: bool = False


@dataclass(slots=True)
class Dawn:
    """Tonight's result as the abilities build it, step by step."""

    kills: dict[int, str] = field(default_factory=dict)  # seat -> how of the first attack
    killed_by: dict[int, str] = field(default_factory=dict)  # seat -> the first killing step's id
    kill_called: bool = False  # a kill step was called tonight ("nobody was hurt" if in vain)
    saved: set[int] = field(default_factory=set)  # saved from every attack tonight
    # Public news of the night, said after its victims leave: (cue, seat). A seat that
    # left tonight is passed over (a silenced player who was also shot...).
    morning: list[tuple[str, int]] = field(default_factory=list)
    attacks: dict[int, list[Attack]] = field(default_factory=dict)  # every attack, by seat
    saves: dict[int, int] = field(default_factory=dict)  # attacks a limited save cancels
    save_news: dict[int, News] = field(default_factory=dict)  # said if the save worked
    stopped: set[int] = field(default_factory=set)  # seats whose attackers a guard stopped
    news: list[News] = field(default_factory=list)

    def attack(self, seat: int, how: str, news: str = "", order: int = 0) -> None:
        self.kills.setdefault(seat, how)
        self.attacks.setdefault(seat, []).append(Attack(how, news, order))

    def death(self, seat: int) -> Attack | None:
        """The attack that kills this seat tonight, or None: a save cancels the first
        attacks in the night's order ("от второй смерти… спасти… не может")."""
        if seat in self.saved:
            return None
        attacks = sorted(self.attacks.get(seat, []), key=lambda a: a.order)
        if not attacks and seat in self.kills:
            attacks = [Attack(self.kills[seat])]
        saved = self.saves.get(seat, 0)
        return attacks[saved] if len(attacks) > saved else None


# Args the night runner reads itself, allowed on every step: `cues` (extra cue ids the
# step's hooks say), `nobody` (the call-out ends with a "nobody" call: no choice) and
# `rounds` (the call-out goes round that many times, every night alike: on pads a vote
# changes to an earlier seat in a later round; the boxed mafia, «Можно поменять своё
# решение»).
STEP_ARGS = frozenset({"cues", "nobody", "rounds"})
MAX_ROUNDS = 3

ArgsCheck = Callable[[Mapping[str, Any], Mapping[str, Role]], str | None]


def _no_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    extra = set(args) - STEP_ARGS
    return None if not extra else f"this ability takes no args, got {sorted(extra)}"


def _nothing_at_step_end(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> None:
    return None


def _nothing_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Ability:
    """What a night step does with its choices. It sees them when the step ends
    (`at_step_end`, e.g. a check shows its answer at once) and again at dawn (`at_dawn`,
    e.g. kills and heals fold into tonight's result). A choice is a Pick: actor 0 for a
    collective keypad entry, target 0 for "nobody"."""

    check_args: ArgsCheck = _no_args
    at_step_end: Callable[[Ctx, Step, Sequence[Pick]], None] = _nothing_at_step_end
    at_dawn: Callable[[Ctx, Step, Sequence[Pick], Dawn], None] = _nothing_at_dawn
    # Does a living role holder choose a target (False: a meeting, only taps are counted)?
    chooses: bool = True
    # When at_dawn runs: kills at 0, then what moves or follows them (a bodyguard's
    # shield, a lover's guest); equal orders keep the night's step order.
    dawn_order: int = 0


# --- the registry's shape -------------------------------------------------------------------

WinCheck = Callable[[Ctx], Outcome | None]
OnElimination = Callable[[Ctx, int, str], None]


@dataclass(frozen=True, slots=True)
class Registry:
    """Every hook the engine can run, by the name rule sets and tasks use."""

    tasks: Mapping[type[Task], TaskSpec[Any]]
    abilities: Mapping[str, Ability]  # a night step's `ability`
    interventions: Mapping[str, Intervention]  # by action kind
    wins: Mapping[str, WinCheck]  # a rule set's `win:` list
    procedures: Mapping[str, Task]  # a rule set's `day.procedure`: the task that starts the day
    on_elimination: tuple[OnElimination, ...]  # run after every elimination, in order
