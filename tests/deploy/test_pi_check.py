"""The platform scripts' own logic, without emulating anything: scripts/pi-check and
scripts/make-wheelhouse are shellcheck-clean and a pi-check dry run lists every step of the
check in order and changes nothing; install-pi chooses where the GPIO binding comes from,
installs from a wheelhouse with no network, and names each step with its time; setup does
too, with a heartbeat while a step is still running. The real check (tens of minutes under
qemu) is `sudo scripts/pi-check`; its figures are in BENCHMARKS.md."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"



def bash(script: str, *args: str, env: dict[str, str] | None = None,
         cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPTS / script), *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=cwd, timeout=120, check=False)


@pytest.mark.parametrize("script", ["pi-check", "make-wheelhouse", "setup"])
def test_shellcheck_is_clean(script: str) -> None:
    done = subprocess.run(["shellcheck", str(SCRIPTS / script)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stdout


def pi_check_dry_run(tmp_path: Path, *args: str) -> str:
    done = bash("pi-check", "--dry-run", "--work", str(tmp_path / "work"), *args,
                env={"PI_CHECK_CACHE": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    return done.stdout


STEPS = ["binfmt qemu-aarch64", "bare root", "project into the root", "install-pi", "onnxruntime import",
         "demo", "voices", "say in every voice", "listen --file", "offline install (wheelhouse)",
         "smoke tests"]


def test_a_dry_run_lists_every_step_in_order_and_changes_nothing(tmp_path: Path) -> None:
    out = pi_check_dry_run(tmp_path)
    assert re.findall(r"^pi-check: \[\d+\] (.+) \.\.\.$", out, re.M) == STEPS
    work = f"{tmp_path}/work/root"
    # No cached root yet: debootstrap builds bookworm arm64, and the bare root is cached.
    assert "debootstrap --arch=arm64 --variant=minbase" in out and f"bookworm {work} " in out
    assert f"tar -C {work} -czf {tmp_path}/cache/bookworm-arm64-root.tar.gz.part ." in out
    assert "update-binfmts --enable qemu-aarch64" in out
    # install-pi exactly as on a Pi, inside the root, with a clean environment.
    install = f"chroot {work} /root/narrator/scripts/install-pi --extras neural --no-start"
    assert re.search(rf"env -i .* {install}$", out, re.M)
    assert "narrator demo --fast --json" in out
    assert "--cue night_falls --out /root/pi-check/say-VOICE-LANG.wav" in out
    assert f"sox {work}/root/pi-check/say-VOICE-LANG.wav -n stat" in out
    # A voice that fell back speaks in espeak-ng's WAV: compared, so it fails.
    wavs = f"{work}/root/pi-check"
    assert f"cmp -s {wavs}/say-VOICE-LANG.wav {wavs}/say-espeak-ng-LANG.wav" in out
    assert "narrator listen --file /root/pi-check/next-speaker.wav --json" in out
    # Offline: a network namespace of its own, and pip told to use the wheelhouse only.
    assert re.search(rf"unshare --net chroot {work} /root/narrator/scripts/install-pi --wheelhouse "
                     r"/root/wheelhouse --extras neural --no-start$", out, re.M)
    assert "-m pytest" in out and "tests/engine/" in out and "tests/voice/test_voices.py" in out
    assert not (tmp_path / "work").exists() and not (tmp_path / "cache").exists()


def test_a_cached_root_is_unpacked_and_fresh_builds_it_again(tmp_path: Path) -> None:
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "bookworm-arm64-root.tar.gz").write_bytes(b"")
    out = pi_check_dry_run(tmp_path)
    assert f"tar -C {tmp_path}/work/root -xzf {tmp_path}/cache/bookworm-arm64-root.tar.gz" in out
    assert "debootstrap" not in out
    assert "debootstrap --arch=arm64" in pi_check_dry_run(tmp_path, "--fresh")


def test_no_offline_leaves_the_wheelhouse_out(tmp_path: Path) -> None:
    out = pi_check_dry_run(tmp_path, "--no-offline")
    assert "offline install" not in out and "make-wheelhouse" not in out and "unshare" not in out
    assert "smoke tests" in out


@pytest.mark.parametrize(("script", "args", "message"), [
    ("pi-check", ["--dry-run", "--colour"], "pi-check: error: unknown option --colour"),
    ("pi-check", ["--dry-run", "--work"], "pi-check: error: --work needs a folder"),
    ("make-wheelhouse", [], "make-wheelhouse: error: give the folder to fill"),
    ("make-wheelhouse", ["a", "b"], "make-wheelhouse: error: one folder only"),
    ("make-wheelhouse", ["--arm64-root", "/nonexistent", "wheels"],
     "make-wheelhouse: error: --arm64-root /nonexistent: no gcc or swig in it"),
])
def test_wrong_calls_are_one_line_and_exit_2(tmp_path: Path, script: str, args: list[str],
                                             message: str) -> None:
    done = bash(script, *args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().startswith(message) and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def install_pi(tmp_path: Path, *args: str, lgpio: str) -> subprocess.CompletedProcess[str]:
    places = {"NARRATOR_PREFIX": str(tmp_path / "opt"), "NARRATOR_ETC": str(tmp_path / "etc"),
              "NARRATOR_STATE": str(tmp_path / "state"), "NARRATOR_UNIT_DIR": str(tmp_path / "units"),
              "NARRATOR_LGPIO": lgpio}
    return bash("install-pi", "--dry-run", *args, env=places)


def apt_line(out: str) -> str:
    return next(line for line in out.splitlines() if "apt-get install" in line)


def test_the_gpio_binding_comes_from_apt_or_is_built_from_pip(tmp_path: Path) -> None:
    apt = install_pi(tmp_path, lgpio="apt")
    assert apt.returncode == 0, apt.stderr
    assert "GPIO binding: python3-lgpio from apt" in apt.stdout
    assert " python3-lgpio" in apt_line(apt.stdout) and "swig" not in apt_line(apt.stdout)
    assert "lgpio>=0.2" not in apt.stdout
    pip = install_pi(tmp_path, lgpio="pip")
    assert pip.returncode == 0, pip.stderr
    assert "GPIO binding: lgpio>=0.2 from pip, built from source (python3-lgpio is not in this system's apt" \
        in pip.stdout
    assert "python3-lgpio" not in apt_line(pip.stdout) and " swig" in apt_line(pip.stdout)
    assert f"env PYPI=1 {tmp_path}/opt/bin/pip install --quiet --progress-bar off lgpio\\>=0.2" in pip.stdout
    # evdev has no aarch64 wheel: what builds it is installed on any system.
    for package in ("gcc", "libc6-dev", "python3-dev"):
        assert f" {package}" in apt_line(pip.stdout)
    wrong = install_pi(tmp_path, lgpio="both")
    assert wrong.returncode == 2 and "NARRATOR_LGPIO must be apt or pip, not both" in wrong.stderr


def test_a_wheelhouse_install_uses_no_index(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    empty = install_pi(tmp_path, "--wheelhouse", str(wheels), lgpio="pip")
    assert empty.returncode == 2 and "no wheels in it (see scripts/make-wheelhouse)" in empty.stderr
    (wheels / "pyyaml-6.0.4-cp311-cp311-manylinux2014_aarch64.whl").write_bytes(b"")
    done = install_pi(tmp_path, "--wheelhouse", str(wheels), "--extras", "neural", lgpio="pip")
    assert done.returncode == 0, done.stderr
    pip = f"{tmp_path}/opt/bin/pip install --quiet --progress-bar off --no-index --find-links {wheels}"
    assert f"{pip} --upgrade {ROOT}\\[neural\\]" in done.stdout
    assert f"env PYPI=1 {pip} lgpio\\>=0.2" in done.stdout
    assert "--upgrade pip" not in done.stdout  # nothing to fetch it from
    bad = install_pi(tmp_path, "--extras", "neural,gpu", lgpio="pip")
    assert bad.returncode == 2 and "--extras: unknown part gpu" in bad.stderr


def test_install_pi_names_each_step_and_its_time(tmp_path: Path) -> None:
    done = install_pi(tmp_path, lgpio="pip")
    assert done.returncode == 0, done.stderr
    started = re.findall(r"^install-pi: \[(\d)/6\] (.+) \.\.\.$", done.stdout, re.M)
    ended = re.findall(r"^install-pi: \[(\d)/6\] (.+) \.\.\. done, \d+ s$", done.stdout, re.M)
    assert [n for n, _ in started] == [str(i) for i in range(1, 7)]
    assert started == ended
    assert [name for _, name in started] == ["apt packages and the GPIO binding", "user and groups",
                                              "python packages", "settings", "state folder",
                                              "systemd units"]
    # The lists are fetched before the binding is chosen: a fresh Pi has none yet.
    out = done.stdout
    assert out.index("apt-get update") < out.index("GPIO binding:") < out.index("apt-get install")


FAKE_DPKG = """#!/bin/sh
printf 'install ok installed'
"""
SLOW_PIP = """#!/bin/sh
exec python3 -c 'import time; time.sleep(0.4)'
"""


def test_setup_names_each_step_and_beats_while_one_runs(tmp_path: Path) -> None:
    # A scratch copy: the system packages all there (a dpkg-query that says so), and a pip
    # that takes a little while (the real one: minutes on a fresh machine).
    (tmp_path / "scripts").mkdir()
    shutil.copy(SCRIPTS / "setup", tmp_path / "scripts" / "setup")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(sys.executable)
    (bin_dir / "pip").write_text(SLOW_PIP)
    (bin_dir / "pip").chmod(0o755)
    fake = tmp_path / "fakebin"
    fake.mkdir()
    (fake / "dpkg-query").write_text(FAKE_DPKG)
    (fake / "dpkg-query").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "NARRATOR_HEARTBEAT": "0.2"}

    def setup() -> list[str]:
        done = subprocess.run(["bash", str(tmp_path / "scripts" / "setup")], capture_output=True,
                              text=True, env=env, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        return done.stderr.splitlines()

    lines = setup()
    assert lines[0] == "setup: [1/2] system packages ..."
    assert any(re.fullmatch(r"setup: \[1/2\] system packages \.\.\. all there, \d+ s", x) for x in lines)
    assert "setup: [2/2] python packages ..." in lines
    assert any(re.fullmatch(r"setup: \[2/2\] python packages \.\.\. still working, \d+ s", x) for x in lines)
    assert re.fullmatch(r"setup: \[2/2\] python packages \.\.\. installed in \.venv, \d+ s", lines[-1])
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    assert (tmp_path / ".venv" / ".setup-stamp").read_text().strip() == digest
    # Again: nothing to do, and it says so.
    assert re.fullmatch(r"setup: \[2/2\] python packages \.\.\. up to date, \d+ s", setup()[-1])
