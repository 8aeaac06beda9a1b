"""Bad input, fuzzed: rule files, configs, pin maps, journals, Polemica records and the
page's request bodies. Each case is accepted or ends in the project's one-line error
naming the file, never a traceback.

Cases are near-valid (tests/faults/fuzz_cases.py): a real document with one to three
small changes (YAML files: written over the file's own text), so most pass the parser
and the type checks and meet the deep ones. Each goes in-process through the text entry
point the box reads the file with after its size-limited read (`parse`,
`parse_settings`, `parse_pin_map`, the journal's `parse` and `replay`, `parse_record`
and the replay, the page's `parse_action` and the engine), so a case costs milliseconds;
one end-to-end check per kind runs the command line itself (exit 2, one line, naming the
file), and one reads the costliest file just under each size limit (under 50 MB).

The CI profile is derandomized: the same CASES per kind every run, each test asserting
how many it ran; the pytest summary prints the counts ("fuzz cases: ..."). The `long`
and `bench` profiles draw fresh random cases, many more; whatever they find is kept
below as an explicit `@example`.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from narrator.errors import InputFileError, RuleError
from tests.faults.fuzz_cases import (
    JSON_JUNK,
    JSON_SPLICES,
    YAML_JUNK,
    YAML_SPLICES,
    Corpus,
    YamlTexts,
    as_json,
    as_yaml,
)
from tests.profiles import PROFILE

# Cases per kind: the floor in CI (about 3-8 ms a case, see docs/reliability.md).
CASES = {"ci": 1_000, "long": 20_000, "bench": 100_000}.get(PROFILE, 1_000)
FUZZ = settings(max_examples=CASES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
DATA = Path(__file__).resolve().parents[1] / "data"
RAN: dict[str, int] = {}


def one_line(read: Callable[[], object], name: str,
             errors: tuple[type[Exception], ...] = (InputFileError,)) -> None:
    """Accepted, or refused in one line that names the file."""
    try:
        read()
    except errors as exc:
        message = str(exc)
        assert len(message.splitlines()) == 1 and "Traceback" not in message, message
        if isinstance(exc, InputFileError):
            assert message.startswith(f"{name}:") or message.startswith(f"{name} "), message


def counted(kind: str, request: pytest.FixtureRequest, cases: Callable[[], None],
            floor: int = CASES) -> None:
    """Run a kind's Hypothesis test and check (and report) how many cases it ran."""
    RAN[kind] = 0
    cpu = time.process_time()
    cases()
    cpu = time.process_time() - cpu
    request.node.user_properties.append(("fuzz_cases", (kind, RAN[kind], cpu)))
    assert RAN[kind] >= floor, f"{kind}: only {RAN[kind]} cases ran"


def case(kind: str) -> None:
    RAN[kind] = RAN.get(kind, 0) + 1


# --- rule files --------------------------------------------------------------------------


def bundled_text(name: str) -> str:
    return (resources.files("narrator.rules") / "sets" / f"{name}.yaml").read_text("utf-8")


def bundled_rules(name: str) -> Any:
    return yaml.safe_load(bundled_text(name))


RULES = YamlTexts([bundled_text(n) for n in ("sport", "classic", "club", "boxed")], YAML_JUNK, YAML_SPLICES)


@FUZZ
@given(RULES.texts_strategy())
@example("day: {null: speeches}\nname: x\n")  # a null key in `day:` (TypeError in hasattr)
# boxed renamed: its `roles` setting's labels (phrase books name sergeant for boxed only)
@example(bundled_text("boxed").replace("name: boxed", "name: mine", 1))
# A mapping where a win check's name goes, in `win:` and in a setting's `sets` (TypeError).
@example(bundled_text("sport").replace("win: [no_black,", "win: [{a: 1},", 1))
@example(bundled_text("club").replace("alone: {win: [nobody_left,", "alone: {win: [{a: 1},", 1))
# ... and in a step's `match:`, a limit's `check:`, a choice's `values:`; a null arg name.
@example(bundled_text("sport").replace("match: [sheriff]", "match: [{a: 1}]", 1))
@example(bundled_text("sport").replace("- {check: seats,", "- {check: {a: 1},", 1))
@example(bundled_text("boxed").replace("settings: [setup.roles, setup.follow_table", "settings: [{a: 1}", 1))
@example(bundled_text("sport").replace("values: [nominee,", "values: [{a: 1},", 1))
@example(bundled_text("boxed").replace("8: [doctor]", "8: [{a: 1}]", 1))  # setup.choice
@example(bundled_text("sport").replace("args: {mode: unanimous}",
                                       "args: {mode: leader, leader: [don], null: 1}", 1))
