"""The card's settings file (narrator.toml on the image's boot partition), read and applied
by narrator.firstboot into a staged root: real files, as the first boot writes them. The
boot itself (systemd, the card in qemu) is scripts/boot-check's; its figures are in
BENCHMARKS.md."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from narrator import firstboot
from narrator.boxconfig import load_settings, packaged_config_path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "image" / "narrator.toml"

GOOD = """\
[box]
name = "Table-3"
lang = "ru"
rules = "club"
pin = "80590"

[wifi]
ssid = "IEEE"
password = "password"
country = "gb"
"""


@pytest.fixture
def staged(tmp_path: Path) -> tuple[Path, Path]:
    """A root with the image's narrator.yaml (the packaged one) and a boot partition."""
    root = tmp_path / "root"
    (root / "etc/narrator").mkdir(parents=True)
    (root / "etc/narrator/narrator.yaml").write_text(packaged_config_path().read_text())
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\tnarrator\n")
    boot = tmp_path / "boot"
    boot.mkdir()
    return root, boot / "narrator.toml"


def run(root: Path, toml: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "narrator.firstboot", "--boot-file", str(toml),
                           "--root", str(root)], capture_output=True, text=True, timeout=120,
                          check=False, cwd=ROOT)


def test_the_images_own_file_sets_nothing_and_says_nothing_wrong() -> None:
    found = firstboot.parse(SAMPLE.read_text(), str(SAMPLE))
    assert found == firstboot.BootSettings()


def test_a_whole_file_puts_each_value_where_the_system_reads_it(staged: tuple[Path, Path]) -> None:
    root, toml = staged
    toml.write_text(GOOD)
    done = run(root, toml)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (root / "etc/hostname").read_text() == "table-3\n"
    assert "127.0.1.1\ttable-3" in (root / "etc/hosts").read_text().splitlines()
    config = root / "etc/narrator/narrator.yaml"
    settings = load_settings(config)  # the box takes it as it is
    assert (settings.game.lang, settings.game.rules, settings.web.pin) == ("ru", "club", "80590")
    # The packaged file's comments are kept; the PIN makes it root's and the box's only.
    assert "# en | ru" in config.read_text()
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    wpa = root / "etc/wpa_supplicant/wpa_supplicant-wlan0.conf"
    assert stat.S_IMODE(wpa.stat().st_mode) == 0o600
    text = wpa.read_text()
    # IEEE 802.11i's test vector: passphrase "password", SSID "IEEE".
    assert "psk=f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e" in text
    assert f"ssid={b'IEEE'.hex()}" in text and "country=GB" in text
    assert "password" not in text.replace("passphrase", "")
    # What it says (the journal) names each value but never the PIN or the passphrase.
    assert "table-3" in done.stdout and "Wi-Fi 'IEEE'" in done.stdout
    assert "80590" not in done.stdout + done.stderr and "password\n" not in done.stdout
    assert not (toml.parent / firstboot.PROBLEMS_FILE).exists()


def test_each_wrong_value_is_one_line_naming_file_line_and_key_and_the_rest_applies(
        staged: tuple[Path, Path]) -> None:
    root, toml = staged
    toml.write_text('[box]\nname = "table 3"\nlang = "de"\nrules = "sport"\npin = "12ab99"\ncolour = 1\n\n'
                    '[wifi]\nssid = "Club"\npassword = "short"\n')
    done = run(root, toml)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    said = (toml.parent / firstboot.PROBLEMS_FILE).read_text()
    lines = [line for line in said.splitlines() if line.startswith("- ")]
    assert len(lines) == 5, said
    assert f"- {toml}: line 2, box.name: expected a host name" in said
    assert f"- {toml}: line 3, box.lang: expected one of en, ru, got 'de'" in said
    assert "line 5, box.pin: expected 4-12 digits" in said and "12ab99" not in said
    assert "line 6, box.colour: unknown setting (known: name, lang, rules, pin)" in said
    assert "line 10, wifi.password: a WPA passphrase is 8-63 plain characters" in said
    assert "short" not in said and "short" not in done.stdout
    # The journal has the same lines; what was right applied all the same.
    assert "box.lang: expected one of en, ru" in done.stdout
    assert load_settings(root / "etc/narrator/narrator.yaml").game.rules == "sport"
    assert not (root / "etc/hostname").exists()
    assert not (root / firstboot.WPA_CONF).exists()


