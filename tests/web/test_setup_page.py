"""The set-up page: the rule set's declared settings with their defaults, and choices that
can't be played refused on the page with the reason, nothing started."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestClient

from narrator.box.evening import Evening
from narrator.evening import GameSetup
from narrator.rules.loader import load_bundled
from narrator.rules.settings import describe
from tests.web.harness import PIN, Table, serve_table

Client = TestClient[web.Request, web.Application]


def run(tmp: Path, body: Callable[[Table, Client, Evening], Awaitable[None]]) -> None:
    async def main() -> None:
        async with serve_table(tmp) as (table, client):
            # The evening of a box whose game has just ended: a start is taken, not played here.
            evening = Evening(tmp / "evening", GameSetup())
            table.server.evening = evening
            r = await client.post("/login", data={"pin": PIN, "next": "/setup"}, allow_redirects=False)
            assert r.status == 303
            await body(table, client, evening)

    asyncio.run(main())


def ten(**extra: str) -> dict[str, str]:
    form = {"rules": "sport", "seats": "10", "lang": "en", "deal": "cards", "tournament": "Cup"}
    form.update({f"name{i}": f"Name {i}" for i in range(1, 11)})
    # A browser sends a ticked box as "on" and leaves an unticked one out.
    form.update({f"set.{s['key']}": "on" for s in describe(load_bundled("sport"))
                 if s["kind"] == "bool" and s["default"]})
    form.update(extra)
    return form


def test_the_form_lists_the_rule_set_s_settings_with_defaults(tmp_path: Path) -> None:
    async def body(table: Table, client: Client, evening: Evening) -> None:
        page = await (await client.get("/setup")).text()
        assert 'name="set.day.speech" value="60"' in page
        # 000/001 have no best move: offered, not ticked (the tournament practice).
        assert 'name="set.best_move"' in page and 'name="set.best_move" checked' not in page
        assert page.count('name="name') == 10
        page = await (await client.get("/setup?rules=boxed&seats=13&lang=ru")).text()
        assert page.count('name="name') == 13 and "Игроков" in page

    run(tmp_path, body)


def test_unplayable_choices_are_refused_with_the_reason_and_nothing_starts(tmp_path: Path) -> None:
    async def body(table: Table, client: Client, evening: Evening) -> None:
        cases = [
            (ten(name3="Name 1"), "The same name as seat 1."),
            (ten(name4=""), "A name is needed here, or leave every name blank."),
            (ten(name5="x" * 41), "At most 40 characters."),
            (ten(name6="Bad\x07name"), "No control characters"),
            (ten(seats="7"), "played by 10 to 10 players"),
            (ten(seats=""), "played by 10 to 10 players"),
            (ten(**{"set.day.speech": "5000"}), "Must be from 10 to 300."),
            (ten(**{"set.day.speech": "soon"}), "Not a number."),
            (ten(table="0"), "A whole number from 1 to 9999."),
            (ten(name7="name 2"), "The same name as seat 2."),
        ]
        for form, reason in cases:
            r = await client.post("/setup", data=form, allow_redirects=False)
            assert r.status in (400, 409), form
            assert reason in await r.text(), reason
        assert not evening.starting
        r = await client.post("/setup", data=ten(**{"set.day.speech": "45"}), allow_redirects=False)
        assert r.status == 303 and r.headers["Location"] == "/game"
        assert evening.starting
        started = evening.setup
        assert started.names == tuple(f"Name {i}" for i in range(1, 11))
        assert dict(started.settings) == {"day.speech": 45} and started.event.tournament == "Cup"
        # The form offers the same names again.
        page = await (await client.get("/setup")).text()
        assert 'name="name10" value="Name 10"' in page

    run(tmp_path, body)


def test_the_boxed_special_roles_are_chosen_by_ticks_and_checked_against_the_table(
        tmp_path: Path) -> None:
    async def body(table: Table, client: Client, evening: Evening) -> None:
        page = await (await client.get("/setup?rules=boxed&seats=9&lang=ru")).text()
        assert 'name="set.setup.roles.turncoat"' in page and "Перевёртыш" in page
        form = {"rules": "boxed", "seats": "9", "lang": "en", "deal": "cards",
                "set.day.votes_default_to_last": "on", "set.day.reveal_role": "on",
                "set.setup.follow_table": "on", "set.day.self_nomination": "on"}
        too_many = {**form, "set.setup.roles.doctor": "on", "set.setup.roles.spy": "on",
                    "set.setup.roles.boss": "on"}
        r = await client.post("/setup", data=too_many, allow_redirects=False)
        assert r.status in (400, 409)
        assert "town specials: 2 named, 1 in" in await r.text()
        assert not evening.starting
        fits = {**form, "set.setup.roles.spy": "on", "set.setup.roles.ninja": "on"}
        r = await client.post("/setup", data=fits, allow_redirects=False)
        assert r.status == 303
        # Ticked, "hold to the table" is the setting (003: the table is a recommendation).
        assert dict(evening.setup.settings) == {"setup.roles": ["spy", "ninja"],
                                                "setup.follow_table": True}
        # «Играть можно и большим составом»: 24 seats held to the table are refused with
        # the setting to untick; off the table the box's own choice plays them.
        big = {k: v for k, v in form.items() if k != "set.setup.follow_table"}
        r = await client.post("/setup", data={**form, "seats": "24"}, allow_redirects=False)
        assert r.status in (400, 409)
        assert "Hold the game to the booklet" in await r.text()
        r = await client.post("/setup", data={**big, "seats": "24"}, allow_redirects=False)
        assert r.status == 303
        assert evening.setup.seats == 24

    run(tmp_path, body)


def test_starting_needs_the_pin(tmp_path: Path) -> None:
    async def body(table: Table, client: Client, evening: Evening) -> None:
        await client.post("/logout")
        r = await client.post("/setup", data=ten(), allow_redirects=False)
        assert r.status == 303 and r.headers["Location"].startswith("/login")
        r = await client.post("/api/abandon")
        assert r.status == 401
        assert not evening.starting

    run(tmp_path, body)


def test_a_preset_fills_the_settings_and_the_form_changes_go_over_it(tmp_path: Path) -> None:
    async def body(table: Table, client: Client, evening: Evening) -> None:
        page = await (await client.get("/setup")).text()
        assert '<select name="preset" data-refresh>' in page and "Tournament practice" in page
        assert 'name="set.draw_after_idle_rounds" value="0"' in page
        # Choosing the preset renders the form again with its values.
        page = await (await client.get("/setup?rules=sport&seats=10&lang=ru&preset=tournament")).text()
        assert '<option value="tournament" selected>' in page and "Набор настроек" in page
        assert 'name="set.draw_after_idle_rounds" value="3"' in page
        assert 'name="set.day.lift_two_of_four" checked' not in page
        # The form as shown, with one timer changed: the preset plus the change.
        shown = {k: v for k, v in ten(preset="tournament").items()
                 if k not in ("set.day.lift_two_of_four", "set.day.lift_three_of_nine")}
        shown.update({"set.draw_after_idle_rounds": "3", "set.third_foul": "tournament",
                      "set.fouls.cancel_vote": "nearest", "set.day.speech": "45"})
        r = await client.post("/setup", data=shown, allow_redirects=False)
        assert r.status == 303
        settings = dict(evening.setup.settings)
        assert settings["third_foul"] == "tournament" and settings["draw_after_idle_rounds"] == 3
        assert settings["fouls.cancel_vote"] == "nearest" and settings["day.speech"] == 45
        assert settings["day.lift_two_of_four"] is False
        # A rule set without presets offers none; a preset it lacks is dropped.
        page = await (await client.get("/setup?rules=club&seats=10&lang=en&preset=tournament")).text()
        assert 'name="preset"' not in page

    run(tmp_path, body)


def test_the_input_method_is_chosen_per_game_in_both_languages(tmp_path: Path) -> None:
    async def body(table: Table, client: Client, evening: Evening) -> None:
        page = await (await client.get("/setup")).text()
        assert '<select name="input">' in page and '<option value="auto" selected>' in page
        assert "the private keypad alone" in page
        page = await (await client.get("/setup?rules=sport&seats=10&lang=ru&input=keypad")).text()
        assert "Игроки вводят" in page
        assert '<option value="keypad" selected>только тайной клавиатурой</option>' in page
        r = await client.post("/setup", data=ten(input="keypad"), allow_redirects=False)
        assert r.status == 303 and evening.setup.input == "keypad"
        r = await client.post("/setup", data=ten(input="fingers"), allow_redirects=False)
        assert r.status == 303 and evening.setup.input == "auto"  # not a choice: the box's own

    run(tmp_path, body)


def test_a_box_with_nowhere_to_show_answers_refuses_private_checks_on_the_page(tmp_path: Path) -> None:
    from narrator.evening.answers import answer_display_problem

    async def body(table: Table, client: Client, evening: Evening) -> None:
        evening.box_check = lambda setup: answer_display_problem(setup, "no seat panel")
        r = await client.post("/setup", data=ten(lang="ru"))
        page = await r.text()
        assert r.status == 400 and "Этой коробке негде показать ответы проверок" in page
        assert not evening.starting  # nothing started
        form = {**ten(rules="classic", lang="en"), "set.answers_public": "on"}
        r = await client.post("/setup", data=form, allow_redirects=False)
        assert r.status == 303 and evening.setup.rules == "classic"
        # A box without pads: a game set for pads is refused beside the choice.
        from narrator.evening import Problem

        evening.box_check = lambda setup: Problem("input", "input_no_pads", "no pads") \
            if setup.input == "pads" else None
        page = await (await client.post("/setup", data=ten(lang="ru", input="pads"))).text()
        assert "У этой коробки нет кнопок у мест." in page

    run(tmp_path, body)


def test_a_table_larger_than_the_box_s_pin_map_is_refused_in_the_page_s_words(
        tmp_path: Path) -> None:
    # Found at a club evening: a 12-seat club game on a box with the 10-seat map was refused
    # on a Russian page with an English line naming the map file's path.
    from narrator.devices.pinmap import load_pin_map

    async def body(table: Table, client: Client, evening: Evening) -> None:
        evening.seat_check = load_pin_map("pins-10").check_seats
        form = {**ten(rules="club", seats="12", lang="ru"), "name11": "Kim", "name12": "Lev"}
        r = await client.post("/setup", data=form)
        page = await r.text()
        assert r.status == 400 and not evening.starting
        assert "Пины этой коробки подключают 10 мест" in page and "pins-16" in page
        assert "pins-10.yaml" not in page and "wires" not in page
        page = await (await client.post("/setup", data={**form, "lang": "en"})).text()
        assert "pin map wires 10 seats: play a smaller table" in page and "pins-10.yaml" not in page

    run(tmp_path, body)


def test_after_a_finished_game_the_form_offers_the_next_game_number(tmp_path: Path) -> None:
    # Found at a club evening: three games started from the set-up page after game 6 were
    # all recorded as "round 2, game 6" (the form kept the last game's number; only the
    # "Next game" button moved it on). An abandoned game is played again: same number.
    from narrator.evening import Event

    async def body(table: Table, client: Client, evening: Evening) -> None:
        evening.setup = GameSetup(names=tuple(f"Name {i}" for i in range(1, 11)),
                                  event=Event("Cup", 1, 2, 6))
        evening.finished = True
        page = await (await client.get("/setup")).text()
        assert 'name="game" value="7"' in page and 'name="round" value="2"' in page
        evening.finished = False
        page = await (await client.get("/setup")).text()
        assert 'name="game" value="6"' in page

    run(tmp_path, body)


def test_the_seat_list_offers_only_the_tables_the_pin_map_wires(tmp_path: Path) -> None:
    # The evening trial: the form offered 11-20 seats on a 10-seat map and refused them only
    # on submit. A smaller table than the map's still plays (spare pads stay dark).
    import re

    from narrator.devices.pinmap import load_pin_map

    def offered(page: str) -> list[int]:
        select = page[page.index('name="seats"'):]
        select = select[:select.index("</select>")]
        return [int(n) for n in re.findall(r"<option[^>]*>(\d+)</option>", select)]

    async def body(table: Table, client: Client, evening: Evening) -> None:
        club = sorted(load_bundled("club").deck)
        assert max(club) > 10  # the rule set alone would offer more than the map wires
        page = await (await client.get("/setup?rules=club&seats=10&lang=en")).text()
        assert offered(page) == club  # no pin map (a laptop's mock pins): all the rule set's
        evening.seat_check = load_pin_map("pins-10").check_seats
        page = await (await client.get("/setup?rules=club&seats=10&lang=en")).text()
        assert offered(page) == [n for n in club if n <= 10]

    run(tmp_path, body)


def test_a_table_the_rules_limit_refuses_in_the_page_s_language(tmp_path: Path) -> None:
    """Classic with 4 mafia at 8 seats (they would win before the first night), boxed
    with a mafia count off the booklet's row: a ru form said why in English."""
    async def body(table: Table, client: Client, evening: Evening) -> None:
        for rules, seats, setting in (("classic", "8", ("set.deck.mafia", "4")),
                                      ("boxed", "6", ("set.setup.mafiosi", "3"))):
            form = {**ten(rules=rules, seats=seats, lang="ru"), setting[0]: setting[1]}
            form = {k: v for k, v in form.items() if not k.startswith("name")}
            r = await client.post("/setup", data=form, allow_redirects=False)
            page = await r.text()
            assert r.status == 400 and not evening.starting, rules
            assert "Ограничения правил не позволяют такие настройки" in page, rules
            assert "players" not in page and "would win" not in page, rules

    run(tmp_path, body)


def test_a_next_game_this_box_cannot_play_is_refused_in_the_page_s_words(tmp_path: Path) -> None:
    async def body(table: Table, client: Client, evening: Evening) -> None:
        from narrator.evening import Problem

        evening.box_check = lambda _setup: Problem("input", "input_no_pads", "no seat pads here")
        r = await client.post("/api/next-game")
        data = await r.json()
        assert r.status == 409 and not evening.starting
        assert data["error"] == "This box cannot play that set-up now: open the set-up to change it."
        assert "no seat pads here" in data["detail"]

    run(tmp_path, body)
