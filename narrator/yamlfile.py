"""Reading the project's YAML files (rule sets, pin maps, settings, phrase books) with the
one-line errors every bad input file gets: the file, the place, the problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from narrator.errors import InputFileError


def read_text(path: str | Path, error: type[InputFileError]) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(str(path), "", f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise error(str(path), "", "not a text file") from None


def parse_yaml(text: str, source: str, error: type[InputFileError]) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        raise error(source, where, f"not valid YAML: {getattr(exc, 'problem', exc)}") from None
