"""The service's small state machines (narrator.box.states), each on its own: the
keypad's start key, the confirmation of a game-changing key, the memory card's outage,
the page's address said once, and what is told once an evening."""

from __future__ import annotations

import pytest

from narrator.box.starter import WaitingFiles
from narrator.box.states import (
    Announcement,
    Card,
    CardOutage,
    Confirmation,
    KeyTyping,
    ToldOnce,
)


def test_only_an_enter_with_nothing_typed_before_it_is_the_start_key() -> None:
    typing = KeyTyping()
    assert typing.key("enter")  # bare: the start key
    assert not typing.key("3") and not typing.key("enter")  # an entry's own Enter
    assert typing.key("enter")  # bare again after it
    assert not typing.key("/") and not typing.key("enter")  # a host's move: its own Enter
    assert not typing.key("/") and not typing.key("clear")  # cleared: nothing typed now
    assert typing.key("enter")
    assert not typing.key("pause") and typing.key("enter")  # other keys type nothing


def test_a_game_changing_key_counts_when_the_same_keys_come_again_in_time() -> None:
    c = Confirmation(15.0)
    assert not c.confirm("abandon", 100.0)  # asked
    assert c.confirm("abandon", 115.0)  # again within the time: done, and forgotten
    assert c.asked is None
    assert not c.confirm("abandon", 120.0)
    assert not c.confirm("abandon", 135.5)  # too late: asked afresh
    assert not c.confirm("forfeit 3", 136.0)  # other keys: asked afresh, not confirmed
    assert not c.confirm("abandon", 137.0)
    c.clear()  # a new game: nothing waits
    assert not c.confirm("abandon", 138.0)


def test_the_card_outage_is_told_once_and_lets_a_game_unsaved_after_its_tries() -> None:
    card = CardOutage(3)
    assert card.state is Card.WRITABLE and not card.play_unsaved
    assert card.refused()  # the first refusal begins the outage: said aloud
    assert not card.refused() and not card.play_unsaved  # said once an outage
    assert not card.refused() and card.play_unsaved  # the third: played unsaved
    assert card.writable() and card.state is Card.WRITABLE and not card.play_unsaved
    assert not card.writable()  # nothing to tell
    assert card.refused()  # a new outage is told again


def test_the_page_address_is_pending_until_said() -> None:
    a = Announcement()
    assert not a.said
    a.done()
    assert a.said


def test_told_once_per_thing_and_language() -> None:
    told = ToldOnce()
    assert told.first("voice_no_model", "ru")
    assert not told.first("voice_no_model", "ru")
    assert told.first("voice_no_model", "en")
    told.mark("voice_mic_lost")
    assert not told.first("voice_mic_lost")


class Ended:
    """An ended game whose card refuses its files `refusals` times."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.written = 0

    def complete(self) -> None:
        if self.refusals > 0:
            self.refusals -= 1
            raise OSError(28, "No space left on device")
        self.written += 1


def test_an_ended_games_files_wait_until_the_card_takes_them() -> None:
    waiting: WaitingFiles[Ended] = WaitingFiles()
    assert waiting.write(False) is None  # nothing waits
    game = Ended(refusals=2)
    waiting.keep(game)
    with pytest.raises(OSError):
        waiting.write(False)  # no game begins while they can't be written...
    assert waiting.write(True) is None  # ...unless the table plays unsaved: they wait on
    assert waiting.game is game
    assert waiting.write(False) is game and game.written == 1
    assert waiting.game is None and waiting.write(False) is None
