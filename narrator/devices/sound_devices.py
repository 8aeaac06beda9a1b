"""The box's sound devices as the rest of the box asks about them: is there a microphone,
is there a speaker, a take from the microphone. The audio library is imported here (and
in narrator.voice), nowhere else."""

from __future__ import annotations

from collections.abc import Callable

from narrator.voice.wav import Clip


def has_input(device: str | int | None = None) -> bool:
    """Whether there is a microphone (`device`: the one named, else the default)."""
    try:
        import sounddevice

        sounddevice.query_devices(device, kind="input")
    except Exception:
        return False
    return True


def has_output() -> bool:
    """Whether there is a sound device to play on."""
    try:
        import sounddevice

        sounddevice.query_devices(kind="output")
    except Exception:
        return False
    return True


def record_until(done: Callable[[], object], rate: int, device: str | int | None = None) -> Clip:
    """A mono take from the microphone from now until `done` returns (the host's Enter)."""
    import numpy as np
    import sounddevice as sd

    chunks: list[np.ndarray] = []
    with sd.InputStream(samplerate=rate, channels=1, dtype="float32", device=device,
                        callback=lambda data, *_: chunks.append(data[:, 0].copy())):
        done()
    return Clip(np.concatenate(chunks) if chunks else np.zeros(0, np.float32), rate)
