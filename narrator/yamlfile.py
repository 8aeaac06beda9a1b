"""Reading the project's YAML files (rule sets, pin maps, settings, phrase books) with the
one-line errors every bad input file gets: the file, the place, the problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from narrator.errors import InputFileError

MAX_YAML_BYTES = 2 * 1024 * 1024  # the largest bundled file is a few tens of kB


class TooBig(ValueError):
    pass


def read_limited(path: Path, limit: int) -> bytes:
    """A file's bytes, refused past `limit` (`rules: /dev/zero` must not eat the memory)."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TooBig(f"larger than {limit // (1024 * 1024)} MB: not a file of this kind")
    return data


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
        return yaml.safe_load(text)
    except RecursionError:
        raise error(source, "", "not valid YAML: nested too deeply") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        raise error(source, where, f"not valid YAML: {getattr(exc, 'problem', exc)}") from None
