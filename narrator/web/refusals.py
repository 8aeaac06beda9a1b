"""A refusal in the page's language: the words the page shows when it refuses a request.

The engine refuses in English (its messages go to the log and the journal's readers) and
names each refusal the page can meet with a code (RuleError.code); the page's words say it
(narrator/web/words: `refusals.<code>`). A refusal with no words of its own, or none of the
page's, shows as the general "not allowed now": never the English message on a Russian
page. The JSON answer keeps the English as `detail`, for scripts and the log.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from narrator.errors import RuleError
from narrator.web.text import Text

GENERAL = "other"


def words(t: Text, code: str, **params: Any) -> str:
    """The page's words for refusal `code` (the general refusal for an unknown code)."""
    table = t.table.get("refusals", {})
    template = table.get(code)
    if not isinstance(template, str):
        template = table[GENERAL]
    try:
        return str(template.format(**params))
    except (KeyError, IndexError):  # words that name what the refusal did not give
        return str(table[GENERAL])


def answer(status: int, t: Text, code: str, detail: str = "", **params: Any) -> web.Response:
    """A JSON refusal: `error` in the page's language, `detail` the English reason."""
    body = {"error": words(t, code, **params), "code": code, "detail": detail or code}
    return web.json_response(body, status=status, headers={"Cache-Control": "no-store"},
                             dumps=_dumps)


def rule_answer(status: int, t: Text, exc: RuleError) -> web.Response:
    """The engine's refusal `exc`, in the page's words for its code."""
    return answer(status, t, exc.code or GENERAL, str(exc), **exc.params)


def _dumps(obj: Any) -> str:
    import json

    return json.dumps(obj, ensure_ascii=False)
