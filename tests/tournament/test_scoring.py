"""Each scoring of narrator/rules/scorings against a table made by hand: three games of
one table's ten players (player n in seat n), as a box's protocol carries them (who was
shot on the first night, their guess, fouls, a removal, the day's votes), their results
in force, and every scoring's tie-breaks in its own order.

Game A (red wins): seats 1 sheriff, 2 don, 3-4 mafia, 5-10 civilians. Seat 5 is shot on
night 1 and names 2, 3, 4 (three black); seat 6 has 4 fouls; seat 7 is removed; seat 3
(mafia) is voted out by 1, 8, 9 and 2; extra points +0.4 to seat 1.
Game B (black wins): 1 don, 2 sheriff, 5-6 mafia, the rest civilians. Seat 3 (red) is shot
on night 1 and names 5, 6, 7 (two black); seat 4 (a civilian) is voted out by 5 and 6.
Game C (red wins): as A. Seat 4 (mafia) is shot on night 1; extra +0.25 to 8, +1 to 9,
+0.5 to 6.

Wins: p1 3 (all as sheriff or don), p5 3, p6 3, p7-p10 2, p2-p4 0.
The names sort against every tie-break (p1 after p5, p9 after p6, p4 after p2): a tie
left to the names would come out the other way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.errors import ConfigError
from narrator.records.protocol_value import Protocol
from narrator.rules.loader import load_bundled
from narrator.tournament.scoring import Ci, load, names, parse
from narrator.tournament.standings import counted, standings
from narrator.tournament.store import Store

SPORT = load_bundled("sport").with_settings({"best_move": True})
NAMES = ["Yuri", "Carl", "Dana", "Xenia", "Anna", "Boris", "Egor", "Fedor", "Zoe", "Gleb"]  # p1..p10
A_ROLES = ["sheriff", "don", "mafia", "mafia"] + ["civilian"] * 6
B_ROLES = ["don", "sheriff", "civilian", "civilian", "mafia", "mafia"] + ["civilian"] * 4


def protocol(
    uid: str,
    rnd: int,
    roles: list[str],
    winner: str,
    shot: int,
    guess: tuple[int, ...] | None,
    voted: tuple[int, list[int]] | None = None,
    fouls: dict[int, int] | None = None,
    removed: int | None = None,
    extra: dict[str, float] | None = None,
) -> Protocol:
    outs: dict[int, dict[str, Any]] = {shot: {"how": "shot", "phase": "night", "number": 1}}
    days: list[dict[str, Any]] = []
    if voted:
        outs[voted[0]] = {"how": "vote", "phase": "day", "number": 1}
        others = [s for s in range(1, 11) if s not in voted[1] and s not in outs]
        days = [
            {
                "number": 1,
                "nominations": [],
                "votes": [
                    {"round": 1, "candidate": voted[0], "voters": others},  # the first ballot
                    {"round": 2, "candidate": voted[0], "voters": voted[1]},  # the one that counted
                ],
            }
        ]
    if removed:
        outs[removed] = {"how": "removed", "phase": "day", "number": 2}
    order = [(s, o) for s, o in outs.items()]
    return Protocol.from_json(
        {
            "game": {
                "id": uid,
                "rules": "sport",
                "seats": 10,
                "event": {"tournament": "Cup", "table": 1, "round": rnd, "game": rnd},
            },
            "seats": [
                {"seat": s, "role": r, "fouls": (fouls or {}).get(s, 0), "out": outs.get(s)}
                for s, r in enumerate(roles, start=1)
            ],
            "eliminations": [{"seat": s, **o} for s, o in order],
            "days": days,
            "over": True,
            "winner": winner,
            "best_move": {"seat": shot, "seats": list(guess)} if guess else None,
            "extra": extra or {},
        }
    )


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[Any]]:
    store = Store(tmp_path_factory.mktemp("scoring") / "t.sqlite")
    players = [store.add_player(name) for name in NAMES]
    ids = tuple(p.id for p in players)
    store.set_seating([{1: list(ids)}, {1: list(ids)}, {1: list(ids)}])
    played = [
        protocol("A", 1, A_ROLES, "red", 5, (2, 3, 4), (3, [1, 8, 9, 2]), {6: 4}, 7, {"1": 0.4}),
        protocol("B", 2, B_ROLES, "black", 3, (5, 6, 7), (4, [5, 6])),
        protocol("C", 3, A_ROLES, "red", 4, None, extra={"8": 0.25, "9": 1.0, "6": 0.5}),
    ]
    for p in played:
        store.add_order(p.event.round or 0, 1, "Box")
        assert store.keep("Box", p, "journal", list(ids))[0] == "new"
    return store, counted(store.games(), SPORT)


def table(store: Store, games: list[Any], scoring: str) -> list[tuple[int, str, float]]:
    """(place, "p<n>", points) in the standings' order."""
    lines = standings(store.players(), games, SPORT, load(scoring) if scoring else None)
    return [(line.place, f"p{NAMES.index(line.player.name) + 1}", round(line.total, 4)) for line in lines]


def by_player(store: Store, games: list[Any], scoring: str) -> dict[str, Any]:
    lines = standings(store.players(), games, SPORT, load(scoring))
    return {f"p{NAMES.index(line.player.name) + 1}": line for line in lines}


