"""A game set up on the page with ten names ends with those names on the protocol sheet.

The page hands the names to the evening's set-up, which puts them in the journal's header
(tests/web/test_browser.py sees them there and on the page); the protocol writes them on
the sheet and in `players[].name` (issue 12 item 4)."""

from __future__ import annotations

import json
from pathlib import Path

from narrator.engine.actions import WindowClosed
from narrator.errors import RuleError
from narrator.evening import GameSetup
from narrator.records.session import GameSession
from narrator.sim.players import Table as Players
from narrator.web.setup import SetupForm, check
from narrator.web.text import text

NAMES = ["Ann", "Boris", "Chloé", "Dmitri", "Eve", "Farid", "Gala", "Hugo", "Irina", "Jack"]


def test_the_page_s_names_reach_the_protocol_sheet(tmp_path: Path) -> None:
    form = SetupForm(names=list(NAMES), deal="phone", fields={"tournament": "Cup"})
    errors: dict[str, str] = {}
    setup = check(form, text("en"), errors)
    assert isinstance(setup, GameSetup) and not errors
    session, _opening = GameSession.start(tmp_path, setup.header(seed=4))
    players = Players(session.game.engine.rules, 4)
    for _ in range(5000):
        st = session.game.state
        if st.phase == "over":
            break
        window = st.window
        for action in players.respond(st):
            try:
                session.apply(action, 0.0)
            except RuleError:
                continue
            if session.game.over:
                break
        if not session.game.over and session.game.state.window == window:
            session.apply(WindowClosed(window), 0.0)
    assert session.files is not None
    sheet = session.files.html.read_text(encoding="utf-8")
    assert all(name in sheet for name in NAMES)
    data = json.loads(session.files.json.read_text(encoding="utf-8"))
    assert [p["name"] for p in data["players"]] == NAMES
