"""One game's box put together: its window timers, the performer that runs them and
speaks, and the referee, with the timers' expiry closing the referee's windows. The
service's starter, the demo and the page's benchmark all make a game's box here."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from narrator.box.performer import Performer
from narrator.box.referee import Box
from narrator.box.session import Session
from narrator.box.windows import WindowTimers
from narrator.clock import Clock
from narrator.devices.display import AnswerDisplay
from narrator.devices.panel import SeatPanel
from narrator.phrases.book import PhraseBook
from narrator.voice.speaker import Speaker


def build(session: Session, speaker: Speaker, book: PhraseBook, clock: Clock, *,
          panel: SeatPanel | None = None, mute: Callable[[bool], None] | None = None,
          on_pause: Sequence[Callable[[bool], None]] = (),
          displays: Sequence[AnswerDisplay] = (), show_answers: bool = True) -> Box:
    """The box that plays `session`: says its cues from `book` through `speaker`, lights
    `panel`, tells `on_pause` of every pause, shows answers on `displays` (with
    `show_answers` off none shows: a judge's table), all on `clock`."""
    timers = WindowTimers(clock)
    performer = Performer(speaker, book, timers, panel, mute, on_pause=on_pause,
                          displays=displays)
    performer.show_answers = show_answers
    box = Box(session, performer, clock)
    timers.on_expire = box.window_expired
    return box
