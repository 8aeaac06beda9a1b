"""The cues tell the players to give their inputs the way this table does: pads, the
private keypad alone (a table without pads), or both. The words are `{how:...}` entries of
the phrase books, one text per input method; the rest of a cue is written once."""

from __future__ import annotations

import re

import pytest

from narrator.devices.keymap import KeypadDecoder
from narrator.engine.actions import Entry
from narrator.phrases.book import (
    ANSWER_PLACES,
    INPUT_METHODS,
    JUDGE,
    PhraseBook,
    PhraseBookError,
    PhraseError,
)
from narrator.phrases.numbers import LANGUAGES
from narrator.rules import loader
from narrator.rules.loader import ABILITIES
from narrator.voice.packs import items

# A player's button, in each language's words.
PAD = {"en": re.compile(r"\bpads?\b", re.IGNORECASE), "ru": re.compile(r"кноп", re.IGNORECASE)}
KEYPAD = {"en": re.compile(r"\bkeypad\b"), "ru": re.compile(r"клавиатур")}


def sample(book: PhraseBook, cue: str) -> str:
    params = {p: ((3, 7) if p == "seats" else "civilian" if p == "role"
                  else "a place" if p in ("address", "port") else 2)
              for p in book.params_of(cue)}
    return book.render(cue, params)