def test_a_file_that_is_no_toml_applies_nothing_and_says_where(staged: tuple[Path, Path]) -> None:
    root, toml = staged
    before = (root / "etc/narrator/narrator.yaml").read_text()
    toml.write_text('[box]\nname = "table-3\n')
    done = run(root, toml)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{toml}: not a settings file (" in done.stdout and "line 2" in done.stdout
    assert (root / "etc/narrator/narrator.yaml").read_text() == before
    toml.write_bytes(b'[box]\nname = "t\xe9ble"\n')
    done = run(root, toml)
    assert done.returncode == 2 and "not UTF-8 text" in done.stdout and "byte 15" in done.stdout


def test_it_applies_again_only_when_the_file_changed_and_wifi_goes_with_its_section(
        staged: tuple[Path, Path]) -> None:
    root, toml = staged
    toml.write_text(GOOD)
    assert run(root, toml).returncode == 0
    wpa = root / firstboot.WPA_CONF
    wpa.write_text("edited by hand\n")
    again = run(root, toml)
    assert again.returncode == 0 and "unchanged" in again.stdout
    assert wpa.read_text() == "edited by hand\n"
    toml.write_text(GOOD.split("[wifi]")[0])
    assert run(root, toml).returncode == 0
    assert not wpa.exists()


def test_no_file_is_the_box_with_its_own_settings(staged: tuple[Path, Path]) -> None:
    root, toml = staged
    done = run(root, toml)
    assert done.returncode == 0 and "starts with its own settings" in done.stdout
    assert not (root / firstboot.STAMP).exists()


def test_a_value_the_box_would_refuse_leaves_its_config_alone(staged: tuple[Path, Path]) -> None:
    root, toml = staged
    config = root / "etc/narrator/narrator.yaml"
    # sport is played by 10 and this config asks for 3 seats: refused as a whole.
    config.write_text(config.read_text().replace("seats: null", "seats: 3"))
    before = config.read_text()
    toml.write_text('[box]\nrules = "sport"\n')
    done = run(root, toml)
    assert done.returncode == 2 and f"{config}: not changed:" in done.stdout
    assert config.read_text() == before


def test_set_config_keeps_comments_and_adds_what_the_file_lacks() -> None:
    text = "game:\n  lang: en   # the voice\n  rules: sport\nweb:\n  listen: null\n"
    out = firstboot.set_config(text, {"game": {"lang": "ru"}, "web": {"pin": "0417"}})
    assert 'lang: "ru"   # the voice' in out
    assert yaml.safe_load(out) == {"game": {"lang": "ru", "rules": "sport"},
                                   "web": {"pin": "0417", "listen": None}}
    out = firstboot.set_config("game:\n  lang: en", {"web": {"pin": "0417"}})
    assert yaml.safe_load(out) == {"game": {"lang": "en"}, "web": {"pin": "0417"}}


def test_an_open_network_and_a_raw_key(tmp_path: Path) -> None:
    found = firstboot.parse('[wifi]\nssid = "Caf\\u00e9 \\"quoted\\""\n', "x.toml")
    assert found.wifi is not None and found.problems == ()
    conf = firstboot.wpa_conf(found.wifi)
    assert "key_mgmt=NONE" in conf and "psk=" not in conf
    # The name goes in hex: a quote or a newline in it cannot add a line of its own.
    name = 'Café "quoted"'
    assert f"ssid={name.encode().hex()}" in conf
    key = "A" * 64
    raw = firstboot.parse(f'[wifi]\nssid = "x"\npassword = "{key}"\n', "x.toml").wifi
    assert raw is not None and raw.psk() == key.lower()


def test_the_config_made_keeps_the_owner_only_rule(staged: tuple[Path, Path]) -> None:
    root, toml = staged
    toml.write_text('[box]\nlang = "ru"\n')
    assert run(root, toml).returncode == 0
    config = root / "etc/narrator/narrator.yaml"
    assert stat.S_IMODE(config.stat().st_mode) == 0o644
    os.chmod(config, 0o664)
    toml.write_text('[box]\nlang = "en"\n')
    assert run(root, toml).returncode == 0
    # Written anew: the mode is the box's again, not what someone widened it to.
    assert stat.S_IMODE(config.stat().st_mode) == 0o644


def test_a_root_that_cannot_be_written_is_said_not_a_traceback(staged: tuple[Path, Path]) -> None:
    root, toml = staged
    (root / "etc/hostname").mkdir()  # where the name goes is a folder: os.replace fails
    toml.write_text('[box]\nname = "table-3"\n')
    done = run(root, toml)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "cannot be written" in done.stdout and "the box starts with what it had" in done.stdout
