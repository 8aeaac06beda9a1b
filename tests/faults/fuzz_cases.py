"""Cheap, near-valid fuzz cases: a real document (a bundled rule set, a real journal...)
with one to three small changes, each a few Hypothesis choices.

A change replaces a value anywhere with junk, with another value of the same document (a
role name where a step id goes, a seat count where a window goes: these pass the type
checks and reach the deep ones), deletes it, renames its key, or nudges it (a number
plus one, a string cut short, a list doubled). Containers are copied only along the
changed path, so a case costs microseconds before the reader runs; the text of a case
can then be cut or have a token spliced in (the parser's own errors). YAML files
(`YamlTexts`) get the same changes written over the file's own text.
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import yaml
from hypothesis import strategies as st

from narrator.rules.settings import hashable

_GONE = object()

# Values YAML and JSON can both hold, chosen for the checks they meet: bounds (seats 3-20,
# ports, volumes), words the readers know (teams, roles, phases, inputs), odd text.
_COMMON: list[Any] = [
    None, True, False, 0, 1, -1, 2, 3, 9, 10, 11, 16, 17, 21, 40, 99, 65535, 65536, 10**6,
    2**63, -(2**63), 0.5, -0.0, 1e300, -1e-300, math.inf, -math.inf, math.nan,
    "", " ", "x", "0", "-1", "3", "1e9", "nan", "sport", "classic", "club", "boxed", "red",
    "black", "mafia", "civilian", "sheriff", "don", "doctor", "maniac", "day", "night",
    "callout", "keypad", "none", "vote", "kill", "check", "en", "ru", "pins-10", "pins-16",
    "evdev", "matrix", "terminal", "off", "0.0.0.0:8080", "127.0.0.1:99999", "/dev/zero",
    "/", "../../etc", "~", "night.kill.args.rounds", "deck.mafia", "day.speech", "tap",
    "foul", "window_closed", "gameOver", "é", "🙂", "a\nb", "\t", "x" * 300,
    [], {}, [None], [[]], [1, 2, 3], ["mafia", "don"], [10] * 12, {"": None}, {None: 1},
    {1: 2}, {"x": {"y": {"z": []}}}, {"kind": "tap"}, {"team": "red"},
]
# YAML alone: dates, bytes (!!binary) and sets are what a hand-written file can give.
YAML_JUNK = [*_COMMON, datetime.date(2001, 1, 1), datetime.datetime(2001, 1, 1, 1, 1),
             b"\x00\xff", {1, 2}, 2**255]
JSON_JUNK = [*_COMMON, 10**80, -(10**300), [[[[[[[[[[[]]]]]]]]]]]]

YAML_SPLICES = ["\t", ": ", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "*zz", "!!binary ",
                "!!int ", "!!bool ", "!!set ", "!!timestamp ", "!!python/object:os.system ",
                "? ", "\n", "\n  ", "#", "'", '"', "\\", "|", ">", "%", "@", "`", "\x00",
                "\x1b", "\ufeff", "\ud7ff", "---\n", "...\n", "%YAML 1.1\n", "<<: ",
                "0x" + "f" * 80, "9" * 5000, "2001-13-45", "1e400", "[" * 1200,
                "- " * 1100, "a: &x [*x]\n", "a: &x {b: 1}\nc: *x\n", ": : :"]
JSON_SPLICES = ["{", "}", "[", "]", ",", ":", '"', "\\", "\\u", "\\ud800", "\x00", "NaN",
                "-Infinity", "-", "1e999", "9" * 5000, "[" * 3000, '{"a":' * 3000, "\n",
                "null", "true", "\ufeff", "é", "\x7f"]

OPS = st.sampled_from(["junk", "borrow", "delete", "rename", "nudge"])
CHANGES = st.integers(1, 3)
NUDGES = st.integers(0, 6)
SPLICE_OR_CUT = st.integers(0, 5)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def _values(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield k
            yield v
            yield from _values(v)
    elif isinstance(node, list):
        for v in node:
            yield v
            yield from _values(v)


def _set(node: Any, path: tuple[Any, ...], make: Callable[[Any], Any]) -> Any:
    """`node` with the value at `path` made anew (copy on write); unchanged if the path
    is gone (an earlier change in the same case removed it)."""
    if not path:
        return make(node)
    head, rest = path[0], path[1:]
    if isinstance(node, dict) and head in node:
        child = _set(node[head], rest, make)
        out: Any = dict(node)
    elif isinstance(node, list) and isinstance(head, int) and 0 <= head < len(node):
        child = _set(node[head], rest, make)
        out = list(node)
    else:
        return node
    if child is _GONE:
        del out[head]
    else:
        out[head] = child
    return out


def _nudged(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value, int(value), str(value).lower()]
    if isinstance(value, int):
        return [value + 1, value - 1, -value, 0, value * 1000, value + 0.5, str(value)]
    if isinstance(value, float):
        return [value * 2, -value, 0.0, math.nan, str(value), int(value) if math.isfinite(value) else 0]
    if isinstance(value, str):
        return ["", value * 2, value.upper(), value[:-1], f" {value}", f"{value}.x", [value]]
    if isinstance(value, list):
        return [value + value[:1], value[:-1], [], value[::-1], [value], value * 5]
    if isinstance(value, dict):
        first = next(iter(value), None)
        return [{}, {**value, "x": 1}, {k: v for k, v in value.items() if k != first}, [value]]
    return ["", 0, [], {}]


class Corpus:
    """Good documents of one kind and what a case may change in them."""

    def __init__(self, docs: list[Any], junk: list[Any], splices: list[str]) -> None:
        self.docs = docs
        self.pick_doc = st.integers(0, len(docs) - 1)
        self.paths = [st.sampled_from(list(_paths(d))) for d in docs]
        borrowed = [v for d in docs for v in _values(d)]
        self.borrowed = st.sampled_from(borrowed or [None])
        self.keys = st.sampled_from([v for v in borrowed if isinstance(v, str | int)] or ["x"])
        self.junk = st.one_of(st.sampled_from(junk), st.text(max_size=12),
                              st.integers(-(2**70), 2**70), st.floats())
        self.new_keys = st.one_of(self.keys, self.junk.filter(hashable))
        self.splices = st.sampled_from(splices)

    def texts(self, render: Callable[[Any], str]) -> st.SearchStrategy[str]:
        """Cases as text: a changed document rendered, maybe cut or spliced."""

        @st.composite
        def build(draw: st.DrawFn) -> str:
            return self.spliced(draw, render(self.case(draw)))

        return build()

    def case(self, draw: st.DrawFn) -> Any:
        """A document with one to three changes."""
        which = draw(self.pick_doc) if len(self.docs) > 1 else 0
        doc = self.docs[which]
        for _ in range(draw(CHANGES)):
            path = draw(self.paths[which])
            op = draw(OPS)
            make: Callable[[Any], Any]
            if op == "junk":
                make = _const(draw(self.junk))
            elif op == "borrow":
                make = _const(draw(self.borrowed))
            elif op == "delete" and path:
                make = _const(_GONE)
            elif op == "rename" and path and not isinstance(path[-1], int):
                make, path = partial(_renamed, old=path[-1], new=draw(self.new_keys)), path[:-1]
            else:
                make = partial(_nudge, index=draw(NUDGES))
            doc = _set(doc, path, make)
        return doc

    def spliced(self, draw: st.DrawFn, text: str) -> str:
        """Sometimes the text cut short or with a token spliced in somewhere."""
        how = draw(SPLICE_OR_CUT)
        if how > 1:
            return text
        at = draw(st.integers(0, len(text)))
        return text[:at] if how == 0 else text[:at] + draw(self.splices) + text[at:]


def _const(value: Any) -> Callable[[Any], Any]:
    return lambda _old: value


def _nudge(old: Any, index: int) -> Any:
    options = _nudged(old)
    return options[index % len(options)]


def _renamed(parent: Any, old: Any, new: Any) -> Any:
    if not isinstance(parent, dict):
        return parent
    return {(new if k == old else k): v for k, v in parent.items()}


def as_yaml(doc: Any) -> str:
    """YAML text of a case, by libyaml's emitter (the pure-Python one costs five times as
    much). SafeDumper writes what a hand-written file could hold; a value it cannot write
    leaves the case as a bare `null`."""
    try:
        return yaml.dump(doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
                         allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, ValueError, TypeError, RecursionError):
        return "null\n"


def as_json(doc: Any) -> str:
    try:
        return json.dumps(doc, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        return "null"


_FLOW = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def flow_yaml(value: Any) -> str:
    """A value as one line of flow YAML (`{a: 1, b: [x]}`), to write in place of another."""
    try:
        text = yaml.dump(value, Dumper=_FLOW, default_flow_style=True, width=2**30,
                         allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, ValueError, TypeError, RecursionError):
        return "null"
    return text.removesuffix("\n").removesuffix("\n...")


class YamlTexts:
    """Cases for the YAML kinds, made in the file's own text: the changes are the same as
    Corpus's (junk, a borrowed value, delete, rename, nudge), each written over the text of
    the value (or key) it changes, in flow style. The rest of the file stays as written,
    comments and all, and no case pays for dumping a whole document."""

    def __init__(self, texts: list[str], junk: list[Any], splices: list[str]) -> None:
        self.texts = texts
        self.corpus = Corpus([yaml.safe_load(t) for t in texts], junk, splices)
        self.spans: list[list[tuple[int, int, Any, int]]] = []  # start, end, value, key end
        for text, doc in zip(texts, self.corpus.docs, strict=True):
            spans: list[tuple[int, int, Any, int]] = []
            root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            assert root is not None, "an empty document in the corpus"
            _spans(root, doc, -1, spans)
            self.spans.append(spans)
        self.picks = [st.integers(0, len(s) - 1) for s in self.spans]

    def texts_strategy(self) -> st.SearchStrategy[str]:
        @st.composite
        def build(draw: st.DrawFn) -> str:
            which = draw(self.corpus.pick_doc) if len(self.texts) > 1 else 0
            text, spans = self.texts[which], self.spans[which]
            edits: list[tuple[int, int, str]] = []
            for _ in range(draw(CHANGES)):
                start, end, value, key_start = spans[draw(self.picks[which])]
                op = draw(OPS)
                if op == "rename" and key_start >= 0:
                    key_end = text.index(":", key_start)
                    edits.append((key_start, key_end, flow_yaml(draw(self.corpus.new_keys))))
                    continue
                if op == "delete" and key_start >= 0:
                    start, new = key_start, ""
                elif op == "junk":
                    new = flow_yaml(draw(self.corpus.junk))
                elif op == "borrow":
                    new = flow_yaml(draw(self.corpus.borrowed))
                else:
                    new = flow_yaml(_nudge(value, draw(NUDGES)))
                old = text[start:end]
                edits.append((start, end, " " + new + old[len(old.rstrip()):]))
            out, last = text, len(text) + 1
            for start, end, new in sorted(edits, reverse=True):
                if end <= last:  # changes inside a changed value are dropped
                    out, last = out[:start] + new + out[end:], start
            return self.corpus.spliced(draw, out)

        return build()


def _spans(node: yaml.Node, value: Any, key_start: int, out: list[tuple[int, int, Any, int]]) -> None:
    out.append((node.start_mark.index, node.end_mark.index, value, key_start))
    if isinstance(node, yaml.MappingNode) and isinstance(value, dict):
        for (k, v), item in zip(node.value, value.values(), strict=False):
            _spans(v, item, k.start_mark.index, out)
    elif isinstance(node, yaml.SequenceNode) and isinstance(value, list):
        for v, item in zip(node.value, value, strict=False):
            _spans(v, item, -1, out)
