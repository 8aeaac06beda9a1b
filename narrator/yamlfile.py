"""Reading the project's YAML files (rule sets, pin maps, settings, phrase books) with the
one-line errors every bad input file gets: the file, the place, the problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from narrator.errors import InputFileError

# A file's limit keeps its reading under 50 MB of memory whatever its shape: 128 kB of
# `[0,0,0,...]` is 65,000 YAML nodes, about 23 MB while composed (measured in
# tests/faults/test_fuzz.py). The largest bundled file (the Russian phrase book) is 28 kB.
MAX_YAML_BYTES = 128 * 1024

# libyaml's parser when PyYAML has it (ten times faster: start-up on a Pi, and the fuzz
# tests' thousands of files); the constructor is SafeLoader's either way, so the values
# are the same. libyaml also stops nesting at 1,000 levels.
_BASE: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_INT_BITS = 256  # no setting needs more; a 5,000-digit `0xfff...` cannot even be printed


class _Loader(_BASE):  # type: ignore[valid-type,misc]
    """SafeLoader that refuses what no project file needs and a hostile one can abuse."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        # A list or mapping reached twice came through an alias: ten aliases of ten
        # aliases... is a small file whose printout (an error message quotes values) is
        # billions of items. Aliases of plain values stay harmless.
        if node in self.constructed_objects and not isinstance(node, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(
                None, None, "aliases (*name) of lists or mappings are not supported",
                node.start_mark)
        return super().construct_object(node, deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        value = int(super().construct_yaml_int(node))
        if value.bit_length() > MAX_INT_BITS:
            raise yaml.constructor.ConstructorError(None, None, "a number too large",
                                                    node.start_mark)
        return value


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


class TooBig(ValueError):
    pass


def read_limited(path: Path, limit: int) -> bytes:
    """A file's bytes, refused past `limit` (`rules: /dev/zero` must not eat the memory)."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TooBig(f"larger than {_size(limit)}: not a file of this kind")
    return data


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n % (1024 * 1024) == 0 else f"{n // 1024} kB"


def read_text(path: str | Path, error: type[InputFileError],
              limit: int = MAX_YAML_BYTES) -> str:
    try:
        return read_limited(Path(path), limit).decode("utf-8")
    except OSError as exc:
        raise error(str(path), "", f"cannot read: {exc.strerror or exc}") from None
    except TooBig as exc:
        raise error(str(path), "", str(exc)) from None
    except UnicodeDecodeError:
        raise error(str(path), "", "not a text file") from None


def parse_yaml(text: str, source: str, error: type[InputFileError]) -> Any:
    try:
        return yaml.load(text, Loader=_Loader)  # a safe loader (SafeLoader's constructors)
    except RecursionError:
        raise error(source, "", "not valid YAML: nested too deeply") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = " ".join(str(getattr(exc, "problem", None) or exc).split())
        raise error(source, where, f"not valid YAML: {problem}") from None
    except UnicodeError:
        raise error(source, "", "not valid YAML: not UTF-8 text") from None
    except Exception as exc:
        # PyYAML's safe constructors raise ValueError, KeyError, TypeError... on a scalar
        # they cannot build: `2001-13-45` (resolved as a date), `!!bool x`, `!!int 0x`.
        problem = " ".join(str(exc).split()) or type(exc).__name__
        raise error(source, "", f"not valid YAML: a bad value ({problem})") from None
