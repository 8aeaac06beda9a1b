"""The protocol as one printable A4 page, laid out like a tournament's paper form.

Header: the rule set, the tournament fields, when it was played (local time). The seats:
number, player's name, role (its human name as the rule set's cards print it, in the
sheet's language), foul boxes, how and when the player left, and the points where the
rule set gives any. Then a card per day and per night up to the one where the game was
decided: nominations (accusations and seconds where the rules have them), votes by
round, the lift ballot; each night's choices and checks. Last the best move (only where
the rule set has one), the winner and the judge's signature. Every word is in the
game's language (narrator/records/sheet/<lang>.yaml).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from narrator.errors import RecordError
from narrator.records.journal import write_private
from narrator.yamlfile import parse_yaml

LANGS = ("en", "ru")

_CSS = """
@page { size: A4 landscape; margin: 8mm; }
* { box-sizing: border-box; }
body { font: 8pt/1.2 "DejaVu Sans", Arial, sans-serif; margin: 0; color: #000; }
h1 { font-size: 12pt; margin: 0 0 1mm; }
.meta { margin-bottom: 2mm; }
.meta span { margin-right: 4mm; white-space: nowrap; }
.grid { display: flex; gap: 3mm; align-items: flex-start; }
table { border-collapse: collapse; }
th, td { border: 0.25mm solid #000; padding: 0.4mm 1mm; vertical-align: middle; }
th { background: #e8e8e8; font-weight: bold; }
td.n { text-align: center; }
td.name { max-width: 38mm; overflow: hidden; white-space: nowrap; }
td.role { max-width: 32mm; }
td.pts { text-align: right; min-width: 8mm; }
.box { display: inline-block; width: 2.8mm; height: 2.8mm; border: 0.25mm solid #000;
       margin-right: 0.4mm; text-align: center; line-height: 2.6mm; font-size: 7pt; }
.periods { flex: 1; column-width: var(--column, 40mm); column-gap: 1.5mm;
           font-size: var(--card, 8pt); }
.period { border: 0.25mm solid #000; padding: 0.6mm 1.2mm; margin-bottom: 1.5mm;
          break-inside: avoid; }
.period h2 { font-size: 1.05em; margin: 0 0 0.5mm; }
.period p { margin: 0.3mm 0; }
.foot { margin-top: 2mm; display: flex; gap: 8mm; }
.sign { border-bottom: 0.25mm solid #000; min-width: 50mm; display: inline-block; }
.struck { text-decoration: line-through; }
/* On a phone's screen (the organiser opens the sheet from the page) the sheet is one
   column that fits its width; printed, it stays the one A4 page above. */
@media screen and (max-width: 700px) {
  body { font-size: 10.5pt; margin: 2mm; }
  .meta span { white-space: normal; display: inline-block; }
  .grid { flex-direction: column; }
  .grid > table { width: 100%; font-size: 8.5pt; }
  th, td { padding: 0.3mm 0.5mm; }
  td.name { max-width: none; white-space: normal; overflow-wrap: anywhere; }
  .periods { column-width: auto; columns: 1; width: 100%; font-size: 10pt; }
  .foot { flex-wrap: wrap; gap: 3mm; }
  .sign { min-width: 40mm; }
}
"""


@cache
def words(lang: str) -> Mapping[str, Any]:
    """The sheet's words in one language (English for one it doesn't know)."""
    name = f"{lang if lang in LANGS else 'en'}.yaml"
    path = resources.files("narrator.records") / "sheet" / name
    data = parse_yaml(path.read_text(encoding="utf-8"), name, RecordError)
    if not isinstance(data, dict):
        raise RecordError(name, "", "expected a mapping of words")
    return data


class _Sheet:
    def __init__(self, protocol: Mapping[str, Any]) -> None:
        self.p = protocol
        self.game: Mapping[str, Any] = protocol["game"]
        self.lang = str(self.game.get("lang", "en"))
        self.w = words(self.lang)

    def t(self, key: str, *more: str) -> str:
        """A sheet word; the rule set's own word where it has one (`by_rules`: boxed's
        host signs, since its «Судья» is a role)."""
        own: Any = self.w.get("by_rules", {}).get(str(self.game.get("rules", "")), {})
        for k in (key, *more):
            own = own.get(k) if isinstance(own, Mapping) else None
        if own is not None:
            return escape(str(own))
        value: Any = self.w
        for k in (key, *more):
            value = value.get(k) if isinstance(value, Mapping) else None
        return escape(str(value)) if value is not None else escape(str((key, *more)[-1]))

    def role(self, role: str) -> str:
        if not role:
            return self.t("none")
        return escape(role_name(self.lang, str(self.game.get("rules", "")), role))

    def roles(self, roles: Iterable[str]) -> str:
        """Who acts at a step: "Commissar / Sergeant"; a team of three or more by its first
        role's plural ("Mafiosi"), so a night card stays short."""
        roles = list(roles)
        if len(roles) > 2:
            rules = str(self.game.get("rules", ""))
            return escape(role_name(self.lang, rules, roles[0], many=True))
        return " / ".join(self.role(r) for r in roles)

    def name(self, seat: int) -> str:
        names = self.p.get("names") or []
        return escape(names[seat - 1]) if 0 < seat <= len(names) else ""

    # the page
    def html(self) -> str:
        title = self.rule_set_title()
        periods = [self.period(kind, n, period) for kind, n, period in _periods(self.p)]
        parts = [
            "<!DOCTYPE html>",
            f'<html lang="{escape(self.lang)}"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{self.t('title')} · {title}</title>",
            f"<style>{_CSS}</style></head><body{_density(periods)}>",
            f"<h1>{self.t('title')} · {title}</h1>",
            self.meta(),
            '<div class="grid">', self.seats(), '<div class="periods">',
            *periods,
            "</div></div>", self.foot(), "</body></html>",
        ]
        return "\n".join(parts) + "\n"

    def rule_set_title(self) -> str:
        rules = str(self.game.get("rules", ""))
        return escape(rule_set_name(self.lang, rules, str(self.game.get("title") or "")))

    def meta(self) -> str:
        event = self.game.get("event") or {}
        items = []
        if event.get("tournament"):
            items.append(f"{self.t('tournament')}: <b>{escape(str(event['tournament']))}</b>")
        for key in ("table", "round", "game"):
            if event.get(key) is not None:
                items.append(f"{self.t(key)}: <b>{escape(str(event[key]))}</b>")
        when = played(self.lang, str(self.game.get("started") or ""),
                      str(self.game.get("finished") or ""))
        if when:
            items.append(f"{self.t('started')}: {escape(when)}")
            clock = str(self.game.get("clock") or "")
            if clock in ("box", "unset"):  # the box's own clock: the date may be wrong
                items.append(f'<b class="clock">{self.t("clock_" + clock)}</b>')
        items.append(f"{self.t('game_id')}: {escape(str(self.game.get('id') or ''))}")
        return '<div class="meta">' + "".join(f"<span>{i}</span>" for i in items) + "</div>"

    def seats(self) -> str:
        scored = any(pl.get("score") for pl in self.p.get("players", []))
        named = any(self.p.get("names") or [])
        # A sheet written before the rules said how many boxes: 4.
        boxes = int(self.game.get("fouls_out", 4) or 0)
        # No foul column where the rules have no fouls and nobody got one.
        foul_column = bool(boxes) or any(s["fouls"] for s in self.p["seats"])
        head = [self.t("seat"), *([self.t("player")] if named else []), self.t("role"),
                *([self.t("fouls")] if foul_column else []), self.t("out")]
        if scored:
            head += [self.t("win_points"), self.t("best_move_points"), self.t("extra_points"),
                     self.t("total_points")]
        rows = ["<table>", "<tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
        players = {pl["seat"]: pl for pl in self.p.get("players", [])}
        for s in self.p["seats"]:
            seat = s["seat"]
            fouls = "".join(f'<span class="box">{"×" if i < s["fouls"] else ""}</span>'
                            for i in range(max(boxes, s["fouls"])))
            cells = [f'<td class="n">{seat}</td>']
            if named:
                cells.append(f'<td class="name">{self.name(seat)}</td>')
            cells += [f'<td class="role">{self.role(s["role"])}</td>',
                      *([f"<td>{fouls}</td>"] if foul_column else []),
                      f"<td>{self.out(s.get('out'))}</td>"]
            score = players.get(seat, {}).get("score")
            if scored:
                for key in ("win", "best_move", "extra", "total"):
                    value = score.get(key) if score else None
                    shown = _points(value) if value or key == "total" else ""
                    cells.append(f'<td class="pts">{shown}</td>')
            rows.append("<tr>" + "".join(cells) + "</tr>")
        rows.append("</table>")
        return "".join(rows)

    def out(self, out: Mapping[str, Any] | None) -> str:
        if not out:
            return ""
        short = self.t("day_short" if out["phase"] == "day" else "night_short")
        how = self.t("how", out["how"]) if out["how"] in self.w.get("how", {}) else escape(
            out["how"].replace("_", " "))
        return f"{short}{out['number']}: {how}"

    def period(self, kind: str, number: int, p: Mapping[str, Any]) -> str:
        out = [f'<div class="period"><h2>{self.t(kind)} {number}</h2>']
        out += self.day(p) if kind == "day" else self.night(p)
        out.append("</div>")
        return "".join(out)

    def day(self, p: Mapping[str, Any]) -> list[str]:
        out = []
        noms = []
        for nom in p.get("nominations", []):
            text = f"{nom['by']}→{nom['target']}" if nom.get("by") else str(nom["target"])
            noms.append(f'<span class="struck">{text}</span>' if nom["withdrawn"] else text)
        if noms:
            out.append(f"<p>{self.t('nominations')}: {', '.join(noms)}</p>")
        accusations = []
        for acc in p.get("accusations") or []:
            who = f"{acc['by']}→{acc['target']}" if acc.get("by") else str(acc["target"])
            if acc.get("seconded_by"):
                voters = acc.get("voters")
                count = f", {self.t('yes_votes')} {len(voters)}" if voters is not None else ""
                accusations.append(f"{who} ({self.t('seconded')} {acc['seconded_by']}{count})")
            else:
                accusations.append(f"{who} ({self.t('not_seconded')})")
        if accusations:
            out.append(f"<p>{self.t('accusations')}: {'; '.join(accusations)}</p>")
        rounds: dict[int, list[str]] = {}
        for v in p.get("votes", []):
            voters = ",".join(str(x) for x in v["voters"])
            rounds.setdefault(v["round"], []).append(
                f"<b>{v['candidate']}</b>: {len(v['voters'])}" + (f" ({voters})" if voters else ""))
        for rnd, lines in sorted(rounds.items()):
            label = self.t("votes") if rnd == 1 else f"{self.t('revote')} {rnd - 1}"
            out.append(f"<p>{label}: {'; '.join(lines)}</p>")
        for vote in p.get("all_or_none", []):
            cands = ", ".join(str(c) for c in vote["candidates"])
            line = (f"{self.t('all_or_none')} ({cands}): {self.t('yes_votes')} {len(vote['yes'])}, "
                    f"{self.t('no_votes')} {len(vote['no'])}")
            if vote.get("coin"):
                line += f"; {self.t('coin')}: {self.t('coin_' + vote['coin'])}"
            out.append(f"<p>{line}</p>")
        verdict = p.get("verdict")
        if verdict:
            out.append(f"<p>{self.t('verdict')}: {verdict['judge']} → {verdict['target']}</p>")
        for lift in p.get("lift_votes", []):
            cands = ", ".join(str(c) for c in lift["candidates"])
            out.append(f"<p>{self.t('lift')} ({cands}): {self.t('yes_votes')} {len(lift['yes'])}, "
                       f"{self.t('no_votes')} {len(lift['no'])}</p>")
        lone = p.get("lone_nominee")
        if lone:
            key = "lone_nominee_left" if lone.get("left") else "lone_nominee_kept"
            out.append(f"<p>{self.t(key).format(seat=int(lone['seat']))}</p>")
        if p.get("vote_cancelled"):
            out.append(f"<p>{self.t('vote_cancelled')}</p>")
        return out

    def night(self, p: Mapping[str, Any]) -> list[str]:
        out = []
        for step in p.get("choices", []):
            ability = step.get("ability", "")
            label = self.w.get("abilities", {}).get(ability)
            if label is None:
                continue  # meetings and status steps hold nothing to write down
            if ability in ("check", "ask"):
                continue  # the answers below say who asked about whom
            # No actor: a keypad entry, made for the role as a whole ("→5").
            picks = [f"{c.get('actor') or ''}→{c['target']}" for c in step["choices"]
                     if c.get("target")]
            if not picks and ability != "kill":
                continue  # nobody healed, guarded...: nothing to write (a miss is worth it)
            out.append(f"<p>{self.roles(step.get('roles', []))} ({escape(str(label))}): "
                       f"{', '.join(picks) or self.t('miss')}</p>")
        # The step's roles dealt in this game ("Commissar", not "Commissar / Sergeant"
        # when the game has no sergeant).
        dealt = {s["role"] for s in self.p.get("seats", [])}
        for check in p.get("checks", []):
            if check["answer"] in ("yes", "no"):
                # The rule set's words for what its check's answer means (sport: 001's
                # "Thumbs down — mafia, Thumbs up — villager"), else a plain yes or no.
                own = self.w.get("by_rules", {}).get(str(self.game.get("rules", "")), {})
                meant = own.get("checks", {}).get(str(check.get("step", "")), {}).get(check["answer"])
                answer = escape(str(meant)) if meant else self.t(
                    "answer_yes" if check["answer"] == "yes" else "answer_no")
            else:
                answer = self.role(check["answer"])  # boxed: the card the commissar saw
            by = ",".join(str(s) for s in check.get("by", []))
            roles = [r for r in check.get("roles", []) if r in dealt] or check.get("roles", [])
            out.append(f"<p>{self.roles(roles)}"
                       f"{f' {by}' if by else ''} → {check['target']}: {answer}</p>")
        return out

    def foot(self) -> str:
        parts = []
        if self.game.get("best_move", True):
            best = self.p.get("best_move")
            text = (f"{best['seat']} → {', '.join(str(s) for s in best['seats'])}" if best
                    else self.w["none"])
            parts.append(f"<div>{self.t('best_move')}: <b>{escape(text)}</b></div>")
        winner = self.p.get("winner")
        if self.p.get("abandoned"):
            result = self.t("abandoned")
        elif winner:
            result = self.t("teams", winner) if winner in self.w.get("teams", {}) else escape(winner)
        else:
            result = self.t("unfinished")
        forfeit = self.p.get("forfeit")
        if winner and forfeit:
            result += f" ({self.t('forfeit')} {escape(str(forfeit['seat']))})"
        parts.append(f"<div>{self.t('winner')}: <b>{result}</b></div>")
        parts.append(f"<div>{self.t('signature')}: <span class=\"sign\">&nbsp;</span></div>")
        return '<div class="foot">' + "".join(parts) + "</div>"


def render_html(protocol: Mapping[str, Any]) -> str:
    return _Sheet(protocol).html()


def write_html(protocol: Mapping[str, Any], path: Path) -> Path:
    return write_private(path, render_html(protocol))


def role_name(lang: str, rules: str, role: str, many: bool = False) -> str:
    """A role's human name as the rule set's cards print it, in this language; a role the
    phrase book has no name for is shown without its id's underscores."""
    from narrator.phrases.book import PhraseBook, PhraseError

    try:
        return PhraseBook.load(lang if lang in LANGS else "en").role_name(role, rules, many)
    except PhraseError:
        return role.replace("_", " ")


def rule_set_name(lang: str, rules: str, title: str = "") -> str:
    """A rule set's name as the phrase books give it (the one source: the set-up page and
    the archive say the same); `title` (the rule-set file's own) for one they don't know."""
    from narrator.phrases.book import PhraseBook

    return PhraseBook.load(lang if lang in LANGS else "en").rule_set_name(rules, title)


def played(lang: str, started: str, finished: str) -> str:
    """"23 Nov 2026, 19:05–19:52" / "23 ноя 2026, 19:05–19:52" from local ISO times."""
    if len(started) < 16:
        return ""
    months = words(lang).get("months", [])
    try:
        month = months[int(started[5:7]) - 1]
        day = int(started[8:10])
    except (ValueError, IndexError):
        return started.replace("T", " ")[:16]
    text = f"{day} {month} {started[:4]}, {started[11:16]}"
    if len(finished) >= 16:
        text += f"–{finished[11:16]}"
    return text


CARD_LINES = 90  # what the cards' column holds at 8 pt on an A4 page beside 16 seats


def _density(periods: list[str]) -> str:
    """A long game's cards in a smaller type, so that the sheet stays one page. The area a
    line takes goes with the square of the type size; the lines are counted roughly (a
    card's heading as two, a long paragraph as more)."""
    lines = sum(p.count("<p>") + 2 for p in periods) + sum(len(p) for p in periods) // 400
    if lines <= CARD_LINES:
        return ""
    size = max(4.5, 8 * (CARD_LINES / lines) ** 0.5)
    return f' style="--card: {size:.1f}pt; --column: {40 * size / 8:.0f}mm"'



def _points(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:g}"


def _periods(protocol: Mapping[str, Any]) -> Iterable[tuple[str, int, Mapping[str, Any]]]:
    # Night 0 (the meetings) holds nothing to write down; a day and the night after it
    # sit next to each other as on the paper form.
    items = [("day", d["number"], d) for d in protocol["days"]]
    items += [("night", n["number"], n) for n in protocol["nights"] if n["number"] > 0]
    return sorted(items, key=lambda i: (i[1], 0 if i[0] == "day" else 1))
