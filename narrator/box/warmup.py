"""The speech a game will need, rendered ahead in the background while set-up happens.

Which cues: the ones a few quick self-played games of the rule set say (engine only, a
few milliseconds each), in the order they were first said, so that night zero's cues
are ready first; then the rule set's own cues those games missed; then the box's own
words. Each cue with every value its parameters will probably take (seat numbers, vote
counts, days: narrator.phrases.variants). An engine cue the rule set never says is not
rendered at all; a rare one the games missed is rendered the first time it is said.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from narrator.box.status import BOX_CUES
from narrator.engine.effects import Effect, Say
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.phrases.book import PhraseBook
from narrator.phrases.variants import likely_texts

log = logging.getLogger("narrator.warmup")

GAMES = 10  # self-played games whose cues are taken (10 find every cue of a bundled set)
CHUNK = 16  # texts rendered per step: progress is told between steps
FIRST = ("ready", "web_page", "waiting_setup", "new_game", "voice_off")  # the greeting's words


def needed_cues(rules: RuleSet, seats: int, games: int = GAMES) -> list[str]:
    """The cue ids a game under `rules` will say, the first needed first."""
    from narrator.sim.selfplay import play

    order: dict[str, None] = dict.fromkeys(FIRST)

    def heard(_st: State, effects: list[Effect]) -> None:
        for e in effects:
            if isinstance(e, Say):
                order.setdefault(rules.cues.get(e.cue, e.cue))

    for seed in range(games):
        try:
            play(rules, seed, seats, on_effects=heard)
        except Exception:  # a rule hook's fault here must not stop the box starting up
            log.exception("self-play of %s failed; its cues are rendered when said", rules.name)
            break
    for cue in sorted(rules.cue_ids()):
        order.setdefault(cue)
    for cue in BOX_CUES:
        order.setdefault(cue)
    return list(order)


def needed_texts(book: PhraseBook, rules: RuleSet, seats: int) -> list[str]:
    """Every text to render for a game, the first needed first, without repeats."""
    texts: dict[str, None] = {}
    for cue in needed_cues(rules, seats):
        if not book.has(cue):
            continue
        texts.update(dict.fromkeys(likely_texts(book, rules, seats, [cue])))
    return list(texts)


@dataclass
class Progress:
    """How far the background rendering is: shown on the organiser's page."""

    done: int = 0
    total: int = 0
    rendered: int = 0  # of the texts done, how many were not on disk yet
    listeners: list[Callable[[], None]] = field(default_factory=list)  # the page's refresh

    started: bool = False  # the texts are known (they are found on a worker thread)

    @property
    def ready(self) -> bool:
        return self.started and self.done >= self.total

    def to_json(self) -> dict[str, int]:
        return {"done": self.done, "total": self.total}


async def render(prepare: Callable[[list[str]], int], texts: list[str],
                 progress: Progress) -> None:
    """Render `texts` chunk by chunk on a worker thread, telling the log every tenth."""
    progress.total = len(texts)
    progress.done = 0
    progress.started = True
    step = max(1, len(texts) // 10)
    told = 0
    for start in range(0, len(texts), CHUNK):
        chunk = texts[start:start + CHUNK]
        progress.rendered += await asyncio.to_thread(prepare, chunk)
        progress.done = min(len(texts), start + len(chunk))
        for hear in progress.listeners:
            hear()
        if progress.done - told >= step or progress.ready:
            told = progress.done
            log.info("speech cache: %d of %d texts ready (%d rendered)", progress.done,
                     progress.total, progress.rendered)
