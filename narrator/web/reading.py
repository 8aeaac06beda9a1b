"""What the page reads of a game's box: its public view, its identity, the undo's stack,
and whether a card-less deal is due. Pure reading: nothing here changes the game.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from narrator.daemon import Box
from narrator.engine.actions import Action, Undo
from narrator.engine.state import State
from narrator.engine.voting import counted_by_hand
from narrator.records.session import GameSession, ProtocolFiles
from narrator.web.phone_deal import PhoneDeal
from narrator.web.text import text
from narrator.web.view import GameInfo, Timer, View, public_state, role_pattern

log = logging.getLogger("narrator.web")


@dataclass
class Undos:
    """The actions an undo would take back, newest last (an Undo pops one)."""

    stack: list[Action] = field(default_factory=list)

    def hear(self, action: Action | None) -> None:
        if action is None:
            return
        if isinstance(action, Undo):
            if self.stack:
                self.stack.pop()
        else:
            self.stack.append(action)
        del self.stack[:-500]


def step_of(box: Box) -> int:
    """A number that changes with every action the game takes (its journal's lines): the
    undo's confirm step names what goes at this step, and is refused at another."""
    session = box.session
    if isinstance(session, GameSession):
        return session.journal.lines
    return len(box.game.history)


def state_before(box: Box) -> State | None:
    history = box.game.history
    return history[-1] if history else None


def info_of(box: Box) -> GameInfo:
    rules = box.game.engine.rules
    words = role_words(tuple(rules.roles))
    teams = tuple((name, role.team) for name, role in rules.roles.items())
    # A best move is named by the first night's victim in their last word: none where the
    # shot say no last word (classic, boxed), and the page offers no button for it.
    best = "shot" in rules.day.last_word_after
    session = box.session
    if isinstance(session, GameSession):
        header = session.header
        names = tuple(getattr(header, "names", ()) or ())
        return GameInfo(header.game_id, rules.name, rules.title, header.lang, names, words,
                        forfeit=rules.forfeit, best_move=best, input=header.input,
                        deal=header.deal, judge=bool(header.judge), teams=teams)
    return GameInfo("", rules.name, rules.title, "en", (), words, forfeit=rules.forfeit,
                    best_move=best, teams=teams)


@functools.cache
def role_words(roles: tuple[str, ...]) -> re.Pattern[str]:
    """The rule set's role names in every language the page speaks, and their ids."""
    from narrator.phrases.numbers import LANGUAGES

    names = list(roles)
    for lang in LANGUAGES:
        names += [text(lang).role(r) for r in roles]
    return role_pattern(names)


def view_of(box: Box, every_cue: bool = False) -> View:
    """The public view of the game; `every_cue`: with the cue being said even when it names
    a role (the signed-in organiser's)."""
    st = box.game.state
    timers = box.performer.timers
    timer: Timer | None = None
    if st.phase == "day" and st.window and not counted_by_hand(st):  # a count has no timer
        left = timers.remaining(st.window)
        if left is not None:
            timer = Timer(left, not timers.paused)
        elif st.open:
            timer = Timer(float(st.open.seconds), False)  # the box is still speaking before it
    formats: list[str] = []
    session = box.session
    if st.phase == "over" and isinstance(session, GameSession) and session.files is not None:
        files = session.files
        formats = [fmt for fmt, path in (("html", files.html), ("json", files.json),
                                         ("polemica", files.polemica)) if path is not None]
    # A technical pause: the journal cannot be written. A word, not the exception (that
    # is in the log): the page says in words what is wrong and what to do.
    return public_state(info_of(box), st, timer, box.performer.last_said, formats,
                        fault="journal_unwritable" if box.disk_fault else None,
                        unsaved=box.unsaved, every_cue=every_cue)


def abandoned_view(view: View, files: ProtocolFiles | None) -> View:
    """The view of a game the organiser abandoned: over, with no winner and no role shown
    (an abandon reveals nothing), its protocol linked; no moment, timer or pause."""
    protocols = None if files is None else tuple(
        fmt for fmt, path in (("html", files.html), ("json", files.json),
                              ("polemica", files.polemica)) if path is not None)
    game = replace(view.game, over=True, winner=None, abandoned=True, paused=False,
                   redo_night_zero=False, protocols=protocols)
    return replace(view, game=game, speaker=0, timer_left=None, timer_running=False)


def phone_deal(box: Box) -> PhoneDeal | None:
    """The phone to pass round, for a new game the box dealt itself (deal: phone) that has
    not begun: never for a resumed game (its deal was seen before the power went)."""
    session = box.session
    if not isinstance(session, GameSession) or getattr(session.header, "deal", "cards") != "phone":
        return None
    roles = session.header.roles
    if roles is None or session.journal.lines > 1:
        return None
    # The box says nothing until the phone has gone round: then "a new game begins".
    box.performer.hold()
    return PhoneDeal(roles, box.performer.release)


def journal_actions(session: GameSession) -> list[Action]:
    """The undo stack of a resumed game, from its journal."""
    from narrator.records.journal import read

    undos = Undos()
    try:
        for entry in read(Path(session.journal.path)).entries:
            undos.hear(entry.action)
    except Exception:  # an unreadable journal only costs the undo's description
        log.warning("the journal could not be read for the undo's description")
        return []
    return undos.stack
