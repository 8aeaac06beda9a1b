"""The set-up page: rule set, seats, language, names, tournament fields, the rule set's
declared settings, and how the cards are dealt.

The form is read into a `SetupForm`; `check` refuses what can't be played, with reasons
the page shows beside the fields (nothing starts). What a rule set offers comes from its
declarations (narrator.rules.settings: `describe` for the form, `configure` to check the
values and the table against the rule set's limits).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web

from narrator.errors import NarratorError
from narrator.phrases.numbers import LANGUAGES
from narrator.web.pages import esc
from narrator.web.server import WebServer, extra_routes
from narrator.web.text import Text, text

MAX_NAME = 40
DEALS = ("cards", "phone")
FIELDS = ("tournament", "table", "round", "game")


@dataclass
class SetupForm:
    rules: str = "sport"
    seats: int = 10
    lang: str = "en"
    names: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)  # tournament, table, round, game
    settings: dict[str, Any] = field(default_factory=dict)  # only values the form changed
    deal: str = "cards"


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
    if seats_text.isdigit() and 0 < int(seats_text) <= 40:
        form.seats = int(seats_text)
    else:
        errors["seats"] = t("setup_bad_seats", low=loaded.min_seats, high=loaded.max_seats)
        form.seats = loaded.min_seats
    form.names = [data.get(f"name{i}", "").strip() for i in range(1, form.seats + 1)]
    form.fields = {k: data.get(k, "").strip()[:MAX_NAME] for k in FIELDS}
    form.deal = data.get("deal", "cards") if data.get("deal") in DEALS else "cards"
    for spec in describe(loaded, form.lang):
        key = spec["key"]
        raw = data.get(f"set.{key}")
        value: Any
        if spec["kind"] == "bool":
            value = raw == "on"
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
        if value != spec["default"]:
            form.settings[key] = value
    return form


def check(form: SetupForm, t: Text, errors: dict[str, str]) -> None:
    """Refuse what can't be played: the table the rule set forbids, a wrong setting, names
    empty, repeated, too long or with control characters."""
    from narrator.rules.loader import load_bundled
    from narrator.rules.settings import SettingError, configure

    rules = load_bundled(form.rules)
    if "seats" not in errors and form.seats not in rules.deck:
        errors["seats"] = t("setup_bad_seats", low=rules.min_seats, high=rules.max_seats)
    if "seats" not in errors:
        try:
            configure(rules, form.settings, form.seats)
        except SettingError as exc:
            key = f"set.{exc.setting}" if exc.setting else "seats"
            errors[key] = exc.problem
        except NarratorError as exc:
            errors["settings"] = str(exc)
    seen: dict[str, int] = {}
    for seat, name in enumerate(form.names, 1):
        key = f"name{seat}"
        if not name:
            errors[key] = t("name_empty")
        elif len(name) > MAX_NAME:
            errors[key] = t("name_long", most=MAX_NAME)
        elif any(unicodedata.category(c).startswith("C") for c in name):
            errors[key] = t("name_control")
        elif name.casefold() in seen:
            errors[key] = t("name_twice", seat=seen[name.casefold()])
        else:
            seen[name.casefold()] = seat


def setup_page(t: Text, form: SetupForm, errors: Mapping[str, str], signed_in: bool,
               running: bool) -> str:
    from narrator.rules.loader import load_bundled
    from narrator.rules.settings import describe

    rules = load_bundled(form.rules)

    def err(key: str) -> str:
        return f'<span class="error" role="alert">{esc(errors[key])}</span>' if key in errors else ""

    options = "".join(f'<option value="{esc(n)}"{" selected" if n == form.rules else ""}>'
                      f'{esc(load_bundled(n).title)}</option>' for n in bundled())
    seat_options = "".join(f'<option{" selected" if n == form.seats else ""}>{n}</option>'
                           for n in sorted(rules.deck))
    if form.seats not in rules.deck:
        seat_options += f'<option selected>{form.seats}</option>'
    langs = "".join(f'<option value="{lang}"{" selected" if lang == form.lang else ""}>'
                    f'{esc(t("lang_" + lang))}</option>' for lang in LANGUAGES)
    names = "".join(
        f'<label><span>{seat}</span><input name="name{seat}" value="{esc(name)}" maxlength="{MAX_NAME}" '
        f'autocomplete="off" placeholder="{esc(t("seat_n", seat=seat))}">{err(f"name{seat}")}</label>'
        for seat, name in enumerate(form.names, 1))
    fields = "".join(f'<label>{esc(t("field_" + k))}<input name="{k}" value="{esc(form.fields.get(k, ""))}" '
                     f'maxlength="{MAX_NAME}"></label>' for k in FIELDS)
    deals = "".join(f'<option value="{d}"{" selected" if d == form.deal else ""}>'
                    f'{esc(t("deal_" + d))}</option>' for d in DEALS)
    settings = "".join(_setting(spec, form.settings, err) for spec in describe(rules, form.lang))
    # Clubs seldom change them: folded, unless one of them is what's wrong.
    open_settings = " open" if any(k.startswith("set.") or k == "settings" for k in errors) else ""
    warning = f'<p class="error">{esc(t("setup_running"))}</p>' if running else ""
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
        f'<label>{esc(t("deal"))}<select name="deal">{deals}</select></label></fieldset>'
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


class Evening(Protocol):
    """The service's evening operations the page asks for (issue 12's evening API)."""

    def start_game(self, form: SetupForm) -> None:
        """Start a game with this set-up, abandoning the one in play; a refusal raises
        NarratorError with the reason."""

    def next_game(self) -> None:
        """The next game with the same set-up (names, seats, rules, settings)."""

    def abandon(self) -> None:
        """End the game in play; its journal keeps it marked abandoned."""

    def last_setup(self) -> SetupForm | None:
        """The set-up of the last game on this box (its names are offered again)."""


def initial_form(evening: Evening | None, rules: str, lang: str, seats: int) -> SetupForm:
    last = evening.last_setup() if evening is not None else None
    if last is not None:
        return last
    return SetupForm(rules=rules, seats=seats, lang=lang, names=[""] * seats)


@extra_routes
def _routes(server: WebServer, app: web.Application) -> None:
    def render(request: web.Request, form: SetupForm, errors: Mapping[str, str],
               status: int = 200) -> web.Response:
        t = text(form.lang)
        body = setup_page(t, form, errors, server.signed_in(request),
                          server.host.box is not None and not server.host.box.game.over)
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
        check(form, t, errors)
        if not errors and server.evening is None:
            errors["start"] = t("setup_unavailable")
        if errors:
            return render(request, form, errors, status=400)
        assert server.evening is not None
        try:
            server.evening.start_game(form)
        except NarratorError as exc:
            return render(request, form, {"start": str(exc)}, status=409)
        raise web.HTTPSeeOther("/deal" if form.deal == "phone" else "/game")

    async def evening_action(request: web.Request) -> web.StreamResponse:
        if not server.signed_in(request):
            return web.json_response({"error": "enter the PIN first"}, status=401)
        evening = server.evening
        if evening is None:
            return web.json_response({"error": server.text()("setup_unavailable")}, status=503)
        what = request.match_info["what"]
        try:
            if what == "next-game":
                evening.next_game()
            else:
                evening.abandon()
        except NarratorError as exc:
            return web.json_response({"error": str(exc)}, status=409)
        return web.json_response({"ok": True})

    app.router.add_get("/setup", get_setup)
    app.router.add_post("/setup", post_setup)
    app.router.add_post(r"/api/{what:next-game|abandon}", evening_action)
