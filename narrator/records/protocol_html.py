"""The protocol as one printable page, laid out like the tournament paper form.

Seats with roles, fouls and how each left; then one column per day (nominations, votes by
round, the lift ballot) and per night (shots, checks); the best move and the winner. Plain
HTML with its own CSS, A4 landscape, in the game's language (English or Russian).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from pathlib import Path
from typing import Any

from narrator.records.journal import write_private

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Game protocol", "game": "Game", "rules": "Rules", "started": "Started",
        "seat": "Seat", "role": "Role", "fouls": "Fouls", "out": "Out", "day": "Day",
        "night": "Night", "nominations": "Nominations", "votes": "Votes", "round": "round",
        "lift": "All leave?", "yes": "yes", "no": "no", "shots": "Shots", "checks": "Checks",
        "best_move": "Best move", "winner": "Winner", "none": "—", "unfinished": "unfinished",
        "withdrawn": "withdrawn", "answer_yes": "yes", "answer_no": "no", "miss": "miss",
        "vote": "voted out", "shot": "shot", "fouls_out": "4 fouls", "removed": "removed",
        "lifted": "all tied leave", "red": "red (town)", "black": "black (mafia)",
        "maniac": "maniac", "draw": "draw", "civilian": "civilian", "sheriff": "sheriff",
        "mafia": "mafia", "don": "don", "signature": "Judge's signature",
    },
    "ru": {
        "title": "Протокол игры", "game": "Игра", "rules": "Правила", "started": "Начало",
        "seat": "Место", "role": "Роль", "fouls": "Фолы", "out": "Выбыл", "day": "День",
        "night": "Ночь", "nominations": "Выставления", "votes": "Голосование", "round": "круг",
        "lift": "Поднять всех?", "yes": "за", "no": "против", "shots": "Выстрелы",
        "checks": "Проверки", "best_move": "Лучший ход", "winner": "Победа", "none": "—",
        "unfinished": "не окончена", "withdrawn": "снято", "answer_yes": "да",
        "answer_no": "нет", "miss": "промах", "vote": "заголосован", "shot": "убит ночью",
        "fouls_out": "4 фола", "removed": "удалён", "lifted": "подняты все",
        "red": "красные (город)", "black": "чёрные (мафия)", "maniac": "маньяк",
        "draw": "ничья", "civilian": "мирный", "sheriff": "шериф", "mafia": "мафия",
        "don": "дон", "signature": "Подпись судьи",
    },
}

_CSS = """
@page { size: A4 landscape; margin: 10mm; }
body { font: 10pt/1.25 "DejaVu Sans", Arial, sans-serif; margin: 0; color: #000; }
h1 { font-size: 14pt; margin: 0 0 2mm; }
.meta { margin-bottom: 3mm; }
.meta span { margin-right: 6mm; }
.grid { display: flex; gap: 4mm; align-items: flex-start; }
table { border-collapse: collapse; }
th, td { border: 0.3mm solid #000; padding: 0.6mm 1.5mm; vertical-align: top; }
th { background: #e8e8e8; }
td.n { text-align: center; }
.box { display: inline-block; width: 3.2mm; height: 3.2mm; border: 0.3mm solid #000;
       margin-right: 0.6mm; text-align: center; line-height: 3.2mm; font-size: 8pt; }
.periods { display: flex; flex-wrap: wrap; gap: 2mm; }
.period { border: 0.3mm solid #000; padding: 1mm 2mm; min-width: 34mm; }
.period h2 { font-size: 10pt; margin: 0 0 1mm; }
.period p { margin: 0.5mm 0; }
.foot { margin-top: 4mm; display: flex; gap: 10mm; }
.sign { border-bottom: 0.3mm solid #000; min-width: 60mm; display: inline-block; }
.struck { text-decoration: line-through; }
"""


def render_html(protocol: Mapping[str, Any]) -> str:
    game = protocol["game"]
    t = LABELS.get(game.get("lang", "en"), LABELS["en"])

    def word(key: str) -> str:
        return escape(t.get(key, key))

    parts: list[str] = [
        "<!DOCTYPE html>", f'<html lang="{escape(game.get("lang", "en"))}"><head><meta charset="utf-8">',
        f"<title>{word('title')} {escape(str(game.get('id', '')))}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{word('title')}</h1>",
        '<div class="meta">'
        f"<span>{word('game')}: <b>{escape(str(game.get('id') or ''))}</b></span>"
        f"<span>{word('rules')}: {escape(str(game.get('title') or game.get('rules', '')))}</span>"
        f"<span>{word('started')}: {escape(str(game.get('started') or ''))}</span></div>",
        '<div class="grid">', _seats_table(protocol, word), '<div class="periods">',
    ]
    for kind, number, period in _periods(protocol):
        parts.append(_period_html(kind, number, period, word))
    parts.append("</div></div>")
    best = protocol.get("best_move")
    best_text = (f"{best['seat']} → {', '.join(str(s) for s in best['seats'])}" if best
                 else t["none"])
    winner = protocol.get("winner")
    winner_text = t.get(winner, winner) if winner else t["unfinished"]
    parts.append(
        '<div class="foot">'
        f"<div>{word('best_move')}: <b>{escape(best_text)}</b></div>"
        f"<div>{word('winner')}: <b>{escape(str(winner_text))}</b></div>"
        f"<div>{word('signature')}: <span class=\"sign\">&nbsp;</span></div></div>"
    )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_html(protocol: Mapping[str, Any], path: Path) -> Path:
    return write_private(path, render_html(protocol))


def _seats_table(protocol: Mapping[str, Any], word: Any) -> str:
    rows = [f"<table><tr><th>{word('seat')}</th><th>{word('role')}</th><th>{word('fouls')}</th>"
            f"<th>{word('out')}</th></tr>"]
    for s in protocol["seats"]:
        boxes = "".join(f'<span class="box">{"×" if i < s["fouls"] else ""}</span>' for i in range(4))
        out = s.get("out")
        out_text = ""
        if out:
            how = "fouls_out" if out["how"] == "fouls" else out["how"]
            out_text = f"{word(out['phase'])} {out['number']}: {word(how)}"
        rows.append(f'<tr><td class="n">{s["seat"]}</td><td>{word(s["role"] or "none")}</td>'
                    f"<td>{boxes}</td><td>{out_text}</td></tr>")
    rows.append("</table>")
    return "".join(rows)


def _periods(protocol: Mapping[str, Any]) -> Iterable[tuple[str, int, Mapping[str, Any]]]:
    # Night 0 (the meetings) holds nothing to write down; a day and the night after it
    # sit next to each other as on the paper form.
    items = [("day", d["number"], d) for d in protocol["days"]]
    items += [("night", n["number"], n) for n in protocol["nights"] if n["number"] > 0]
    return sorted(items, key=lambda i: (i[1], 0 if i[0] == "day" else 1))


def _period_html(kind: str, number: int, p: Mapping[str, Any], word: Any) -> str:
    out = [f'<div class="period"><h2>{word(kind)} {number}</h2>']
    if kind == "day":
        noms = []
        for nom in p["nominations"]:
            text = f"{nom['by']}→{nom['target']}"
            noms.append(f'<span class="struck" title="{word("withdrawn")}">{text}</span>'
                        if nom["withdrawn"] else text)
        out.append(f"<p>{word('nominations')}: {', '.join(noms) or word('none')}</p>")
        rounds: dict[int, list[str]] = {}
        for v in p["votes"]:
            voters = ", ".join(str(x) for x in v["voters"])
            rounds.setdefault(v["round"], []).append(
                f"<b>{v['candidate']}</b>: {len(v['voters'])}" + (f" ({voters})" if voters else ""))
        for rnd, lines in sorted(rounds.items()):
            out.append(f"<p>{word('votes')}, {word('round')} {rnd}:<br>{'<br>'.join(lines)}</p>")
        for lift in p["lift_votes"]:
            cands = ", ".join(str(c) for c in lift["candidates"])
            out.append(f"<p>{word('lift')} ({cands}): {word('yes')} {len(lift['yes'])}, "
                       f"{word('no')} {len(lift['no'])}</p>")
    else:
        for step in p["choices"]:
            if step["ability"] != "kill":
                continue
            shots = [f"{c['actor']}→{c['target']}" for c in step["choices"] if c["actor"] and c["target"]]
            out.append(f"<p>{word('shots')}: {', '.join(shots) or word('miss')}</p>")
        for check in p["checks"]:
            by = "/".join(word(r) for r in check["roles"])
            answer = word("answer_yes" if check["answer"] == "yes" else "answer_no")
            out.append(f"<p>{word('checks')} ({by}): {check['target']} — {answer}</p>")
    out.append("</div>")
    return "".join(out)
