"""A deal without cards in progress: whose turn it is, and each seat's role only then.

See narrator.web.deal for the page that passes the phone round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


class PhoneDeal:
    def __init__(self, roles: Sequence[str], on_done: Callable[[], None] | None = None) -> None:
        self._roles = list(roles)
        self.seat = 1  # whose turn it is; len + 1 once everyone has seen theirs
        self._on_done = on_done

    @property
    def seats(self) -> int:
        return len(self._roles)

    @property
    def closed(self) -> bool:
        return self.seat > self.seats

    def peek(self) -> str:
        """The role of the seat whose turn it is (nothing once the deal is closed)."""
        if self.closed:
            raise LookupError("the deal is over")
        return self._roles[self.seat - 1]

    def pass_on(self) -> None:
        if self.closed:
            return
        self.seat += 1
        if self.closed:
            self._roles = []  # nothing left to ask for
            if self._on_done is not None:
                self._on_done()
