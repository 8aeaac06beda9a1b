from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from narrator.devices.gpio import mock_pin_factory


@pytest.fixture
def factory() -> Iterator[Any]:
    f = mock_pin_factory()
    yield f
    f.reset()
