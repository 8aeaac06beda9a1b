"""Bad input, fuzzed: rule files, configs, pin maps, journals, Polemica records and the
page's request bodies. Each case is accepted or ends in the project's one-line error,
never a traceback. Cases mutate a good document (a value anywhere replaced by junk: null
keys, mappings where a name goes, deep nesting, huge numbers), so they reach deep into
each reader. The CI profile is derandomized: the same 1,000 cases per kind every run."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narrator.errors import InputFileError
from narrator.web.actions import BadBody, parse_action
from tests.profiles import PROFILE

# Cases per kind. A case costs 20-300 ms here (a whole rule set is checked each time), so
# CI runs fewer than the 1,000 to stay inside the suite's five minutes; the
# `long` profile runs many more (see docs/reliability.md).
CASES = {"ci": 150, "long": 5_000, "bench": 20_000}.get(PROFILE, 150)


def fuzz(scale: float = 1.0) -> settings:
    return settings(max_examples=max(20, int(CASES * scale)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


FUZZ = fuzz()
DATA = Path(__file__).resolve().parents[1] / "data"

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                    st.floats(allow_nan=True), st.text(max_size=8),
                    st.sampled_from(["sport", "mafia", "day", "night", "3", "-1", ""]))
keys = st.one_of(st.none(), st.integers(-3, 20), st.text(max_size=6),
                 st.sampled_from(["day", "fouls", "win", "roles", "seats", "kind", "seat"]))
junk = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)), max_leaves=8)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*prefix, i))
    return out


def mutate(doc: Any, data: st.DataObject) -> Any:
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(paths(doc)))
        value = data.draw(junk)
        if not where:
            return value
        parent = doc
        try:
            for k in where[:-1]:
                parent = parent[k]
            if data.draw(st.booleans()) and isinstance(parent, dict):
                parent.pop(where[-1], None)
            else:
                parent[where[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    return doc


def as_yaml(doc: Any) -> str:
    try:
        return yaml.safe_dump(doc, allow_unicode=True)
    except (yaml.YAMLError, ValueError, TypeError):
        return "{}"


def accepted_or_one_line(read: Callable[[], object], errors: tuple[type[Exception], ...]) -> None:
    try:
        read()
    except errors as exc:
        message = str(exc)
        assert message and "\n" not in message and "Traceback" not in message


def bundled(name: str) -> Any:
    text = (resources.files("narrator.rules") / "sets" / f"{name}.yaml").read_text("utf-8")
    return yaml.safe_load(text)


SPORT = bundled("sport")


@fuzz(0.15)
@given(st.data())
def test_rule_files(data: st.DataObject) -> None:
    from narrator.rules.loader import parse

    text = as_yaml(mutate(SPORT, data))
    accepted_or_one_line(lambda: parse(text, "fuzz.yaml"), (InputFileError,))


def test_rule_files_that_are_not_files(tmp_path: Path) -> None:
    from narrator.rules.loader import load

    for spec in ("/dev/zero", "/dev/urandom", str(tmp_path), str(tmp_path / "none.yaml")):
        with pytest.raises(InputFileError) as err:
            load(spec)
        assert "\n" not in str(err.value)
    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 2_000)
    accepted_or_one_line(lambda: load(deep), (InputFileError,))


CONFIG = yaml.safe_load((resources.files("narrator.config") / "default.yaml").read_text("utf-8"))


@fuzz(0.5)
@given(st.data())
def test_configs(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    from narrator.settings import load_settings

    path = tmp_path_factory.mktemp("cfg") / "narrator.yaml"
    path.write_text(as_yaml(mutate(CONFIG or {}, data)), encoding="utf-8")
    os.chmod(path, 0o600)
    accepted_or_one_line(lambda: load_settings(path), (InputFileError,))


def test_a_config_others_can_write_is_refused(tmp_path: Path) -> None:
    from narrator.errors import ConfigError
    from narrator.settings import load_settings

    path = tmp_path / "narrator.yaml"
    path.write_text("game:\n  lang: en\n")
    os.chmod(path, 0o666)
    with pytest.raises(ConfigError, match=r"writable by others .*chmod go-w"):
        load_settings(path)
    os.chmod(path, 0o644)
    load_settings(path)


PINS = yaml.safe_load((resources.files("narrator.devices") / "pins-10.yaml").read_text("utf-8"))


@FUZZ
@given(st.data())
def test_pin_maps(data: st.DataObject) -> None:
    from narrator.devices.pinmap import parse_pin_map

    text = as_yaml(mutate(PINS, data))
    accepted_or_one_line(lambda: parse_pin_map(text, "fuzz-pins.yaml"), (InputFileError,))


def journal_lines() -> list[Any]:
    from narrator.engine.actions import Tap, WindowClosed
    from narrator.records.journal import GameHeader

    header = GameHeader(rules="sport", seats=10, seed=3, game_id="f", started="2025-01-01T20:00:00")
    lines: list[Any] = [{"journal": 1, "header": header.to_json(), "wall": 1.0}]
    for i, action in enumerate([WindowClosed(1), Tap(3), WindowClosed(2)]):
        lines.append({"at": float(i), "wall": 1.0 + i, "action": action.to_json()})
    return lines


JOURNAL = journal_lines()


@FUZZ
@given(st.data())
def test_journals(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    from narrator.records.journal import read

    lines = mutate(JOURNAL, data)
    body = "".join(json.dumps(x) + "\n" for x in (lines if isinstance(lines, list) else [lines]))
    if data.draw(st.booleans()):
        cut = data.draw(st.integers(0, len(body)))
        body = body[:cut] + data.draw(st.sampled_from(["", "{", "\x00", "[" * 20_000, "\n"])) + body[cut:]
    path = tmp_path_factory.mktemp("j") / "current.jsonl"
    path.write_text(body, encoding="utf-8")
    from narrator.records import journal as journal_mod

    accepted_or_one_line(lambda: read(path), (InputFileError, journal_mod._NoHeader))


POLEMICA = json.loads((DATA / "polemica" / sorted(os.listdir(DATA / "polemica"))[0]).read_text())


@FUZZ
@given(st.data())
def test_polemica_records(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    from narrator.records.polemica import read_record

    path = tmp_path_factory.mktemp("p") / "game.json"
    path.write_text(json.dumps(mutate(POLEMICA, data)), encoding="utf-8")
    accepted_or_one_line(lambda: read_record(path), (InputFileError,))


BODIES = [{"kind": "foul", "seat": 3}, {"kind": "pause"}, {"kind": "remove", "seat": 10},
          {"kind": "nominate", "by": 1, "target": 2}, {"kind": "vote", "seat": 4}]


@FUZZ
@given(st.data())
def test_page_request_bodies(data: st.DataObject) -> None:
    body = mutate(data.draw(st.sampled_from(BODIES)), data)
    accepted_or_one_line(lambda: parse_action(body), (BadBody,))
