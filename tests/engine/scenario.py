"""Scenario files: a rule set, a deal, a script of actions and what must come of it.

```yaml
rules: sport                 # a bundled rule set
settings: {day.first_day_vote: none}      # optional rule settings
roles: [civilian, mafia, ...]             # by seat, seat 1 first (omit to learn at night zero)
seed: 0
script:
  - until: [speech, 3]       # let windows run out until the current task starts like this
  - {until: [speech], phase: day-2}       # ... in this phase of the game
  - {kind: nominate, target: 4}           # any action in its JSON form
  - close                    # let the open window run out (one WindowClosed)
  - {error: {kind: vote, voter: 9}}       # this action must be refused (RuleError)
  - {expect: {alive: [1, 2, 3], current: [ballot, 4], cues: [vote_for], answers: [yes]}}
  - {expect: {said: [{cue: vote_count, seat: 4, votes: 2}]}}  # a cue with these params
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
`expect` inside the script checks the state at that point; `cues` there lists cue ids that
must have been said since the previous script line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from narrator.engine.actions import WindowClosed, action_from_json
from narrator.engine.effects import Effect, Say, ShowAnswer
from narrator.engine.game import Game
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
    rules = configure(load_bundled(spec["rules"]), spec.get("settings", {}))
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


def _check_table(name: str, table: dict[str, Any], where: str) -> None:
    try:
        rules = configure(load_bundled(name), table.get("settings", {}), table["seats"])
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
    if "cues" in expect:
        cues = [e.cue for e in said if isinstance(e, Say)]
        missing = [c for c in expect["cues"] if c not in cues]
        if missing:
            raise ScenarioFailure(f"{where}: cues {missing} not said (said: {cues})")
    if "said" in expect:
        for want in expect["said"]:
            cue, params = want["cue"], {k: v for k, v in want.items() if k != "cue"}
            if not any(isinstance(e, Say) and e.cue == cue and _same(e.params, params) for e in said):
                heard = [(e.cue, e.params) for e in said if isinstance(e, Say) and e.cue == cue]
                raise ScenarioFailure(f"{where}: {cue} {params} not said (said: {heard})")
    if "not_cues" in expect:
        cues = [e.cue for e in said if isinstance(e, Say)]
        present = [c for c in expect["not_cues"] if c in cues]
        if present:
            raise ScenarioFailure(f"{where}: cues {present} said but must not be")
    if "answers" in expect:
        answers = [e.answer for e in said if isinstance(e, ShowAnswer)]
        if answers != list(expect["answers"]):
            raise ScenarioFailure(f"{where}: answers shown {answers} != {expect['answers']}")
    if "roles" in expect and st.roles[1:] != list(expect["roles"]):
        raise ScenarioFailure(f"{where}: roles {st.roles[1:]} != {expect['roles']}")
    if "nominations" in expect and [n.target for n in st.nominations] != list(expect["nominations"]):
        raise ScenarioFailure(f"{where}: nominations {st.nominations} != {expect['nominations']}")