def rule_file_cases(text: str) -> None:
    from narrator.rules.loader import parse

    case("rule files")
    one_line(lambda: parse(text, "fuzz.yaml"), "fuzz.yaml")


def test_rule_files(request: pytest.FixtureRequest) -> None:
    counted("rule files", request, rule_file_cases)


def test_rule_files_that_are_not_files(tmp_path: Path) -> None:
    from narrator.rules.loader import load

    for spec in ("/dev/zero", "/dev/urandom", str(tmp_path), str(tmp_path / "none.yaml")):
        with pytest.raises(InputFileError) as err:
            load(spec)
        assert "\n" not in str(err.value)
    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 2_000)
    one_line(lambda: load(deep), str(deep))


# --- configs -----------------------------------------------------------------------------


CONFIG_TEXT = (resources.files("narrator.config") / "default.yaml").read_text("utf-8")
CONFIG = yaml.safe_load(CONFIG_TEXT)
FULL_CONFIG = {
    "game": {"rules": "club", "lang": "ru", "seats": 12, "preset": None,
             "settings": {"maniac_wins": "alone", "day.first_day_vote": "none"}},
    "voice": {"name": "ru", "rate": 180, "volume": 0.8, "device": 2, "ambience_volume": 0.1},
    "recognizer": {"engine": "vosk", "model_dir": "/tmp", "wake_word": "narrator",
                   "device": "USB"},
    "keypad": "matrix", "pins": "pins-16",
    "web": {"listen": "127.0.0.1:8080", "pin": "0417"},
    "state_dir": "/tmp/narrator-state", "cache_dir": "/tmp/narrator-cache", "log_level": "debug",
}
SPORT_CONFIG = {"game": {"rules": "sport", "preset": "tournament", "seats": 10,
                         "settings": {"best_move": False}}, "keypad": "/dev/input/event3",
                "web": {"listen": "off"}}
CONFIGS = YamlTexts([CONFIG_TEXT, as_yaml(FULL_CONFIG), as_yaml(SPORT_CONFIG)], YAML_JUNK, YAML_SPLICES)


@FUZZ
@given(CONFIGS.texts_strategy())
# Found by the `long` profile: a name the system refuses (OSError from is_file) ...
@example("pins: " + "y" * 300 + "\n")
@example("game: {rules: " + "x" * 300 + "}\n")
@example("pins: ~nobody-here/pins.yaml\n")  # (RuntimeError from expanduser)
@example('? "\\n\\n"\n: 1\n')  # ... and a key with line breaks (a two-line message)
@example("web: {listen: '0.0.0.0:" + "9" * 5_000 + "'}\n")  # int() of 5,000 digits: ValueError
@example("web: {pin: '\u00b2\u00b2\u00b2\u00b2'}\n")  # '²'.isdigit(): the PIN could not be said
def config_cases(text: str) -> None:
    from narrator.boxconfig import parse_settings

    case("configs")
    one_line(lambda: parse_settings(text, "narrator.yaml"), "narrator.yaml")


def test_configs(request: pytest.FixtureRequest) -> None:
    from narrator.boxconfig import parse_settings

    for text in CONFIGS.texts:  # the corpus itself is good: the cases start from valid files
        parse_settings(text, "narrator.yaml")
    counted("configs", request, config_cases)


def test_a_config_others_can_write_is_refused(tmp_path: Path) -> None:
    from narrator.boxconfig import load_settings
    from narrator.errors import ConfigError

    path = tmp_path / "narrator.yaml"
    path.write_text("game:\n  lang: en\n")
    os.chmod(path, 0o666)
    with pytest.raises(ConfigError, match=r"writable by others .*chmod go-w"):
        load_settings(path)
    os.chmod(path, 0o644)
    load_settings(path)


# --- pin maps ----------------------------------------------------------------------------


def packaged_pins_text(name: str) -> str:
    return (resources.files("narrator.devices") / f"{name}.yaml").read_text("utf-8")


def packaged_pins(name: str) -> Any:
    return yaml.safe_load(packaged_pins_text(name))


PINS = YamlTexts([packaged_pins_text("pins-10"), packaged_pins_text("pins-16")], YAML_JUNK, YAML_SPLICES)


@FUZZ
@given(PINS.texts_strategy(), st.booleans())
@example("? 'a\n\n  b'\n: null\n", False)  # a key with a line break: a two-line message
def pin_map_cases(text: str, shared: bool) -> None:
    from narrator.devices.pinmap import parse_pin_map

    case("pin maps")
    one_line(lambda: parse_pin_map(text, "pins.yaml", shared_pins=shared), "pins.yaml")


