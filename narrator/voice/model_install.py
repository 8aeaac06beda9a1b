"""Put a Vosk model the club provides (a downloaded zip or tar, or a folder) in place for
one language, as `scripts/install-pi --vosk-model [LANG=]PATH` does:

    python -m narrator.voice.model_install LANG PATH DEST

prints the SHA-256 of what was given (an archive's bytes; for a folder, of every file's
path and hash in order), unpacks it beside DEST, checks it by loading it with Vosk and
building the language's command grammar (every command word must be in the model's
vocabulary), and only then moves it to DEST (replacing what was there). A model that
fails the check is removed and DEST is left as it was: one line on stderr, exit 2.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tarfile
import zipfile
from pathlib import Path

from narrator.errors import ConfigError
from narrator.voice.commands import CommandSet


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    if path.is_dir():
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            digest.update(str(file.relative_to(path)).encode() + b"\0")
            digest.update(hashlib.sha256(file.read_bytes()).digest())
        return digest.hexdigest()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def unpack(source: Path, into: Path) -> Path:
    """The model folder inside `into` (archives hold one top folder, named for the model)."""
    name = source.name
    if source.is_dir():
        shutil.copytree(source, into)
    elif name.endswith(".zip"):
        with zipfile.ZipFile(source) as z:
            z.extractall(into)
    elif name.endswith((".tar.gz", ".tgz", ".tar")):
        with tarfile.open(source) as t:
            t.extractall(into, filter="data")
    else:
        raise ConfigError(str(source), "", "neither a folder nor a .zip/.tar.gz archive")
    entries = list(into.iterdir())
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return into


def check(folder: Path, commands: CommandSet) -> int:
    """Load the model and its grammar for `commands`; the number of command sentences."""
    from narrator.voice.recognizer_vosk import load_model

    model = load_model(folder)
    missing = sorted(w for w in commands.vocabulary() if model.vosk_model_find_word(w) < 0)
    if missing:
        raise ConfigError(str(folder), "", "command words not in this model's vocabulary: "
                                           f"{', '.join(missing[:8])} (a model for another "
                                           "language?)")
    from narrator.voice.recognizer_vosk import VoskRecognizer

    VoskRecognizer(commands, folder, verify=False)
    return len(commands.sentences)


def install(source: Path, dest: Path, commands: CommandSet) -> str:
    """Check and place the model; the line that says what was installed."""
    if not source.exists():
        raise ConfigError(str(source), "", "no such file or folder")
    digest = sha256_of(source)
    print(f"vosk model {source}: sha256 {digest}", flush=True)
    work = dest.with_name(dest.name + ".new")
    shutil.rmtree(work, ignore_errors=True)
    try:
        try:
            folder = unpack(source, work)
        except (OSError, zipfile.BadZipFile, tarfile.TarError) as exc:
            raise ConfigError(str(source), "", f"cannot unpack: {exc}") from None
        sentences = check(folder, commands)
        if folder != work:
            staged = dest.with_name(dest.name + ".top")
            shutil.rmtree(staged, ignore_errors=True)
            folder.rename(staged)
            work.rmdir()
            staged.rename(work)
        old = dest.with_name(dest.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if dest.exists():
            dest.rename(old)
        work.rename(dest)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return f"vosk model in {dest}: loads, {sentences} command sentences, sha256 {digest}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3:
        print("usage: python -m narrator.voice.model_install LANG PATH DEST", file=sys.stderr)
        return 2
    lang, source, dest = args[0], Path(args[1]), Path(args[2])
    try:
        print(install(source, dest, CommandSet.for_language(lang)))
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
