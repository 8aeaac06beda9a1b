"""Near-miss table talk: sentences that carry a command's words inside a longer sentence.
A command is a whole utterance, so none of these may be taken as a command.

Per language (the phrase books') and per command, the same number of lines; each line
holds the words of one of that command's phrases (tests/listen/test_near_misses.py checks
both). They are split between the listen bench's tuning part and its held-back part by a
hash of the sentence (`held_back_line`), as the seat commands are. The English side is
heard by pocketsphinx; the Russian side by Vosk when a Russian model is named
(NARRATOR_VOSK_MODEL_RU): no registry package ships one.
"""

from __future__ import annotations

import hashlib

NEAR_MISSES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "next_speaker": (
            "who is the next speaker after me", "the next speaker will tell you the same thing",
            "thank you for nothing, really", "I want to say thank you to seat four",
            "next speaker, please be brief this time", "thank you, but I disagree with seven",
            "as the next speaker I have doubts", "say thank you and sit down",
        ),
        "pause": (
            "pause for a second and think about seat four", "there was a long pause after the shot",
            "let me pause here and explain", "I will pause my speech for the judge",
            "after that pause she changed her vote", "pause is not a move in this game",
            "the pause in his speech was strange", "do not pause when you lie",
        ),
        "resume": (
            "my resume says I am a civilian", "we resume the argument from yesterday",
            "let us resume where Anna stopped", "resume the story about the sheriff",
            "when we resume I will accuse eight", "I will resume my defence later",
            "she will resume the vote count", "resume talking after the break",
        ),
        "repeat": (
            "repeat after me, I am not mafia", "can you repeat that about seat nine",
            "I will not repeat myself again", "repeat the last part slowly",
            "history will repeat itself tonight", "do not make me repeat the question",
            "he likes to repeat what others said", "please repeat your vote",
        ),
        "undo": (
            "you cannot cancel that vote now", "cancel that idea, it was wrong",
            "I would cancel that plan if I were you", "cancel that nonsense about the don",
            "we cannot cancel that night", "let me cancel that and start again",
            "do not cancel that, it was good", "why would you cancel that nomination",
        ),
        "start_voting": (
            "we should start voting for the quiet ones", "before we start voting, listen to me",
            "start voting with your heart", "when we start voting I pick five",
            "I want to start voting early today", "let us not start voting yet",
            "they start voting too soon every time", "start voting against the mafia",
        ),
        "yes": (
            "I said yes to that yesterday", "yes, and I still think so", "yes or no, decide now",
            "she nodded yes at night", "yes, that is exactly my point", "he always says yes",
            "yes, seat two is lying", "the answer is yes, of course",
        ),
        "no": (
            "no, that is not what I said", "no way he is the sheriff", "I have no proof yet",
            "no one believes seat eight", "no, no, listen to me", "there is no reason to vote",
            "she said no to everything", "no, I was asleep all night",
        ),
        "add_time": (
            "please add thirty seconds to my speech", "if you add thirty seconds I can explain",
            "they add thirty seconds for a foul", "add thirty seconds and I will finish",
            "can we add thirty seconds for everyone", "I wish I could add thirty seconds",
            "add thirty seconds to the timer next game", "he wanted to add thirty seconds",
        ),
        "nominate": (
            "I nominate seven because he lied", "I nominate player three tomorrow",
            "would you nominate four with me", "nominate five and see what happens",
            "I nominate number six if nobody else does", "who will nominate eight",
            "I nominate player number two, I think", "do not nominate nine today",
        ),
        "foul": (
            "foul seat three for talking", "I said foul seat five, not six",
            "foul two should not have talked", "is that foul seven or eight",
            "foul seat ten again and he leaves", "foul four would be fair",
            "foul three was the right call", "they gave foul two for nothing",
        ),
        "remove": (
            "remove player six from your list", "they want to remove player ten",
            "disqualify player four if he cheats again", "do not remove player two yet",
            "remove player nine from suspicion", "we cannot disqualify player seven",
            "remove player three and we win", "who wants to disqualify player eight",
        ),
        "next_game": (
            "next game I will be the sheriff", "the next game starts at nine",
            "a new game means new roles", "in the next game I play better",
            "new game, same mistakes", "next game let us sit elsewhere",
            "I want a new game with new players", "next game is the final",
        ),
        "abandon": (
            "we should abandon the game plan", "never abandon the game halfway",
            "I will not abandon game night", "do not abandon the game for a phone call",
            "if we abandon the game we lose", "abandon game theory, trust your gut",
            "she wanted to abandon the game early", "abandon the game and go home",
        ),
        "forfeit": (
            "a severe breach by player five, I saw it", "that was a severe breach by player two",
            "severe breach by player nine, really", "no severe breach by player four tonight",
            "was it a severe breach by player six", "severe breach by player ten again",
            "he calls it a severe breach by player three", "any severe breach by player seven",
        ),
    },
    "ru": {
        "next_speaker": (
            "кто следующий после меня", "следующий скажет то же самое",
            "спасибо за ничего, честно", "хочу сказать спасибо четвёртому",
            "следующий, пожалуйста, короче", "спасибо, но я не согласен с седьмым",
            "пас — это не аргумент", "скажи спасибо и садись",
        ),
        "pause": (
            "пауза на секунду и подумайте о четвёртом", "была долгая пауза после выстрела",
            "у него пауза в речи была странная", "пауза ничего не меняет",
            "после слова пауза она сменила голос", "пауза для судьи, не для нас",
            "эта пауза меня смутила", "пауза затянулась, говори",
        ),
        "resume": (
            "продолжаем спор со вчерашнего дня", "продолжаем с того места, где остановилась Аня",
            "мы продолжаем думать о шерифе", "продолжаем после перерыва",
            "продолжаем искать мафию", "ладно, продолжаем разговор",
            "продолжаем, но я против", "продолжаем считать голоса",
        ),
        "repeat": (
            "повтори за мной, я не мафия", "повтори, что ты сказал про девятого",
            "повтори последнюю часть медленно", "повтори свой голос",
            "повтори вопрос, я не расслышал", "повтори ещё раз про дона",
            "повтори это всем", "повтори, пожалуйста, номер",
        ),
        "undo": (
            "отмена голоса уже невозможна", "отмена этой идеи, она была плохой",
            "никакая отмена не поможет", "отмена ночи не бывает",
            "отмена выставления была ошибкой", "отмена — это слабость",
            "отмена решения судьи — редкость", "отмена плана, начинаем снова",
        ),
        "start_voting": (
            "начинаем голосование за тихих игроков", "перед тем как начинаем голосование, послушайте",
            "когда начинаем голосование, я за пятого", "не начинаем голосование пока",
            "начинаем голосование сердцем", "зачем начинаем голосование так рано",
            "начинаем голосование против мафии", "мы начинаем голосование без тебя",
        ),
        "yes": (
            "да, и я всё ещё так думаю", "да или нет, решай", "да, это мой аргумент",
            "она кивнула да ночью", "да, второй врёт", "он всегда говорит да",
            "ответ да, конечно", "да ладно, не может быть",
        ),
        "no": (
            "нет, я такого не говорил", "нет, он не шериф", "нет у меня доказательств",
            "нет никого тише восьмого", "нет, нет, послушайте", "нет причины голосовать",
            "она на всё говорит нет", "нет, я спал всю ночь",
        ),
        "add_time": (
            "пожалуйста, добавь тридцать секунд к моей речи", "добавь тридцать секунд, и я объясню",
            "судья, добавь тридцать секунд всем", "добавь тридцать секунд и я закончу",
            "добавь тридцать секунд в следующей игре", "добавь тридцать секунд себе, а не мне",
            "добавь тридцать секунд за фол", "он сказал: добавь тридцать секунд",
        ),
        "nominate": (
            "выставляю семь, потому что он врал", "выставляю игрока три завтра",
            "выставляю четыре вместе с тобой", "выставляю пять и посмотрим",
            "выставляю игрока номер шесть, если никто не против", "я выставляю восемь только после тебя",
            "выставляю игрока номер два, наверное", "не выставляю девять сегодня",
        ),
        "foul": (
            "фол игроку три за разговоры", "это был фол пять, судья",
            "фол два не должен был говорить", "это фол семь или нет",
            "фол игроку десять ещё раз и он уходит", "фол четыре был бы честно",
            "фол три был правильным решением", "фол два дали ни за что",
        ),
        "remove": (
            "удалить игрока шесть из списка", "они хотят удалить игрока десять",
            "дисквалификация четыре, если он снова жульничает", "судья может удалить игрока два",
            "удалить игрока девять из подозрений", "дисквалификация семь невозможна",
            "удалить игрока три и мы выиграем", "дисквалификация восемь была бы ошибкой",
        ),
        "next_game": (
            "следующая игра будет моей", "следующая игра начнётся в девять",
            "новая игра — новые роли", "следующая игра покажет, кто прав",
            "новая игра, те же ошибки", "следующая игра — финал",
            "новая игра с новыми людьми", "новая игра через пять минут",
        ),
        "abandon": (
            "нельзя прервать игру на полпути", "я не хочу прервать игру из-за звонка",
            "если прервать игру, мы проиграем", "она хотела прервать игру рано",
            "прервать игру и пойти домой", "кто решил прервать игру",
            "прервать игру может только судья", "не дайте им прервать игру",
        ),
        "forfeit": (
            "поражение команды игрока пять, я видел", "это поражение команды игрока два",
            "поражение команды игрока девять, серьёзно", "я не видел поражение команды игрока четыре",
            "было ли поражение команды игрока шесть", "поражение команды игрока десять опять",
            "он называет это поражение команды игрока три", "любое поражение команды игрока семь",
        ),
    },
}


