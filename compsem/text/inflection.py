"""English verb inflection for generated sentences: third person singular, present participle
(-ing) and past participle, by the spelling rules plus a table of irregular participles.

The rules cover the verbs compsem generates with; tests check every form against WordNet's
morphology (``morphy``), which knows the irregular forms from WordNet's exception lists.
"""

from __future__ import annotations

import re

# Past participles that do not end in -ed (common English irregular verbs).
IRREGULAR_PARTICIPLES = {
    "be": "been",
    "beat": "beaten",
    "become": "become",
    "begin": "begun",
    "bend": "bent",
    "bite": "bitten",
    "blow": "blown",
    "break": "broken",
    "bring": "brought",
    "build": "built",
    "buy": "bought",
    "catch": "caught",
    "choose": "chosen",
    "come": "come",
    "cut": "cut",
    "dig": "dug",
    "do": "done",
    "draw": "drawn",
    "drink": "drunk",
    "drive": "driven",
    "eat": "eaten",
    "fall": "fallen",
    "feed": "fed",
    "feel": "felt",
    "fight": "fought",
    "find": "found",
    "fly": "flown",
    "forget": "forgotten",
    "freeze": "frozen",
    "get": "gotten",
    "give": "given",
    "go": "gone",
    "grind": "ground",
    "grow": "grown",
    "hang": "hung",
    "have": "had",
    "hear": "heard",
    "hide": "hidden",
    "hit": "hit",
    "hold": "held",
    "hurt": "hurt",
    "keep": "kept",
    "know": "known",
    "lay": "laid",
    "lead": "led",
    "leave": "left",
    "lend": "lent",
    "let": "let",
    "lose": "lost",
    "make": "made",
    "meet": "met",
    "pay": "paid",
    "put": "put",
    "read": "read",
    "ride": "ridden",
    "ring": "rung",
    "run": "run",
    "say": "said",
    "see": "seen",
    "sell": "sold",
    "send": "sent",
    "set": "set",
    "shake": "shaken",
    "shoot": "shot",
    "shut": "shut",
    "sing": "sung",
    "sink": "sunk",
    "sit": "sat",
    "sleep": "slept",
    "slide": "slid",
    "speak": "spoken",
    "spend": "spent",
    "spin": "spun",
    "split": "split",
    "spread": "spread",
    "stand": "stood",
    "steal": "stolen",
    "sting": "stung",
    "strike": "struck",
    "sweep": "swept",
    "swim": "swum",
    "swing": "swung",
    "take": "taken",
    "teach": "taught",
    "tear": "torn",
    "tell": "told",
    "think": "thought",
    "throw": "thrown",
    "understand": "understood",
    "wake": "woken",
    "wear": "worn",
    "win": "won",
    "wind": "wound",
    "write": "written",
}
# Verbs of two or more syllables stressed on the last one, which double their final consonant.
_FINAL_STRESS = {
    "admit",
    "commit",
    "control",
    "occur",
    "omit",
    "patrol",
    "prefer",
    "refer",
    "regret",
}
_VOWELS = "aeiou"


def _syllables(verb: str) -> int:
    return max(1, len(re.findall(r"[aeiouy]+", verb.rstrip("e"))))


def _doubles_final_consonant(verb: str) -> bool:
    """Consonant-vowel-consonant endings double in stressed final syllables: run → running."""
    if len(verb) < 3 or verb[-1] in _VOWELS + "wxy":
        return False
    cvc = verb[-2] in _VOWELS and verb[-3] not in _VOWELS and verb[-1] not in _VOWELS
    return cvc and (_syllables(verb) == 1 or verb in _FINAL_STRESS)


def _check(verb: str) -> str:
    if not re.fullmatch(r"[a-z]+", verb):
        raise ValueError(f"Cannot inflect {verb!r}: expected one lowercase English verb lemma.")
    return verb


def with_s_ending(word: str, es_after: tuple[str, ...] = ("s", "sh", "ch", "x", "z")) -> str:
    """A word's -s form by English spelling: wish → wishes, city → cities, gun → guns.
    ``es_after``: the endings that take -es (verbs add "o": goes; most nouns do not: photos)."""
    if word.endswith(es_after):
        return word + "es"
    if len(word) > 1 and word[-1] == "y" and word[-2] not in _VOWELS:
        return word[:-1] + "ies"
    return word + "s"


def third_person_singular(verb: str) -> str:
    """realize → realizes, wish → wishes, imply → implies, doubt → doubts, go → goes."""
    verb = _check(verb)
    if verb in ("be", "have"):
        return {"be": "is", "have": "has"}[verb]
    return with_s_ending(verb, ("s", "sh", "ch", "x", "z", "o"))


def present_participle(verb: str) -> str:
    """eat → eating, run → running, slice → slicing, see → seeing, lie → lying."""
    verb = _check(verb)
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and verb != "be":
        return verb[:-1] + "ing"
    if _doubles_final_consonant(verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def past_participle(verb: str) -> str:
    """slice → sliced, chop → chopped, carry → carried, drive → driven (irregular table)."""
    verb = _check(verb)
    if verb in IRREGULAR_PARTICIPLES:
        return IRREGULAR_PARTICIPLES[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2] not in _VOWELS:
        return verb[:-1] + "ied"
    if _doubles_final_consonant(verb):
        return verb + verb[-1] + "ed"
    return verb + "ed"
