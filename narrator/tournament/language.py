"""The collector's words in English and Russian (words/*.yaml), and `Why`: a refusal with
a code and its numbers and names, said in either language (the page says it in the
reader's; the log, the box and the JSON answers in English)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources

from narrator.errors import InputFileError, NarratorError
from narrator.yamlfile import parse_yaml

LANGUAGES = ("en", "ru")


@cache
def words(lang: str) -> Mapping[str, str]:
    text = (resources.files("narrator.tournament") / "words" / f"{lang}.yaml").read_text(encoding="utf-8")
    data = parse_yaml(text, f"narrator/tournament/words/{lang}.yaml", InputFileError)
    assert isinstance(data, dict)
    return {str(k): str(v) for k, v in data.items()}


class Words:
    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else "en"
        self._w = words(self.lang)

    def __call__(self, key: str, **values: object) -> str:
        return self._w[key].format(**values)

    def why(self, why: Why) -> str:
        return self(f"why_{why.code}", **why.params)


class Why(NarratorError, ValueError):
    """A refusal: `code` names it (words: `why_<code>`), `params` fill its words."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(Words("en")(f"why_{code}", **params))

    def to_json(self) -> dict[str, object]:
        return {"error": str(self), "code": self.code, "params": dict(self.params)}
