"""scripts/install-pi: a dry run shows the whole install and changes nothing; the
self-check names each problem of a broken install."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-pi"


def places(tmp_path: Path) -> dict[str, str]:
    return {"NARRATOR_PREFIX": str(tmp_path / "opt"), "NARRATOR_ETC": str(tmp_path / "etc"),
            "NARRATOR_STATE": str(tmp_path / "state"), "NARRATOR_UNIT_DIR": str(tmp_path / "units")}


def install_pi(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **places(tmp_path)}
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=env, timeout=120, check=False)


def test_a_dry_run_shows_every_step_and_changes_nothing(tmp_path: Path) -> None:
    done = install_pi(tmp_path, "--dry-run")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    apt = next(line for line in out.splitlines() if "apt-get install" in line)
    for package in ("python3-venv", "espeak-ng", "libportaudio2", "sox", "alsa-utils"):
        assert f" {package}" in apt
    assert "useradd --system" in out and "--user-group narrator" in out
    assert "usermod --append --groups gpio,spi,i2c,audio,input narrator" in out
    assert f"python3 -m venv --system-site-packages {tmp_path}/opt" in out
    assert f"{tmp_path}/opt/bin/pip install --quiet --progress-bar off --upgrade {ROOT}" in out
    assert f"install -m 0644 {ROOT}/narrator/config/default.yaml {tmp_path}/etc/narrator.yaml" in out
    assert f"install -d -m 0700 -o narrator -g narrator {tmp_path}/state" in out
    assert f"install -m 0644 {ROOT}/systemd/narrator.service {tmp_path}/units/narrator.service" in out
    assert f"install -m 0644 {ROOT}/systemd/narrator.socket {tmp_path}/units/narrator.socket" in out
    assert "systemctl enable narrator.socket narrator.service" in out
    assert "systemctl restart narrator.socket" in out and "systemctl restart narrator.service" in out
    assert "dry run: would check" in out
    assert not any(Path(p).exists() for p in places(tmp_path).values())


def test_an_existing_config_is_kept_and_no_start_is_honoured(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "narrator.yaml").write_text("game: {lang: ru}\n")
    done = install_pi(tmp_path, "--dry-run", "--no-start")
    assert done.returncode == 0, done.stderr
    assert f"keeping {tmp_path}/etc/narrator.yaml" in done.stdout
    assert "narrator.yaml" not in "".join(line for line in done.stdout.splitlines() if "install -m" in line)
    assert "systemctl restart" not in done.stdout
    assert (tmp_path / "etc" / "narrator.yaml").read_text() == "game: {lang: ru}\n"


def test_a_vosk_model_archive_goes_to_the_state_folder(tmp_path: Path) -> None:
    archive = tmp_path / "vosk-model-small-ru-0.22.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("vosk-model-small-ru-0.22/am/final.mdl", "x")
    done = install_pi(tmp_path, "--dry-run", "--vosk-model", str(archive), "--model-lang", "ru")
    assert done.returncode == 0, done.stderr
    check = f"{tmp_path}/opt/bin/python -m narrator.voice.model_install"
    assert f"{check} ru {archive} {tmp_path}/state/models/ru" in done.stdout
    # One per language, LANG=PATH; the installer (narrator.voice.model_install, tested in
    # tests/listen/test_vosk.py) prints the sha256 and loads the model before placing it.
    folder = tmp_path / "vosk-model-small-en-us"
    folder.mkdir()
    done = install_pi(tmp_path, "--dry-run", "--vosk-model", f"ru={archive}",
                      "--vosk-model", f"en={folder}")
    assert done.returncode == 0, done.stderr
    assert f"{check} ru {archive} {tmp_path}/state/models/ru" in done.stdout
    assert f"{check} en {folder} {tmp_path}/state/models/en" in done.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--vosk-model", "/nonexistent/model"], "no Vosk model at /nonexistent/model"),
    (["--vosk-model", "/etc/hostname"], "neither a folder nor a .zip/.tar.gz archive"),
    (["--model-lang", "de"], "--model-lang must be en or ru"),
    (["--vosk-model", "de=/etc"], "the language must be en or ru, not de"),
    (["--vosk-model", "ru=/etc", "--vosk-model", "ru=/tmp"], "two models for ru"),
    (["--colour"], "unknown option --colour"),
])
def test_wrong_arguments_are_refused(tmp_path: Path, args: list[str], message: str) -> None:
    done = install_pi(tmp_path, "--dry-run", *args)
    assert done.returncode == 2
    assert message in done.stderr


def test_the_self_check_names_what_is_wrong(tmp_path: Path) -> None:
    # A half-done install: the package is there, the config has a typo, the state folder
    # is readable by everyone, and the unit was never installed.
    bin_dir = tmp_path / "opt" / "bin"
    bin_dir.mkdir(parents=True)
    venv = Path(sys.executable).parent
    (bin_dir / "python").symlink_to(venv / "python")
    (bin_dir / "narrator").symlink_to(venv / "narrator")
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "narrator.yaml").write_text("game: {lang: en}\ncolour: red\n")
    (tmp_path / "state").mkdir(mode=0o755)
    os.chmod(tmp_path / "state", 0o755)
    done = install_pi(tmp_path, "--check")
    assert done.returncode == 1
    problems = done.stderr
    assert f"config: {tmp_path}/etc/narrator.yaml: colour: unknown key" in problems
    assert f"{tmp_path}/state is not mode 0700" in problems
    assert f"{tmp_path}/units/narrator.service is missing" in problems
    assert f"{tmp_path}/units/narrator.socket is missing (the organiser's page)" in problems
    assert "/bin/narrator" not in problems  # the package itself is fine
    # This test's venv has no GPIO binding: said, as on a Pi where neither apt nor pip gave it.
    assert "the GPIO binding lgpio does not import" in problems
    assert "problem(s)" in done.stdout


def test_shellcheck_is_clean() -> None:
    done = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stdout
