"""Malformed requests (an over-long URL, a bad header, TLS spoken to a plain port) in the
log as one line each, never a traceback: aiohttp logs its parser's refusal with the whole
stack, and on a laptop that log is the keypad's own terminal. The client still gets
aiohttp's 400; a fault that is not a malformed request keeps its traceback."""

from __future__ import annotations

import logging

from aiohttp.http_exceptions import HttpProcessingError

# The logger aiohttp's request handlers write to (AppRunner's `logger`).
REQUESTS = logging.getLogger("narrator.web.requests")


class OneLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            what = " ".join(str(exc.message).split())
            if len(what) > 120:
                what = what[:117] + "..."
            said = record.getMessage().replace("Error handling request",
                                                "the page refused a malformed request")
            record.msg = "%s (%s %s: %s)"
            record.args = (said, exc.code, type(exc).__name__, what)
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


REQUESTS.addFilter(OneLine())