def step_cues() -> dict[str, set[str]]:
    """Every bundled rule set's night-step cue ids whose step takes an input."""
    out: dict[str, set[str]] = {}
    for name in loader.bundled_names():
        rules = loader.load_bundled(name)
        for step in rules.steps():
            # a meeting (its holders tap or type their seats) or a call-out that chooses;
            # not the boxed seance, which takes no input
            calls = step.input == "callout" and ABILITIES[step.ability].chooses
            if step.ability != "meet" and not calls:
                continue
            for cue in (step.wake, step.wake_night_zero,
                        *(c.get("wake", "") for c in step.cues_if.values())):
                if cue:
                    out.setdefault(cue, set()).add(f"{name}.{step.id}")
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_keypad_table_hears_of_no_pads(lang: str) -> None:
    book = PhraseBook.load(lang).for_input("keypad")
    said = {cue: sample(book, cue) for cue in book.cue_ids()}
    assert not {cue: text for cue, text in said.items() if PAD[lang].search(text)}
    # ...and is told to use the keypad where it gives an input.
    for cue in step_cues():
        assert KEYPAD[lang].search(said[cue]), (lang, cue, said[cue])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_pad_table_still_taps_its_pads(lang: str) -> None:
    book = PhraseBook.load(lang)
    assert book.input_method == "pads"  # the bundled book speaks to a table with pads
    for cue in step_cues():
        text = sample(book, cue)
        assert PAD[lang].search(text) and not KEYPAD[lang].search(text), (lang, cue, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_judge_s_table_shows_the_judge_and_hears_of_no_pad_or_keypad(lang: str) -> None:
    """A judge takes the night's choices (the judge's page): found at a judge's table
    (issue 33), the cues told the players to type on a keypad whose keys were ignored."""
    judge = {"en": re.compile(r"\bjudge\b"), "ru": re.compile(r"судь")}[lang]
    for method in INPUT_METHODS:
        book = PhraseBook.load(lang).for_input(method).for_answers(JUDGE)
        for cue in step_cues():
            text = sample(book, cue)
            assert judge.search(text), (lang, method, cue, text)
            assert not PAD[lang].search(text) and not KEYPAD[lang].search(text), (method, text)
        for cue in ("sheriff_wake", "don_wake"):  # the checkers are told where the answer is
            assert sample(book, cue).endswith(book.how["answer"][JUDGE]), cue


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_table_with_both_hears_of_both(lang: str) -> None:
    book = PhraseBook.load(lang).for_input("both")
    for cue in step_cues():
        text = sample(book, cue)
        assert PAD[lang].search(text) and KEYPAD[lang].search(text), (lang, cue, text)


def test_every_night_input_step_says_how_to_give_it() -> None:
    cues = step_cues()
    assert {"mafia_meet", "mafia_wake", "learn_don", "classic_mafia_wake", "boxed_mafia_wake",
            "boxed_commissar_sergeant_wake"} <= set(cues)
    for lang in LANGUAGES:
        book = PhraseBook.load(lang)
        for cue in cues:
            assert book.hows_of(cue), (lang, cue, cues[cue])


def test_a_call_out_with_a_nobody_call_tells_the_keypad_to_type_zero() -> None:
    # 0 Enter is "nobody" on the keypad (keymap); only such a step's cue says it.
    decoder = KeypadDecoder()
    decoder.press("0")
    assert decoder.press("enter") == Entry(0)
    for name in loader.bundled_names():
        for step in loader.load_bundled(name).steps():
            for cue in (step.wake, step.wake_night_zero):
                if not cue or step.input != "callout":
                    continue
                for lang in LANGUAGES:
                    hows = PhraseBook.load(lang).hows_of(cue)
                    if step.args.get("nobody"):
                        assert hows == {"number_or_nobody"}, (name, step.id, cue)
                    else:
                        assert "number_or_nobody" not in hows, (name, step.id, cue)
    en, ru = (PhraseBook.load(lang).for_input("keypad") for lang in ("en", "ru"))
    assert "zero for nobody" in en.render("classic_mafia_wake")
    assert "ноль" in ru.render("classic_mafia_wake")


def test_the_books_say_the_same_instructions_in_the_same_cues() -> None:
    en, ru = PhraseBook.load("en"), PhraseBook.load("ru")
    assert set(en.how) == set(ru.how)
    for entry in en.how:
        # where an answer shows is the box's hardware; everything else, the input method
        # (and, for a night's input, a judge's table's words)
        keys = set(ANSWER_PLACES if entry in ("answer", "role") else INPUT_METHODS)
        if entry not in ("answer", "role", "use"):
            keys.add(JUDGE)
        assert set(en.how[entry]) == set(ru.how[entry]) == keys, entry
    for cue in en.cue_ids():
        assert en.hows_of(cue) == ru.hows_of(cue), cue


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_keypad_words_name_its_keys(lang: str) -> None:
    # The keypad takes digits and Enter (narrator/devices/keymap.py): say exactly that.
    book = PhraseBook.load(lang)
    for entry, texts in book.how.items():
        if entry in ("answer", "role"):  # where an answer shows, not what to type
            continue
        if entry != "use":
            assert "Enter" in texts["keypad"], (lang, entry)
        assert not PAD[lang].search(texts["keypad"]), (lang, entry)


def test_the_method_changes_only_the_instruction() -> None:
    book = PhraseBook.load("en")
    pads, keypad = book.render("don_wake"), book.for_input("keypad").render("don_wake")
    answer = " The answer follows on the answer light."
    assert pads == ("The don wakes up and looks for the sheriff. Tap your pad when you hear the "
                    "number." + answer)
    assert keypad == ("The don wakes up and looks for the sheriff. Type the number on the "
                      "keypad and press Enter." + answer)
    # A book bound to a rule set keeps its table's method, and the other way round.
    assert book.for_input("keypad").for_rules("boxed").render("don_wake") == keypad
    assert book.for_rules("boxed").for_input("keypad").role_name("civilian") == (
        book.for_rules("boxed").role_name("civilian"))
    # Not a parameter: the engine's cues take the same parameters as before.
    assert book.params_of("mafia_wake") == frozenset()
    assert book.hows_of("mafia_wake") == {"number"}


def test_an_unknown_method_or_entry_is_refused() -> None:
    with pytest.raises(PhraseError, match="unknown input method 'voice'"):
        PhraseBook.load("en").for_input("voice")
    text = 'cues:\n  x: "Wake up. {how:nod}"\nhow:\n  tap: {pads: "Tap.", keypad: "Type.", both: "Either."}\n'
    with pytest.raises(PhraseBookError, match=r"cues\.x.*no entry 'nod'"):
        PhraseBook.parse(text, "mine.yaml", "en")
    text = 'cues:\n  x: "Wake up. {how:tap}"\nhow:\n  tap: {pads: "Tap.", keypad: "Type."}\n'
    with pytest.raises(PhraseBookError, match=r"how\.tap\.both: missing"):
        PhraseBook.parse(text, "mine.yaml", "en")
    text = 'cues:\n  x: "Look. {how:see}"\nhow:\n  see: {light: "The light.", pads: "Tap."}\n'
    with pytest.raises(PhraseBookError, match=r"how\.see\.screen: missing"):
        PhraseBook.parse(text, "mine.yaml", "en")
    with pytest.raises(PhraseError, match="unknown answer place 'bell'"):
        PhraseBook.load("en").for_answers("bell")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_voice_pack_records_every_methods_words(lang: str) -> None:
    book = PhraseBook.load(lang)
    recorded = {item.id: item.text for item in items(book)}
    for entry, texts in book.how.items():
        for method in texts:
            text = texts[method]
            # recorded as its own item, unless the same words are recorded already
            assert recorded.get(f"how.{entry}.{method}") == text or any(
                v == text for v in recorded.values()), (lang, entry, method)
    assert not any(k.startswith("word.") and v in book.how for k, v in recorded.items())
