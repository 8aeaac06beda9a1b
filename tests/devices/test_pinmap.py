"""Pin maps: the shipped ones load; every kind of mistake is one line naming file and entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.devices.pinmap import GpioLeds, GpioPads, load_pin_map, packaged_path
from narrator.errors import InputFileError, PinMapError

REPO = Path(__file__).resolve().parents[2]

GOOD = """\
seats: 3
pads: {pins: [4, 17, 27]}
leds: {pins: [14, 15, 18]}
answer: {green: 20, red: 21}
status: 26
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pins.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_default_map_needs_no_path() -> None:
    pm = load_pin_map()
    assert pm.seats == 10
    assert isinstance(pm.pads, GpioPads) and isinstance(pm.leds, GpioLeds)
    assert len(set(pm.pads.pins) | set(pm.leds.pins)) == 20
    pm.check_seats(10)


def test_the_packaged_maps_are_the_hardware_documents() -> None:
    for name in ("pins-10", "pins-16"):
        hardware = (REPO / "hardware" / f"{name}.yaml").read_text()
        assert packaged_path(name).read_text() == hardware
        a, b = load_pin_map(REPO / "hardware" / f"{name}.yaml"), load_pin_map(name)
        assert a.uses == b.uses and a.pads == b.pads and a.leds == b.leds


def test_a_small_map_loads(tmp_path: Path) -> None:
    pm = load_pin_map(write(tmp_path, GOOD))
    assert pm.pads == GpioPads((4, 17, 27), True)
    assert (pm.answer_yes, pm.answer_no, pm.status) == (20, 21, 26)
    assert dict(pm.uses)[17] == "pads.pins[1]"


@pytest.mark.parametrize(("change", "where", "problem"), [
    (("status: 26", "status: 26\nbuzzer: 19"), "buzzer", "unknown entry"),
    (("pads: {pins", "pads: {colour: red, pins"), "pads.colour", "unknown entry"),
    (("leds: {pins: [14, 15, 18]}", "leds: {pins: [14, 15, 17]}"), "leds.pins[2]",
     "GPIO 17 is already used by pads.pins[1]"),
    (("status: 26", "status: 20"), "status", "GPIO 20 is already used by answer.green"),
    (("status: 26", "status: 28"), "status", "28 is not a GPIO pin"),
    (("status: 26", "status: 1"), "status", "reserved for the HAT ID EEPROM"),
    (("status: 26", "status: J8:11"), "status", "is not a pin"),
    (("status: 26", "status: GPIO26"), None, None),
    (("[4, 17, 27]", "[4, 17]"), "pads.pins", "lists 2 pins; expected 3"),
    (("seats: 3", "seats: 17"), "seats", "out of range 1-16"),
    (("answer: {green: 20, red: 21}", "answer: {yes: 20, no: 21}"), "answer.True",
     "YAML takes yes, no"),
    (("answer: {green: 20, red: 21}", "answer: {green: 20}"), "answer.red", "missing"),
    (("pads: {pins", "pads: {active: up, pins"), "pads.active", "expected high"),
    (("seats: 3", "seats: [3"), "line 2", "not valid YAML"),
])
def test_mistakes_name_the_file_and_the_entry(tmp_path: Path, change: tuple[str, str],
                                              where: str | None, problem: str | None) -> None:
    path = write(tmp_path, GOOD.replace(*change))
    if where is None or problem is None:
        load_pin_map(path)
        return
    with pytest.raises(PinMapError) as info:
        load_pin_map(path)
    err = info.value
    assert isinstance(err, InputFileError)
    assert (err.path, err.where) == (str(path), where)
    assert problem in err.problem
    assert "\n" not in str(err) and str(err).startswith(f"{path}: {where}: ")


def test_a_bus_takes_its_pins(tmp_path: Path) -> None:
    text = GOOD.replace("leds: {pins: [14, 15, 18]}", "leds: {kind: ws2812, spi: [0, 0]}") \
               .replace("status: 26", "status: 10")
    with pytest.raises(PinMapError, match=r"status: GPIO 10 is SPI0 MOSI \(leds\), taken by"):
        load_pin_map(write(tmp_path, text))
    text = GOOD.replace("pads: {pins: [4, 17, 27]}", "pads: {kind: mcp23017, interrupt: 17}") \
               .replace("status: 26", "status: 3")
    with pytest.raises(PinMapError, match=r"status: GPIO 3 is I2C SCL"):
        load_pin_map(write(tmp_path, text))


def test_too_few_seats_for_the_game() -> None:
    pm = load_pin_map()
    with pytest.raises(PinMapError) as info:
        pm.check_seats(12)
    assert info.value.where == "seats" and "needs 12" in str(info.value)


def test_missing_files_and_names(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match="cannot read"):
        load_pin_map(tmp_path / "nope.yaml")
    with pytest.raises(PinMapError, match="no such packaged pin map"):
        load_pin_map("pins-99")


def test_matrix_keypad_keys_are_checked(tmp_path: Path) -> None:
    text = GOOD + "keypad: {rows: [5, 6, 13, 19], cols: [22, 23, 24, 25], " \
                  "keys: '1 2 3 A 4 5 6 B 7 8 9 C * 0 # E'}\n"
    with pytest.raises(PinMapError, match=r"keypad.keys\[15\]: unknown key 'E'"):
        load_pin_map(write(tmp_path, text))
