"""The engine's vocabularies: each closed set of words a game is told in, declared once.

A vocabulary that is only compared and stored is a `Literal`: its values are the very
strings the JSON has always held (journals, protocols and the page's answers stay byte for
byte the same) and mypy (strict equality) rejects a comparison with a word not in it
(`st.phase == "dya"`). One that is iterated or keys a table is a `StrEnum` (`RecordEvent`),
whose members are those strings too and repr as them, so a log line or the engine's
fingerprint reads as before. The rule sets' words are checked against the same types when a
rule file is loaded (`ruleset.CHOICES`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, TypeAlias

# Where a game stands: night 0, day 1, night 1, ... then over.
GamePhase: TypeAlias = Literal["night", "day", "over"]
# Why a game ended (`Outcome.reason`): each win check's own words, a forfeit, the idle
# rounds' draw. The box says each with its cue (narrator.engine.cues.REASON_CUES).
Reason: TypeAlias = Literal[
    "all black players eliminated", "black equal or outnumber red", "idle_rounds",
    "nobody is left at the table", "the maniac is left with at most one red player",
    "the maniac is left alone with one black player", "the maniac is the last player left",
    "forfeit"]
# A ballot: electing whom to eliminate, or lifting all the tied at once.
BallotKind: TypeAlias = Literal["elect", "lift"]
# How a night step takes its choice (a rule set's `night[].input`).
StepInput: TypeAlias = Literal["callout", "keypad", "none"]

# The day's and the fouls' choices of a rule set (`DayRules`, `FoulRules`, `DawnRules`).
FirstDayVote: TypeAlias = Literal["normal", "none", "lift_only"]
SingleNomineeFirstDay: TypeAlias = Literal["no_vote", "vote"]
SingleNomineeLater: TypeAlias = Literal["leaves", "vote", "no_vote"]
TieRule: TypeAlias = Literal["revote_then_lift", "revote_then_lift_then_coin", "all_or_none_then_coin"]
RevoteTieFewer: TypeAlias = Literal["revote", "lift"]
CoinRule: TypeAlias = Literal["all_or_none", "one"]
CancelVote: TypeAlias = Literal["nominee", "nearest", "today", "none"]
DawnNews: TypeAlias = Literal["booklet", "deaths"]
HealNews: TypeAlias = Literal["always", "saved"]
GuardNews: TypeAlias = Literal["always", "stopped"]


class Word(StrEnum):
    """A vocabulary's member: a string that reprs as one."""

    def __repr__(self) -> str:
        return str.__repr__(self)


class RecordEvent(Word):
    """What a protocol line (`effects.Record`) says happened."""

    DEAL = "deal"  # the cards dealt (or learned at night zero)
    ROLES = "roles"  # every role, as the game ends
    NIGHT_CHOICE = "night_choice"
    CHECK = "check"
    ASLEEP = "asleep"
    GUARDED = "guarded"
    HEALED = "healed"
    MEDICINES = "medicines"
    SILENCE = "silence"
    STOPPED = "stopped"
    TURNED = "turned"
    VISIT = "visit"
    NOMINATION = "nomination"
    WITHDRAWN = "withdrawn"
    ACCUSATION = "accusation"
    SECOND = "second"
    CONVICTION = "conviction"
    VOTE = "vote"
    VOTE_CANCELLED = "vote_cancelled"
    LONE_NOMINEE = "lone_nominee"
    LIFT_VOTE = "lift_vote"
    ALL_OR_NONE = "all_or_none"
    COIN = "coin"
    VERDICT = "verdict"
    FORFEIT = "forfeit"
    FOUL = "foul"
    FOULS_RESET = "fouls_reset"
    FOUL_TAKEN_BACK = "foul_taken_back"
    BEST_MOVE = "best_move"
    GAME_OVER = "game_over"
