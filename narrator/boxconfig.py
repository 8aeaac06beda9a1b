"""The box's settings: frozen dataclasses built once from a YAML file and the command line.

Which file: the one named (`--config FILE`), else $NARRATOR_CONFIG, else
/etc/narrator/narrator.yaml when it exists, else the packaged defaults
(narrator/config/default.yaml). Command-line values override single keys ("game.lang").
A wrong file or value is one ConfigError naming the file (or "command line"), the key
path and the problem; unknown keys are errors too, so a typo never goes unnoticed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from narrator import keypad_kinds
from narrator.boards import FRONT_END_NAMES
from narrator.errors import ConfigError, InputFileError, PinMapError
from narrator.phrases.numbers import LANGUAGES
from narrator.voice.voice_config import VoiceSettings
from narrator.yamlfile import parse_yaml, read_text

if TYPE_CHECKING:
    from narrator.engine.ruleset import RuleSet
    from narrator.rules.configured import ConfiguredRules

SYSTEM_CONFIG = Path("/etc/narrator/narrator.yaml")
COMMAND_LINE = "command line"
RECOGNIZERS = ("pocketsphinx", "vosk")
KEYPADS = keypad_kinds.NAMES
# How the players give their inputs (phrases.book.INPUT_METHODS), or auto: pads when the
# box has seat pads, the keypad when it has none.
INPUTS = ("auto", "pads", "keypad", "both")
LOG_LEVELS = ("debug", "info", "warning", "error")


@dataclass(frozen=True)
class GameSettings:
    rules: str = "sport"
    lang: str = "en"
    seats: int | None = None  # None: the rule set's smallest table
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    # The rule set with these settings, resolved once as the file was read (the first
    # game's set-up carries it on: narrator.rules.configured); not compared.
    configured: ConfiguredRules | None = field(default=None, compare=False, repr=False)


def default_adaptation(state_dir: Path) -> Path:
    """Where `narrator adapt` puts the club's adaptation of the English acoustic model."""
    return state_dir / "adaptation" / "en"


def engine_for(engines: Mapping[str, Any], lang: str) -> Any:
    """The recognizer a per-language `recognizer.engine` gives `lang`: a language it does
    not name gets pocketsphinx for English (its wheel ships the model), else Vosk."""
    return engines.get(lang, "vosk" if lang != "en" else "pocketsphinx")


@dataclass(frozen=True)
class RecognizerSettings:
    engine: str = "pocketsphinx"
    model_dir: Path | None = None  # vosk's model folder
    wake_word: str | None = None
    device: str | int | None = None
    # A game set up from the page may be in another language than the box's (`lang`, for
    # which the fields above are resolved): the config's engine per language ({} when one
    # engine serves all), and the folder whose <lang>/ holds each language's Vosk model.
    lang: str = "en"
    engines: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    models: Path | None = None
    # pocketsphinx's acoustic model adapted to the club (`narrator adapt`): an MLLR file or
    # an adapted model folder, used when it is there (English, pocketsphinx only).
    adaptation: Path | None = None
    # The audio stages before the recognizer (narrator.voice.front_end.FRONT_ENDS); "auto":
    # the board's (narrator.boards.front_end_for).
    front_end: str = "auto"

    def for_language(self, lang: str) -> RecognizerSettings:
        """The recognizer the config picks for a game in `lang`."""
        if lang == self.lang:
            return self
        engine = engine_for(self.engines, lang) if self.engines else self.engine
        model = self.models / lang if engine == "vosk" and self.models is not None else None
        return replace(self, engine=engine, model_dir=model, lang=lang)


@dataclass(frozen=True)
class KeypadSettings:
    kind: str = "evdev"  # a row of narrator.keypad_kinds
    device: str | None = None  # the path kind's device (evdev); None: find a numeric keypad


