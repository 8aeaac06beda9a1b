"""The look of every page: the one stylesheet the box's page and the tournament's
collector both serve at /static/style.css."""

from __future__ import annotations

from importlib import resources


def stylesheet() -> bytes:
    """The stylesheet, as served (UTF-8)."""
    return (resources.files(__name__) / "style.css").read_bytes()
