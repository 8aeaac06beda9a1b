"""Protocol sheets a club can hand to its rating: names, tournament fields, points by the
rule set's scoring, human role names in the sheet's language, local readable times, no
period after the game was decided, a best move only where the rules have one, a 16-seat
game on one A4 page (printed by headless chromium), the Polemica record with the names."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import partial
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.engine.effects import Effect
from narrator.engine.game import Game
from narrator.engine.state import State
from narrator.errors import RecordError
from narrator.records.export_polemica import to_polemica
from narrator.records.extra_points import give_extra_points
from narrator.records.protocol import ProtocolBuilder, score_players
from narrator.records.protocol_html import played, render_html, words
from narrator.rules.loader import load_bundled
from narrator.rules.scoring import points, scoring_of
from narrator.sim.selfplay import play

RU_NAMES = ["Анна", "Борис", "Виктор", "Галина", "Дмитрий", "Елена", "Жанна", "Зиновий",
            "Игорь", "Кирилл", "Лариса", "Михаил", "Надежда", "Олег", "Павел", "Раиса"]
EN_NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim",
            "Lou", "Max", "Ned", "Oli", "Pam"]
SIZES = {"sport": [10], "club": [10], "classic": [8, 12, 16], "boxed": [6, 9, 12, 16]}


def protocol_of(rules_name: str, seats: int, seed: int, lang: str = "en",
                settings: dict[str, Any] | None = None) -> dict[str, Any]:
    rules = load_bundled(rules_name).with_settings(settings or {})
    names = (RU_NAMES if lang == "ru" else EN_NAMES)[:seats]
    builder = ProtocolBuilder(rules, seats, lang=lang, names=names, started="2026-11-23T19:05:00",
                              event={"tournament": "Кубок" if lang == "ru" else "Cup", "table": 2,
                                     "round": 3, "game": 4})

    def feed(_st: State, effects: list[Effect]) -> None:
        builder.feed(effects, 1_795_000_000.0)

    play(rules, seed, seats=seats, on_effects=feed)
    return builder.to_json()


class Text(HTMLParser):
    """The words a reader sees (no style sheet)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = False

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self._skip = tag in ("style", "title")

    def handle_endtag(self, tag: str) -> None:
        self._skip = False

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _sport_game(lang: str) -> tuple[Game, ProtocolBuilder]:
    """A 10-seat sport game with known cards (mafia 2 and 4, don 7, sheriff 3) and the
    protocol builder that has seen its opening."""
    rules = load_bundled("sport")
    roles = ["civilian", "mafia", "sheriff", "mafia", "civilian", "civilian", "don",
             "civilian", "civilian", "civilian"]
    game = Game(rules, seed=0, roles=roles)
    builder = ProtocolBuilder(rules, 10, lang=lang)
    builder.feed(game.opening)
    return game, builder


def _until(game: Game, builder: ProtocolBuilder, task: object, day: int = 1) -> None:
    """Let the windows run out (feeding the builder) until `task` of day `day` is on."""
    from narrator.engine.actions import WindowClosed

    while game.state.current != task or game.state.number != day:
        builder.feed(game.apply(WindowClosed(game.state.window)))


def visible(html: str) -> str:
    parser = Text()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("rules_name", sorted(SIZES))
def test_role_names_are_human_and_a_russian_sheet_is_russian(rules_name: str, lang: str) -> None:
    for seats in SIZES[rules_name]:
        p = protocol_of(rules_name, seats, seed=seats, lang=lang)
        html = render_html(p)
        text = visible(html)
        for role in load_bundled(rules_name).deck_for(seats):
            assert f">{role}<" not in html, role  # never a raw id in a cell
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
        if lang == "ru":
            # Russian throughout: take away the record's id and no Latin letter is left.
            rest = text.replace(p["game"]["id"], "")
            assert not re.search(r"[A-Za-z]", rest), re.findall(r"\S*[A-Za-z]\S*", rest)
            assert "Протокол игры" in html.split("<body>")[1][:200]
        names = RU_NAMES if lang == "ru" else EN_NAMES
        assert all(n in text for n in names[:seats])


