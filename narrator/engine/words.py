"""The engine's vocabularies: each closed set of words a game is told in, declared once.

Each is a `StrEnum`, so a member is the very string the JSON has always held (journals,
protocols and the page's answers stay byte for byte the same) while mypy catches a word
mistyped in code. A member's repr is its string's as well: a log line or a fingerprint that
shows one reads as before.
"""

from __future__ import annotations

from enum import StrEnum


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