def test_pin_maps(request: pytest.FixtureRequest) -> None:
    counted("pin maps", request, pin_map_cases)


# --- journals ----------------------------------------------------------------------------

# Sport's defaults when the old journal was written (tests/records/test_old_formats.py), so
# that it replays to its end and the cases reach the engine.
SPORT_THEN = {"fouls.cancel_vote": "nearest", "fouls.short_when_alive_at_most": 4,
              "day.lift_two_of_four": False, "day.lift_three_of_nine": False,
              "draw_after_idle_rounds": 3, "day.silent_turn": 10, "day.revote_tie_fewer": "revote"}


def real_journal(name: str, lines: int, **header: Any) -> list[Any]:
    """The first lines of a journal a box wrote (a power cut then), and its end line."""
    rows = [json.loads(x) for x in (DATA / "engine-v1" / name).read_text("utf-8").splitlines()]
    rows[0]["header"].update(header)
    ends = [r for r in rows if "end" in r]
    return rows[:lines] + ends[:1]


JOURNALS = Corpus([real_journal("sport-finished.jsonl", 40, settings=SPORT_THEN),
                   real_journal("club-unfinished.jsonl", 30)[:-1]], JSON_JUNK, JSON_SPLICES)
# A line's JSON, kept for the lines a case leaves as they are (same object).
_LINE_TEXT = {id(row): json.dumps(row) for doc in JOURNALS.docs for row in doc}


def journal_text(doc: Any) -> str:
    rows = doc if isinstance(doc, list) else [doc]
    return "".join((_LINE_TEXT.get(id(r)) or as_json(r)) + "\n" for r in rows)


@FUZZ
@given(JOURNALS.texts(journal_text))
# An action whose seat is an object: the engine compared it with a number (TypeError).
@example(journal_text(JOURNALS.docs[0][:1]) + '{"at": 1, "wall": 1, "action": {"kind": "tap", "seat": {}}}\n')
def journal_cases(text: str) -> None:
    from narrator.records import journal

    case("journals")
    raw = text.encode("utf-8", "surrogatepass")

    def resume() -> None:
        # What Journal.resume does with the file's contents, without the file.
        contents = journal.parse(raw, "current.jsonl")
        if not contents.ended:
            journal.replay(contents, "current.jsonl")

    one_line(resume, "current.jsonl", (InputFileError, journal._NoHeader))


def test_journals(request: pytest.FixtureRequest) -> None:
    from narrator.records import journal

    for doc in JOURNALS.docs:
        contents = journal.parse(journal_text(doc).encode(), "current.jsonl")
        assert journal.replay(contents, "current.jsonl")[1] == len(contents.entries)
    counted("journals", request, journal_cases)


# --- Polemica records --------------------------------------------------------------------

RECORDS = Corpus([json.loads(p.read_text("utf-8")) for p in sorted((DATA / "polemica").glob("*.json"))],
                 JSON_JUNK, JSON_SPLICES)


@FUZZ
@given(RECORDS.texts(as_json))
# A stage's day as text: the replay compared it with a number (TypeError).
@example(as_json({**RECORDS.docs[2], "stage": {"type": "donCheck", "day": "id"}}))
@example(as_json({**RECORDS.docs[2], "zeroVoting": {}}))  # TypeError: unhashable (dict)
def record_cases(text: str) -> None:
    from narrator.records.polemica import parse_record
    from narrator.records.replay import replay
    from narrator.records.script import estimated_timeline
    from narrator.rules.loader import load_bundled

    case("Polemica records")

    def read_and_replay() -> None:
        # `narrator replay GAME.json`: read, then through the engine (a disagreement is
        # an answer, exit 1, not a failure).
        record = parse_record(text, "game.json")
        replay(load_bundled("sport"), record, estimated_timeline("en", 0.0, 0))

    one_line(read_and_replay, "game.json")


def test_polemica_records(request: pytest.FixtureRequest) -> None:
    counted("Polemica records", request, record_cases)


# --- the page's request bodies -----------------------------------------------------------


def game_states() -> list[Any]:
    """A sport game's states at several moments (night, speeches, nominations, votes),
    played by random legal moves: the page's actions meet each."""
    from narrator.engine.game import Game
    from narrator.rules.loader import load_bundled

    game, rnd, states = Game(load_bundled("sport"), 10, seed=5), random.Random(5), []
    for step in range(400):
        if game.over:
            break
        if step % 9 == 0:
            states.append(game.state)
        game.apply(rnd.choice(game.legal()))
    return states


