"""The speaker and microphone check: a tone played and recorded at once, then measured.

The signal is half a second of silence (the room alone), a 1 kHz tone at -12 dBFS for a
second, and half a second of silence. From the recording:
- room: the level of the first 0.3 s (before the tone can arrive), all frequencies;
- tone: the level at 1 kHz, window by window (50 ms windows, 10 ms apart); the tone is
  heard when its windows stand at least HEARD_DB above the same band before it;
- delay: when the tone arrived (output plus input latency, and the air);
- peak and clipping: the largest sample, and how many sat at the converter's limit.
Levels are dBFS with a full-scale sine at 0 dBFS.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from narrator.voice.wav import Samples

TONE_HZ = 1000.0
TONE_DBFS = -12.0
LEAD_S, TONE_S, TAIL_S = 0.5, 1.0, 0.5
ROOM_S = 0.3
WINDOW_S, HOP_S = 0.05, 0.01
HEARD_DB = 20.0        # the tone stands this far above the band's own noise
QUIET_DBFS = -50.0     # heard, but so faint that voice commands from the seats will struggle
CLIP_LIMIT = 32767 / 32768
SILENCE = 1e-9


def tone_signal(rate: int) -> Samples:
    """Silence, the tone (with 10 ms fades, so the speaker does not click), silence."""
    n = round(TONE_S * rate)
    t = np.arange(n) / rate
    tone = 10 ** (TONE_DBFS / 20) * np.sin(2 * np.pi * TONE_HZ * t)
    fade = round(0.01 * rate)
    ramp = np.linspace(0.0, 1.0, fade)
    tone[:fade] *= ramp
    tone[-fade:] *= ramp[::-1]
    lead, tail = np.zeros(round(LEAD_S * rate)), np.zeros(round(TAIL_S * rate))
    return np.concatenate([lead, tone, tail]).astype(np.float32)


def dbfs(amplitude: float) -> float:
    """A sine's peak amplitude in dBFS (full scale = 0)."""
    return 20 * math.log10(max(amplitude, SILENCE))


@dataclass(frozen=True)
class SoundFigures:
    tone_dbfs: float
    band_noise_dbfs: float  # the 1 kHz band before the tone
    room_dbfs: float        # all frequencies before the tone
    peak_dbfs: float
    clipped: int            # samples at the converter's limit
    delay_s: float | None   # None: the tone never arrived

    @property
    def silent(self) -> bool:
        """Digital silence: the input gives zeros (muted, or not the microphone)."""
        return self.peak_dbfs <= dbfs(SILENCE)

    @property
    def heard(self) -> bool:
        return not self.silent and self.tone_dbfs - self.band_noise_dbfs >= HEARD_DB

    def problems(self) -> list[str]:
        """What is wrong, each in one short clause a builder can act on."""
        if self.silent:
            return ["the microphone gives digital silence: unplugged, muted in alsamixer, "
                    "or the wrong input device"]
        out = []
        if not self.heard:
            out.append(f"the tone was not heard over the room ({self.room_dbfs:.0f} dBFS): "
                       "check the speaker, the amplifier and its volume")
        if self.clipped:
            out.append(f"{self.clipped} samples clipped: lower the microphone gain "
                       "(alsamixer) or the amplifier's volume")
        return out

    def warnings(self) -> list[str]:
        if self.heard and self.tone_dbfs < QUIET_DBFS:
            return [f"the tone came back faint ({self.tone_dbfs:.0f} dBFS): raise the "
                    "microphone gain, or voice commands from the seats will be missed"]
        return []

    def line(self) -> str:
        if self.silent:
            return "no signal from the microphone"
        delay = f", after {self.delay_s * 1000:.0f} ms" if self.delay_s is not None else ""
        clip = f"{self.clipped} samples clipped" if self.clipped else "no clipping"
        return (f"tone {self.tone_dbfs:.0f} dBFS{delay}, room {self.room_dbfs:.0f} dBFS, "
                f"peak {self.peak_dbfs:.0f} dBFS, {clip}")


def _tone_levels(x: np.ndarray, rate: int) -> tuple[np.ndarray, np.ndarray]:
    """(start times, tone amplitudes) of the sliding windows: one DFT bin, Hann window."""
    n = round(WINDOW_S * rate)
    hop = round(HOP_S * rate)
    if len(x) < n:
        return np.zeros(0), np.zeros(0)
    starts = np.arange(0, len(x) - n + 1, hop)
    window = np.hanning(n)
    phasor = np.exp(-2j * np.pi * TONE_HZ * np.arange(n) / rate) * window
    frames = np.lib.stride_tricks.sliding_window_view(x, n)[::hop]
    amplitude = 2 * np.abs(frames @ phasor) / window.sum()
    return starts / rate, amplitude


def _delay(x: np.ndarray, rate: int) -> float:
    """The lag at which the recording best matches the played signal (cross-correlation)."""
    played = tone_signal(rate).astype(np.float64)
    size = 1 << (len(x) + len(played)).bit_length()
    corr = np.fft.irfft(np.fft.rfft(x, size) * np.conj(np.fft.rfft(played, size)), size)
    lags = corr[:round(LEAD_S * rate) + 1]  # the tone cannot come back before it was played
    return float(np.argmax(lags)) / rate


def analyse(recorded: Samples, rate: int) -> SoundFigures:
    x = recorded.astype(np.float64)
    peak = float(np.max(np.abs(x))) if len(x) else 0.0
    clipped = int(np.count_nonzero(np.abs(x) >= CLIP_LIMIT))
    room = x[:round(ROOM_S * rate)]
    room_dbfs = dbfs(float(np.sqrt(np.mean(room ** 2))) * math.sqrt(2)) if len(room) else -180.0
    times, amp = _tone_levels(x, rate)
    before = amp[times + WINDOW_S <= ROOM_S]
    band_noise = float(np.median(before)) if len(before) else SILENCE
    if not len(amp):
        return SoundFigures(-180.0, dbfs(band_noise), room_dbfs, dbfs(peak), clipped, None)
    # The tone: the windows within 6 dB of the loudest, which must lie after the room part.
    top = float(np.max(amp))
    steady = amp >= top / 2
    tone = float(np.median(amp[steady]))
    heard = dbfs(tone) - dbfs(band_noise) >= HEARD_DB
    delay = _delay(x, rate) if heard else None
    return SoundFigures(dbfs(tone), dbfs(band_noise), room_dbfs, dbfs(peak), clipped, delay)
