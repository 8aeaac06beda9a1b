"""Judge mode behind the page: the judge's signed-in page enters the night, sees the roles
and the checks' answers; nobody else is served any of it, and the table hears the same
night whatever the judge enters (narrator/web/judge.py)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from narrator.engine.actions import Tap
from narrator.engine.deal import deal
from narrator.engine.effects import OpenWindow
from narrator.engine.tasks import AnswerWindow, CallOut, NightInput
from narrator.evening import GameSetup
from narrator.evening.judging import judge_takes_it
from narrator.records.journal import GameHeader
from narrator.rules.loader import load_bundled
from narrator.web.text import text
from tests.web.harness import PIN, Client, Served, Table

SEED = 11
SPORT = tuple(load_bundled("sport").roles)
# A role's name as a whole word, in either language ("Don", not "Done").
ROLE_TEXT = re.compile(r"\b(" + "|".join(sorted({*SPORT, *(text(lang).role(r) for lang in ("en", "ru")
                                                             for r in SPORT)})) + r")\b",
                       re.IGNORECASE)


def cards() -> tuple[list[str], list[int], int, int, list[int]]:
    roles = deal(load_bundled("sport"), 10, SEED)
    black = [s for s, r in enumerate(roles, 1) if r in ("mafia", "don")]
    civilians = [s for s, r in enumerate(roles, 1) if r == "civilian"]
    return roles, black, roles.index("don") + 1, roles.index("sheriff") + 1, civilians


async def sign_in(client: Client) -> None:
    r = await client.post("/login", data={"pin": PIN, "next": "/game"}, allow_redirects=False)
    assert r.status == 303


async def step_open(table: Table, step: str) -> None:
    """Until the step's input window runs (a meeting's, or the first number of its call-out)."""
    def there() -> bool:
        task = table.state.current
        return isinstance(task, CallOut | NightInput) and task.step == step and table.window_running()

    await table.until(there)


async def enter(client: Client, table: Table, step: str, **body: Any) -> dict[str, Any]:
    await step_open(table, step)
    r = await client.post("/api/judge", json={"step": step, "night": table.state.number, **body})
    assert r.status == 200, await r.text()
    data: dict[str, Any] = await r.json()
    return data


def test_only_a_signed_in_page_of_a_judged_game_sees_the_roles(served: Served) -> None:
    roles, *_ = cards()

    async def main() -> None:
        async with served(roles=roles, seed=SEED, judge=False) as (table, client):
            # Not signed in: the page sends to the PIN, the API refuses; nothing of the game.
            r = await client.get("/judge", allow_redirects=False)
            assert r.status == 303 and r.headers["Location"] == "/login?next=/judge"
            r = await client.get("/api/judge")
            assert r.status == 401 and not ROLE_TEXT.search(await r.text())
            r = await client.post("/api/judge", json={"step": "mafia_meet", "night": 0, "seats": [1]})
            assert r.status == 401
            # Signed in, but no judge at this table: the organiser may be a player, so
            # still no role, and no entry is taken.
            await sign_in(client)
            await table.until(lambda: table.state.phase == "night" and table.state.number == 1)
            await step_open(table, "mafia_shot")
            page = await (await client.get("/judge")).text()
            state = await (await client.get("/api/judge")).json()
            for shown in (page, state["html"]):
                assert "This game has no judge" in shown
                assert not ROLE_TEXT.search(shown), shown
            r = await client.post("/api/judge", json={"step": "mafia_shot", "night": 1, "target": 3})
            assert r.status == 409 and (await r.json())["code"] == "judge_off"
            assert table.state.taps == []

    asyncio.run(main())


def test_the_judge_enters_night_zero_and_the_night_and_reads_the_checks(served: Served,
                                                                         tmp_path: Path) -> None:
    roles, black, don, sheriff, civilians = cards()

    async def main() -> None:
        async with served(seed=SEED, judge=True) as (table, client):
            await sign_in(client)
            # Night zero: the judge taps the seats that hold each card as its meeting is called.
            first = await enter(client, table, "mafia_meet", seats=black)
            assert f"Entered: seats {', '.join(map(str, black))}." in first["html"]
            assert ": the meeting" in first["html"]  # not "they wake up" (issue 33)
            one = await enter(client, table, "don_meet", seats=[don])
            # One seat is "seat 4", not "seats 4" (issue 33).
            assert f"Entered: seat {don}." in one["html"] and "Don: the meeting" in one["html"]
            await enter(client, table, "sheriff_meet", seats=[sheriff])
            await table.until(lambda: table.state.phase == "day")
            assert table.state.roles[1:] == roles  # learned from the judge's entries alone
            page = await (await client.get("/judge")).text()
            shown = re.findall(r'data-seat="(\d+)" data-role="(\w*)"', page)
            assert [r for _, r in shown] == roles

            # Night 1: the shot, the don's check of the sheriff, the sheriff's of a black seat.
            await table.until(lambda: table.state.phase == "night")
            await enter(client, table, "mafia_shot", target=civilians[0])
            # Once entered, the step takes nothing more, nor a step that is not open.
            r = await client.post("/api/judge", json={"step": "mafia_shot", "night": 1, "target": 2})
            assert r.status == 409 and (await r.json())["code"] == "judge_entered_already"
            r = await client.post("/api/judge", json={"step": "sheriff_check", "night": 1, "target": 2})
            assert r.status == 409 and (await r.json())["code"] == "judge_step_over"
            await enter(client, table, "don_check", target=sheriff)
            await table.until(lambda: isinstance(table.state.current, AnswerWindow))
            answer = (await (await client.get("/api/judge")).json())["html"]
            assert f"Is seat {sheriff} Sheriff?" in answer and '<p class="big">Yes</p>' in answer
            await enter(client, table, "sheriff_check", target=civilians[1])
            await table.until(lambda: isinstance(table.state.current, AnswerWindow)
                              and table.state.current.step == "sheriff_check")
            answer = (await (await client.get("/api/judge")).json())["html"]
            assert f"Is seat {civilians[1]} black?" in answer and '<p class="big">No</p>' in answer
            await table.until(lambda: table.state.phase == "day")
            assert [(e.seat, e.how) for e in table.state.eliminations] == [(civilians[0], "shot")]
            log = (await (await client.get("/api/judge")).json())["html"]
            assert f"Night 1 · Mafia, Don: {civilians[0]}" in log

            # Journalled like the keypad's input: the night's actions from the judge.
            lines = [json.loads(x) for x in table.session.journal.path.read_text().splitlines()]
            header = lines[0]["header"]
            assert header["judge"] is True
            actions = [x["action"] for x in lines[1:] if "action" in x]
            assert [a["number"] for a in actions if a["kind"] == "entry"] == [*black, don, sheriff]
            assert [a["target"] for a in actions if a["kind"] == "choose"] == \
                [civilians[0], sheriff, civilians[1]]
            assert table.box.night_inputs["judge"] == len(black) + 2 + 3
            protocol = table.session.protocol.to_json()
            assert protocol["game"]["judge"] is True
            checks = protocol["nights"][1]["checks"]
            assert [(c["step"], c["target"], c["answer"]) for c in checks] == [
                ("don_check", sheriff, "yes"), ("sheriff_check", civilians[1], "no")]

    asyncio.run(main())


async def _night(tmp: Path, entries: dict[str, int]) -> tuple[list[Any], list[bytes], list[Any], list[int]]:
    """Night 1 of a judged game; the judge enters `entries` (step: target) as each step
    opens. What the public (and the signed-in organiser's game page) is served at every
    moment, what the table hears and when, and every window opened."""
    from aiohttp.test_utils import TestClient, TestServer

    roles, *_ = cards()
    table = Table(tmp, roles=roles, seed=SEED, judge=True)
    anon: Client = TestClient(TestServer(table.server.app))
    judge: Client = TestClient(TestServer(table.server.app))
    await anon.start_server()
    await judge.start_server()
    await sign_in(judge)
    windows: list[tuple[float, str, float]] = []
    table.box.listeners.append(lambda _a, effects: windows.extend(
        (table.clock.now(), e.purpose, e.seconds) for e in effects if isinstance(e, OpenWindow)
        and table.state.phase == "night"))
    stream = table.server.hub.subscribe()
    snaps: list[Any] = []
    messages: list[bytes] = []
    try:
        await table.until(lambda: table.state.phase == "night" and table.state.number == 1)
        while not stream.empty():
            stream.get_nowait()
        while table.state.phase == "night":
            task = table.state.current
            if isinstance(task, CallOut) and task.step in entries and table.window_running():
                target = entries.pop(task.step)
                r = await judge.post("/api/judge", json={"step": task.step, "night": 1,
                                                         "target": target})
                assert r.status == 200, await r.text()
            for _ in range(3):
                await asyncio.sleep(0)
            if table.state.phase != "night":
                break
            snaps.append((table.clock.now(), await (await anon.get("/api/state")).read(),
                          await (await anon.get("/game")).read(),
                          await (await judge.get("/game")).read(),
                          await (await judge.get("/api/state")).read()))
            while not stream.empty():
                messages.append(stream.get_nowait())
            assert await table.step()
        assert not entries, f"steps never opened: {entries}"
        await table.until(lambda: table.state.phase == "day")
        night_said = [s for s in table.box.performer.spoken if s.phase == "night-1"]
        return [snaps, night_said], messages, windows, [e.seat for e in table.state.eliminations]
    finally:
        await anon.close()
        await judge.close()
        await table.box.stop()


def test_the_table_hears_and_sees_the_same_night_whatever_the_judge_enters(tmp_path: Path) -> None:
    _roles, black, _don, sheriff, civilians = cards()
    a = asyncio.run(_night(tmp_path / "a", {"mafia_shot": civilians[0], "don_check": civilians[1],
                                            "sheriff_check": black[0]}))
    b = asyncio.run(_night(tmp_path / "b", {"mafia_shot": civilians[2], "don_check": sheriff,
                                            "sheriff_check": civilians[3]}))
    c = asyncio.run(_night(tmp_path / "c", {}))  # the judge entered nothing at all
    (snaps_a, said_a), messages_a, windows_a, out_a = a
    (snaps_b, said_b), messages_b, windows_b, out_b = b
    (snaps_c, said_c), messages_c, windows_c, out_c = c
    assert len(snaps_a) > 30 and len(said_a) > 30
    # The same words at the same moments, every window as long and opened at the same time.
    assert said_a == said_b == said_c
    assert windows_a == windows_b == windows_c
    assert {"answer", "callout"} <= {w[1] for w in windows_a}
    # Not signed in, or signed in on the game page: the same bytes, nothing of the night.
    assert snaps_a == snaps_b == snaps_c
    assert messages_a == messages_b == messages_c and len(messages_a) > 10
    for snap in snaps_a:
        for served in snap[1:3]:  # not signed in: no role word at all
            assert not ROLE_TEXT.search(served.decode()), served[:300]
        # Signed in, the cue being said as well (it names roles, never a seat's: issue 33,
        # a table without a speaker reads the night from the page), and nothing else.
        page = re.sub(r'<p class="said">[^<]*</p>', "", snap[3].decode())
        state = json.loads(snap[4])
        state["said"] = ""
        assert not ROLE_TEXT.search(page), page[:300]
        assert not ROLE_TEXT.search(json.dumps(state)), state
    # The entries did count: the morning differs.
    assert out_a == [civilians[0]] and out_b == [civilians[2]] and out_c == []


def test_a_judged_game_takes_no_night_choice_from_the_pads_or_the_keypad(served: Served) -> None:
    roles, black, *_ = cards()

    async def main() -> None:
        async with served(roles=roles, seed=SEED, judge=True) as (table, _client):
            await table.until(lambda: table.state.phase == "night" and table.state.number == 1)
            await step_open(table, "mafia_shot")
            box = table.box
            for source in ("pads", "keypad", "voice"):
                assert judge_takes_it(box, Tap(black[0]), source)
            assert not judge_takes_it(box, Tap(black[0]), "judge")
            await table.until(lambda: table.state.phase == "day")
            assert not judge_takes_it(box, Tap(black[0]), "pads")  # the day's votes are the table's
        async with served(roles=roles, seed=SEED) as (table, _client):
            await table.until(lambda: table.state.phase == "night" and table.state.number == 1)
            assert not judge_takes_it(table.box, Tap(black[0]), "pads")

    asyncio.run(main())


def test_the_judge_is_a_set_up_choice_kept_in_the_header() -> None:
    setup = GameSetup.from_json({"judge": True})
    assert setup.judge and setup.to_json()["judge"] is True
    header = setup.header(seed=3)
    assert header.judge and header.to_json()["judge"] is True
    again = GameHeader.from_json(json.loads(json.dumps(header.to_json())), "journal")
    assert again.judge and GameSetup.from_header(again).judge
    # Journals from before judge mode read as games without a judge; a wrong type is refused.
    plain = GameSetup().header(seed=3).to_json()
    assert "judge" not in plain and not GameHeader.from_json(plain, "journal").judge
    try:
        GameSetup.from_json({"judge": "yes"})
    except Exception as exc:  # SetupError: one line naming the field
        assert "judge must be true or false" in str(exc)
    else:
        raise AssertionError("a judge that is not true or false was taken")


@pytest.mark.parametrize(("rules", "seats", "lang"), [("sport", 10, "ru"), ("classic", 10, "en"),
                                                      ("club", 10, "en"), ("boxed", 20, "ru")])
def test_every_night_step_of_every_rule_set_is_entered_on_the_judges_page(
        served: Served, rules: str, seats: int, lang: str) -> None:
    """Two nights of each bundled rule set (boxed: its default special roles at 20 seats,
    club: the doctor, lover and maniac): every step the box calls shows its screen in the page's language and
    takes the judge's entry, or says why there is nothing to enter."""
    from narrator.rules.loader import load

    roles = deal(load(rules), seats, SEED)

    async def main() -> None:
        async with served(rules=rules, seats=seats, roles=roles, seed=SEED, lang=lang,
                          judge=True) as (table, client):
            await sign_in(client)
            seen: set[tuple[int, str]] = set()
            entered: list[str] = []
            while table.state.phase != "over" and table.state.number <= 2:
                st = table.state
                task = st.current
                if st.phase == "night" and isinstance(task, CallOut | NightInput) \
                        and (st.number, task.step) not in seen and table.window_running():
                    seen.add((st.number, task.step))
                    html = (await (await client.get("/api/judge")).json())["html"]
                    assert re.search(r"\bjudge_\w+", html) is None, html  # every word there
                    assert f'data-step="{task.step}"' in html
                    if 'class="jentry"' not in html:
                        continue  # nobody alive acts, or the cards are known
                    living = [s for s in range(1, seats + 1) if st.alive[s]]
                    meeting = 'data-meeting="1"' in html
                    for target in living:
                        body = {"seats": [target]} if meeting else {"target": target}
                        r = await client.post("/api/judge", json={"step": task.step,
                                                                  "night": st.number, **body})
                        if r.status == 200:
                            entered.append(task.step)
                            assert 'class="jentered"' in (await r.json())["html"]
                            break
                        # A target the rules forbid (a doctor's seat of last night...):
                        # refused in words, nothing taken; the judge taps another.
                        refusal = await r.json()
                        assert r.status == 409 and refusal["error"], refusal
                    else:
                        raise AssertionError(f"{task.step}: no seat was taken")
                if not await table.step():
                    break
            steps = {s.id for s in table.box.game.engine.rules.night if s.first_night > 0
                     or s.last_night is None}
            deck = table.state.deck
            called = {s for s in steps if any(r in deck for r in
                                              table.box.game.engine.rules.step_index[s].roles)}
            assert {step for _, step in seen} >= called
            assert entered and table.box.night_inputs["judge"] >= len(entered)

    asyncio.run(main())