@dataclass(frozen=True)
class WebSettings:
    """The organiser's page. `host` None: the page is off."""

    host: str | None = "127.0.0.1"
    port: int = 8080
    pin: str | None = None  # None: the box makes one and keeps it in the state folder


def default_listen() -> str:
    """All interfaces on the box (the organiser's phone is on the club's network), only
    this computer elsewhere (a laptop on a café's network must not offer the page)."""
    return "0.0.0.0:8080" if on_raspberry_pi() else "127.0.0.1:8080"


def on_raspberry_pi() -> bool:
    try:
        model = Path("/proc/device-tree/model").read_bytes()
    except OSError:
        return False
    return b"Raspberry Pi" in model


@dataclass(frozen=True)
class Settings:
    game: GameSettings
    voice: VoiceSettings
    recognizer: RecognizerSettings
    keypad: KeypadSettings
    pins: str  # a packaged pin map's name or a pin-map file
    state_dir: Path
    cache_dir: Path
    log_level: str
    source: str  # the file the settings came from
    web: WebSettings = WebSettings()
    input: str = "auto"  # INPUTS: what the cues tell the players to use

    @property
    def seats(self) -> int:
        """The table size: the configured one or the rule set's smallest."""
        if self.game.seats is not None:
            return self.game.seats
        if self.game.configured is not None:
            return self.game.configured.base.min_seats
        from narrator.rules.loader import load

        return load(self.game.rules).min_seats


def default_config_path() -> Path:
    env = os.environ.get("NARRATOR_CONFIG")
    if env:
        return Path(env)
    if SYSTEM_CONFIG.is_file():
        return SYSTEM_CONFIG
    return packaged_config_path()


def _check_owner_only_writes(source: Path) -> None:
    """The config can make answers public or point at another rule set: like ssh with its
    keys, refuse one that someone besides its owner (and root) could have changed."""
    try:
        mode = source.stat().st_mode
    except OSError:
        return  # read_text says what is wrong with it
    if stat.S_ISREG(mode) and mode & 0o022:
        raise ConfigError(str(source), "", f"writable by others (mode {mode & 0o777:04o}); "
                          f"chmod go-w {source}")


def packaged_config_path() -> Path:
    return Path(str(resources.files("narrator.config") / "default.yaml"))


def load_settings(path: str | Path | None = None,
                  overrides: Mapping[str, Any] | None = None) -> Settings:
    """Settings from a config file (None: see the module's docstring) and overrides keyed
    by dotted key path ({"game.lang": "ru", "state_dir": "/tmp/x"}); None values are
    ignored, so argparse defaults of None leave the file's values alone."""
    source = Path(path) if path is not None else default_config_path()
    name = str(source)
    _check_owner_only_writes(source)
    data = _parse(read_text(source, ConfigError), name)
    from_file = _Reader(name).settings(data)
    if not overrides or all(v is None for v in overrides.values()):
        return from_file
    # The file alone is right, so whatever is wrong now came from the command line.
    merged = _merge(data, overrides, COMMAND_LINE)
    return _Reader(COMMAND_LINE, name).settings(merged)


def parse_settings(text: str, name: str) -> Settings:
    """A config file's text checked as `load_settings` checks the file (no overrides);
    `name` is the file's, for the errors."""
    return _Reader(name).settings(_parse(text, name))


def _parse(text: str, name: str) -> dict[str, Any]:
    data = parse_yaml(text, name, ConfigError)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(name, "(top)", f"expected a mapping of settings, got {type(data).__name__}")
    return data


