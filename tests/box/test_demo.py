"""Whole games at a table of simulated players, through the mock pins and the fake keypad
alone: the box learns the roles from night-zero taps, runs every night and day, and
names the winner. The speaker is the fake one (it takes the estimated time on the
virtual clock); the real voice has its own tests."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.demo import DemoOptions, play_demo
from narrator.engine.actions import Action
from narrator.engine.effects import Effect, Phase, SeatLights
from narrator.rules.loader import bundled_names, load_bundled
from narrator.rules.settings import resolved


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_sport_game_on_pads_and_keypad(seed: int) -> None:
    result = asyncio.run(play_demo(DemoOptions(load_bundled("sport"), 10, seed, fast=True)))
    st = result.box.game.state
    assert st.phase == "over" and st.outcome is not None
    assert st.roles[1:] == result.cards  # learned from the taps at night zero
    assert result.box.refused == 0  # the players only did what the rules allowed
    assert st.eliminations, "somebody left the table"
    spoken = result.box.performer.spoken
    assert spoken[0].cue == "night_zero" and spoken[-2].cue.startswith("win_")
    assert spoken[-1].cue.startswith("reason_")  # the winner, then why
    # Night zero only meets; shots start on night 1.
    assert all(e.phase == "day" or e.number >= 1 for e in st.eliminations)


@pytest.mark.parametrize("name", bundled_names())
def test_every_rule_set_plays_a_whole_game(name: str) -> None:
    rules = load_bundled(name)
    result = asyncio.run(play_demo(DemoOptions(rules, rules.min_seats, 5, fast=True)))
    assert result.box.game.over
    assert result.box.game.state.roles[1:] == result.cards


@pytest.mark.parametrize("name", bundled_names())
def test_every_rule_set_plays_on_the_keypad_alone(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--rules", name, "--input", "keypad", "--fast", "--json",
                 "--no-state"]) == 0
    protocol = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert protocol["winner"] in ("red", "black", "maniac", "draw")
    inputs, night = protocol["inputs"], protocol["night_inputs"]
    assert set(inputs) == {"pads", "keypad", "voice", "page", "judge"}
    assert inputs["pads"] == 0 and inputs["keypad"] > 0
    # Every night input (night zero's meetings included) came from the keypad.
    assert night["keypad"] > 0 and night["pads"] == night["voice"] == night["page"] == night["judge"] == 0


def test_keypad_play_learns_the_cards_and_nothing_is_refused() -> None:
    rules = load_bundled("club")
    result = asyncio.run(play_demo(DemoOptions(rules, 10, 4, fast=True, keypad_only=True)))
    assert result.box.game.over
    assert result.box.game.state.roles[1:] == result.cards
    assert result.box.refused == 0


def test_seat_lights_are_dark_at_night_and_show_the_speaker_in_the_day() -> None:
    seen: list[tuple[str, SeatLights]] = []
    phase = ["night-0"]

    def track(_now: float, _action: Action | None, effects: list[Effect]) -> None:
        for e in effects:
            if isinstance(e, Phase):
                phase[0] = e.label
            if isinstance(e, SeatLights):
                seen.append((phase[0], e))

    asyncio.run(play_demo(DemoOptions(load_bundled("sport"), 10, 2, fast=True), on_effects=track))
    night = [lights for label, lights in seen if label.startswith("night")]
    day = [lights for label, lights in seen if label.startswith("day")]
    assert night and all(lights == SeatLights() for lights in night)
    assert any(len(lights.on) == 1 for lights in day)  # the speaker's light
    assert any(len(lights.on) > 1 for lights in day)  # the voters' lights during a ballot


def test_demo_command_prints_the_protocol_as_json(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    state = tmp_path / "state"
    assert main(["demo", "--fast", "--seed", "3", "--json", "--state-dir", str(state),
                 "--preset", "tournament", "--set", "day.speech=45"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    protocol = json.loads(out[-1])
    assert set(protocol) == {"winner", "eliminations", "timeline", "inputs", "night_inputs"}
    assert protocol["timeline"][-1]["cue"] == "protocol_saved"  # said once it is written
    assert protocol["winner"] in ("red", "black", "draw")
    assert any("winner:" in line for line in out[:-1])
    assert protocol["timeline"][0]["phase"] == "night-0"
    # The protocol files come out at the end, private to the box's user.
    files = sorted((state / "protocols").iterdir())
    assert [f.suffix for f in files] == [".html", ".json", ".json"]
    assert all(f.stat().st_mode & 0o077 == 0 for f in files)
    saved = json.loads(next(f for f in files if f.name.endswith(".polemica.json")).read_text())
    assert saved["stage"]["type"] == "gameOver"
    # The journal's header and the protocol keep every setting's value: the preset's, the
    # one given over it, and the rule set's own for the rest.
    sport = load_bundled("sport")
    every = resolved(sport, {**sport.presets["tournament"].values, "day.speech": 45})
    assert every["third_foul"] == "tournament" and every["day.speech"] == 45
    assert every["day.warn_before_end"] == sport.day.warn_before_end
    mine = json.loads(next(f for f in files if f.suffix == ".json"
                           and not f.name.endswith(".polemica.json")).read_text())
    assert mine["game"]["settings"] == every
    journal = next((state / "games").glob("*.jsonl")).read_text().splitlines()[0]
    assert json.loads(journal)["header"]["settings"] == every


def test_demo_speaks_into_a_wav_with_the_real_voice(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    out = tmp_path / "game.wav"
    result = asyncio.run(play_demo(DemoOptions(load_bundled("sport"), 10, 1, fast=True, out=out)))
    assert result.wav == out and out.stat().st_size > 100_000
    import wave

    with wave.open(str(out)) as w:
        seconds = w.getnframes() / w.getframerate()
    spoken = result.box.performer.spoken
    assert abs(seconds - (spoken[-1].at + spoken[-1].seconds)) < 1.0


def test_bad_seat_count_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--fast", "--seats", "7"]) == 2
    err = capsys.readouterr().err
    assert "sport: 7 players: at least 10 players: 000: “Ten people participate in the game”" in err
    assert err.count("\n") == 1


def test_a_russian_demo_prints_russian_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--fast", "--seed", "3", "--lang", "ru", "--no-state"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("narrator demo: Спортивная мафия")
    assert "виртуальные часы" in out[0]
    assert any(line.startswith("итог: Побеждает") for line in out), out
    assert any(": место " in line for line in out), out
    english = ("seat", "winner", "min]", "players", "game over", "voted out", "shot at")
    assert not [line for line in out if any(word in line for word in english)], out


def test_the_readme_names_the_wav_a_demo_without_sound_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by a new user (issue 33): the README named `narrator-demo.wav`, and the file was
    `narrator-demo/narrator-demo.wav`, in the demo's default folder."""
    import argparse
    import re

    from narrator import demo
    from narrator.cli import demo as demo_cli

    parser = argparse.ArgumentParser()
    demo_cli.add_arguments(parser)
    folder = parser.parse_args([]).state_dir
    monkeypatch.setattr(demo, "has_sound_device", lambda: False)
    chosen = demo.choose_mode(DemoOptions(load_bundled("sport"), 10, state_dir=folder))
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    named = re.search(r"leaves the game's audio in `([^`]+)`", readme)
    assert named is not None and chosen.out is not None
    assert Path(named.group(1)) == chosen.out
