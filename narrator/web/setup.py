"""The set-up page: rule set, seats, language, names, tournament fields, the rule set's
declared settings, and how the cards are dealt.

The form is read into a `SetupForm` and checked by the evening's own set-up
(narrator.evening.GameSetup: the same checks as the keypad and `--names`); what can't be
played is refused with the reasons beside the fields, in the page's language, and nothing
starts. What a rule set offers comes from its declarations (narrator.rules.settings).
Starting, the next game and abandoning go through the evening (`service.evening`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from narrator.box.evening import Evening
from narrator.errors import NarratorError
from narrator.evening import GameSetup, Problem
from narrator.evening.setup import INPUTS, SetupError
from narrator.phrases.numbers import LANGUAGES
from narrator.web.pages import esc
from narrator.web.refusals import answer, words
from narrator.web.server import WebServer
from narrator.web.text import Text, text

log = logging.getLogger("narrator.web")

MAX_NAME = 40
DEALS = ("cards", "phone")
FIELDS = ("tournament", "table", "round", "game")


@dataclass
class SetupForm:
    """The form as typed (kept to show it again with the reasons beside the fields)."""

    rules: str = "sport"
    seats: int = 10
    lang: str = "en"
    names: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)  # tournament, table, round, game
    settings: dict[str, Any] = field(default_factory=dict)  # only values the form changed
    deal: str = "cards"
    input: str = "auto"  # how the players give their inputs (the cues' words follow it)
    judge: bool = False  # a judge enters the night on the judge's page (narrator.web.judge)
    preset: str = ""  # a preset of the rule set's settings ("": the rule set's own values)

    def preset_values(self) -> dict[str, Any]:
        from narrator.rules.loader import load_bundled

        presets = load_bundled(self.rules).presets if self.rules in bundled() else {}
        found = presets.get(self.preset)
        return dict(found.values) if found is not None else {}

    def setup_json(self) -> dict[str, Any]:
        """The evening's JSON form of a set-up (narrator.evening.GameSetup.from_json): the
        preset's settings with those the form changed over them."""
        return {"rules": self.rules, "seats": self.seats, "lang": self.lang, "names": list(self.names),
                "event": {k: self.fields.get(k, "") for k in FIELDS},
                "settings": {**self.preset_values(), **self.settings}, "deal": self.deal,
                "input": self.input, "judge": self.judge}

    @classmethod
    def of(cls, setup: GameSetup) -> SetupForm:
        event = setup.event
        names = list(setup.names) or [""] * setup.seats
        return cls(rules=setup.rules, seats=setup.seats, lang=setup.lang, names=names,
                   fields={"tournament": event.tournament,
                           **{k: "" if getattr(event, k) is None else str(getattr(event, k))
                              for k in ("table", "round", "game")}},
                   settings=dict(setup.settings), deal=setup.deal, input=setup.input,
                   judge=setup.judge)


def bundled() -> list[str]:
    from narrator.rules.loader import bundled_names

    return list(bundled_names())


def read_form(data: Mapping[str, str], errors: dict[str, str], t: Text) -> SetupForm:
    """The form's fields as typed; what can't even be read is noted in `errors` by field."""
    from narrator.rules.loader import load_bundled
    from narrator.rules.settings import describe

    form = SetupForm()
    rules = data.get("rules", "sport")
    if rules not in bundled():
        errors["rules"] = t("setup_bad_rules")
        rules = "sport"
    form.rules = rules
    lang = data.get("lang", "en")
    form.lang = lang if lang in LANGUAGES else "en"
    loaded = load_bundled(rules)
    seats_text = data.get("seats", "").strip()
    # isascii: '²'.isdigit() is true but int('²') fails; 5,000 digits fail int() too.
    if seats_text.isascii() and seats_text.isdigit() and len(seats_text) <= 3 \
            and 0 < int(seats_text) <= 40:
        form.seats = int(seats_text)
    else:
        errors["seats"] = t("setup_bad_seats", low=loaded.min_seats, high=loaded.max_seats)
        form.seats = loaded.min_seats
    form.names = [data.get(f"name{i}", "").strip() for i in range(1, form.seats + 1)]
    form.fields = {k: data.get(k, "").strip() for k in FIELDS}
    form.deal = data.get("deal", "cards") if data.get("deal") in DEALS else "cards"
    form.input = data.get("input", "auto") if data.get("input") in INPUTS else "auto"
    form.judge = data.get("judge") == "on"
    # A preset of another rule set (the rule set just changed) is dropped: no preset.
    form.preset = data.get("preset", "") if data.get("preset") in loaded.presets else ""
    preset = form.preset_values()
    for spec in describe(loaded, form.lang):
        key = spec["key"]
        raw = data.get(f"set.{key}")
        value: Any
        if spec["kind"] == "bool":
            value = raw == "on"
        elif spec["kind"] == "roles":
            # One box per role (boxed: the special roles in play); none ticked: the box's own.
            value = [c["value"] for c in spec["choices"] if data.get(f"set.{key}.{c['value']}") == "on"]
        elif raw is None or raw == "":
            continue
        elif spec["kind"] == "choice":
            value = raw
        else:
            try:
                number = float(raw.replace(",", "."))
            except ValueError:
                errors[f"set.{key}"] = t("setup_bad_number")
                continue
            value = int(number) if spec["kind"] == "int" and number.is_integer() else number
        if value != _plain(preset.get(key, spec["default"])):
            form.settings[key] = value
    return form


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def check(form: SetupForm, t: Text, errors: dict[str, str]) -> GameSetup | None:
    """The evening's checked set-up, or None with every reason put beside its field (the
    evening's own checks: names, the table and settings against the rule set's limits,
    the tournament fields)."""
    from narrator.evening import GameSetup, SetupError

    try:
        setup = GameSetup.from_json(form.setup_json(), "the set-up page")
    except SetupError as exc:
        for problem in exc.problems:
            key = _field(problem.field)
            errors.setdefault(key, _say(t, problem, form))
        return None
    return None if errors else setup


