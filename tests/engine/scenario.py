"""Scenario files: a rule set, a deal, a script of actions and what must come of it.

```yaml
rules: sport                 # a bundled rule set
settings: {day.first_day_vote: none}      # optional rule settings
preset: tournament                        # optional: a preset's settings under them
roles: [civilian, mafia, ...]             # by seat, seat 1 first (omit to learn at night zero)
seed: 0
script:
  - until: [speech, 3]       # let windows run out until the current task starts like this
  - {until: [speech], phase: day-2}       # ... in this phase of the game
  - {kind: nominate, target: 4}           # any action in its JSON form
  - close                    # let the open window run out (one WindowClosed)
  - {error: {kind: vote, voter: 9}}       # this action must be refused (RuleError)
  - {keys: "2.5\n"}                       # the host's keypad: keys (as typed on a terminal)
                             # through the real key map, each action it makes applied
  - {keys: "2\n", refused: true}          # ... whose action must be refused
  - {expect: {alive: [1, 2, 3], current: [ballot, 4], cues: [vote_for], answers: [yes]}}
  - {expect: {said: [{cue: vote_count, seat: 4, votes: 2}]}}  # a cue with these params
  - night: {mafia_kill: {2: 5, 8: [4, 5]}}  # play the next night: at the call of a target,
                             # its actor taps (a list: taps in turn, the last counts); stop at
                             # the next day's first window
  - finish                   # let every window run out until the game ends
expect:
  eliminations: [[4, vote, day, 1], ...]  # [seat, how, phase, number] in order
  winner: red                             # or black, maniac, draw, null (still playing)
  reason: ...                             # optional
tables:                      # optional: set-ups checked before any game starts
  - {seats: 12, settings: {...}, deck: {civilian: 8, angel: 1, mafia: 3}}
  - {seats: 6, refused: "at least 8 players"}   # refused: part of the one-line message
```
A file may hold only `tables:` (no game is played then).
`expect` inside the script checks the state at that point. Since the previous `expect`:
`cues` lists cues that were said (a cue id, or `[cue, {params}]`), `not_cues` ones that
were not, `cue_order` cues said in this order (others may come between), `said_exactly`
the cues said, all of them in order; `answers` the answers shown, `opened` how many windows of each purpose
(`{gap: 7}`), `lights_on` the seats lit last. At that point: `window` the open window's
`[purpose, seconds]`, `deck` the game's deck, `alive`, `phase`, `current`, `roles`,
`fouls`, `nominations`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from narrator.devices.keymap import KeypadDecoder
from narrator.engine.actions import Tap, WindowClosed, action_from_json
from narrator.engine.effects import Effect, OpenWindow, Say, SeatLights, ShowAnswer
from narrator.engine.game import Game
from narrator.engine.tasks import CallOut
from narrator.errors import RuleError
from narrator.rules.loader import load_bundled
from narrator.rules.settings import SettingError, configure

MAX_STEPS = 20_000


class ScenarioFailure(AssertionError):
    pass


def run_scenario(path: Path) -> Game | None:
    spec: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    for n, table in enumerate(spec.get("tables", [])):
        _check_table(spec["rules"], table, f"{path.name} tables[{n}]")
    if "script" not in spec and "roles" not in spec:
        return None
    rules = configure(load_bundled(spec["rules"]), spec.get("settings", {}),
                      preset=spec.get("preset"))
    roles = spec.get("roles")
    game = Game(rules, seats=spec.get("seats"), seed=spec.get("seed", 0), roles=roles)
    said: list[Effect] = list(game.opening)
    for n, line in enumerate(spec.get("script", [])):
        where = f"{path.name} script[{n}]"
        if line == "close":
            said += _close(game, where)
        elif line == "finish":
            steps = 0
            while not game.over:
                said += _close(game, where)
                steps += 1
                if steps > MAX_STEPS:
                    raise ScenarioFailure(f"{where}: the game does not end")
        elif isinstance(line, dict) and "until" in line:
            want = list(line["until"])
            phase = line.get("phase")
            steps = 0
            while not _matches(game, want) or (phase and game.state.phase_label() != phase):
                if game.over:
                    raise ScenarioFailure(f"{where}: game ended before {want}")
                said += _close(game, where)
                steps += 1
                if steps > MAX_STEPS:
                    raise ScenarioFailure(f"{where}: never reached {want}")
        elif isinstance(line, dict) and "night" in line:
            said += _play_night(game, line["night"] or {}, where)
        elif isinstance(line, dict) and "error" in line:
            action = action_from_json(line["error"])
            before = game.state.to_json()
            try:
                game.apply(action)
            except RuleError:
                if game.state.to_json() != before:
                    raise ScenarioFailure(f"{where}: a refused action changed the state") from None
            else:
                raise ScenarioFailure(f"{where}: {line['error']} was accepted")
        elif isinstance(line, dict) and "keys" in line:
            said += _keys(game, str(line["keys"]), bool(line.get("refused")), where)
        elif isinstance(line, dict) and "expect" in line:
            _check(game, line["expect"], said, where)
            said = []
        elif isinstance(line, dict) and "kind" in line:
            try:
                said += game.apply(action_from_json(line))
            except RuleError as exc:
                raise ScenarioFailure(f"{where}: {line} refused: {exc}") from None
        else:
            raise ScenarioFailure(f"{where}: cannot read {line!r}")
    expect = spec.get("expect", {})
    if "eliminations" in expect:
        got = [e.to_json() for e in game.state.eliminations]
        want = [list(e) for e in expect["eliminations"]]
        if got != want:
            raise ScenarioFailure(f"{path.name}: eliminations {got} != expected {want}")
    if "winner" in expect:
        winner = game.state.outcome.winner if game.state.outcome else None
        if winner != expect["winner"]:
            raise ScenarioFailure(f"{path.name}: winner {winner} != expected {expect['winner']}")
    if "reason" in expect:
        reason = game.state.outcome.reason if game.state.outcome else None
        if reason != expect["reason"]:
            raise ScenarioFailure(f"{path.name}: reason {reason} != expected {expect['reason']}")
    return game


def _keys(game: Game, keys: str, refused: bool, where: str) -> list[Effect]:
    actions = KeypadDecoder().keys(keys)
    if not actions:
        raise ScenarioFailure(f"{where}: the keys {keys!r} make no action")
    said: list[Effect] = []
    for action in actions:
        before = game.state.to_json()
        try:
            said += game.apply(action)
        except RuleError as exc:
            if not refused:
                raise ScenarioFailure(f"{where}: {action} (keys {keys!r}) refused: {exc}") from None
            if game.state.to_json() != before:
                raise ScenarioFailure(f"{where}: a refused action changed the state") from None
        else:
            if refused:
                raise ScenarioFailure(f"{where}: {action} (keys {keys!r}) was accepted")
    return said


def _check_table(name: str, table: dict[str, Any], where: str) -> None:
    try:
        rules = configure(load_bundled(name), table.get("settings", {}), table["seats"],
                          preset=table.get("preset"))
    except SettingError as exc:
        if "refused" not in table:
            raise ScenarioFailure(f"{where}: refused: {exc}") from None
        if table["refused"] not in str(exc) or "\n" in str(exc):
            raise ScenarioFailure(f"{where}: refused with {str(exc)!r}, not {table['refused']!r}") from None
        return
    if "refused" in table:
        raise ScenarioFailure(f"{where}: accepted, but must be refused ({table['refused']})")
    deck = rules.deck_for(table["seats"])
    if "deck" in table and deck != table["deck"]:
        raise ScenarioFailure(f"{where}: deck {deck} != {table['deck']}")


def _close(game: Game, where: str) -> list[Effect]:
    if game.over:
        raise ScenarioFailure(f"{where}: the game is over")
    return game.apply(WindowClosed(game.state.window))


def _matches(game: Game, want: list[Any]) -> bool:
    current = game.state.current
    return current is not None and current.to_json()[: len(want)] == want


def _same(params: dict[str, Any], want: dict[str, Any]) -> bool:
    return all(params.get(k) == (tuple(v) if isinstance(v, list) else v) for k, v in want.items())


def _check(game: Game, expect: dict[str, Any], said: list[Effect], where: str) -> None:
    st = game.state
    if "alive" in expect and st.living() != list(expect["alive"]):
        raise ScenarioFailure(f"{where}: alive {st.living()} != {expect['alive']}")
    if "current" in expect:
        want = list(expect["current"])
        if st.current is None or st.current.to_json()[: len(want)] != want:
            raise ScenarioFailure(f"{where}: current {st.current} != {want}")
    if "phase" in expect and st.phase_label() != expect["phase"]:
        raise ScenarioFailure(f"{where}: phase {st.phase_label()} != {expect['phase']}")
    if "fouls" in expect:
        for seat, count in expect["fouls"].items():
            if st.fouls[int(seat)] != count:
                raise ScenarioFailure(f"{where}: seat {seat} has {st.fouls[int(seat)]} fouls")
    says = [e for e in said if isinstance(e, Say)]
    if "cues" in expect:
        missing = [c for c in expect["cues"] if not any(_is(e, c) for e in says)]
        if missing:
            raise ScenarioFailure(f"{where}: cues {missing} not said (said: {_show(says)})")
    if "said" in expect:
        for want in expect["said"]:
            cue, params = want["cue"], {k: v for k, v in want.items() if k != "cue"}
            if not any(isinstance(e, Say) and e.cue == cue and _same(e.params, params) for e in said):
                heard = [(e.cue, e.params) for e in said if isinstance(e, Say) and e.cue == cue]
                raise ScenarioFailure(f"{where}: {cue} {params} not said (said: {heard})")
    if "not_cues" in expect:
        present = [c for c in expect["not_cues"] if any(_is(e, c) for e in says)]
        if present:
            raise ScenarioFailure(f"{where}: cues {present} said but must not be")
    if "cue_order" in expect:
        rest = iter(says)
        for c in expect["cue_order"]:
            if not any(_is(e, c) for e in rest):
                raise ScenarioFailure(f"{where}: {c} not said in order (said: {_show(says)})")
    if "said_exactly" in expect:
        want = expect["said_exactly"]
        if len(want) != len(says) or not all(_is(e, c) for e, c in zip(says, want, strict=False)):
            raise ScenarioFailure(f"{where}: said {_show(says)} != {want}")
    if "opened" in expect:
        for purpose, count in expect["opened"].items():
            got = sum(1 for e in said if isinstance(e, OpenWindow) and e.purpose == purpose)
            if got != count:
                raise ScenarioFailure(f"{where}: {got} {purpose} windows opened, not {count}")
    if "lights_on" in expect:
        lights = [e for e in said if isinstance(e, SeatLights)]
        lit = sorted(lights[-1].on) if lights else []
        if lit != sorted(expect["lights_on"]):
            raise ScenarioFailure(f"{where}: seats lit {lit} != {expect['lights_on']}")
    if "window" in expect:
        window = [st.open.purpose, st.open.seconds] if st.current and st.open else None
        if window != list(expect["window"]):
            raise ScenarioFailure(f"{where}: open window {window} is not {expect['window']}")
    if "deck" in expect and dict(st.deck) != expect["deck"]:
        raise ScenarioFailure(f"{where}: deck {dict(st.deck)} != {expect['deck']}")
    if "answers" in expect:
        answers = [e.answer for e in said if isinstance(e, ShowAnswer) and not e.decoy]
        if answers != list(expect["answers"]):
            raise ScenarioFailure(f"{where}: answers shown {answers} != {expect['answers']}")
    if "roles" in expect and st.roles[1:] != list(expect["roles"]):
        raise ScenarioFailure(f"{where}: roles {st.roles[1:]} != {expect['roles']}")
    if "nominations" in expect and [n.target for n in st.nominations] != list(expect["nominations"]):
        raise ScenarioFailure(f"{where}: nominations {st.nominations} != {expect['nominations']}")


def _is(effect: Say, want: Any) -> bool:
    """Is this said cue the one wanted: a cue id, or [cue id, {params}] (lists for tuples)?"""
    if isinstance(want, str):
        return effect.cue == want
    cue, params = want
    got: dict[str, Any] = {k: list(v) if isinstance(v, tuple) else v
                           for k, v in effect.params.items()}
    return bool(effect.cue == cue and got == params)


def _show(says: list[Say]) -> list[Any]:
    return [[e.cue, e.params] if e.params else e.cue for e in says]


def _play_night(game: Game, plan: dict[str, dict[int, Any]], where: str) -> list[Effect]:
    """Play the night in progress, or the next one (letting the day before it pass with no
    action): at each call of a step's call-out, every actor planned to choose that seat
    taps. Stops at the next day's first window, or when the game ends."""
    said: list[Effect] = []
    steps = 0

    def close() -> None:
        nonlocal steps
        steps += 1
        if steps > MAX_STEPS:
            raise ScenarioFailure(f"{where}: the night does not end")
        said.extend(_close(game, where))

    while not (game.state.phase == "night" and game.state.number >= 1):
        if game.over:
            raise ScenarioFailure(f"{where}: the game ended before the night")
        close()
    night = game.state.number
    unknown = set(plan) - {s.id for s in game.engine.rules.night}
    if unknown:
        raise ScenarioFailure(f"{where}: no night steps {sorted(unknown)}")
    while not game.over:
        st = game.state
        if st.phase == "day" and st.number > night and st.current is not None:
            break
        current = st.current
        if isinstance(current, CallOut):
            for actor, targets in plan.get(current.step, {}).items():
                if current.seat in (targets if isinstance(targets, list) else [targets]):
                    said.extend(game.apply(Tap(int(actor))))
        close()
    return said
