"""The web tests' shared set-up: a game behind the organiser's page and a client of it."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from tests.web.evening_box import EveningBox
from tests.web.harness import Served, serve_table


@pytest.fixture
def served(tmp_path: Path) -> Served:
    """`async with served(**Table arguments) as (table, client):` a game on the virtual
    clock in the test's folder, its page served, a client started; closed after."""
    return partial(serve_table, tmp_path)


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[EveningBox]:
    """A whole evening box (`narrator run` as the daemon runs it) behind its page."""
    box = EveningBox(tmp_path)
    try:
        yield box
    finally:
        box.close()