def _field(name: str) -> str:
    """The form field of an evening Problem's field ("names.3" -> "name3")."""
    head, _, rest = name.partition(".")
    if head == "names" and rest.isdigit():
        return f"name{rest}"
    if head == "settings" and rest:
        return f"set.{rest}"
    if head == "event" and rest in FIELDS:
        return rest
    return head if head in ("rules", "seats", "lang", "deal", "input") else "start"


def _say(t: Text, problem: Problem, form: SetupForm) -> str:
    """A problem in the page's language where the page has words for it."""
    from narrator.rules.loader import load_bundled

    code = problem.code
    if code == "seats" and form.rules in bundled():
        rules = load_bundled(form.rules)
        setup = rules.setup
        if setup is not None and form.seats > rules.max_seats:
            # boxed: the table ends, the game does not; off the table the engine's own
            # line names the setting that makes the list unplayable.
            if form.settings.get("setup.follow_table", setup.follow_table):
                return t("setup_table_ends", high=rules.max_seats)
        elif form.seats not in rules.deck:
            return t("setup_bad_seats", low=rules.min_seats, high=rules.max_seats)
    if code == "pin_map" and problem.limit:
        return t("setup_pin_map", wired=problem.limit)
    if code == "name_duplicate":
        seat = int(problem.field.rpartition(".")[2])
        mine = form.names[seat - 1].casefold()
        first = next(i for i, n in enumerate(form.names, 1) if n.casefold() == mine)
        return t("name_twice", seat=first)
    words = {"answer_display": t("setup_no_answer_display"),
             "input_no_pads": t("setup_input_no_pads"), "input_no_keypad": t("setup_input_no_keypad"),
             "name_empty": t("name_empty"), "name_control": t("name_control"),
             "name_too_long": t("name_long", most=MAX_NAME), "number": t("setup_bad_event_number"),
             "text_too_long": t("name_long", most=80), "text_control": t("name_control"),
             # a value or a table the rule set's limits refuse (classic's mafia count,
             # boxed's roles off the booklet's row): the English, with the rule, to the log
             "setting": t("setup_bad_setting"), "seats": t("setup_not_playable")}
    if code == "setting" and form.rules in bundled():
        setting = load_bundled(form.rules).setting(problem.field.removeprefix("settings."))
        if setting is not None and setting.minimum is not None and setting.maximum is not None:
            return t("setup_setting_range", low=_number(setting.minimum),
                     high=_number(setting.maximum))
    if code in ("setting", "seats") or code not in words:
        log.info("the set-up page refuses %s: %s", problem.field, problem.reason)
        if t.lang == "en":  # the rules' own sentence names the count and the rule
            return problem.reason
    return words.get(code, t("setup_refused"))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def setup_page(t: Text, form: SetupForm, errors: Mapping[str, str], signed_in: bool,
               running: str, wires: Callable[[int], bool] = lambda _seats: True) -> str:
    """`running`: "running" (a game in play), "held" (an unfinished game waits) or "".
    `wires`: whether the box's pin map wires a table of that many seats (only those are
    offered)."""
    from narrator.rules.loader import load_bundled
    from narrator.rules.settings import describe

    rules = load_bundled(form.rules)

    def err(key: str) -> str:
        return f'<span class="error" role="alert">{esc(errors[key])}</span>' if key in errors else ""

    options = "".join(f'<option value="{esc(n)}"{" selected" if n == form.rules else ""}>'
                      f'{esc(t.rule_set(n, load_bundled(n).title))}</option>' for n in bundled())
    tables = [n for n in sorted(rules.deck) if wires(n)]
    seat_options = "".join(f'<option{" selected" if n == form.seats else ""}>{n}</option>'
                           for n in tables)
    if form.seats not in tables:  # shown as it is, its error beside it
        seat_options += f'<option selected>{form.seats}</option>'
    langs = "".join(f'<option value="{lang}"{" selected" if lang == form.lang else ""}>'
                    f'{esc(t("lang_" + lang))}</option>' for lang in LANGUAGES)
    names = "".join(
        f'<label><span>{seat}</span><input name="name{seat}" value="{esc(name)}" maxlength="{MAX_NAME}" '
        f'autocomplete="off" placeholder="{esc(t("seat_n", seat=seat))}">{err(f"name{seat}")}</label>'
        for seat, name in enumerate(form.names, 1))
    fields = "".join(f'<label>{esc(t("field_" + k))}<input name="{k}" value="{esc(form.fields.get(k, ""))}" '
                     f'maxlength="{80 if k == "tournament" else 4}"'
                     f'{"" if k == "tournament" else " inputmode=numeric"}>{err(k)}</label>' for k in FIELDS)
    deals = "".join(f'<option value="{d}"{" selected" if d == form.deal else ""}>'
                    f'{esc(t("deal_" + d))}</option>' for d in DEALS)
    inputs = "".join(f'<option value="{m}"{" selected" if m == form.input else ""}>'
                     f'{esc(t("input_" + m))}</option>' for m in INPUTS)
    shown = {**{k: _plain(v) for k, v in form.preset_values().items()}, **form.settings}
    settings = "".join(_setting(spec, shown, err) for spec in describe(rules, form.lang))
    presets = ""
    if rules.presets:
        from narrator.rules.settings import describe_presets

        items = [("", t("preset_none"))] + [(p["name"], p["label"])
                                              for p in describe_presets(rules, form.lang)]
        opts = "".join(f'<option value="{esc(v)}"{" selected" if v == form.preset else ""}>'
                       f'{esc(label)}</option>' for v, label in items)
        presets = (f'<label>{esc(t("preset"))}<select name="preset" data-refresh>{opts}</select>'
                   f'{err("preset")}</label>')
    # Clubs seldom change them: folded, unless one of them is what's wrong.
    open_settings = " open" if any(k.startswith("set.") or k == "settings" for k in errors) else ""
    warning = f'<p class="error">{esc(t("setup_" + running))}</p>' if running else ""
    general = err("settings") + err("start")
    submit = (f'<button type="submit" name="go" value="start">{esc(t("start_game"))}</button>'
              if signed_in else
              f'<a class="button" href="/login?next=/setup">{esc(t("sign_in_to_start"))}</a>')
    return (
        f'<form method="post" action="/setup" id="setup" class="setup">'
        f'<h1>{esc(t("nav_setup"))}</h1>{warning}{general}'
        f'<fieldset><legend>{esc(t("setup_game"))}</legend>'
        f'<label>{esc(t("rule_set"))}<select name="rules" data-refresh>{options}</select>'
        f'{err("rules")}</label><div class="grid2"><label>{esc(t("seats"))}'
        f'<select name="seats" data-refresh>{seat_options}</select>{err("seats")}</label>'
        f'<label>{esc(t("language"))}<select name="lang" data-refresh>{langs}</select></label></div>'
        f'<label>{esc(t("deal"))}<select name="deal">{deals}</select></label>'
        f'<label>{esc(t("input"))}<select name="input">{inputs}</select>{err("input")}</label>'
        f'<label class="check"><input type="checkbox" name="judge"{" checked" if form.judge else ""}> '
        f'{esc(t("judge_option"))}</label>'
        f'{presets}</fieldset>'
        f'<fieldset><legend>{esc(t("players"))}</legend><div class="names">{names}</div></fieldset>'
        f'<fieldset><legend>{esc(t("tournament_fields"))}</legend>'
        f'<div class="grid2">{fields}</div></fieldset>'
        f'<details class="settings"{open_settings}><summary>{esc(t("rule_settings"))}</summary>'
        f'<fieldset>{settings}</fieldset></details>'
        f'{submit}</form>'
    )


