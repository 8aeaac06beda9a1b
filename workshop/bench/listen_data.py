"""The listen benchmark's material, split once and for all into a tuning part and a
held-back part: voices (no voice in both), table talk (no sentence in both) and seat
command sentences (by a hash of the sentence). Tuning (`scripts/tune-listen`: thresholds,
endpointing, phrase choice) may look only at the tuning part; the figures the benchmark
reports come from the held-back part.
"""

from __future__ import annotations

import hashlib

# Synthetic voices: espeak-ng variants, flite and festival ("engine:name").
TUNING_VOICES: tuple[str, ...] = (
    "en-us", "en-gb+f2", "en-us+m3", "flite:slt", "flite:kal16",
)
HELD_BACK_VOICES: tuple[str, ...] = (
    "en-gb", "en-us+f3", "en-gb-scotland", "en-gb-x-rp", "en-us+m7", "flite:awb",
    "flite:rms", "festival:kal_diphone",
)

# Rooms: (name, sox reverb amount, babble level against the speech).
CONDITIONS: tuple[tuple[str, int, float], ...] = (
    ("dry", 0, 0.0), ("reverb", 50, 0.0), ("babble", 0, 0.3), ("reverb+babble", 40, 0.25),
)
# A room like a table: three other voices talking at once in the speaker's room (the same
# reverb on them all), at these SNRs (dB, the voice against the babble); every command
# clip is heard again at each of them (a curve per SNR), the talk at TABLE_TALK_SNR.
TABLE_REVERB = 50
TABLE_SNRS: tuple[int, ...] = (6, 12, 18)
TABLE_TALK_SNR = 12

TUNING_TALK: tuple[str, ...] = (
    "I think seat four was lying yesterday", "good morning everyone",
    "I am a civilian and I trust number two", "seven and nine were winking at each other",
    "let us vote out the sheriff this time", "why did you hesitate before you spoke",
    "my gut says the mafia is on the left side", "can you explain your vote from last round",
    "I am not going to defend myself any more", "the don checked me last night",
    "who wants coffee before we start", "we should listen to player eight more carefully",
    "that was a very suspicious speech", "honestly I have no idea who the mafia is",
    "please stop interrupting me", "I was the first to speak yesterday",
    "she always votes with the mafia", "the last game was much more fun",
    "does anyone have a spare pen", "let me finish my thought",
    "he was shaking his head the whole time", "it is too hot in this room",
    "we need more information before voting", "number five is clearly the sheriff",
    "I saw someone move during the night", "do not believe a word he says",
    "thank you all", "yes I think so", "no idea", "pass me the water please",
    "thank you so much", "nice one",
)

# Held back: ordinary talk with numbers, names, and near-commands.
HELD_BACK_TALK: tuple[str, ...] = (
    "okay I guess it is my turn now", "I have nothing more to say",
    "that makes no sense at all", "can we open the window please",
    "I agree with everything seat six said", "where is the bathroom",
    "the pizza will arrive in ten minutes", "this is my third game tonight",
    "we lost because of that vote", "if I were mafia I would have shot you",
    "let us think about the voting pattern", "player three is acting strangely",
    "my speech will be short today", "I would like to hear from the quiet players",
    "everyone please keep your hands on the table", "nobody listens to me in this game",
    "I changed my mind about number nine", "look at how she reacted to the kill",
    "could you speak a little louder please", "he told me he was the don",
    "wait a moment I am still thinking", "I remember what you said on day one",
    "the clock is running out", "tell us who you suspect and why",
    "it was a mistake to trust ten", "thanks for the nice game everyone",
    "Anna voted for number twelve last round", "Boris and Maria sat next to each other",
    "Dmitry, you said fourteen was clean", "sixteen players is too many for one table",
    "I counted eleven votes, not ten", "Kate is the sheriff, I am almost certain",
    "Peter, please repeat what you said about seven", "give me thirty seconds to explain",
    "Olga thinks fifteen and thirteen are a pair", "we have three minutes left, Sergei",
    "thank you Anna, that was clear", "yes, but Mike voted the other way",
    "no, I never said that about Ivan", "voting for four again would be a mistake",
    "nine, eight, and two stayed silent all day", "Natasha, it is your turn to speak",
    "I pause here and let Alex go on", "foul play, that is what it was",
    "undo the damage from yesterday", "who nominated player six",
    "start with the quiet ones, Lena", "next time I will speak first",
)


def held_back_sentence(sentence: str) -> bool:
    """Which part a seat command sentence belongs to: about half each, fixed by its words."""
    return hashlib.sha1(sentence.encode()).digest()[0] % 2 == 1