def test_the_sheet_words_are_the_same_in_both_languages() -> None:
    def keys(d: Any, prefix: str = "") -> set[str]:
        if not isinstance(d, dict):
            return {prefix}
        return {k for key, v in d.items() for k in keys(v, f"{prefix}.{key}")}

    assert keys(words("en")) == keys(words("ru"))
    assert len(words("en")["months"]) == len(words("ru")["months"]) == 12


def test_times_are_local_and_readable() -> None:
    assert played("en", "2026-11-23T19:05:12", "2026-11-23T19:52:40") == "23 Nov 2026, 19:05–19:52"
    assert played("ru", "2026-03-01T09:00:00", "") == "1 мар 2026, 09:00"
    p = protocol_of("sport", 10, 3)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", p["game"]["finished"])  # local, no zone
    assert "Played: 23 Nov 2026, 19:05–" in visible(render_html(p))


def test_no_period_after_the_one_the_game_was_decided_in() -> None:
    for rules_name, seats in (("sport", 10), ("classic", 12), ("boxed", 16), ("club", 10)):
        for seed in range(4):
            p = protocol_of(rules_name, seats, seed)
            last = p["eliminations"][-1]
            # Night 0, day 1, night 1, day 2...: night N comes after day N.
            end = (last["number"], last["phase"] == "night")
            periods = [(d["number"], False) for d in p["days"]] + [
                (n["number"], True) for n in p["nights"]]
            assert max(periods) == end, (rules_name, seed, max(periods), end)


def test_best_move_only_where_the_rule_set_has_one() -> None:
    assert "Best move" in visible(render_html(protocol_of("sport", 10, 1, settings={"best_move": True})))
    # 000/001 have none: sport's default sheet has no best move either.
    assert "Best move" not in visible(render_html(protocol_of("sport", 10, 1)))
    for rules_name in ("classic", "boxed", "club"):
        assert "Best move" not in visible(render_html(protocol_of(rules_name, 10, 1)))


def test_sport_points_win_best_move_and_extra() -> None:
    rules = load_bundled("sport")
    scoring = scoring_of(rules)
    assert scoring is not None
    roles = ["civilian", "mafia", "civilian", "don", "sheriff", "civilian", "mafia", "civilian",
             "civilian", "civilian"]
    black = {"seat": 1, "seats": [2, 4, 7]}
    pts = points(scoring, rules, roles, "red", black, {5: 0.3, 2: -0.5})
    assert pts[0] == {"win": 1.0, "best_move": 0.5, "extra": 0.0, "total": 1.5}
    assert pts[1]["total"] == -0.5 and pts[3]["total"] == 0.0 and pts[4]["total"] == 1.3
    two = points(scoring, rules, roles, "black", {"seat": 3, "seats": [2, 4, 5]}, {})
    assert two[2] == {"win": 0.0, "best_move": 0.25, "extra": 0.0, "total": 0.25}
    assert two[1]["total"] == two[3]["total"] == 1.0
    one = points(scoring, rules, roles, "red", {"seat": 3, "seats": [2, 5, 6]}, {})
    assert one[2]["best_move"] == 0.0
    # No points for a draw, and none in rule sets without scoring or before the end.
    assert all(p["total"] == 0 for p in points(scoring, rules, roles, "draw", None, {}))
    for rules_name in ("classic", "boxed", "club"):
        p = protocol_of(rules_name, 10, 2)
        assert p["scoring"] is None and all(pl["points"] is None for pl in p["players"])
        assert "Total" not in visible(render_html(p))
    unfinished = protocol_of("sport", 10, 2)
    unfinished["over"] = False
    score_players(unfinished, rules)
    assert all(pl["points"] is None for pl in unfinished["players"])


