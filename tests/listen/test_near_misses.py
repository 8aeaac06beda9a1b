"""The near-miss talk of the listen bench: in both languages, the same number of lines for
every command, each carrying that command's words inside a longer sentence (so it is
talk, never a command), split between the bench's parts like the rest of its material."""

from __future__ import annotations

from narrator.voice.commands import COMMAND_IDS, CommandSet, words_of
from workshop.bench import listen
from workshop.bench.listen_data import HELD_BACK_TALK, TABLE_SNRS, TABLE_TALK_SNR, TUNING_TALK
from workshop.bench.near_misses import NEAR_MISSES, SOUND_ALIKES, held_back_line, near_misses


def _carries(line: str, commands: CommandSet, command: str) -> bool:
    said = f" {' '.join(words_of(line))} "
    return any(f" {sentence} " in said for sentence, (name, _) in commands.sentences.items()
               if name == command)


def test_every_command_has_as_many_near_misses_in_both_languages() -> None:
    assert set(NEAR_MISSES) == {"en", "ru"}
    for lang, lines in NEAR_MISSES.items():
        assert set(lines) == set(COMMAND_IDS), lang
    counts = {lang: {c: len(v) for c, v in lines.items()} for lang, lines in NEAR_MISSES.items()}
    assert counts["en"] == counts["ru"]
    assert min(counts["en"].values()) >= 6


def test_each_line_carries_its_command_and_is_not_one() -> None:
    for lang, lines in NEAR_MISSES.items():
        commands = CommandSet.for_language(lang)
        for command, said in lines.items():
            for line in said:
                assert commands.parse(line) is None, (lang, line)
                assert _carries(line, commands, command), (lang, command, line)


def test_the_parts_share_no_near_miss_and_the_held_back_talk_reaches_a_hundred() -> None:
    for lang in NEAR_MISSES:
        held, tuning = near_misses(lang, True), near_misses(lang, False)
        assert held and tuning and not set(held) & set(tuning)
    assert len(HELD_BACK_TALK) + len(near_misses("en", True)) >= 100
    assert not set(near_misses("en", True)) & set(TUNING_TALK)


def test_the_bench_hears_the_near_misses_and_a_table_at_every_snr(english: CommandSet) -> None:
    held = listen.clips(english, True, 2, None)
    talk = [c.spec for c in held if c.want is None]
    assert set(near_misses("en", True)) <= {s.text for s in talk}
    tables = {listen._room(c.spec) for c in held if c.spec.table}
    assert tables == {f"table{snr}" for snr in TABLE_SNRS}
    # Every command clip at every SNR, the talk at one.
    commands = [c for c in held if c.want is not None and not c.spec.table]
    for snr in TABLE_SNRS:
        at = [c for c in held if c.want is not None and listen._room(c.spec) == f"table{snr}"]
        assert [(c.spec.text, c.spec.voice) for c in at] == \
            [(c.spec.text, c.spec.voice) for c in commands]
    assert {listen._room(s) for s in talk if s.table} == {f"table{TABLE_TALK_SNR}"}


def test_the_sound_alikes_carry_no_command_and_are_in_both_parts() -> None:
    assert set(SOUND_ALIKES) == set(NEAR_MISSES)
    assert len({len(lines) for lines in SOUND_ALIKES.values()}) == 1
    for lang, lines in SOUND_ALIKES.items():
        commands = CommandSet.for_language(lang)
        for line in lines:
            assert commands.parse(line) is None, (lang, line)
            assert not any(_carries(line, commands, c) for c in COMMAND_IDS), (lang, line)
        held = [line for line in lines if held_back_line(line)]
        assert 0 < len(held) < len(lines), lang
        assert set(held) <= set(near_misses(lang, True))
