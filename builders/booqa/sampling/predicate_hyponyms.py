"""Candidate negative predicates: WordNet hyponyms replacing a span of a predicate (BoOQA App. D).

For every contiguous span of a predicate's words that WordNet knows (a verb, optionally with its
particles and prepositions, as in ``take_over`` or ``look_for``; or a run of folded nouns), each
lemma of each direct hyponym of the span's synset replaces the span: "play game with" gives
"foul game with" (via the verb) and "play practice game with" (via the noun). The lemmas of one
hyponym synset are synonyms of each other: a candidate counts as present in a context window if
any of them is.

Which synset a span means is a pluggable word-sense choice: ``first`` (WordNet's most frequent
sense, the paper's choice for Chinese) is built in; register another with
:func:`register_word_sense` (e.g. a WSD model, as the paper used for English).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from compsem.resources.wordnet import wordnet

# A sense chooser maps (span lemma with underscores, WordNet POS "v"/"n", whole predicate) to a
# synset or None.
SenseChooser = Callable[[str, str, str], object]
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")


def first_sense(lemma: str, pos: str, predicate: str):
    """WordNet's first (most frequent) synset of the span, ignoring the predicate's context."""
    synsets = wordnet().synsets(lemma, pos=pos)
    return synsets[0] if synsets else None


WORD_SENSES: dict[str, SenseChooser] = {"first": first_sense}


def register_word_sense(name: str, chooser: SenseChooser) -> None:
    """Make ``chooser`` available as ``word_sense=name`` (the cache key includes the name)."""
    WORD_SENSES[name] = chooser
    hyponym_replacements.cache_clear()


def span_pos(tags: str) -> str | None:
    """WordNet POS of a span by its predicate tags: a verb (with particles or prepositions),
    or nouns only; spans of other shapes have no WordNet entry to replace."""
    if tags[0] == "V" and set(tags[1:]) <= {"R", "P"}:
        return "v"
    if set(tags) == {"N"}:
        return "n"
    return None


def _lemma_words(lemma) -> list[str] | None:
    name = lemma.name()
    if name != name.lower():  # proper names (Passion_play) and abbreviations (O.K.)
        return None
    words = name.replace("_", " ").split()
    return words if all(_WORD.fullmatch(word) for word in words) else None


@functools.lru_cache(maxsize=200_000)
def hyponym_replacements(
    predicate: str, tags: str, word_sense: str = "first"
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every (candidate predicate, its synonym predicates) from span-by-hyponym replacement.

    The synonyms are the candidate's hyponym synset's lemmas put in the same span (the candidate
    among them); candidates equal to ``predicate`` are left out. Sorted and deduplicated.
    """
    choose = WORD_SENSES[word_sense]
    words = predicate.split()
    if len(words) != len(tags):
        raise ValueError(f"Predicate {predicate!r} has {len(words)} words but tags {tags!r}.")
    found: dict[str, set[str]] = {}
    for start in range(len(words)):
        for end in range(start + 1, len(words) + 1):
            pos = span_pos(tags[start:end])
            if pos is None:
                continue
            synset = choose("_".join(words[start:end]), pos, predicate)
            if synset is None:
                continue
            for hyponym in synset.hyponyms():
                lemmas = [w for w in map(_lemma_words, hyponym.lemmas()) if w is not None]
                variants = {" ".join(words[:start] + w + words[end:]) for w in lemmas}
                for candidate in variants - {predicate}:
                    found.setdefault(candidate, set()).update(variants)
    return tuple((candidate, tuple(sorted(found[candidate]))) for candidate in sorted(found))