def test_a_sport_protocol_has_players_with_names_teams_and_points() -> None:
    p = protocol_of("sport", 10, 5)
    assert [pl["name"] for pl in p["players"]] == EN_NAMES[:10]
    winners = [pl for pl in p["players"] if pl["team"] == p["winner"]]
    assert winners and all(pl["points"] >= 1.0 for pl in winners)
    assert p["game"]["event"] == {"tournament": "Cup", "table": 2, "round": 3, "game": 4}
    text = visible(render_html(p))
    assert "Tournament: Cup" in text and "Table: 2" in text and "Round: 3" in text
    record = to_polemica(p)
    assert [pl["name"] for pl in record["players"]] == EN_NAMES[:10]


@pytest.mark.parametrize(("lang", "said"), [("en", "Vote cancelled"), ("ru", "Голосование отменено")])
def test_a_vote_a_removal_cancelled_is_on_the_sheet(lang: str, said: str) -> None:
    """001: “4 fouls → the player is removed from the game (if they are nominated that
    day, voting is skipped)”: day 1's sheet says the vote was cancelled, whether the
    nominee went before the vote (day 1) or during it (day 2), not just votes that led
    nowhere."""
    from narrator.engine.actions import Foul, Nominate, Remove, Vote
    from narrator.engine.tasks import Speech, VoteOn

    game, builder = _sport_game(lang)
    until = partial(_until, game, builder)

    until(Speech(1))
    builder.feed(game.apply(Nominate(5)))
    until(Speech(2))
    builder.feed(game.apply(Nominate(6)))
    for _ in range(4):
        builder.feed(game.apply(Foul(6)))
    until(Speech(2), day=2)
    builder.feed(game.apply(Nominate(8)))
    until(Speech(3), day=2)
    builder.feed(game.apply(Nominate(9)))
    until(VoteOn(8), day=2)
    builder.feed(game.apply(Vote(1)))
    builder.feed(game.apply(Remove(9)))
    p = builder.to_json()
    assert [d.get("vote_cancelled") for d in p["days"]] == [True, True]
    assert p["days"][1]["votes"] == []  # 8's ballot never closed
    days = visible(render_html(p)).split(words(lang)["day"] + " ")[1:]
    assert len(days) == 2 and all(said in d for d in days)
    assert said not in visible(render_html(protocol_of("sport", 10, seed=1, lang=lang)))


@pytest.mark.parametrize(("lang", "kept", "left"), [
    ("en", "Seat 5, the only nominee: not voted on", "Seat 8, the only nominee: left without a vote"),
    ("ru", "Место 5, единственная кандидатура: не голосовали",
     "Место 8, единственная кандидатура: ушёл без голосования")])
def test_a_lone_nominee_is_on_the_sheet_as_the_rules_treat_them(lang: str, kept: str,
                                                                 left: str) -> None:
    """000: "If only one candidate is nominated for the first round (Day), it is not voted
    on"; 001: "If only one nominee exists, they are eliminated automatically". The sheet
    and the JSON say which happened, not only that the seat was nominated."""
    from narrator.engine.actions import Nominate, WindowClosed
    from narrator.engine.tasks import Speech

    game, builder = _sport_game(lang)
    until = partial(_until, game, builder)

    until(Speech(1))
    builder.feed(game.apply(Nominate(5)))
    until(Speech(2), day=2)
    builder.feed(game.apply(Nominate(8)))
    until(Speech(3), day=2)
    while game.state.phase == "day":
        builder.feed(game.apply(WindowClosed(game.state.window)))
    p = builder.to_json()
    assert [d.get("lone_nominee") for d in p["days"]] == [{"seat": 5, "left": False},
                                                          {"seat": 8, "left": True}]
    assert p["days"][1]["votes"] == [] and not game.state.alive[8] and game.state.alive[5]
    days = visible(render_html(p)).split(words(lang)["day"] + " ")[1:]
    assert len(days) == 2 and kept in days[0] and left in days[1] and left not in days[0]


