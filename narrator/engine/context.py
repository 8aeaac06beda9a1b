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
from typing import Any, Final, Generic, TypeVar

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
from narrator.engine.ruleset import Role, RuleSet, Step
from narrator.engine.state import Elimination, Pick, State, Window
from narrator.engine.tasks import Task
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
    _one_lit: dict[int, SeatLights] = field(default_factory=dict, init=False)  # for `_dim`, by seat
    # While `check_win` runs: the sides' count, shared by the win checks (wins.sides).
    checking_win: bool = field(default=False, init=False)
    counted: dict[str, int] | None = field(default=None, init=False)

    # speech and sound
    def say(self, cue: str, **params: Param) -> None:
        # A rule set may say an engine cue in its own words (classic's first night).
        cue = self.rules.cue_words.get(cue, cue)
        said = Say(cue, params) if params else _PLAIN_SAYS.get(cue)
        if said is None:
            said = _PLAIN_SAYS[cue] = Say(cue, {})
        self.out.append(said)
        self.state.last_say = said

    def say_seat(self, cue: str, seat: int) -> None:
        """`say(cue, seat=seat)` with a shared value: most cues a game says name one seat
        (a call-out's numbers, the speakers, the ballots), and an effect is never changed."""
        said = _seat_say(self.rules.cue_words.get(cue, cue), seat)
        self.out.append(said)
        self.state.last_say = said

    def sound(self, name: str) -> None:
        sound = _SOUNDS.get(name)
        if sound is None:
            sound = _SOUNDS[name] = Sound(name)
        self.out.append(sound)

    def record(self, event: str, secret: bool = False, **data: Any) -> None:
        self.out.append(Record(event, data, secret))

    # windows
    def wait(self, task: Task, purpose: str, seconds: float, seat: int | None = None) -> bool:
        """Open a window for `task` and stop the agenda until it closes. Returns True."""
        st = self.state
        st.current = task
        st.windows += 1
        st.window = st.windows
        st.open = _window(purpose, seconds, seat or 0)
        self.out.append(OpenWindow(st.window, purpose, seconds, seat))
        return True

    def say_seat_and_wait(self, task: Task, cue: str, seat: int, purpose: str,
                          seconds: float) -> bool:
        """`say_seat(cue, seat)` then `wait(task, purpose, seconds)` (no seat), in one
        call: what every number of a call-out does, most of a game's moments."""
        said = _seat_say(self.rules.cue_words.get(cue, cue), seat)
        st = self.state
        st.last_say = said
        st.current = task
        window = st.window = st.windows = st.windows + 1
        # The beat before was most likely the same window (the call-out's last number):
        # compared field by field, cheaper than hashing the table's key.
        opened = st.open
        if (opened is None or opened.purpose != purpose or opened.seconds != seconds
                or opened.seat != 0 or type(opened.seconds) is not type(seconds)):
            st.open = _window(purpose, seconds, 0)
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
            dim = self._dim = tuple(sorted([e.seat for e in gone]))
            self._dim_of = gone
            self._dim_len = len(gone)
            if len(_ONE_LIT) >= 4096:
                _ONE_LIT.clear()
            self._one_lit = _ONE_LIT.setdefault(dim, {})
        dim = self._dim
        # Most lights a game sets: no seat lit, or one speaker's seat lit or blinking.
        # Found by that one seat (negative: blinking) among these dimmed seats, with no
        # key tuple to build and hash.
        one: int | None = None
        if not blink:
            one = 0 if not on else (on[0] if len(on) == 1 else None)
        elif not on and len(blink) == 1:
            one = -blink[0]
        if one is not None:
            lights = self._one_lit.get(one)
            if lights is None:
                lights = self._one_lit[one] = SeatLights(on, blink, dim)
            self.out.append(lights)
            return
        key = (on, blink, dim)
        lights = _LIGHTS.get(key)
        if lights is None:
            if len(_LIGHTS) >= 4096:  # dimmed sets are many at big tables: keep it small
                _LIGHTS.clear()
            lights = _LIGHTS[key] = SeatLights(on, blink, dim)
        self.out.append(lights)

    def dark(self) -> None:
        self.out.append(_DARK)

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

    def eliminate(self, seat: int, how: str, phase: str | None = None,
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
        self.record("game_over", reason=outcome.reason, winner=outcome.winner)
        self.record("roles", secret=True, roles=st.roles[1:])
        self.out.append(GameOver(outcome))


# The windows' frozen descriptions, shared: a game opens a few kinds thousands of times.
# By purpose, then seat, then the few lengths each has (a speech and its last seconds):
# found without building and hashing a key tuple.
_WINDOWS: Final[dict[str, dict[int, list[Window]]]] = {}


def _window(purpose: str, seconds: float, seat: int) -> Window:
    by_seat = _WINDOWS.get(purpose)
    if by_seat is None:
        by_seat = _WINDOWS[purpose] = {}
    known = by_seat.get(seat)
    if known is None:
        known = by_seat[seat] = []
    for opened in known:
        # 30 and 30.0 are equal but not one JSON: the type is compared too.
        if opened.seconds == seconds and type(opened.seconds) is type(seconds):
            return opened
    if len(known) >= 8:  # a rule set has a few lengths; bounded all the same
        known.clear()
    opened = Window(purpose, seconds, seat)
    known.append(opened)
    return opened

# Effects that are the same every time, shared (effects are values nobody changes): a
# game says about 250 cues and sets the lights 150 times, and building each anew was a
# tenth of the engine bench. Bounded: cue ids by seat numbers, lights by seat tuples.
_PLAIN_SAYS: Final[dict[str, Say]] = {}
_SEAT_SAYS: Final[dict[str, dict[int, Say]]] = {}  # by cue, then seat (no key tuple to hash)
_SOUNDS: Final[dict[str, Sound]] = {}
_LIGHTS: Final[dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], SeatLights]] = {}
_ONE_LIT: Final[dict[tuple[int, ...], dict[int, SeatLights]]] = {}  # by dimmed seats, then seat
_DARK: Final = SeatLights()


def _seat_say(cue: str, seat: int) -> Say:
    by_seat = _SEAT_SAYS.get(cue)
    if by_seat is None:
        by_seat = _SEAT_SAYS[cue] = {}
    said = by_seat.get(seat)
    if said is None:
        said = by_seat[seat] = Say(cue, {"seat": seat})
    return said


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


@dataclass(frozen=True)
class Registry:
    """Every hook the engine can run, by the name rule sets and tasks use."""

    tasks: Mapping[type[Task], TaskSpec[Any]]
    abilities: Mapping[str, Ability]  # a night step's `ability`
    interventions: Mapping[str, Intervention]  # by action kind
    wins: Mapping[str, WinCheck]  # a rule set's `win:` list
    procedures: Mapping[str, Task]  # a rule set's `day.procedure`: the task that starts the day
    on_elimination: tuple[OnElimination, ...]  # run after every elimination, in order
