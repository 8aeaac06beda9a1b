"""Adapting pocketsphinx's English acoustic model to a club's own room and voices.

`narrator adapt --recordings DIR` takes WAVs of commands spoken at the club's table and a
transcript (DIR/transcript.txt: one recording a line, `name.wav the words said`), and
runs sphinxtrain's tools (CMU's "adapting the default acoustic model"): features with
the model's own front end (sphinx_fe), Baum-Welch counts over the transcripts (bw), then

  - `map` (the default): the model's Gaussian means moved toward the recordings (MAP,
    map_adapt with a fixed prior weight, MAP_TAU), written as a copy of the wheel's model
    with those means (a folder: pocketsphinx's `hmm`);
  - `mllr`: one linear transform of all the means (mllr_solve), a small file
    (pocketsphinx's `mllr`).

The recognizer loads either when the box has one (recognizer.adaptation, default
<state_dir>/adaptation). Only adapting needs sphinxtrain; the box that listens needs
pocketsphinx alone. Each recording is cut as the recognizer cuts an utterance (the
loudness trim), so the model learns the audio it will be given.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from narrator.errors import InputFileError, NarratorError

TRANSCRIPT = "transcript.txt"
# Fewer recordings than this do not say enough about a room or a voice to move a model.
FEWEST_RECORDINGS = 5
# The prior's weight, in frames, against the recordings' (map_adapt -tau, fixed): chosen
# on the listen benchmark's tuning part with voices left out (adapted on three tuning
# voices, heard on the other two, both ways: 288 command clips, 25 talk): none 236 right,
# tau 10 253 (no talk taken), 30 252 and 100 251 (1 talk clip each), sphinxtrain's own
# Bayesian weighting (-bayesmean) 241, a global MLLR transform 237.
MAP_TAU = 10.0
METHODS = ("map", "mllr")
MODEL_FILES = ("mdef", "feat.params", "noisedict", "means", "variances", "sendump",
               "transition_matrices")
# Where Debian puts sphinxtrain's programs (not on PATH).
TOOL_DIRS = (Path("/usr/lib/sphinxtrain"), Path("/usr/libexec/sphinxtrain"))
_WORD = re.compile(r"[a-z']+")


class AdaptationError(NarratorError):
    """sphinxtrain is missing or one of its tools failed."""


@dataclass(frozen=True)
class Recording:
    path: Path
    words: tuple[str, ...]


def model_dir() -> Path:
    """The wheel's English acoustic model."""
    import pocketsphinx

    return Path(pocketsphinx.get_model_path("en-us/en-us"))


def dictionary() -> dict[str, str]:
    """The wheel's pronouncing dictionary: word -> phones (the first pronunciation)."""
    import pocketsphinx

    out: dict[str, str] = {}
    with open(pocketsphinx.get_model_path("en-us/cmudict-en-us.dict"), encoding="utf-8") as f:
        for line in f:
            word, _, phones = line.strip().partition(" ")
            out.setdefault(word, phones)
    return out