def test_a_club_lone_nominee_is_not_voted_on_any_day() -> None:
    """004: a vote happens "only if there are at least two players nominated"."""
    p = protocol_of("club", 10, seed=12)  # days 3 and 4 have one nominee each
    lone = [d for d in p["days"] if d.get("lone_nominee")]
    assert [d["lone_nominee"] for d in lone] == [{"seat": 4, "left": False},
                                                 {"seat": 10, "left": False}]
    for d in lone:
        assert d["votes"] == [] and d["lone_nominee"]["seat"] in {
            n["target"] for n in d["nominations"] if not n["withdrawn"]}
    assert "Seat 10, the only nominee: not voted on" in visible(render_html(p))


@pytest.mark.parametrize(("lang", "don", "sheriff", "plain"), [
    ("en", ("sheriff", "not the sheriff"), ("black", "red"), ("yes", "no")),
    ("ru", ("шериф", "не шериф"), ("чёрный", "красный"), ("да", "нет"))])
def test_sport_checks_read_as_what_they_mean(lang: str, don: tuple[str, str],
                                              sheriff: tuple[str, str], plain: tuple[str, str]) -> None:
    """001: the don learns whether the player "is the sheriff"; the sheriff gets "Thumbs
    down — mafia, Thumbs up — villager": the sheet says sheriff / black / red, not yes/no."""
    p = protocol_of("sport", 10, seed=3, lang=lang)
    checks = [c for n in p["nights"] for c in n["checks"]]
    assert {c["step"] for c in checks} == {"don_check", "sheriff_check"}
    text = visible(render_html(p))
    role = {step: words(lang)["by_rules"]["sport"]["checks"][step] for step in ("don_check", "sheriff_check")}
    assert role["don_check"] == dict(zip(("yes", "no"), don, strict=True))
    assert role["sheriff_check"] == dict(zip(("yes", "no"), sheriff, strict=True))
    for c in checks:
        by = ",".join(str(s) for s in c["by"])
        assert f"{by} → {c['target']}: {role[c['step']][c['answer']]}" in text
    assert not any(f": {word} " in text + " " for word in plain)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Winner: red (town) (given for a severe breach by seat 4)"),
    ("ru", "Победа: красные (город) (присуждена за грубое нарушение, место 4)")])
def test_a_forfeit_is_on_the_sheet(lang: str, said: str) -> None:
    """001: a severe night breach gives "an immediate victory for the opposite team": the
    sheet names the winner and whose breach it was."""
    from narrator.engine.actions import Forfeit, WindowClosed

    game, builder = _sport_game(lang)
    while game.state.number < 1 or game.state.phase != "night":
        builder.feed(game.apply(WindowClosed(game.state.window)))
    builder.feed(game.apply(Forfeit(4)))
    p = builder.to_json()
    assert (p["winner"], p["reason"], p["forfeit"]["seat"]) == ("red", "forfeit", 4)
    assert said in visible(render_html(p))


def test_classic_sheet_shows_accusations_and_seconds() -> None:
    p = protocol_of("classic", 10, 1)
    p["days"][0]["accusations"] = [
        {"by": 3, "target": 5, "seconded_by": 7, "voters": [1, 2, 7]},
        {"by": 4, "target": 6, "seconded_by": None, "voters": None}]
    text = visible(render_html(p))
    assert "Accusations: 3→5 (seconded by 7, yes 3); 4→6 (not seconded)" in text


def test_foul_boxes_only_where_the_rule_set_has_fouls() -> None:
    """002 has no fouls (classic refuses them): its sheet has no foul column, while the
    rule sets with fouls keep theirs, and a classic game whose club turned fouls on too."""
    for rules_name in ("classic", "sport", "club", "boxed"):
        shown = "Fouls" in visible(render_html(protocol_of(rules_name, 10, 1)))
        assert shown == load_bundled(rules_name).fouls.enabled, rules_name
    assert not load_bundled("classic").fouls.enabled
    with_fouls = load_bundled("classic").with_settings({"fouls.enabled": True})
    builder = ProtocolBuilder(with_fouls, 10, lang="ru")
    play(with_fouls, 1, seats=10, on_effects=lambda _st, e: builder.feed(e, 1_795_000_000.0))
    assert "Фолы" in visible(render_html(builder.to_json()))


