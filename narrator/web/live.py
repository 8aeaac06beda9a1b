"""Live updates: the game page's fragment pushed to every open page as server-sent events.

The box pokes the hub whenever something a watcher could see may have changed: an action
was accepted (the Box's listeners) or the performer began a cue or started a timer (its
`on_change`). A poke renders the public view once, on the loop, right after the current
step; if the message differs from the last one it goes to every subscriber. Nothing polls,
so an idle box costs nothing and a change reaches the page in one loop turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

log = logging.getLogger("narrator.web")


class Hub:
    """Two kinds of page follow the game: the public one (anyone at the table) and the
    signed-in organiser's, which also shows the night's cues that name a role, to be read
    aloud at a table without a speaker. Each kind gets its own message; a poke renders
    each kind that has a page open."""

    def __init__(self, render: Callable[[bool], bytes]) -> None:
        """`render(organiser)` makes the current message (an SSE `data:` block)."""
        self._render = render
        self._subscribers: dict[asyncio.Queue[bytes], bool] = {}
        self._last: dict[bool, bytes] = {False: b"", True: b""}
        self._scheduled = False
        self._closed = False
        self.pushed = 0  # messages sent (for the bench and the tests)

    def subscribe(self, organiser: bool = False) -> asyncio.Queue[bytes]:
        queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=64)
        if self._closed:
            # A page that reconnected while the server stops: told to end at once. Kept,
            # it would hold the server's shutdown open (it never hears the close).
            queue.put_nowait(b"")
            return queue
        self._subscribers[queue] = organiser
        return queue

    def unsubscribe(self, queue: asyncio.Queue[bytes]) -> None:
        self._subscribers.pop(queue, None)

    def current(self, organiser: bool = False) -> bytes:
        self._last[organiser] = self._render(organiser)
        return self._last[organiser]

    def poke(self) -> None:
        """Something may have changed: render and push after the current step."""
        if self._scheduled:
            return
        self._scheduled = True
        try:
            asyncio.get_running_loop().call_soon(self._flush)
        except RuntimeError:  # no loop (a test driving the engine alone)
            self._scheduled = False

    def _flush(self) -> None:
        self._scheduled = False
        for organiser in sorted(set(self._subscribers.values())):
            try:
                message = self._render(organiser)
            except Exception:  # the page must never disturb the game
                log.exception("the live view could not be rendered")
                return
            if message == self._last[organiser]:
                continue
            self._last[organiser] = message
            self.pushed += 1
            for queue, kind in list(self._subscribers.items()):
                if kind != organiser:
                    continue
                if queue.full():
                    # A page that stopped reading (a phone asleep): it gets the newest
                    # state when it wakes, not a backlog.
                    while not queue.empty():
                        queue.get_nowait()
                queue.put_nowait(message)

    def close(self) -> None:
        self._closed = True
        for queue in list(self._subscribers):
            while not queue.empty():
                queue.get_nowait()
            queue.put_nowait(b"")  # tells the stream to end
        self._subscribers.clear()