STATES = game_states()
BODIES = Corpus([{"kind": "foul", "seat": 3}, {"kind": "unfoul", "seat": 3}, {"kind": "pause"},
                 {"kind": "remove", "seat": 10}, {"kind": "nominate", "by": 1, "target": 2},
                 {"kind": "vote", "seat": 4}, {"kind": "undo"}, {"kind": "add_time", "seconds": 30},
                 {"kind": "best_move", "seats": [1, 2, 3]}, {"kind": "verdict", "seat": 2}],
                JSON_JUNK, JSON_SPLICES)


@FUZZ
@given(BODIES.texts(as_json), st.integers(0, len(STATES) - 1))
@example("[" * 3_000, 0)  # RecursionError in json.loads: the page answered 500, not 400
def body_cases(text: str, moment: int) -> None:
    from narrator.engine.game import Game
    from narrator.rules.loader import load_bundled
    from narrator.web.actions import BadBody, parse_action, refusal_at_night

    case("request bodies")
    raw = text.encode("utf-8", "surrogatepass")
    game = Game(load_bundled("sport"), 10, seed=5)
    game.state = STATES[moment]
    try:  # as aiohttp's request.json() and WebServer.api_action read it: else a 400
        body = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return
    try:
        action = parse_action(body)
    except BadBody as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    if refusal_at_night(game.state, action) is None:
        try:
            game.apply(action)
        except RuleError as exc:  # the page answers 409 with it
            assert str(exc) and "\n" not in str(exc)


def test_page_request_bodies(request: pytest.FixtureRequest) -> None:
    counted("request bodies", request, body_cases)



# --- end to end: the command line itself, one case per kind ------------------------------


def _bad_files(tmp_path: Path) -> dict[str, tuple[list[str], Path]]:
    """For each kind, a command line given one bad file, and that file."""
    rules = tmp_path / "my-rules.yaml"
    rules.write_text(as_yaml({**bundled_rules("sport"), "day": {None: "speeches"}}))
    config = tmp_path / "narrator.yaml"
    config.write_text(as_yaml({**CONFIG, "voice": {"rate": [160]}}))
    pins = tmp_path / "my-pins.yaml"
    pins.write_text(as_yaml({**packaged_pins("pins-10"), "seats": {"ten": 10}}))
    pins_config = tmp_path / "pins-config.yaml"
    pins_config.write_text(as_yaml({**CONFIG, "pins": str(pins)}))
    state = tmp_path / "state"
    (state / "journal").mkdir(parents=True)
    head = JOURNALS.docs[0][0]
    current = state / "journal" / "current.jsonl"
    current.write_text(json.dumps({**head, "header": {**head["header"], "seats": "ten"}}) + "\n")
    record = tmp_path / "game.json"
    players = [dict(p) for p in RECORDS.docs[0]["players"]]
    players[3]["role"] = {"mafia": True}
    record.write_text(json.dumps({**RECORDS.docs[0], "players": players}))
    return {
        "rule files": (["demo", "--rules", str(rules), "--fast", "--no-state"], rules),
        "configs": (["run", "--config", str(config)], config),
        "pin maps": (["run", "--config", str(pins_config)], pins),
        "journals": (["demo", "--fast", "--state-dir", str(state)], current),
        "Polemica records": (["replay", str(record)], record),
    }


@pytest.mark.parametrize("kind", ["rule files", "configs", "pin maps", "journals", "Polemica records"])
def test_the_command_line_refuses_a_bad_file_in_one_line_with_exit_2(
        kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.cli import main

    argv, bad = _bad_files(tmp_path)[kind]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"narrator: {bad}: "), err
    assert "Traceback" not in err
    # The web's request bodies: tests/web/test_api.py::test_posts_need_the_pin_and_bad_bodies_get_400.


# --- memory: the costliest shape at each size limit --------------------------------------