def _merge(data: Mapping[str, Any], overrides: Mapping[str, Any], name: str) -> dict[str, Any]:
    merged: dict[str, Any] = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for key, value in overrides.items():
        if value is None:
            continue
        *sections, last = key.split(".")
        target = merged
        for s in sections:
            nxt = target.get(s)
            if nxt is None:
                nxt = target[s] = {}
            if not isinstance(nxt, dict):
                raise ConfigError(name, s, "expected a mapping")
            target = nxt
        target[last] = value
    return merged


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every box command shares; `from_args` reads them back."""
    parser.add_argument("--config", metavar="FILE", help="settings file (default: "
                        "/etc/narrator/narrator.yaml if present, else the packaged defaults)")
    parser.add_argument("--rules", help="rule set: a bundled name or a file")
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the voice and commands")
    parser.add_argument("--seats", type=int, help="players at the table")
    parser.add_argument("--preset", metavar="NAME",
                        help="a preset of the rule set's settings, e.g. tournament (sport)")
    parser.add_argument("--state-dir", metavar="DIR", help="journal and protocols")
    parser.add_argument("--cache-dir", metavar="DIR", help="rendered speech")
    parser.add_argument("--voice", help="a voice: espeak-ng[:ID], hibari, piper, festival or pack:DIR "
                        "(default: the best installed; see `narrator voices`)")
    parser.add_argument("--keypad", help=keypad_kinds.described())
    parser.add_argument("--input", choices=INPUTS,
                        help="how the players give their inputs, as the cues tell them: pads, "
                        "the keypad alone, or both (default auto: pads when the box has them)")
    parser.add_argument("--pins", metavar="MAP", help="pin map: pins-10, pins-16 or a file")
    parser.add_argument("--log-level", choices=LOG_LEVELS)
    parser.add_argument("--web", metavar="HOST:PORT",
                        help="the organiser's page: where it listens, or 'off' (default: "
                        "0.0.0.0:8080 on a Raspberry Pi, 127.0.0.1:8080 elsewhere)")


def from_args(args: argparse.Namespace) -> Settings:
    overrides = {
        "game.rules": getattr(args, "rules", None), "game.lang": getattr(args, "lang", None),
        "game.seats": getattr(args, "seats", None), "game.preset": getattr(args, "preset", None),
        "state_dir": getattr(args, "state_dir", None),
        "cache_dir": getattr(args, "cache_dir", None), "keypad": getattr(args, "keypad", None),
        "input": getattr(args, "input", None),
        "pins": getattr(args, "pins", None), "log_level": getattr(args, "log_level", None),
        "web.listen": getattr(args, "web", None), "voice.name": getattr(args, "voice", None),
    }
    return load_settings(getattr(args, "config", None), overrides)


class _Reader:
    def __init__(self, source: str, file: str | None = None) -> None:
        self.source = source  # who is blamed for a wrong value
        self.file = file or source  # where the settings came from
        self._rule_sets: dict[str, RuleSet] = {}

    def fail(self, where: str, problem: str) -> ConfigError:
        return ConfigError(self.source, where, problem)

    def section(self, data: Mapping[str, Any], key: str, known: tuple[str, ...]) -> dict[str, Any]:
        value = data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a mapping, got {value!r}")
        for k in value:
            if k not in known:
                raise self.fail(f"{key}.{k}", f"unknown key (known: {', '.join(known)})")
        return value

    def text(self, value: Any, where: str, optional: bool = True) -> str | None:
        if value is None and optional:
            return None
        if not isinstance(value, str) or not value:
            raise self.fail(where, f"expected text, got {value!r}")
        return value

    def folder(self, value: Any, where: str) -> Path | None:
        text = self.text(value, where)
        return self.path(text, where) if text is not None else None

    def path(self, text: str, where: str) -> Path:
        try:
            return Path(text).expanduser()
        except RuntimeError:  # `~nobody/...`
            raise self.fail(where, f"no such home folder: {text}") from None

    def found(self, path: Path, where: str, folder: bool = False) -> bool:
        """Whether the file (folder) is there; a name the system refuses is an error."""
        try:
            return path.is_dir() if folder else path.is_file()
        except OSError as exc:  # a name too long, a loop of links...
            raise self.fail(where, f"cannot look at {path}: {exc.strerror or exc}") from None

    def settings(self, data: Mapping[str, Any]) -> Settings:
        top = ("game", "voice", "recognizer", "keypad", "pins", "state_dir", "cache_dir", "log_level",
               "web", "input")
        for k in data:
            if k not in top:
                raise self.fail(str(k), f"unknown key (known: {', '.join(top)})")
        pins = self.pins(data.get("pins", "pins-10"))
        self.table_fits(data.get("game"), pins)
        game = self.game(data)
        state_dir = self.folder(data.get("state_dir"), "state_dir") or _default_dir(
            "STATE_DIRECTORY", "XDG_STATE_HOME", ".local/state")
        cache_dir = self.folder(data.get("cache_dir"), "cache_dir") or _default_dir(
            "CACHE_DIRECTORY", "XDG_CACHE_HOME", ".cache")
        level = data.get("log_level", "info")
        if level not in LOG_LEVELS:
            raise self.fail("log_level", f"expected one of {', '.join(LOG_LEVELS)}, got {level!r}")
        return Settings(
            game=game, voice=self.voice(data, game.lang, cache_dir),
            recognizer=self.recognizer(data, game.lang, state_dir), keypad=self.keypad(data),
            pins=pins, state_dir=state_dir, cache_dir=cache_dir, log_level=level,
            source=self.file, web=self.web(data), input=self.input(data),
        )

    def input(self, data: Mapping[str, Any]) -> str:
        value = data.get("input", "auto")
        if value is None:
            return "auto"
        if value not in INPUTS:
            raise self.fail("input", f"expected one of {', '.join(INPUTS)}, got {value!r}")
        return str(value)

    def game(self, data: Mapping[str, Any]) -> GameSettings:
        g = self.section(data, "game", ("rules", "lang", "seats", "preset", "settings"))
        rules_name = self.text(g.get("rules", "sport"), "game.rules", optional=False)
        assert rules_name is not None
        lang = g.get("lang", "en")
        if lang not in LANGUAGES:
            raise self.fail("game.lang", f"expected one of {', '.join(LANGUAGES)}, got {lang!r}")
        try:
            rules = self.rule_set(rules_name)
        except InputFileError as exc:
            raise self.fail("game.rules", str(exc)) from None
        seats = g.get("seats")
        if seats is not None and (isinstance(seats, bool) or not isinstance(seats, int)):
            raise self.fail("game.seats", f"expected a whole number, got {seats!r}")
        options = g.get("settings") or {}
        if not isinstance(options, dict):
            raise self.fail("game.settings", f"expected a mapping, got {options!r}")
        from narrator.rules.configured import resolve
        from narrator.rules.settings import SettingError

        preset = g.get("preset")
        if preset is not None and not isinstance(preset, str):
            raise self.fail("game.preset", f"expected a preset's name, got {preset!r}")
        try:
            # A preset's settings, with those the file names over them.
            configured = resolve(rules_name, options, seats, preset, base=rules)
        except SettingError as exc:
            if exc.setting == "preset":
                raise self.fail("game.preset", exc.problem) from None
            # A wrong value names its setting; a table the rules refuse, the seats.
            if exc.setting is not None:
                raise self.fail(f"game.settings.{exc.setting}", exc.problem) from None
            raise self.fail("game.seats", f"{exc.path}: {exc.where}: {exc.problem}") from None
        return GameSettings(rules_name, lang, seats, configured.settings, configured)

    def rule_set(self, name: Any) -> RuleSet:
        """The rule set `name` as its file gives it, read once for this settings file (the
        table's check and the game's section both need it)."""
        from narrator.rules.loader import load

        key = str(name)
        if key not in self._rule_sets:
            self._rule_sets[key] = load(key)
        return self._rule_sets[key]

    def voice(self, data: Mapping[str, Any], lang: str, cache_dir: Path) -> VoiceSettings:
        raw = data.get("voice")
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise self.fail("voice", f"expected a mapping, got {raw!r}")
        values = dict(raw)
        if "language" in values:
            raise self.fail("voice.language", "the language is game.lang")
        if "name" in values:
            values["voice"] = values.pop("name")
        values["language"] = lang
        voice = VoiceSettings.from_mapping(values, self.source, "voice")
        if voice.voice is not None:
            from narrator.voice.voices import resolve

            # Checked at start-up: a wrong or missing voice is one line and exit 2.
            resolve(voice.voice, lang, self.source, "voice.name")
        if voice.cache_dir is None:
            voice = replace(voice, cache_dir=cache_dir / "voice")
        return voice

    def recognizer(self, data: Mapping[str, Any], lang: str, state_dir: Path) -> RecognizerSettings:
        r = self.section(data, "recognizer", ("engine", "model_dir", "wake_word", "device",
                                              "adaptation", "front_end"))
        engine = r.get("engine", "pocketsphinx")
        engines: dict[str, str] = {}
        if isinstance(engine, Mapping):  # per language: {en: pocketsphinx, ru: vosk}
            for key, value in engine.items():
                if value not in RECOGNIZERS:
                    raise self.fail(f"recognizer.engine.{key}",
                                    f"expected one of {', '.join(RECOGNIZERS)}, got {value!r}")
                engines[str(key)] = str(value)
            engine = engine_for(engine, lang)
        if engine not in RECOGNIZERS:
            raise self.fail("recognizer.engine", f"expected one of {', '.join(RECOGNIZERS)}, got {engine!r}")
        model_dir = self.folder(r.get("model_dir"), "recognizer.model_dir")
        if model_dir is not None and not self.found(model_dir, "recognizer.model_dir", folder=True):
            raise self.fail("recognizer.model_dir", f"no such folder: {model_dir}")
        if engine == "vosk" and model_dir is None:
            model_dir = state_dir / "models" / lang
        device = r.get("device")
        if isinstance(device, bool) or not isinstance(device, int | str | None):
            raise self.fail("recognizer.device", f"expected a device name or index, got {device!r}")
        wake = self.text(r.get("wake_word"), "recognizer.wake_word")
        adaptation = self.folder(r.get("adaptation"), "recognizer.adaptation")
        if adaptation is not None and not (self.found(adaptation, "recognizer.adaptation")
                                           or self.found(adaptation, "recognizer.adaptation",
                                                         folder=True)):
            raise self.fail("recognizer.adaptation", f"no such file or folder: {adaptation}")
        front = r.get("front_end", "auto")
        if front != "auto" and front not in FRONT_END_NAMES:
            raise self.fail("recognizer.front_end", f"expected auto or one of "
                            f"{', '.join(FRONT_END_NAMES)}, got {front!r}")
        return RecognizerSettings(engine, model_dir, wake, device, lang,
                                  MappingProxyType(engines), state_dir / "models",
                                  adaptation or default_adaptation(state_dir), str(front))

    def web(self, data: Mapping[str, Any]) -> WebSettings:
        w = self.section(data, "web", ("listen", "pin"))
        listen = w.get("listen")
        if listen is None:
            listen = default_listen()
        if listen is False or listen == "off":
            host: str | None = None
            port = 0
        else:
            if not isinstance(listen, str):
                raise self.fail("web.listen", f"expected HOST:PORT or off, got {listen!r}")
            host, port = self.address(listen, "web.listen")
        pin = w.get("pin")
        if pin is not None and (not isinstance(pin, str) or not _digits(pin)
                                or not 4 <= len(pin) <= 12):
            raise self.fail("web.pin", f"expected 4-12 digits in quotes (\"0417\"), got {pin!r}")
        return WebSettings(host, port, pin)

    def address(self, text: str, where: str) -> tuple[str, int]:
        host, sep, port_text = text.strip().rpartition(":")
        host = host.strip("[]")
        if not sep or not host or not _digits(port_text, 5) or not 0 <= int(port_text) <= 65535:
            raise self.fail(where, f"expected HOST:PORT (such as 0.0.0.0:8080) or off, got {text!r}")
        return host, int(port_text)

    def pins(self, value: Any) -> str:
        from narrator.devices.pinmap import packaged_path

        text = self.text(value, "pins", optional=False)
        assert text is not None
        packaged = "/" not in text and not text.endswith((".yaml", ".yml"))
        if not self.found(packaged_path(text) if packaged else self.path(text, "pins"), "pins"):
            what = "no packaged pin map" if packaged else "no such file"
            raise self.fail("pins", f"{what}: {text}")
        return text

    def table_fits(self, game: Any, pins: str) -> None:
        """The table the game needs fits the pin map: a 12-player game on the 10-seat map is
        refused now, in one line naming the map and both seat counts, not half-way through
        the game. Runs before the rule-set checks, so that line also says when the rule set
        refuses that table; anything else wrong in `game` is left to `game()` to name."""
        from narrator.devices.pinmap import MAX_SEATS, load_pin_map

        section = game if isinstance(game, dict) else {}
        rules = None
        with contextlib.suppress(InputFileError, TypeError):
            rules = self.rule_set(section.get("rules", "sport"))
        asked = section.get("seats")
        explicit = isinstance(asked, int) and not isinstance(asked, bool)
        if isinstance(asked, int) and explicit:
            seats = asked
        elif asked is None and rules is not None:
            seats = rules.min_seats
        else:
            return
        pin_map = load_pin_map(pins)  # a wrong map is its own error, naming its file
        try:
            pin_map.check_seats(seats)
        except PinMapError:
            more = (f" (pins-16 wires {MAX_SEATS})"
                    if seats <= MAX_SEATS and pin_map.seats < MAX_SEATS else "")
            if not explicit:
                assert rules is not None
                raise self.fail("game.rules", f"{rules.name} needs at least {seats} players, but "
                                f"pin map {pins} wires {pin_map.seats} seats{more}") from None
            refused = ""
            if rules is not None and seats not in rules.deck:
                refused = f"; and {rules.name} is played by {_players(rules.min_seats, rules.max_seats)}"
            raise self.fail("game.seats", f"{seats} players, but pin map {pins} wires "
                            f"{pin_map.seats} seats{more}{refused}") from None

    def keypad(self, data: Mapping[str, Any]) -> KeypadSettings:
        value = data.get("keypad", "evdev")
        if value is None:
            value = "none"
        if not isinstance(value, str):
            raise self.fail("keypad", f"expected one of {', '.join(KEYPADS)} or a device path, got {value!r}")
        if value.startswith("/"):
            return KeypadSettings(keypad_kinds.path_kind().name, value)
        if value not in KEYPADS:
            raise self.fail("keypad", f"expected one of {', '.join(KEYPADS)} or a device path "
                            f"(/dev/input/...), got {value!r}")
        return KeypadSettings(value, None)


def _digits(text: str, most: int = 100) -> bool:
    """0-9 only (str.isdigit() also takes '²' and '٣', which int() or the PIN's speech
    refuses), and few enough for int() (a 5,000-digit port is a ValueError)."""
    return text.isascii() and text.isdigit() and len(text) <= most


def _players(low: int, high: int) -> str:
    return f"{low} players" if low == high else f"{low}-{high} players"


def _default_dir(systemd_var: str, xdg_var: str, home_sub: str) -> Path:
    # systemd sets STATE_DIRECTORY / CACHE_DIRECTORY from the unit's StateDirectory= and
    # CacheDirectory=, so the service finds /var/lib/narrator without saying so twice.
    given = os.environ.get(systemd_var)
    if given:
        return Path(given.split(":")[0])
    base = os.environ.get(xdg_var)
    return (Path(base) if base else Path.home() / home_sub) / "narrator"
