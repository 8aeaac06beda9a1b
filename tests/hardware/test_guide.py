"""The build guide is made from its data: every drawing and generated table in hardware/
is what scripts/make-hardware makes now, and the figures agree with the pin maps."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from narrator.devices.pinmap import load_pin_map
from narrator.errors import InputFileError
from workshop.guide.data import load_build, load_parts, pin_map_of
from workshop.guide.figures import cost, long_run, power, runs, table_of
from workshop.guide.generate import README, ReadmeError, blocks, outputs, splice

REPO = Path(__file__).resolve().parents[2]
NS = "{http://www.w3.org/2000/svg}"


def test_everything_generated_is_up_to_date() -> None:
    stale = [name for name, text in outputs(REPO).items()
             if (REPO / name).read_text(encoding="utf-8") != text]
    assert stale == [], f"run scripts/make-hardware: {stale} differ from what the data makes"


def test_make_hardware_check_agrees() -> None:
    done = subprocess.run([sys.executable, "scripts/make_hardware.py", "--check"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_readme_has_every_table_the_issue_asks_for() -> None:
    text = (REPO / README).read_text(encoding="utf-8")
    for name in ("seat-cable", "sockets-pins-10", "sockets-pins-16", "runs", "long-run",
                 "power", "cost", "parts", "placement", "sound"):
        body = re.search(rf"<!-- make-hardware: {name} -->\n(.*?)<!-- /make-hardware", text, re.S)
        assert body is not None and "\n| --- |" in body.group(1), name
    for picture in ("box.svg", "pod.svg", "wiring.svg"):
        assert f"]({picture})" in text


def test_part_counts_follow_the_pin_maps() -> None:
    parts, spec = load_parts(), load_build()
    for build in parts.builds:
        pm = pin_map_of(build)
        rows = {r.part: r for r in cost(parts, spec, build)}
        assert rows["TTP223 touch module"].count == pm.seats
        assert rows["RJ45 socket breakout, 8 screw terminals"].count == 2 * pm.seats
        assert sum(r.count for r in rows.values() if "patch cable" in r.part) == pm.seats
        buttons = rows.get("Quiet push button (soft, no click), panel mount")
        assert (buttons.count if buttons else 0) == len(pm.host_buttons)
        gpio_leds = pm.seats if pm.leds.kind == "gpio" else 0
        assert rows["Resistor 470 Ω, 1/4 W"].count == gpio_leds + 3
        # Every seat's cable reaches on the build's table.
        for run in runs(spec, table_of(spec, parts, build), sorted(parts.cable_prices)):
            assert run.stock >= run.metres
    ten, sixteen = (sum(r.cost for r in cost(parts, spec, b)) for b in parts.builds)
    assert 150 < ten < sixteen < 500


def test_the_supplies_carry_the_peaks() -> None:
    parts, spec = load_parts(), load_build()
    for build in parts.builds:
        _rows, supplies, usb = power(spec, build)
        for supply in supplies:
            assert supply.peak_ma < supply.amps * 1000 * 0.8, supply
        assert usb < spec.num("usb_limit_ma")


def test_a_long_run_is_worked_out_right() -> None:
    f = long_run(load_build())
    assert f.conductor_ohm == pytest.approx(0.411)
    assert f.led_ma == pytest.approx(1.3 / 470 * 1000)
    assert f.high_margin_v > 1.0 and f.spike_v < 0.8     # the input never misreads
    assert f.finger_share_pct[1] < 15                    # an electrode on a cable cannot work


def test_the_box_drawing_has_a_socket_per_seat_and_the_maps_buttons() -> None:
    for name, svg in (("pins-10", "box.svg"), ("pins-16", "box-16.svg")):
        pm = load_pin_map(name)
        texts = [t.text or "" for t in ET.parse(REPO / "hardware" / svg).iter(f"{NS}text")]
        assert sorted(int(t[5:]) for t in texts if re.fullmatch(r"seat \d+", t)) == \
            list(range(1, pm.seats + 1))
        assert [t for t in texts if re.fullmatch(r"'\w+'", t)] == \
            [f"'{b}'" for b, _ in pm.host_buttons]


def test_readme_blocks_must_match(tmp_path: Path) -> None:
    parts, spec = load_parts(), load_build()
    made = blocks(parts, spec)
    with pytest.raises(ReadmeError, match="no block for"):
        splice("nothing here\n", made)
    text = "".join(f"<!-- make-hardware: {n} -->\nold\n<!-- /make-hardware: {n} -->\n"
                   for n in made)
    with pytest.raises(ReadmeError, match="'colour' is made by nothing"):
        splice(text + "<!-- make-hardware: colour -->\n<!-- /make-hardware: colour -->\n", made)
    assert "\nold\n" not in splice(text, made)


def test_a_wrong_data_file_names_file_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "parts.yaml"
    text = (REPO / "hardware" / "parts.yaml").read_text(encoding="utf-8")
    bad.write_text(text.replace('count: "gpio_leds + box_leds"', 'count: "gpio_leds + lamps"'))
    parts = load_parts(bad)
    with pytest.raises(InputFileError, match=r"parts\.yaml: parts\[\d+\]\.count: unknown count "
                                             r"'lamps'"):
        cost(parts, load_build(), parts.builds[0])
    bad.write_text(text.replace('count: "seats", price: 6.00', 'count: "__import__(1)", '
                                                                'price: 6.00'))
    parts = load_parts(bad)
    with pytest.raises(InputFileError, match="not a count formula"):
        cost(parts, load_build(), parts.builds[0])
    build = tmp_path / "build.yaml"
    build.write_text((REPO / "hardware" / "build.yaml").read_text().replace("  run_m: 3.0", ""))
    with pytest.raises(InputFileError, match=r"build\.yaml: cable\.run_m: missing"):
        long_run(load_build(build))
