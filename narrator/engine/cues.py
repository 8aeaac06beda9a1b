"""Every cue the engine itself can say, with the names of its parameters.

Rule sets add their own night-step cues (wake, sleep, ...) in their YAML files; the
phrase-book test checks that every cue here and in every bundled rule set has a text in
every language, with the same parameters. Parameters are public values only: seat
numbers (`seat`, `seats`), counts (`count`, `votes`, `seconds`, `minutes`), day numbers
(`day`), and a role named only where the rules make it public (`role`: the roles in play
before the game, a card shown when its holder leaves). A rule set may give an engine cue
its own words (`cues:` in its YAML, e.g. boxed's «Город засыпает»).
"""

from __future__ import annotations

from collections.abc import Mapping

from narrator.engine.words import Reason

ENGINE_CUES: dict[str, tuple[str, ...]] = {
    # before the first night (boxed): the roles in play, in the rule set's order
    "deck_intro": (),  # "Roles in this game:"
    "deck_role": ("role",),  # "Commissar."
    "deck_roles": ("role", "count"),  # "Civilians: four."
    # night
    "night_falls": (),  # "Night falls. Everyone, close your eyes."
    "night_zero": (),  # the first night: roles meet the host, no shots
    "night_zero_redo": (),  # night zero went wrong too often: paused, to be played again
    "callout": ("seat",),  # one number of the call-out: "three"
    "nobody": (),  # the call-out's last item: "nobody" (a role may choose no one)
    "callout_again": (),  # a call-out's next round (boxed mafia): "Again."
    "morning": ("day",),  # "Good morning. Day two."
    "night_victim": ("seat",),  # "Tonight player number three was killed."
    "night_victims": ("seats",),  # several victims
    "nobody_killed": (),  # "Nobody was hurt tonight."
    "answer_public_yes": ("seat",),  # only when a rule set makes check answers public
    "answer_public_no": ("seat",),
    # day: speeches
    "last_word": ("seat",),  # "Player number three, your last word."
    "best_move": ("seat",),  # "Player number three, name three players as your best move."
    "speaker": ("seat",),  # "Player number five, your minute."
    "speaker_short": ("seat", "seconds"),  # a shortened speech
    "speech_lost": ("seat",),  # three fouls: "Player number five misses this speech."
    "ten_seconds": (),
    "time_up": (),  # "Thank you."
    "discussion": ("seconds",),  # free discussion opens (Princeton rules)
    "accusations_open": (),  # Princeton: the moderator asks for accusations
    "accuser_speech": ("seat", "seconds"),  # Princeton: the accuser explains
    "accuser_speech_unnamed": ("seconds",),  # the same, the accuser not named (keypad, voice)
    "ask_second": ("seat",),  # Princeton: "Is there a second?"
    "comments": ("seconds",),  # Princeton: others comment before the vote
    "day_closed": (),  # Princeton: the host closed the day, or its time ran out
    # day: nominations and votes
    "nomination_accepted": ("seat",),  # "Accepted, number seven."
    "nomination_withdrawn": ("seat",),
    "accusation": ("seat",),  # Princeton: "Player number seven is accused."
    "accusation_seconded": ("seat",),
    "accusation_dropped": ("seat",),
    "nominees": ("seats",),  # "The nominees are players number three, seven and eight."
    "no_nominees": (),  # "Nobody is nominated. There is no vote today."
    "no_vote_today": (),  # the first day's rule: no vote
    "single_nominee_no_vote": ("seat",),  # day 1: a single nominee is not voted on
    "single_nominee_leaves": ("seat",),  # from day 2: the only nominee leaves without a vote
    "lone_nominee_no_vote": ("seat",),  # club (004): a vote needs two nominees, any day
    "vote_cancelled": (),  # a 4th foul or a removal cancelled today's vote
    "forfeit": ("seat",),  # a severe breach: the game goes to the other team (sport, 001)
    "voting_starts": (),
    "vote_for": ("seat",),  # "Who votes to eliminate player number seven?"
    "vote_count": ("seat", "votes"),  # "Player number seven: five votes."
    "tie": ("seats",),  # "A tie between players number three and seven."
    "tie_speech": ("seat", "seconds"),
    "revote": ("seats",),  # "A second vote: players number three and seven."
    "lift_vote": ("seats",),  # "Who votes that players number three and seven all leave?"
    "lift_passed": ("seats",),
    "lift_failed": ("seats",),
    "lift_not_allowed": ("seats",),  # the tournament rule forbids lifting them all here
    "coin_toss": ("seat",),  # boxed edition: a repeated tie is settled by a coin
    "convicted": ("seat", "votes"),  # Princeton: a majority of the living
    "acquitted": ("seat", "votes"),
    "first_day_stays": ("seat",),  # zeroVoting liftOnly: the day-1 leader stays
    "verdict_jails": ("seat",),  # boxed: the judge replaces the vote and jails this player
    "role_revealed": ("seat", "role"),  # a player leaving shows the card (boxed)
    "proposals": ("minutes",),  # boxed: the discussion opens; anyone proposes candidates
    "all_or_none": ("seats",),  # boxed: after a tie, everyone votes "all of them, or none"
    "all_or_none_count": ("votes", "count"),  # votes for "all", and the rest (for "none")
    "all_leave": ("seats",),
    "none_leave": (),
    "coin_all": ("seats",),  # the all-or-none vote tied again: the coin says "all"
    "coin_none": (),  # ... or "none"
    "team_out": (),  # boxed: the rest of the mafia is out; a turncoat now wakes with them
    "eliminated": ("seat",),  # "Player number seven leaves the table."
    # host corrections and fouls
    "foul": ("seat", "count"),  # "Player number three, second foul."
    "foul_taken_back": ("seat", "count"),  # the host took one back: "... now one foul."
    "foul_speech_lost": ("seat",),  # the third foul: the next speech is lost
    "foul_speech_short": ("seat", "seconds"),  # the third foul with 3 or 4 players left
    "removed": ("seat",),  # the fourth foul or a disqualification: no last word
    "silenced": ("seat",),  # silenced for the day by a night role (boxed: the boss)
    "immune": ("seat",),  # not voted on today (club: the lover's guest, named at the vote)
    "coma": ("seat",),  # club's doctor_coma (000): the saved player neither nominates nor votes today
    "paused": (),
    "resumed": (),
    "time_added": ("seconds",),
    # the end
    "win_red": (),
    "win_black": (),
    "win_maniac": (),
    "win_draw": (),
    # why the game ended, said after the winner (unless the rule set's own win words say it)
    "reason_no_black": (),
    "reason_black_parity": (),
    "reason_idle_rounds": (),
    "reason_nobody_left": (),
    "reason_maniac_one_red": (),
    "reason_maniac_one_black": (),
    "reason_maniac_last": (),
}


# The reasons the win checks give (Outcome.reason) and the cue that says each.
REASON_CUES: dict[Reason, str] = {
    "all black players eliminated": "reason_no_black",
    "black equal or outnumber red": "reason_black_parity",
    "idle_rounds": "reason_idle_rounds",
    "nobody is left at the table": "reason_nobody_left",
    "the maniac is left with at most one red player": "reason_maniac_one_red",
    "the maniac is left alone with one black player": "reason_maniac_one_black",
    "the maniac is the last player left": "reason_maniac_last",
}


def outcome_cues(winner: str | None, reason: Reason, own: Mapping[str, str]) -> tuple[str, ...]:
    """What the box says at the end: who won, then why, unless the rule set has its own
    words for that win (`own`: its cues), which say why themselves."""
    win = f"win_{winner or 'draw'}"
    why = REASON_CUES.get(reason)
    return (win, why) if why and win not in own else (win,)