def _at_limit(kind: str, tmp_path: Path) -> tuple[Callable[[], object], int]:
    """A file of the given kind just under its size limit, of the shape that costs the most
    memory to read (the most values per byte), and the reading the box does."""
    from narrator.records import journal, polemica
    from narrator.rules.loader import load
    from narrator.yamlfile import MAX_YAML_BYTES

    if kind == "YAML files":  # rule files, configs, pin maps: read_text + parse_yaml
        path = tmp_path / "rules.yaml"
        path.write_text("[" + "0," * ((MAX_YAML_BYTES - 2) // 2) + "]")
        return lambda: load(path), MAX_YAML_BYTES
    if kind == "journals":
        path = tmp_path / "current.jsonl"
        head = journal_text(JOURNALS.docs[0][:1])
        line = '{"at":0,"wall":0,"action":{"kind":"pause"}}\n'
        path.write_text(head + line * ((journal.MAX_BYTES - len(head)) // len(line)))
        return lambda: journal.read(path), journal.MAX_BYTES
    path = tmp_path / "game.json"
    path.write_text("[" + "{}," * ((polemica.MAX_RECORD_BYTES - 3) // 3) + "{}]")
    return lambda: polemica.read_record(path), polemica.MAX_RECORD_BYTES


@pytest.mark.parametrize("kind", ["YAML files", "journals", "Polemica records"])
def test_the_costliest_file_under_the_size_limit_reads_in_less_than_50_mb(kind: str, tmp_path: Path) -> None:
    import tracemalloc

    read, limit = _at_limit(kind, tmp_path)
    assert limit * 0.99 < next(tmp_path.iterdir()).stat().st_size <= limit
    tracemalloc.start()
    try:
        one_line(read, str(next(tmp_path.iterdir())))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    print(f"{kind}: {peak / 2**20:.1f} MB at most")
    assert peak < 50 * 1024 * 1024, f"{kind}: {peak / 2**20:.0f} MB"


def setup_form(rules: str, seats: int, lang: str, deal: str) -> dict[str, str]:
    """The set-up page's form as a browser posts it: every field filled, every setting
    set to a value other than its default (so each reaches the evening's checks)."""
    from narrator.rules.loader import load_bundled
    from narrator.rules.settings import describe

    form = {"rules": rules, "seats": str(seats), "lang": lang, "deal": deal, "tournament": "Cup",
            "table": "2", "round": "3", "game": "4", "preset": next(iter(load_bundled(rules).presets), ""),
            **{f"name{i}": f"Player {i}" for i in range(1, seats + 1)}}
    for spec in describe(load_bundled(rules), lang):
        key = f"set.{spec['key']}"
        if spec["key"] == "setup.follow_table":
            continue  # held to boxed's table, the form's own role list fits no row
        if spec["kind"] == "bool":
            form[key] = "" if spec["default"] else "on"
        elif spec["kind"] == "roles":
            form.update({f"{key}.{c['value']}": "on" for c in spec["choices"][:2]})
        elif spec["kind"] == "choice":
            form[key] = spec["choices"][-1]["value"]
        else:
            form[key] = str(spec["default"] + 1)
    return form


SETUP_FORMS = Corpus([setup_form("sport", 10, "en", "cards"), setup_form("club", 11, "ru", "phone"),
                      setup_form("classic", 12, "en", "cards"), setup_form("boxed", 8, "ru", "cards")],
                     [str(x) for x in JSON_JUNK], [*JSON_SPLICES, "&", "=", "%", "%ff", "+"])


def form_text(doc: Any) -> str:
    """The form urlencoded, as the browser sends it (values of other types as their text)."""
    from urllib.parse import urlencode

    pairs = doc.items() if isinstance(doc, dict) else [("x", doc)]
    return urlencode([(str(k), str(v)) for k, v in pairs])


@settings(FUZZ, max_examples=max(1, CASES // 2))
@given(SETUP_FORMS.texts(form_text))
@example("rules=classic&seats=%C2%B2")  # seats '²': isdigit() but not int() (ValueError)
@example("rules=classic&seats=" + "9" * 5_000)  # int() of 5,000 digits (ValueError)
def setup_form_cases(body: str) -> None:
    from urllib.parse import parse_qsl

    from narrator.web.setup import check, read_form, setup_page
    from narrator.web.text import text

    case("set-up forms")
    # What post_setup does with the form: read it, check it, show it again with the reasons.
    data = dict(parse_qsl(body, keep_blank_values=True))
    errors: dict[str, str] = {}
    form = read_form(data, errors, text("en"))
    t = text(form.lang)
    check(form, t, errors)
    assert all(isinstance(v, str) and v for v in errors.values()), errors
    setup_page(t, form, errors, True, "")


def test_setup_forms(request: pytest.FixtureRequest) -> None:
    from narrator.web.setup import check, read_form
    from narrator.web.text import text

    for doc in SETUP_FORMS.docs:  # the corpus itself is accepted
        errors: dict[str, str] = {}
        assert check(read_form(doc, errors, text("en")), text("en"), errors) is not None, errors
    counted("set-up forms", request, setup_form_cases, CASES // 2)
