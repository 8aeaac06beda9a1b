"""The box's own rulings on an action, before and after the engine's: corrections refused
at night, "next speaker" refused before the speech has begun, and an undo as the table
hears and sees it (the timer it keeps or reopens, the words it says)."""

from __future__ import annotations

from narrator.box.windows import WindowTimers
from narrator.engine.actions import Action, AddTime, EndSpeech, Hold, Undo, Unfoul, WindowClosed
from narrator.engine.effects import (
    CloseWindow,
    Effect,
    ExtendWindow,
    OpenWindow,
    PauseTimers,
    ResumeTimers,
    Say,
)
from narrator.engine.game import Game, Taken
from narrator.engine.recall import before_window, recall
from narrator.engine.voting import counted_by_hand
from narrator.errors import RuleError


def refuse_correction_at_night(game: Game, action: Action) -> None:
    """An undo or an unfoul at night, or one that would take the game back into the night,
    is refused whatever device asks: what it takes back (a tap or nothing) would be heard.
    The refusal is the same whether anyone acted."""
    if not isinstance(action, Undo | Unfoul):
        return
    before = game.history[-1] if game.history else None
    if game.state.phase == "night" or (before is not None and before.phase == "night"):
        raise RuleError("no corrections at night", "into_night")


def refuse_unbegun_speech_end(game: Game, action: Action, timers: WindowTimers) -> None:
    """"Next speaker" (the page, the keypad's key, the voice, the speaker's long press)
    before the speech it would end has begun is refused: the box is still announcing it
    ("Player number six, your last word."), so the press was meant for the speech before
    (a double press, a late one) and would skip a speech nobody has given. A speech begins
    when its timer starts; a paused one has begun."""
    if not isinstance(action, EndSpeech | Hold):
        return
    st = game.state
    if st.phase != "day" or not st.window or st.current is None or counted_by_hand(st):
        return
    if isinstance(action, Hold) and action.seat != st.speaker:
        return  # not the speaker's: the engine says why
    if not timers.is_open(st.window):
        raise RuleError("the speech has not begun yet", "speech_not_begun")


def undone(game: Game, taken: Taken | None, window_before: int, reopening: list[Effect],
           timers: WindowTimers) -> tuple[list[Effect], bool]:
    """An undo (in the day only: refused at night) as the table hears and sees it, and
    whether the open timer goes on (False: every timer is closed first). The game goes
    back to what it was, its time too, and the box says only that it took something back:
    - the moment goes on (a foul, a nomination, a hand, a pause taken back): its timer
      keeps the time it has, less what the undone action added (+30 s), and nothing of
      the moment is said again (the speaker was not starting over);
    - the moment changed (the next speaker, the vote): the one it went back to opens again
      with the time it had left when the undone action came, and its words name it with
      that time ("Player number 1, you have 31 seconds"). A window that ran out, or whose
      time is not known, opens in full.
    The timers are paused or running as the game is."""
    st, rules = game.state, game.engine.rules
    window = st.window
    out: list[Effect] = []
    if st.paused != timers.paused and st.phase != "over":
        out.append(PauseTimers() if st.paused else ResumeTimers())
    said: list[Effect] = [Say("undone", {})]
    if window and window == window_before:
        by_hand = counted_by_hand(st)
        running = by_hand or timers.is_open(window)
        if running:
            # Its OpenWindow (and a counted ballot's CloseWindow) are the timer it has.
            reopening = [e for e in reopening
                         if not (isinstance(e, OpenWindow | CloseWindow) and e.window == window)]
            if taken is not None and isinstance(taken.action, AddTime) and not by_hand:
                reopening.append(ExtendWindow(window, -float(taken.action.seconds)))
            return [*out, *reopening, *said], True
        # The box was still announcing the moment (its timer not begun): it begins now.
        return [*out, *before_window(reopening, [*said, *recall(rules, st)])], True
    left = taken.left if taken is not None and not isinstance(taken.action, WindowClosed) else None
    if left is not None and left >= 1:
        reopening = [OpenWindow(e.window, e.purpose, left, e.seat)
                     if isinstance(e, OpenWindow) and e.window == window else e
                     for e in reopening]
    else:
        left = None
    return [*out, *before_window(reopening, [*said, *recall(rules, st, left)])], False
