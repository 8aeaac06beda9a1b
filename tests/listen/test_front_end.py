"""The listening front ends: each stage is the real library's, keeps the stream's clock (as
many samples out as in, a fixed lag late) and does its job on real speech; a recogniser
hears through them; a front end the box cannot make is one clear error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from narrator.boards import FRONT_END, FRONT_END_NAMES
from narrator.errors import ConfigError
from narrator.voice.commands import Command, CommandSet
from narrator.voice.front_end import FRONT_ENDS, FrontEndRecognizer, Resampler3, front_end
from narrator.voice.listen_clips import ClipSpec, read_wav, speak_all, speech_end
from narrator.voice.recognizer import chunked, read_audio, recognize
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer
from narrator.voice.speech_levels import levels


def test_the_config_and_the_boards_name_the_front_ends_there_are() -> None:
    assert set(FRONT_END_NAMES) == set(FRONT_ENDS)
    assert set(FRONT_END.values()) <= set(FRONT_ENDS)
    with pytest.raises(ConfigError, match=r"recognizer\.front_end"):
        front_end("dfn3")


def test_every_stage_keeps_the_streams_clock(clips: Path) -> None:
    [path] = speak_all([ClipSpec("pause for a second", "en-us", babble=0.0)], clips)
    audio = read_wav(path).tobytes()
    for name in FRONT_ENDS:
        stages = front_end(name)
        out = b""
        for chunk in chunked(audio, 0.037):  # chunks that are no stage's frame
            for stage in stages:
                chunk = stage.process(chunk)
            out += chunk
        assert len(out) == len(audio), name
        lag = sum(s.lag for s in stages)
        if name != "none":
            # Quiet while the first frame fills, then the speech, about a lag late.
            heard = np.frombuffer(out, "<i2")
            assert not heard[: stages[0].lag].any(), name
            assert abs(int(np.argmax(levels(out))) - int(np.argmax(levels(audio)))) <= \
                lag // 160 + 5, name


def test_the_resampler_gives_the_signal_back() -> None:
    r = Resampler3()
    t = np.arange(16000) / 16000
    x = 8000 * np.sin(2 * np.pi * 440 * t) + 3000 * np.sin(2 * np.pi * 3000 * t)
    y = np.concatenate([r.down(r.up(x[i : i + 160])) for i in range(0, 16000, 160)])
    delay = (Resampler3.TAPS - 1) // 3
    assert np.abs(y[delay + 200 :] - x[200 : len(y) - delay]).max() < 5


def test_noise_suppression_takes_noise_down_and_leaves_speech(clips: Path) -> None:
    [path] = speak_all([ClipSpec("start voting", "en-us", noise=400.0)], clips)
    audio = read_wav(path)
    for name in ("webrtc", "rnnoise"):
        [stage] = front_end(name)
        out = np.frombuffer(stage.process(audio.tobytes()), "<i2")[stage.lag :].astype(float)
        noise_in = audio[: 4000].astype(float).std()  # the clip's lead: noise alone
        noise_out = out[: 4000 - stage.lag].std()
        assert noise_out < noise_in / 3, name
        assert out.std() > audio.astype(float).std() / 4, name  # the speech is still there


def test_a_command_is_heard_through_a_front_end(clips: Path, english: CommandSet) -> None:
    [path] = speak_all([ClipSpec("start voting", "en-us")], clips)
    for name in ("webrtcvad", "silero"):
        heard = FrontEndRecognizer(front_end(name), PocketsphinxRecognizer(english))
        got = [c.command for c in recognize(heard, chunked(read_audio(path)))]
        assert got == ["start_voting"], name


def test_the_box_config_takes_a_front_end_and_refuses_an_unknown_one() -> None:
    from narrator.boxconfig import parse_settings

    assert parse_settings("", "narrator.yaml").recognizer.front_end == "auto"
    chosen = parse_settings("recognizer:\n  front_end: webrtc\n", "narrator.yaml")
    assert chosen.recognizer.front_end == "webrtc"
    with pytest.raises(ConfigError, match=r"narrator.yaml.*recognizer.front_end.*deepfilter"):
        parse_settings("recognizer:\n  front_end: deepfilter\n", "narrator.yaml")


class _Ear:
    """The Recognizer port's far side, keeping what it was given (what the recogniser
    would hear)."""

    def __init__(self) -> None:
        self.heard = b""

    def accept(self, chunk: bytes) -> list[Command]:
        self.heard += chunk
        return []

    def skip(self, chunk: bytes) -> None:
        self.heard += chunk

    def flush(self) -> list[Command]:
        return []


def test_the_recogniser_hears_the_stages_output_to_the_last_sample(clips: Path) -> None:
    [path] = speak_all([ClipSpec("start voting", "en-us", noise=400.0)], clips)
    audio = read_wav(path).tobytes()
    ear = _Ear()
    heard = FrontEndRecognizer(front_end("webrtc"), ear)
    for chunk in chunked(audio, 0.1):
        heard.accept(chunk)
    heard.flush()
    [alone] = front_end("webrtc")
    # The same stage on the whole clip, then its lag of quiet to let the last frame out.
    assert ear.heard == alone.process(audio) + alone.process(bytes(2 * alone.lag))


def test_the_gates_turn_down_what_is_no_speech_and_keep_the_speech(clips: Path) -> None:
    spec = ClipSpec("start voting", "en-us", noise=400.0, tail=1.2)
    [path] = speak_all([spec], clips)
    audio = read_wav(path)
    end = round(speech_end(spec) * 16000)
    for name in ("silero", "webrtcvad"):
        [gate] = front_end(name)
        out = np.frombuffer(gate.process(audio.tobytes()), "<i2")[gate.lag :].astype(float)
        # After the speech and the gate's hang (0.2 s, a little more for the VAD's frames):
        after = slice(end + round(0.45 * 16000), len(out))
        assert out[after].std() < audio[after].astype(float).std() / 10, name
        voice = slice(round(spec.lead * 16000), end)
        assert out[voice].std() > audio[voice].astype(float).std() * 0.9, name