def _setting(spec: Mapping[str, Any], chosen: Mapping[str, Any], err: Any) -> str:
    key = spec["key"]
    name = f"set.{key}"
    value = chosen.get(key, spec["default"])
    label = esc(spec["label"])
    if spec["kind"] == "bool":
        checked = " checked" if value else ""
        return (f'<label class="check"><input type="checkbox" name="{name}"{checked}> '
                f'{label}{err(name)}</label>')
    if spec["kind"] == "roles":
        boxes = "".join(
            f'<label class="check"><input type="checkbox" name="{name}.{esc(c["value"])}"'
            f'{" checked" if c["value"] in value else ""}> {esc(c["label"])}</label>'
            for c in spec["choices"])
        return f'<fieldset><legend>{label}</legend>{boxes}{err(name)}</fieldset>'
    if spec["kind"] == "choice":
        opts = "".join(f'<option value="{esc(c["value"])}"{" selected" if c["value"] == value else ""}>'
                       f'{esc(c["label"])}</option>' for c in spec["choices"])
        return f'<label>{label}<select name="{name}">{opts}</select>{err(name)}</label>'
    low = f' min="{spec["min"]}"' if "min" in spec else ""
    high = f' max="{spec["max"]}"' if "max" in spec else ""
    step = "1" if spec["kind"] == "int" else "any"
    shown = int(value) if isinstance(value, float) and value.is_integer() else value
    return (f'<label>{label}<input type="number" name="{name}" value="{esc(shown)}" step="{step}"'
            f'{low}{high} inputmode="decimal">{err(name)}</label>')


