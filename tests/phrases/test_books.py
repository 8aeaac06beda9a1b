"""Both phrase books say every cue any rule set can emit, with the same parameters."""

from __future__ import annotations

import re

import pytest

from narrator.engine.cues import ENGINE_CUES
from narrator.phrases.book import PARAM_KINDS, ParamValue, PhraseBook
from narrator.phrases.numbers import LANGUAGES
from narrator.rules import loader


def rule_set_cues() -> dict[str, set[str]]:
    """Every bundled rule set's own cue ids (night steps and the extras it declares)."""
    names: list[str] = getattr(loader, "bundled_names", list)()
    return {name: set(loader.load_bundled(name).cue_ids()) for name in names}


def all_cues() -> set[str]:
    cues = set(ENGINE_CUES)
    for ids in rule_set_cues().values():
        cues |= ids
    return cues


def sample(param: str) -> ParamValue:
    if param not in PARAM_KINDS:
        return "spoken words"  # a parameter the box gives as words already (an address)
    kind = PARAM_KINDS[param]
    if kind is str:
        return "civilian"  # the one role every rule set has
    return (3, 7, 8) if kind is tuple else 2


@pytest.fixture(params=LANGUAGES)
def book(request: pytest.FixtureRequest) -> PhraseBook:
    return PhraseBook.load(request.param)


def test_sport_is_among_the_rule_sets_checked() -> None:
    cues = rule_set_cues()
    assert "sport" in cues
    assert {"mafia_meet", "sport_mafia_hunt", "mafia_sleep", "don_wake", "sheriff_wake"} <= cues["sport"]


@pytest.mark.parametrize("cue", sorted(ENGINE_CUES))
def test_every_engine_cue_has_exactly_its_catalogue_params(book: PhraseBook, cue: str) -> None:
    assert book.has(cue), f"{book.lang}: no text for {cue}"
    assert book.params_of(cue) == frozenset(ENGINE_CUES[cue])


@pytest.mark.parametrize("name", sorted(rule_set_cues()))
def test_every_rule_set_cue_is_in_both_books(name: str) -> None:
    for lang in LANGUAGES:
        missing = rule_set_cues()[name] - PhraseBook.load(lang).cue_ids()
        assert not missing, f"{lang} book lacks {name} cues {sorted(missing)}"


def test_the_books_have_the_same_cues_with_the_same_params() -> None:
    en, ru = PhraseBook.load("en"), PhraseBook.load("ru")
    assert en.cue_ids() == ru.cue_ids()
    for cue in en.cue_ids():
        assert en.params_of(cue) == ru.params_of(cue), cue


def test_night_step_cues_name_nobody() -> None:
    # A night step's words are the same whoever acts: no seat, no count.
    names: list[str] = getattr(loader, "bundled_names", list)()
    for lang in LANGUAGES:
        book = PhraseBook.load(lang)
        for name in names:
            for cue in loader.load_bundled(name).step_cue_ids():
                assert book.params_of(cue) == frozenset(), (lang, cue)
                assert not re.search(r"\d", book.render(cue, {}))


def test_every_cue_renders_to_plain_words(book: PhraseBook) -> None:
    for cue in sorted(book.cue_ids()):
        params = {p: sample(p) for p in book.params_of(cue)}
        text = book.render(cue, params)
        assert text.strip()
        assert not re.search(r"[{}\d]", text), f"{cue}: {text!r}"


_PRONOUNS = {
    "en": r"\b(he|she|him|his|her|hers|himself|herself)\b",
    "ru": r"(?<!\w)(он|она|его|её|ее|ему|ей|него|неё|нему|ней|им|ним|сам|сама)(?!\w)",
}


def test_no_gendered_pronouns(book: PhraseBook) -> None:
    for cue in book.cue_ids():
        text = book.template(cue).lower()
        assert not re.search(_PRONOUNS[book.lang], text), f"{book.lang} {cue}: {text}"


def test_commands_are_lists_of_phrases(book: PhraseBook) -> None:
    assert book.commands
    for name, phrases in book.commands.items():
        assert phrases and all(isinstance(p, str) and p for p in phrases), name