def test_sport_as_before_scorings_were_files(games: tuple[Store, list[Any]]) -> None:
    store, played = games
    expected = [
        (1, "p5", 3.5),  # p5 and p6: equal on every tie-break, one place
        (1, "p6", 3.5),
        (3, "p1", 3.4),
        (4, "p9", 3.0),
        (5, "p8", 2.25),
        (6, "p7", 2.0),
        (6, "p10", 2.0),
        (8, "p3", 0.25),
        (9, "p2", 0.0),
        (9, "p4", 0.0),
    ]
    assert table(store, played, "") == expected  # the rule set's own scoring
    assert table(store, played, "sport") == expected


def test_fiim_guess_penalties_and_its_tie_breaks(games: tuple[Store, list[Any]]) -> None:
    store, played = games
    assert table(store, played, "fiim") == [
        (1, "p1", 3.4),  # p1 and p5 equal in points, extra+penalty+guess, wins: p1 won as sheriff/don
        (2, "p5", 3.4),  # 3 wins + 0.4 for three black named
        (3, "p9", 3.0),  # p9 and p6 equal in points: p9's extra+penalty+guess 1 against 0
        (4, "p6", 3.0),  # 3 wins - 0.5 for 4 fouls + 0.5 extra
        (5, "p8", 2.25),
        (6, "p10", 2.0),
        (7, "p7", 1.5),  # removed: -0.5
        (8, "p3", 0.25),  # two black named: 0.25
        (9, "p4", 0.0),  # p4 and p2 equal but for p4's first-night shot (game C)
        (10, "p2", 0.0),
    ]


def test_mafiaratings_adds_ci_for_a_red_shot_first_in_a_lost_game(games: tuple[Store, list[Any]]) -> None:
    store, played = games
    lines = by_player(store, played, "mafiaratings")
    # p3: shot first in 1 of 3 games, in B, lost: clamp(1.2 x 1/3 - 0.18, 0..0.3) = 0.22.
    assert lines["p3"].ci == pytest.approx(0.22) and lines["p3"].total == pytest.approx(0.47)
    assert lines["p3"].best_move == pytest.approx(0.25)  # the guess shows beside it
    # p5 was shot first in a game the reds won, p4 in one as a black player: no Ci.
    assert lines["p5"].ci == lines["p4"].ci == 0 and lines["p4"].shot_first == 1
    assert [(n, line.place) for n, line in sorted(lines.items(), key=lambda i: i[1].place)][:4] == [
        ("p1", 1),
        ("p5", 2),
        ("p9", 3),
        ("p6", 4),
    ]
    assert lines["p3"].place == 8
    assert lines["p3"].to_json()["ci"] == 0.22 and lines["p3"].by_game[1]["ci"] == 0.22


def test_polemica_votes_awards_and_its_tie_breaks(games: tuple[Store, list[Any]]) -> None:
    store, played = games
    assert table(store, played, "polemica") == [
        (1, "p6", 3.5),  # p6, p1, p5 equal in points; awards 0.5, 0.4, 0 (before special wins)
        (2, "p1", 3.5),  # 3 wins + 0.4 extra + 0.1 voting out seat 3
        (3, "p5", 3.5),  # 3 wins + 0.5 for three black named
        (4, "p9", 3.1),  # 2 + 0.1 vote + 1 extra
        (5, "p8", 2.35),
        (6, "p7", 2.0),
        (6, "p10", 2.0),
        (8, "p3", 0.25),
        (9, "p4", 0.0),  # shot on the first night once: above p2
        (10, "p2", 0.0),
    ]
    # Seat 2 (the don) voted seat 3 out too: a black player's vote gives nothing; nor does
    # the first ballot, nor voting out a red player (game B).
    lines = by_player(store, played, "polemica")
    assert lines["p2"].votes == 0 and lines["p5"].votes == lines["p4"].votes == 0


def test_ci_is_clamped() -> None:
    ci = Ci(1.2, 0.18, 0.3)
    assert ci.points(0, 5) == 0 and ci.points(1, 10) == 0  # 0.12 - 0.18 below 0
    assert ci.points(1, 4) == pytest.approx(0.12) and ci.points(1, 2) == 0.3  # 0.42 above 0.3


def test_every_scoring_file_reads_and_a_bad_one_names_its_key() -> None:
    assert names() == ["fiim", "mafiaratings", "polemica", "sport"]
    for name in names():
        scoring = load(name)
        assert scoring.tie_breaks[0] == "total" and scoring.en and scoring.ru
    with pytest.raises(ConfigError, match=r"x.yaml.*tie_breaks.*'height' is not one"):
        parse("tie_breaks: [total, height]\n", "x.yaml", "x")
    with pytest.raises(ConfigError, match=r"x.yaml.*guess.4"):
        parse("guess: {4: 1}\n", "x.yaml", "x")
    with pytest.raises(ConfigError, match=r"x.yaml.*first_night.*needs most"):
        parse("first_night: {factor: 1, less: 0}\n", "x.yaml", "x")


def test_the_tournament_keeps_its_scoring(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "t"
    first = ["tournament", "--state-dir", str(folder), "--export", str(tmp_path / "out")]
    assert main([*first, "--scoring", "mafiaratings"]) == 0
    kept = Store(folder / "tournament.sqlite").tournament()
    assert kept is not None and kept.scoring == "mafiaratings"
    assert main(first) == 0 and main([*first, "--scoring", "mafiaratings"]) == 0
    capsys.readouterr()
    assert main([*first, "--scoring", "fiim"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--scoring 'fiim' (it is 'mafiaratings')" in err
    assert main([*first, "--scoring", "elo"]) == 2
    assert "one of fiim, mafiaratings, polemica, sport, not 'elo'" in capsys.readouterr().err
    assert "ci" in (tmp_path / "out" / "standings.csv").read_text().splitlines()[0].split(",")
