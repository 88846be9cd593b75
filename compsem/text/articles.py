"""Surface realisation shared by the builders: indefinite articles and copular sentences."""

from __future__ import annotations

# Vowel letters that sound like consonants, and silent h: the exceptions to "an before a vowel".
_CONSONANT_SOUND_PREFIXES = (
    "eu",
    "ewe",
    "one",
    "once",
    "uni",
    "use",
    "usu",
    "uti",
    "ubi",
    "ukr",
    "ura",
    "uro",
    "ure",
)
_VOWEL_SOUND_PREFIXES = ("hour", "honest", "honor", "honour", "heir")


def indefinite_article(phrase: str) -> str:
    """'a' or 'an' for the first word of ``phrase`` (by sound, with common exceptions)."""
    word = phrase.lower()
    if word.startswith(_VOWEL_SOUND_PREFIXES):
        return "an"
    if word[:1] in "aeiou" and not word.startswith(_CONSONANT_SOUND_PREFIXES):
        return "an"
    return "a"


def with_article(phrase: str, capitalise: bool = False) -> str:
    article = indefinite_article(phrase)
    return f"{article.capitalize() if capitalise else article} {phrase}"


def copular_sentence(subject: str, predicate: str) -> str:
    """'A fake gun is a weapon.'"""
    return f"{with_article(subject, capitalise=True)} is {with_article(predicate)}."
