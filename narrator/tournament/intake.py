"""A delivered game checked before it counts: one game per planned seat, played by the
engine to the same end.

A game counts only for a seat the seating planned: its round and table are in the
seating, its game is that round's (a game a box played after its round is the box's own),
and its players are the ones seated there, each in their seat. Its journal is then played
again through the engine with the tournament's rule set and preset (never a rule-set file
the box names): every action must be one the engine takes, and the game must end where
and as the journal says. The protocol is rebuilt from that replay and must be the one
delivered; the extra points given on the box after the game are checked against the rule
set's range. Roles, fouls, seats and the deck are then the rule set's by construction.

What is kept is the rebuilt protocol, with the box's extra points and the start time the
box's phone told it (the two things written into a protocol after its journal).
Anything else is `Refused`, with the reason in words.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from narrator.engine.actions import Undo
from narrator.engine.game import Game
from narrator.errors import RecordError, RuleError
from narrator.records.journal import Contents, GameHeader, parse
from narrator.records.protocol import ProtocolBuilder
from narrator.records.protocol_value import EventInfo, Protocol
from narrator.tournament.bounds import extra_in_bounds
from narrator.tournament.event import Tournament, settings_differ
from narrator.tournament.language import Why
from narrator.tournament.wire import Delivery


class Refused(Why):
    """A delivery that does not count (`code` and `params`: why, in words)."""


@dataclass(frozen=True)
class PlannedSeat:
    """One table of one round as the seating planned it."""

    round: int
    table: int
    game: int  # the game number a box plays it under (the round's)
    players: tuple[int, ...]  # the tournament's player ids, by seat
    names: tuple[str, ...]  # their names, by seat: what the box was sent


@dataclass(frozen=True)
class Plan:
    rounds: int
    seats: Mapping[tuple[int, int], PlannedSeat]  # (round, table) -> the planned seat

    def at(self, rnd: int, table: int) -> PlannedSeat | None:
        return self.seats.get((rnd, table))


@dataclass(frozen=True)
class Played:
    """A delivery the engine played again to the same end."""

    seat: PlannedSeat
    protocol: Protocol  # rebuilt from the journal, with the box's extra points


# What a box writes into a protocol after its journal: the extra points (and the
# players' points made from them), and the start by the phone's time; the end's local
# time is the box's time zone's, not the collector's.
_AFTER_THE_JOURNAL = ("extra", "players", "scoring")
_GAME_AFTER = ("started", "finished", "clock")


def check(tournament: Tournament, plan: Plan, delivery: Delivery) -> Played:
    protocol = delivery.protocol
    seat = _planned(tournament, plan, protocol)
    contents = _journal(delivery.journal, protocol)
    header = contents.header
    _header_fits(tournament, seat, header, protocol)
    rebuilt = _replay(tournament, header, contents)
    different = _differences(rebuilt, protocol)
    if different:
        raise Refused("not_its_journal", fields=", ".join(different))
    try:
        extra_in_bounds(tournament.configured(header.seats).rules, header.seats, protocol.extra)
    except Why as exc:
        raise Refused(exc.code, **exc.params) from None
    game = replace(
        rebuilt.game,
        started=protocol.game.started,
        finished=protocol.game.finished,
        more={**rebuilt.game.more, "clock": protocol.game.more.get("clock", "")},
    )
    return Played(seat, replace(rebuilt, game=game).with_extra(protocol.extra))


def _planned(tournament: Tournament, plan: Plan, protocol: Protocol) -> PlannedSeat:
    event = protocol.event
    if event.tournament != tournament.name:
        raise Refused("other_tournament", name=event.tournament or "-")
    if not protocol.finished:
        raise Refused("not_finished")
    if event.round is None or event.table is None:
        raise Refused("no_place")
    seat = plan.at(event.round, event.table)
    if seat is None:
        if not 1 <= event.round <= plan.rounds or not any(r == event.round for r, _t in plan.seats):
            raise Refused("no_round", round=event.round, rounds=plan.rounds)
        raise Refused("no_table", round=event.round, table=event.table)
    if event.game != seat.game:
        raise Refused(
            "extra_game", game=event.game or 0, table=seat.table, round=seat.round, planned=seat.game
        )
    return seat


def _journal(text: str, protocol: Protocol) -> Contents:
    try:
        contents = parse(text.encode("utf-8"), "the journal")
    except RecordError as exc:
        raise Refused(
            "journal_bad", problem=f"{exc.where}: {exc.problem}" if exc.where else exc.problem
        ) from None
    except Exception:  # parse's own kind for a text without a header line
        raise Refused("journal_bad", problem="no header line") from None
    if contents.torn or not contents.ended or contents.end is None:
        raise Refused("journal_unended")
    if contents.header.game_id != protocol.game.id:
        raise Refused("journal_other_game")
    return contents


def _header_fits(tournament: Tournament, seat: PlannedSeat, header: GameHeader, protocol: Protocol) -> None:
    if header.rules != tournament.rules:
        raise Refused("other_rules", rules=header.rules, ours=tournament.rules)
    if header.seats != len(seat.players):
        raise Refused("seat_count", seats=header.seats, planned=len(seat.players))
    expected = tournament.configured(header.seats).resolved_settings()
    differ = settings_differ(expected, header.settings)
    if differ:
        raise Refused("other_settings", settings=", ".join(differ[:4]))
    event = header.event
    told = EventInfo(
        str(event.get("tournament") or ""), event.get("table"), event.get("round"), event.get("game")
    )
    if told != protocol.event:
        raise Refused("other_event")
    names = tuple(header.names) or ("",) * len(seat.names)
    if len(names) != len(seat.names):
        raise Refused("name_count", names=len(names), seats=len(seat.names))
    for n, (theirs, ours) in enumerate(zip(names, seat.names, strict=True), 1):
        if theirs != ours:
            raise Refused("stranger", seat=n, name=theirs or "-", planned=ours)


def _replay(tournament: Tournament, header: GameHeader, contents: Contents) -> Protocol:
    rules = tournament.configured(header.seats).rules
    try:
        game = Game(
            rules,
            header.seats,
            header.seed,
            header.roles,
            header.history,
            hand_count=header.input == "keypad",
        )
    except (RuleError, ValueError) as exc:
        raise Refused("cannot_start", problem=str(exc)) from None
    builder = ProtocolBuilder(
        rules,
        header.seats,
        game_id=header.game_id,
        lang=header.lang,
        seed=header.seed,
        settings=header.settings,
        started=header.started,
        undo_depth=game.limit,
        names=header.names,
        event=header.event,
        input_method=header.input,
        clock=header.clock,
        judge=header.judge,
    )
    builder.feed(game.opening, _wall(header.started))
    # The builder keeps a copy of the protocol before every action for an undo to return
    # to: only a journal with an undo needs them.
    undoes = any(isinstance(e.action, Undo) for e in contents.entries)
    for entry in contents.entries:
        try:
            effects = game.apply(entry.action)
        except RuleError as exc:
            raise Refused(
                "engine_refuses", line=entry.line, kind=entry.action.kind, problem=str(exc)
            ) from None
        if isinstance(entry.action, Undo):
            builder.undo()
        elif undoes:
            builder.checkpoint()
        builder.feed(effects, entry.wall)
    outcome = game.state.outcome
    if not game.over or outcome is None:
        raise Refused("engine_plays_on")
    end = contents.end
    if end is None or (outcome.winner, outcome.reason) != (end.winner, end.reason):
        raise Refused(
            "engine_other_end", engine=outcome.winner or "-", journal=(end.winner if end else None) or "-"
        )
    data: dict[str, Any] = json.loads(json.dumps(builder.to_json()))
    return Protocol.from_json(data, "the replayed protocol")


def _differences(rebuilt: Protocol, delivered: Protocol) -> list[str]:
    mine, theirs = rebuilt.to_json(), delivered.to_json()
    for data in (mine, theirs):
        for key in _AFTER_THE_JOURNAL:
            data.pop(key, None)
        for key in _GAME_AFTER:
            data["game"].pop(key, None)
    keys = sorted(set(mine) | set(theirs))
    out = [k for k in keys if k != "game" and mine.get(k) != theirs.get(k)]
    out += [
        f"game.{k}"
        for k in sorted(set(mine["game"]) | set(theirs["game"]))
        if mine["game"].get(k) != theirs["game"].get(k)
    ]
    return out


def _wall(started: str) -> float:
    try:
        return time.mktime(time.strptime(started, "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return 0.0