# Talk that carries none of a command's words but sounds like one, the same number of lines
# in both languages: en-us's voice heard "boss", "laws", "the cause" and "paws off" as
# "pause", and "next time I will speak first" (held-back table talk) as "next speaker".
# A whole-utterance rule cannot refuse these (they are whole); the command's threshold and
# the free decoder's disagreement must.
SOUND_ALIKES: dict[str, tuple[str, ...]] = {
    "en": (
        "boss", "laws", "the cause", "paws off", "applause", "of course",
        "next week I will speak first", "next time speak up", "guess", "now",
        "I assume", "we beat them",
    ),
    "ru": (
        "пауки", "фауна", "пасха", "паспорт", "дай", "два",
        "нить", "нету", "отменно", "повторим", "спаси бог", "следует",
    ),
}


def held_back_line(sentence: str) -> bool:
    """Which part a near-miss line belongs to: about half each, fixed by its words."""
    return hashlib.sha1(("near " + sentence).encode()).digest()[0] % 2 == 1


def near_misses(lang: str, held_back: bool) -> tuple[str, ...]:
    """The part's near-miss lines in `lang`, command by command, then its sound-alikes."""
    lines = (*(line for said in NEAR_MISSES[lang].values() for line in said),
             *SOUND_ALIKES[lang])
    return tuple(line for line in lines if held_back_line(line) == held_back)
