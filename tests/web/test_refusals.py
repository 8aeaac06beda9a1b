"""The page refuses in its own language: the engine's refusals (RuleError.code) and the
page's own reach a Russian page in Russian, and every refusal code has words in both."""

from __future__ import annotations

import ast
import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestClient

import narrator
from narrator.engine.deal import deal
from narrator.rules.loader import load_bundled
from narrator.web.text import text
from tests.web.harness import PIN, Table, serve_table

Client = TestClient[web.Request, web.Application]
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def run(tmp: Path, lang: str, body: Callable[[Table, Client], Awaitable[None]]) -> None:
    async def main() -> None:
        roles = deal(load_bundled("sport"), 10, 3)
        async with serve_table(tmp, roles=roles, seed=3, lang=lang) as (table, client):
            await body(table, client)

    asyncio.run(main())


async def refused(client: Client, action: dict[str, object], status: int = 409) -> dict[str, str]:
    r = await client.post("/api/action", json=action)
    assert r.status == status, action
    data: dict[str, str] = await r.json()
    return data


def russian(words: str) -> bool:
    return bool(re.search("[а-яё]", words, re.I)) and not LATIN_WORD.search(words)


def test_a_paused_day_refuses_in_russian_on_a_russian_page(tmp_path: Path) -> None:
    async def body(table: Table, client: Client) -> None:
        data = await refused(client, {"kind": "foul", "seat": 3}, 401)
        assert data["error"] == "Сначала введите PIN."
        r = await client.post("/login", data={"pin": PIN, "next": "/game"}, allow_redirects=False)
        assert r.status == 303
        await table.until(lambda: table.state.phase == "day" and table.window_running())
        ru = text("ru").table["refusals"]
        data = await refused(client, {"kind": "unfoul", "seat": 5})
        assert data["error"] == ru["into_night"]  # the first speech: the step before is the night
        assert (await client.post("/api/action", json={"kind": "end_speech"})).status == 200
        data = await refused(client, {"kind": "unfoul", "seat": 5})
        assert data["error"] == ru["no_foul"].format(seat=5) == "У игрока 5 нет фола, который можно снять."
        assert data["detail"] == "seat 5 has no foul to take back"  # the English, for the log
        assert (await client.post("/api/action", json={"kind": "pause"})).status == 200
        actions: list[dict[str, object]] = [{"kind": "end_speech"}, {"kind": "nominate", "target": 4},
                                            {"kind": "pause"}, {"kind": "add_time", "seconds": 200}]
        for action in actions:
            data = await refused(client, action)
            assert russian(data["error"]), (action, data)
        data = await refused(client, {"kind": "nominate", "target": 4})
        assert data["error"] == "Игра на паузе: сначала нажмите «Продолжить»."
        data = await refused(client, {"kind": "foul", "seat": "three"}, 400)
        assert russian(data["error"]) and "seat" in data["detail"]

    run(tmp_path, "ru", body)


def test_at_night_a_russian_page_refuses_in_russian(tmp_path: Path) -> None:
    async def body(table: Table, client: Client) -> None:
        r = await client.post("/login", data={"pin": PIN, "next": "/game"}, allow_redirects=False)
        assert r.status == 303
        await table.until(table.window_running)
        assert table.state.phase == "night"
        data = await refused(client, {"kind": "end_speech"})
        assert data["error"] == text("ru").table["refusals"]["at_night"] and russian(data["error"])

    run(tmp_path, "ru", body)


def _codes() -> dict[str, list[set[str]]]:
    """Every refusal code the project names (RuleError/EveningError's second argument, and
    the page's own answer(status, t, "code", ...)), with the parameters each place gives."""
    root = Path(narrator.__file__).parent
    codes: dict[str, list[set[str]]] = {}
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            place = {"RuleError": 1, "EveningError": 1, "answer": 2}.get(name)
            if place is None or len(node.args) <= place:
                continue
            arg = node.args[place]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                given = {k.arg for k in node.keywords if k.arg}
                codes.setdefault(arg.value, []).append(given)
    return codes


def test_every_refusal_code_has_words_in_both_languages() -> None:
    import string

    codes = _codes()
    assert {"paused", "no_foul", "at_night", "sign_in_first", "game_in_play"} <= set(codes)
    for lang in ("en", "ru"):
        words = text(lang).table["refusals"]
        assert not sorted(c for c in codes if not isinstance(words.get(c), str)), lang
        for code, places in codes.items():  # the words name only what every place gives
            wanted = {n for _, n, _, _ in string.Formatter().parse(words[code]) if n}
            assert all(wanted <= given for given in places), (lang, code, wanted, places)
