"""Numbers as words and Russian agreement."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from narrator.phrases.numbers import cardinal, counted, duration, listed, ordinal, plural_form

VOTES = ("голос", "голоса", "голосов")
SECONDS = ("секунда", "секунды", "секунд")


@pytest.mark.parametrize(("n", "words"), [
    (0, "ноль голосов"), (1, "один голос"), (2, "два голоса"), (4, "четыре голоса"),
    (5, "пять голосов"), (11, "одиннадцать голосов"), (12, "двенадцать голосов"),
    (14, "четырнадцать голосов"), (21, "двадцать один голос"), (22, "двадцать два голоса"),
    (25, "двадцать пять голосов"), (111, "сто одиннадцать голосов"),
    (101, "сто один голос"), (1001, "одна тысяча один голос"),
])
def test_russian_votes(n: int, words: str) -> None:
    assert counted(n, VOTES, "ru") == words


@pytest.mark.parametrize(("n", "words"), [
    (1, "одна секунда"), (2, "две секунды"), (21, "двадцать одна секунда"),
    (30, "тридцать секунд"), (60, "шестьдесят секунд"), (42, "сорок две секунды"),
])
def test_russian_feminine(n: int, words: str) -> None:
    assert counted(n, SECONDS, "ru", "f") == words


@pytest.mark.parametrize(("n", "words"), [
    (0, "zero"), (7, "seven"), (13, "thirteen"), (20, "twenty"), (21, "twenty-one"),
    (100, "one hundred"), (115, "one hundred fifteen"), (2024, "two thousand twenty-four"),
])
def test_english_cardinals(n: int, words: str) -> None:
    assert cardinal(n, "en") == words


@pytest.mark.parametrize(("n", "en", "ru"), [
    (1, "first", "первый"), (2, "second", "второй"), (3, "third", "третий"),
    (12, "twelfth", "двенадцатый"), (20, "twentieth", "двадцатый"),
    (21, "twenty-first", "двадцать первый"), (40, "fortieth", "сороковой"),
])
def test_ordinals(n: int, en: str, ru: str) -> None:
    assert ordinal(n, "en") == en
    assert ordinal(n, "ru") == ru


@pytest.mark.parametrize(("seconds", "en", "ru"), [
    (0, "zero seconds", "ноль секунд"),
    (30, "thirty seconds", "тридцать секунд"),
    (60, "one minute", "одна минута"),
    (90, "one minute and thirty seconds", "одна минута тридцать секунд"),
    (120, "two minutes", "две минуты"),
    (181, "three minutes and one second", "три минуты одна секунда"),
    (600, "ten minutes", "десять минут"),
    (1320, "twenty-two minutes", "двадцать две минуты"),
])
def test_durations_in_minutes_and_seconds(seconds: int, en: str, ru: str) -> None:
    assert duration(seconds, "en") == en
    assert duration(seconds, "ru") == ru


@given(st.integers(min_value=60, max_value=99_999))
def test_a_duration_is_whole_minutes_then_the_seconds_under_a_minute(seconds: int) -> None:
    minutes, rest = divmod(seconds, 60)
    said = duration(seconds, "ru")
    assert said.startswith(counted(minutes, ("минута", "минуты", "минут"), "ru", "f"))
    if rest:
        assert said.endswith(" " + counted(rest, SECONDS, "ru", "f"))
    else:
        assert "секунд" not in said


def test_english_plural() -> None:
    assert counted(1, ("vote", "votes"), "en") == "one vote"
    assert counted(0, ("vote", "votes"), "en") == "zero votes"
    assert counted(2, ("vote", "votes"), "en") == "two votes"


@given(st.integers(min_value=0, max_value=999_999))
def test_russian_form_follows_the_last_word(n: int) -> None:
    # The noun agrees with the last number word only, whatever comes before it.
    last = cardinal(n, "ru").split()[-1]
    expected = {"один": 0, "два": 1, "три": 1, "четыре": 1}.get(last, 2)
    if last in ("тысяча", "тысячи", "тысяч"):
        expected = 2
    assert plural_form(n, "ru") == expected


@given(st.integers(min_value=0, max_value=999_999))
def test_every_number_has_words(n: int) -> None:
    for lang in ("en", "ru"):
        words = cardinal(n, lang)
        assert words and not any(ch.isdigit() for ch in words)


def test_lists() -> None:
    assert listed(["three"], "en") == "three"
    assert listed(["three", "seven"], "en") == "three and seven"
    assert listed(["три", "семь", "восемь"], "ru") == "три, семь и восемь"


@pytest.mark.parametrize("bad", [-1, 1_000_000, True])
def test_numbers_out_of_range(bad: int) -> None:
    with pytest.raises(ValueError, match="cannot say"):
        cardinal(bad, "en")
