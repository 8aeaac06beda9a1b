"""Sport's forfeit by voice through the real recognizer (espeak-ng WAVs): asked back, then
done on "yes"; talk that sounds like "forfeit" ("four seven") is no command."""

from __future__ import annotations

from pathlib import Path

from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer
from tests.listen.test_confirm_voice import play, recording, summary


def test_a_forfeit_is_asked_back_and_done_on_yes(clips: Path,
                                                 sphinx: PocketsphinxRecognizer) -> None:
    path = recording(clips, "forfeit-yes", ["severe breach by player seven", "yes"], 1.0, "en-gb")
    assert summary(play(sphinx, path)) == [("ask", "forfeit", 7), ("act", "forfeit", 7)]


def test_talk_like_forfeit_is_no_command(clips: Path, sphinx: PocketsphinxRecognizer) -> None:
    path = recording(clips, "forfeit-talk", ["four seven", "for fifty seconds",
                                             "before it ends"], 1.0, "en-gb")
    assert summary(play(sphinx, path)) == []