def initial_form(evening: Evening | None, rules: str, lang: str, seats: int) -> SetupForm:
    """The set-up of the game in play or the next one (its names remembered on the box)."""
    if evening is not None:
        # After a game with a result the next one is offered, its game number one up (as
        # "Next game" does); after an abandon the same game is played again.
        finished = evening.finished and not evening.in_play
        return SetupForm.of(evening.setup.following() if finished else evening.setup)
    return SetupForm(rules=rules, seats=seats, lang=lang, names=[""] * seats)


def routes(server: WebServer, app: web.Application) -> None:
    def render(request: web.Request, form: SetupForm, errors: Mapping[str, str],
               status: int = 200) -> web.Response:
        t = text(form.lang)
        held = server.evening is not None and server.evening.held is not None
        running = server.host.box is not None and not server.host.box.game.over
        body = setup_page(t, form, errors, server.signed_in(request),
                          "held" if held else "running" if running else "",
                          server.evening.wires if server.evening is not None else lambda _n: True)
        return server.html(t("nav_setup"), body, "setup", request, status=status, t=t)

    async def get_setup(request: web.Request) -> web.StreamResponse:
        errors: dict[str, str] = {}
        if "rules" in request.query:
            # The form came back to change its shape (another rule set, seats, language).
            t = server.text()
            form = read_form({k: v for k, v in request.query.items()}, errors, t)
            form.settings = {}  # another rule set's settings start from its defaults
            return render(request, form, errors)
        game = server.host.settings.game
        form = initial_form(server.evening, game.rules, server.lang, server.host.settings.seats)
        return render(request, form, {})

    async def post_setup(request: web.Request) -> web.StreamResponse:
        if not server.signed_in(request):
            raise web.HTTPSeeOther("/login?next=/setup")
        try:
            data = await request.post()
        except ValueError:
            return web.Response(text="a bad form", status=400)
        errors: dict[str, str] = {}
        t = server.text()
        form = read_form({k: str(v) for k, v in data.items()}, errors, t)
        t = text(form.lang)
        setup = check(form, t, errors)
        evening = server.evening
        if not errors and evening is None:
            errors["start"] = t("setup_unavailable")
        if setup is None or evening is None or errors:
            return render(request, form, errors, status=400)
        try:
            evening.check(setup)  # what this box can't play abandons nothing
            if evening.in_play or evening.held is not None:
                evening.abandon()  # the page said so above the form
            evening.start(setup)
        except SetupError as exc:
            for problem in exc.problems:
                errors.setdefault(_field(problem.field), _say(t, problem, form))
            return render(request, form, errors, status=400)
        except NarratorError as exc:
            log.info("the set-up page's start is refused: %s", exc)
            return render(request, form, {"start": words(t, getattr(exc, "code", "other"))},
                          status=409)
        raise web.HTTPSeeOther("/deal" if form.deal == "phone" else "/game")

    async def evening_action(request: web.Request) -> web.StreamResponse:
        t = server.text()
        if not server.signed_in(request):
            return answer(401, t, "sign_in_first", "enter the PIN first")
        evening = server.evening
        if evening is None:
            return web.json_response({"error": t("setup_unavailable")}, status=503)
        what = request.match_info["what"]
        try:
            if what == "next-game":
                if evening.in_play or evening.held is not None:
                    evening.abandon()  # confirmed on the page: "abandon this game and..."
                evening.next()
            else:
                evening.abandon()
        except NarratorError as exc:  # a refused set-up (the box lacks what it needs), or
            # an evening operation that can't be done now
            code = "setup_refused" if isinstance(exc, SetupError) else getattr(exc, "code", "other")
            return answer(409, t, code, str(exc))
        return web.json_response({"ok": True})

    app.router.add_get("/setup", get_setup)
    app.router.add_post("/setup", post_setup)
    app.router.add_post(r"/api/{what:next-game|abandon}", evening_action)