def pages(pdf: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))


def test_a_sixteen_seat_game_fits_one_a4_page(tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    for rules_name in ("boxed", "classic"):
        # The longest of a few games: the most periods to fit.
        p = max((protocol_of(rules_name, 16, seed, "ru") for seed in range(6)),
                key=lambda q: len(q["days"]) + len(q["nights"]))
        page = tmp_path / f"{rules_name}.html"
        page.write_text(render_html(p), encoding="utf-8")
        pdf = tmp_path / f"{rules_name}.pdf"
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--no-pdf-header-footer", f"--user-data-dir={tmp_path / 'profile'}",
                        f"--print-to-pdf={pdf}", page.as_uri()],
                       check=True, capture_output=True, timeout=120)
        assert pages(pdf) == 1, (rules_name, len(p["days"]), len(p["nights"]))
        box = re.search(rb"/MediaBox\s*\[0 0 ([\d.]+) ([\d.]+)\]", pdf.read_bytes())
        assert box and round(float(box[1])) == 842 and round(float(box[2])) == 595  # A4 landscape


def test_extra_points_are_given_after_the_game(tmp_path: Path) -> None:
    assert main(["demo", "--fast", "--state-dir", str(tmp_path), "--names", ",".join(EN_NAMES[:10])]) == 0
    path = next(p for p in (tmp_path / "protocols").glob("*.json") if ".polemica" not in p.name)
    game_id = path.stem
    before = json.loads(path.read_text())
    files = give_extra_points(tmp_path, game_id, {3: 0.4})
    after = json.loads(files.json.read_text())
    assert after["players"][2]["points"] == pytest.approx(before["players"][2]["points"] + 0.4)
    assert after["players"][2]["score"]["extra"] == 0.4
    give_extra_points(tmp_path, game_id, {4: -0.2})
    again = json.loads(files.json.read_text())
    assert again["extra"] == {"3": 0.4, "4": -0.2}
    assert "0.4" in visible(files.html.read_text())
    for bad in ({3: 5.0}, {11: 0.1}):
        with pytest.raises(RecordError):
            give_extra_points(tmp_path, game_id, bad)
    with pytest.raises(RecordError, match="no finished game"):
        give_extra_points(tmp_path, "nosuch", {1: 0.1})
    assert json.loads(files.json.read_text()) == again  # a refusal wrote nothing


def test_demo_with_names_in_russian_writes_a_protocol_a_club_can_submit(tmp_path: Path) -> None:
    names = RU_NAMES[:10]
    assert main(["demo", "--fast", "--state-dir", str(tmp_path), "--lang", "ru",
                 "--names", ",".join(names)]) == 0
    data = json.loads(next(p for p in (tmp_path / "protocols").glob("*.json")
                           if ".polemica" not in p.name).read_text())
    assert [pl["name"] for pl in data["players"]] == names
    assert all(isinstance(pl["points"], float) for pl in data["players"])
    assert sum(pl["points"] for pl in data["players"]) >= 3  # the winning team's points
    html = next((tmp_path / "protocols").glob("*.html")).read_text()
    text = visible(html)
    assert "Протокол игры · Спортивная мафия" in text and "Итого" in text
    assert all(n in text for n in names)
    polemica = json.loads(next((tmp_path / "protocols").glob("*.polemica.json")).read_text())
    assert [pl["name"] for pl in polemica["players"]] == names


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_sheet_names_the_rule_set_as_the_phrase_book_does(lang: str) -> None:
    """One source for a rule set's name: the phrase book (the set-up page, the archive and
    the sheet say the same); the sheet's own words have none."""
    from narrator.phrases.book import PhraseBook

    assert "rule_sets" not in words(lang)
    book = PhraseBook.load(lang)
    for name, sizes in SIZES.items():
        text = visible(render_html(protocol_of(name, sizes[0], 1, lang)))
        assert f"{words(lang)['title']} · {book.rule_sets[name]}" in text