@pytest.mark.parametrize(("lang", "cue", "params", "text"), [
    ("en", "vote_count", {"seat": 7, "votes": 1}, "Player number seven: one vote."),
    ("en", "vote_count", {"seat": 7, "votes": 5}, "Player number seven: five votes."),
    ("en", "nominees", {"seats": (3, 7, 8)},
     "The nominees are players number three, seven and eight."),
    ("en", "nominees", {"seats": (10,)}, "The nominee is player number ten."),
    ("en", "discussion", {"seconds": 600}, "Free discussion: ten minutes."),
    ("en", "tie_speech", {"seat": 4, "seconds": 90},
     "Player number four, one minute and thirty seconds to speak."),
    ("en", "foul", {"seat": 5, "count": 2}, "Player number five, second foul."),
    ("en", "convicted", {"seat": 5, "votes": 1}, "With one vote, player number five leaves the table."),
    ("en", "morning", {"day": 2}, "Good morning. Day two."),
    ("en", "callout", {"seat": 10}, "ten"),
    ("ru", "vote_count", {"seat": 3, "votes": 2}, "Игрок номер три: два голоса."),
    ("ru", "vote_count", {"seat": 3, "votes": 5}, "Игрок номер три: пять голосов."),
    ("ru", "vote_count", {"seat": 3, "votes": 11}, "Игрок номер три: одиннадцать голосов."),
    ("ru", "vote_count", {"seat": 3, "votes": 21}, "Игрок номер три: двадцать один голос."),
    ("ru", "speaker_short", {"seat": 1, "seconds": 21},
     "Игрок номер один, у вас двадцать одна секунда."),
    ("ru", "speaker_short", {"seat": 2, "seconds": 32},
     "Игрок номер два, у вас тридцать две секунды."),
    ("ru", "tie", {"seats": (3, 7)}, "Голоса разделились поровну между игроками номер три и семь."),
    ("ru", "nominees", {"seats": (4,)}, "На голосование выставлен игрок номер четыре."),
    ("ru", "nominees", {"seats": (4, 9)}, "На голосование выставлены игроки номер четыре и девять."),
    ("ru", "discussion", {"seconds": 600}, "Свободное обсуждение: десять минут."),
    ("ru", "comments", {"seconds": 60}, "Обсуждение обвинения: одна минута."),
    ("ru", "tie_speech", {"seat": 1, "seconds": 90},
     "Игрок номер один, у вас одна минута тридцать секунд на оправдание."),
    ("ru", "speaker_short", {"seat": 2, "seconds": 150},
     "Игрок номер два, у вас две минуты тридцать секунд."),
    ("ru", "revote", {"seats": (5, 1)}, "Повторное голосование: игроки номер пять и один."),
    ("ru", "convicted", {"seat": 4, "votes": 2}, "Игрок номер четыре покидает стол: два голоса против."),
    ("ru", "single_nominee_leaves", {"seat": 9}, "Кандидатура одна, игрок номер девять: без голосования."),
    ("ru", "foul_taken_back", {"seat": 3, "count": 2}, "Игроку номер три снят один фол. Остаётся два фола."),
    ("ru", "morning", {"day": 2}, "Доброе утро. День второй."),
    ("ru", "foul", {"seat": 5, "count": 3}, "Игрок номер пять, третий фол."),
])
def test_spoken_words(lang: str, cue: str, params: dict[str, ParamValue], text: str) -> None:
    assert PhraseBook.load(lang).render(cue, params) == text


def test_lists_from_json_are_spoken_like_tuples() -> None:
    book = PhraseBook.load("en")
    as_list: dict[str, ParamValue] = {"seats": [3, 7]}  # type: ignore[dict-item]
    assert book.render("tie", as_list) == book.render("tie", {"seats": (3, 7)})


@pytest.mark.parametrize("name", sorted(rule_set_cues()))
def test_every_role_of_every_rule_set_has_a_name_in_both_books(name: str) -> None:
    roles = loader.load_bundled(name).roles
    for lang in LANGUAGES:
        book = PhraseBook.load(lang).for_rules(name)
        for role in roles:
            one, many = book.role_name(role), book.role_name(role, many=True)
            assert one.strip() and many.strip(), (lang, name, role)
            assert "_" not in one + many, f"{lang} {name}: raw id for {role}"


@pytest.mark.parametrize(("lang", "role", "name"), [
    # The boxed edition's cards, as its booklet prints them.
    ("ru", "turncoat", "Перевёртыш"),
    ("ru", "self_taught_doctor", "Врач-самоучка"),
    ("ru", "spy", "Шпионка"),
    ("ru", "sergeant", "Сержантка"),
    ("ru", "ghost_talker", "Говорящая с призраками"),
    ("ru", "boss", "Босс мафии"),
    ("ru", "mafia", "Мафиози"),
    ("ru", "civilian", "Мирный горожанин"),
    ("en", "self_taught_doctor", "Self-taught doctor"),
])
def test_boxed_role_names(lang: str, role: str, name: str) -> None:
    assert PhraseBook.load(lang).role_name(role, "boxed") == name


def test_role_names_follow_the_rule_set() -> None:
    ru = PhraseBook.load("ru")
    assert ru.role_name("civilian") == "Мирный житель"
    assert ru.for_rules("boxed").role_name("civilian") == "Мирный горожанин"
    assert ru.for_rules("boxed").render("deck_roles", {"role": "civilian", "count": 3}) == (
        "Мирные горожане: три.")
    assert ru.for_rules("boxed").render("role_revealed", {"seat": 4, "role": "turncoat"}) == (
        "Карта игрока номер четыре: Перевёртыш.")


@pytest.mark.parametrize("name", sorted(rule_set_cues()))
def test_a_rule_sets_own_words_for_an_engine_cue_take_its_parameters(name: str) -> None:
    for lang in LANGUAGES:
        book = PhraseBook.load(lang)
        for engine_cue, own in loader.load_bundled(name).cues.items():
            assert book.params_of(own) == frozenset(ENGINE_CUES[engine_cue]), (lang, own)


@pytest.mark.parametrize(("lang", "leaves"), [("en", "leaves the table"), ("ru", "покидает стол")])
def test_a_single_nominee_is_said_to_leave_once(lang: str, leaves: str) -> None:
    """sport's lone nominee from day 2: `single_nominee_leaves` then `eliminated` (the
    scenario single_nominee.yaml): only the second says the player leaves."""
    book = PhraseBook.load(lang)
    first = book.render("single_nominee_leaves", {"seat": 6})
    then = book.render("eliminated", {"seat": 6})
    assert leaves not in first and leaves in then


def test_a_resumed_day_is_named_as_the_morning_names_it() -> None:
    # Heard at a club evening after a power cut: "Продолжаем игру: день номер один", where
    # the morning had said "День первый".
    from narrator.phrases.book import PhraseBook

    ru = PhraseBook.load("ru")
    assert ru.render("status_day", {"day": 1}) == "Продолжаем игру: день первый."
    assert ru.render("status_speaker", {"day": 2, "seat": 3}) == \
        "Продолжаем игру: день второй, говорит игрок номер три."
    assert ru.render("status_voting", {"day": 3}) == "Продолжаем игру: день третий, голосование."
    assert ru.render("morning", {"day": 1}) == "Доброе утро. День первый."
