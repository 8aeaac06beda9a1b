"""Numbers as words, with the agreement each language needs.

Seat numbers, counts and days are spoken as words so that the text the timeline shows is
exactly what the voice says, and so that Russian nouns agree with the number before them
("два голоса", "пять голосов", "двадцать одна секунда").
"""

from __future__ import annotations

from collections.abc import Sequence

LANGUAGES = ("en", "ru")


def _w(words: str) -> list[str]:
    return words.split()


_EN_SMALL = _w(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_EN_TENS = _w("_ _ twenty thirty forty fifty sixty seventy eighty ninety")
_EN_ORD_SMALL = _w(
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth"
)
_EN_ORD_TENS = _w(
    "_ _ twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth"
)

_RU_UNITS_M = _w("ноль один два три четыре пять шесть семь восемь девять")
_RU_TEENS = _w(
    "десять одиннадцать двенадцать тринадцать четырнадцать пятнадцать шестнадцать "
    "семнадцать восемнадцать девятнадцать"
)
_RU_TENS = _w("_ _ двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто")
_RU_HUNDREDS = _w("_ сто двести триста четыреста пятьсот шестьсот семьсот восемьсот девятьсот")
_RU_ORD_UNITS = _w("_ первый второй третий четвёртый пятый шестой седьмой восьмой девятый")
_RU_ORD_TEENS = _w(
    "десятый одиннадцатый двенадцатый тринадцатый четырнадцатый пятнадцатый шестнадцатый "
    "семнадцатый восемнадцатый девятнадцатый"
)
_RU_ORD_TENS = _w(
    "_ _ двадцатый тридцатый сороковой пятидесятый шестидесятый семидесятый восьмидесятый "
    "девяностый"
)
# Only "one" and "two" change with the noun's gender.
_RU_GENDERED = {"m": ("один", "два"), "f": ("одна", "две"), "n": ("одно", "два")}

LIMIT = 1_000_000


def _check(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < LIMIT:
        raise ValueError(f"cannot say {n!r} as a number (0 to {LIMIT - 1})")


def cardinal(n: int, lang: str, gender: str = "m") -> str:
    """`n` in words; `gender` (m, f, n) matters in Russian only."""
    _check(n)
    if lang == "en":
        return _en(n)
    if lang == "ru":
        return _ru(n, gender)
    raise ValueError(f"no number words for language {lang!r}")


def ordinal(n: int, lang: str) -> str:
    """`n` as an ordinal: "second", "второй" (Russian: masculine nominative). 1 to 99."""
    _check(n)
    if not 1 <= n <= 99:
        raise ValueError(f"ordinals are spoken from 1 to 99, not {n}")
    tens, unit = divmod(n, 10)
    if lang == "en":
        if n < 20:
            return _EN_ORD_SMALL[n]
        if unit == 0:
            return _EN_ORD_TENS[tens]
        return f"{_EN_TENS[tens]}-{_EN_ORD_SMALL[unit]}"
    if lang == "ru":
        if n < 10:
            return _RU_ORD_UNITS[n]
        if n < 20:
            return _RU_ORD_TEENS[n - 10]
        if unit == 0:
            return _RU_ORD_TENS[tens]
        return f"{_RU_TENS[tens]} {_RU_ORD_UNITS[unit]}"
    raise ValueError(f"no number words for language {lang!r}")


def plural_form(n: int, lang: str) -> int:
    """Which noun form follows `n`: en 0 = singular, 1 = plural; ru 0 = один голос,
    1 = два голоса, 2 = пять голосов."""
    _check(n)
    if lang == "en":
        return 0 if n == 1 else 1
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return 1
        return 2
    raise ValueError(f"no plural rules for language {lang!r}")


def counted(n: int, forms: Sequence[str], lang: str, gender: str = "m") -> str:
    """`n` and the noun form that agrees with it: "five votes", "пять голосов"."""
    return f"{cardinal(n, lang, gender)} {forms[plural_form(n, lang)]}"


_DURATION_UNITS = {
    "en": (("minute", "minutes"), ("second", "seconds")),
    "ru": (("минута", "минуты", "минут"), ("секунда", "секунды", "секунд")),
}


def duration(seconds: int, lang: str) -> str:
    """A length of time as a host says it: "ten minutes", "одна минута тридцать секунд".

    Whole minutes are said in minutes and the rest in seconds, so a timer of 600 s is never
    "шестьсот секунд"; under a minute stays in seconds ("тридцать секунд").
    """
    _check(seconds)
    if lang not in _DURATION_UNITS:
        raise ValueError(f"no number words for language {lang!r}")
    minute_forms, second_forms = _DURATION_UNITS[lang]
    minutes, rest = divmod(seconds, 60)
    parts: list[str] = []
    if minutes:
        parts.append(counted(minutes, minute_forms, lang, "f"))
    if rest or not minutes:
        parts.append(counted(rest, second_forms, lang, "f"))
    joiner = " and " if lang == "en" else " "
    return joiner.join(parts)


def listed(items: Sequence[str], lang: str) -> str:
    """Words joined as a list: "three, seven and eight", "три, семь и восемь"."""
    if not items:
        raise ValueError("an empty list cannot be spoken")
    if len(items) == 1:
        return items[0]
    last = {"en": "and", "ru": "и"}[lang]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _en(n: int) -> str:
    if n < 20:
        return _EN_SMALL[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return _EN_TENS[tens] + (f"-{_EN_SMALL[unit]}" if unit else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_EN_SMALL[hundreds]} hundred" + (f" {_en(rest)}" if rest else "")
    thousands, rest = divmod(n, 1000)
    return f"{_en(thousands)} thousand" + (f" {_en(rest)}" if rest else "")


def _ru_below_thousand(n: int, gender: str) -> list[str]:
    words: list[str] = []
    hundreds, rest = divmod(n, 100)
    if hundreds:
        words.append(_RU_HUNDREDS[hundreds])
    if 10 <= rest < 20:
        words.append(_RU_TEENS[rest - 10])
        return words
    tens, unit = divmod(rest, 10)
    if tens:
        words.append(_RU_TENS[tens])
    if unit in (1, 2):
        words.append(_RU_GENDERED[gender][unit - 1])
    elif unit:
        words.append(_RU_UNITS_M[unit])
    return words


def _ru(n: int, gender: str) -> str:
    if gender not in _RU_GENDERED:
        raise ValueError(f"unknown gender {gender!r} (m, f or n)")
    if n == 0:
        return _RU_UNITS_M[0]
    thousands, rest = divmod(n, 1000)
    words: list[str] = []
    if thousands:
        # "тысяча" is feminine: одна тысяча, две тысячи, пять тысяч.
        words += _ru_below_thousand(thousands, "f")
        words.append(("тысяча", "тысячи", "тысяч")[plural_form(thousands, "ru")])
    words += _ru_below_thousand(rest, gender)
    return " ".join(words)