def read_transcript(folder: Path, known: dict[str, str]) -> list[Recording]:
    """The recordings DIR/transcript.txt names, each checked: the file is there, and every
    word is in the recognizer's dictionary. A bad line is one InputFileError."""
    listing = folder / TRANSCRIPT
    if not folder.is_dir():
        raise InputFileError(str(folder), "", "no such folder")
    if not listing.is_file():
        raise InputFileError(str(listing), "", "no such file (one line a recording: "
                             "'name.wav the words said')")
    out: list[Recording] = []
    seen: dict[str, tuple[str, ...]] = {}
    for number, line in enumerate(listing.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, said = line.partition(" ")
        where = f"line {number}"
        if not name.lower().endswith(".wav"):
            raise InputFileError(str(listing), where, f"expected 'name.wav the words said', "
                                 f"got {line[:60]!r}")
        words = tuple(w.strip("'") for w in _WORD.findall(said.lower()))
        if not words:
            raise InputFileError(str(listing), where, f"no words after {name}")
        unknown = [w for w in words if w not in known]
        if unknown:
            raise InputFileError(str(listing), where,
                                 f"not in the recognizer's dictionary: {', '.join(unknown)}")
        path = folder / name
        if not path.is_file():
            raise InputFileError(str(listing), where, f"no such recording: {path}")
        if seen.setdefault(name, words) != words:  # listed twice alike: it counts twice
            raise InputFileError(str(listing), where,
                                 f"{name} is listed before with other words")
        out.append(Recording(path, words))
    if len(out) < FEWEST_RECORDINGS:
        raise InputFileError(str(listing), "", f"{len(out)} recordings; adapting needs at "
                             f"least {FEWEST_RECORDINGS}")
    return out


def prompts(per_command: int = 2, seed: int = 0) -> list[str]:
    """What a club member says for `narrator adapt --record`: every English command
    `per_command` times (other seats and wordings each time, drawn with `seed`)."""
    import random

    from narrator.voice.commands import CommandSet

    by_name: dict[str, list[str]] = {}
    for sentence, (name, _seat) in sorted(CommandSet.for_language("en").sentences.items()):
        by_name.setdefault(name, []).append(sentence)
    rng = random.Random(seed)
    out: list[str] = []
    for _name, sentences in sorted(by_name.items()):
        out += rng.sample(sentences, min(per_command, len(sentences)))
    rng.shuffle(out)
    return out


def add_recording(folder: Path, name: str, words: str, samples: np.ndarray, rate: int) -> Path:
    """Keep one take (float samples) as folder/name at 16 kHz and list it in the
    transcript, so an interrupted session keeps what it recorded."""
    from narrator.voice.wav import Clip, write_wav

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    write_wav(path, Clip(samples.astype(np.float32), rate).at_rate(16000))
    with (folder / TRANSCRIPT).open("a", encoding="utf-8") as f:
        f.write(f"{name} {words}\n")
    return path


def tool(name: str, dirs: Sequence[Path] = TOOL_DIRS) -> str:
    """The path of a sphinxtrain / sphinxbase program, or an error saying what to install."""
    found = shutil.which(name)
    if found is None:
        for folder in dirs:
            if (folder / name).is_file():
                return str(folder / name)
        raise AdaptationError(f"{name} not found: adapting needs sphinxtrain "
                              "(apt-get install sphinxtrain sphinxbase-utils pocketsphinx)")
    return found


def _run(args: list[str], log: Path) -> None:
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(args, stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
        raise AdaptationError(f"{Path(args[0]).name} failed (exit {done.returncode}): "
                              f"{tail[0] if tail else 'no output'} (log: {log})")


def sendump_weights(path: Path) -> np.ndarray:
    """The mixture weights of a pocketsphinx sendump (8-bit, log base 1.0001, shifted),
    as probabilities [senone, stream, codeword], each row summing to 1: bw needs them
    as sphinxtrain's mixture_weights, which the wheel's model does not ship."""
    data = path.read_bytes()
    pos = 0

    def number() -> int:
        nonlocal pos
        value: int = struct.unpack_from("<I", data, pos)[0]
        pos += 4
        return value

    number()  # the title's length...
    pos += struct.unpack_from("<I", data, 0)[0]  # ... and the title
    header: dict[str, int] = {}
    while (size := number()) != 0:
        parts = data[pos : pos + size - 1].decode("latin-1").split()
        pos += size
        if len(parts) == 2 and parts[1].isdigit():
            header[parts[0]] = int(parts[1])
    if header.get("cluster_count", 0) != 0:
        raise AdaptationError(f"{path}: clustered mixture weights are not supported")
    codewords, senones = number(), number()
    streams, shift = header["feature_count"], header.get("mixw_shift", 10)
    raw = np.frombuffer(data, np.uint8, streams * codewords * senones, pos)
    logs = raw.reshape(streams, codewords, senones).astype(np.float64) * (1 << shift)
    weights = np.power(1.0001, -logs).transpose(2, 0, 1)
    normalised: np.ndarray = weights / weights.sum(axis=2, keepdims=True)
    return normalised


def write_s3_3d(path: Path, values: np.ndarray) -> None:
    """A sphinxtrain binary parameter file (3-d float array), as its s3file writes it."""
    head = b"s3\nversion 1.0\n"
    end = b"endhdr\n"
    pad = (-(len(head) + len(end))) % 4
    d1, d2, d3 = values.shape
    with path.open("wb") as f:
        f.write(head + b" " * pad + end)
        f.write(struct.pack("<i", 0x11223344))
        f.write(struct.pack("<IIII", d1, d2, d3, d1 * d2 * d3))
        f.write(values.astype("<f4").tobytes())


def _prepare(recordings: Sequence[Recording], work: Path, known: dict[str, str]) -> None:
    """Trimmed 16 kHz copies of the recordings, the control file, transcripts and a
    dictionary of the words they use."""
    from narrator.voice import pocketsphinx_settings as rp
    from narrator.voice.listen_clips import write_wav
    from narrator.voice.recognizer import check_audio
    from narrator.voice.speech_levels import loudest_part

    (work / "wav").mkdir()
    ids, lines = [], []
    for i, rec in enumerate(recordings):
        audio = check_audio(rec.path)  # one line naming the file when it cannot be heard
        trimmed = loudest_part(audio, rp.TRIM_DB, rp.TRIM_PAD, rp.TRIM_END_PAD)
        name = f"u{i:04d}"
        write_wav(work / "wav" / f"{name}.wav", np.frombuffer(trimmed, "<i2"))
        ids.append(f"wav/{name}")
        lines.append(f"<s> {' '.join(rec.words)} </s> ({name})")
    (work / "fileids").write_text("\n".join(ids) + "\n", encoding="utf-8")
    (work / "transcription").write_text("\n".join(lines) + "\n", encoding="utf-8")
    words = sorted({w for rec in recordings for w in rec.words})
    (work / "dict").write_text("".join(f"{w} {known[w]}\n" for w in words), encoding="utf-8")


def adapt(recordings: Sequence[Recording], out: Path, method: str = "map",
          known: dict[str, str] | None = None, base: Path | None = None) -> Path:
    """Adapt the wheel's model to `recordings`; write the result to `out` (a folder for
    map, a file for mllr) and return it."""
    if method not in METHODS:
        raise ValueError(f"method: expected one of {', '.join(METHODS)}, got {method!r}")
    base = base or model_dir()
    known = known if known is not None else dictionary()
    programs = {name: tool(name) for name in ("sphinx_fe", "pocketsphinx_mdef_convert", "bw",
                                              "mllr_solve", "map_adapt")}
    with tempfile.TemporaryDirectory(prefix="narrator-adapt-") as tmp:
        work = Path(tmp)
        model = work / "model"
        model.mkdir()
        _prepare(recordings, work, known)
        _run([programs["pocketsphinx_mdef_convert"], "-text", str(base / "mdef"),
              str(model / "mdef.txt")], work / "mdef.log")
        for name in ("means", "variances", "transition_matrices", "noisedict", "feat.params"):
            shutil.copy(base / name, model / name)
        write_s3_3d(model / "mixture_weights", sendump_weights(base / "sendump"))
        _run([programs["sphinx_fe"], "-argfile", str(base / "feat.params"), "-samprate",
              "16000", "-c", str(work / "fileids"), "-di", str(work), "-do", str(work), "-ei", "wav",
              "-eo", "mfc", "-mswav", "yes", "-remove_silence", "no"], work / "fe.log")
        # The decoder's own feature settings (feat.params): PTM streams, batch CMN.
        _run([programs["bw"], "-hmmdir", str(model), "-moddeffn", str(model / "mdef.txt"),
              "-ts2cbfn", ".ptm.", "-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38",
              "-cmn", "batch", "-agc", "none", "-varnorm", "no",
              "-dictfn", str(work / "dict"), "-fdictfn", str(model / "noisedict"),
              "-ctlfn", str(work / "fileids"), "-lsnfn", str(work / "transcription"),
              "-cepdir", str(work), "-accumdir", str(work)], work / "bw.log")
        if method == "mllr":
            _run([programs["mllr_solve"], "-meanfn", str(model / "means"), "-varfn",
                  str(model / "variances"), "-outmllrfn", str(work / "mllr_matrix"),
                  "-accumdir", str(work)], work / "mllr.log")
            result = work / "mllr_matrix"
        else:
            adapted = work / "adapted"
            adapted.mkdir()
            _run([programs["map_adapt"], "-moddeffn", str(model / "mdef.txt"),
                  "-ts2cbfn", ".ptm.", "-meanfn", str(model / "means"),
                  "-varfn", str(model / "variances"),
                  "-mixwfn", str(model / "mixture_weights"),
                  "-tmatfn", str(model / "transition_matrices"), "-accumdir", str(work),
                  "-bayesmean", "no", "-fixedtau", "yes", "-tau", str(MAP_TAU),
                  "-mapmeanfn", str(adapted / "means"),
                  "-mapvarfn", str(work / "map_variances"),
                  "-mapmixwfn", str(work / "map_mixture_weights"),
                  "-maptmatfn", str(work / "map_transition_matrices")], work / "map.log")
            # Only the means change: variances and mixture weights learnt from a few
            # minutes of a few voices took table talk as commands more often (tuning part).
            for name in MODEL_FILES:
                if name != "means":
                    shutil.copy(base / name, adapted / name)
            result = adapted
        _replace(result, out)
    return out


def _replace(result: Path, out: Path) -> None:
    """Put the new adaptation in place of the old in one step (a box reading it at start-up
    never sees half of one)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    staged = out.parent / f".{out.name}.new"
    if staged.is_dir():
        shutil.rmtree(staged)
    elif staged.exists():
        staged.unlink()
    shutil.move(str(result), staged)
    if out.is_dir() and not out.is_symlink():
        old = out.parent / f".{out.name}.old"
        shutil.rmtree(old, ignore_errors=True)
        out.rename(old)
        staged.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        if staged.is_dir() and (out.exists() or out.is_symlink()):
            out.unlink()  # a transform file gives way to a model folder
        staged.replace(out)
