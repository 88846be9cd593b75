"""Recursive noun phrases ``Det M1 M2 N``: which modifiers fit which nouns, which modifier pairs
may stack, seeded sampling of phrases, and their surface form (determiner, sentence prefix).

A modifier fits a noun when one of its ``applies_to`` selectors matches (a supersense, a noun
role such as ``occupation``, or a WordNet synset among the noun's hypernyms) and, where a table of corpus
adjective-noun counts is given, the pair was seen in the corpus or either word never was.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from compsem.resources.lexicon import LexiconError
from compsem.resources.modifiers import ROLES, SUPERSENSES, ModifierLexicon
from compsem.resources.wordnet import wordnet
from compsem.text.articles import indefinite_article
from compsem.text.inflection import with_s_ending

ARTICLES = {"definite": "the", "possessive": "my"}
PERSON_PREFIXES = {"male": "He is", "female": "She is"}
THING_PREFIX = "This is"  # the paper's P (§3): This is / He is / She is, etc.
# RNPC writes about a fifth of its SPTE and MPTE items of several entities ("These are …"
# before a bare plural NP): so do compsem's, where the nouns have a regular plural
PLURAL_SHARE = 0.2
PLURAL_PREFIXES = {"person": ("They are",), "thing": ("These are", "Those are", "They are")}
_SAME_PLURAL = {"sheep", "deer", "fish", "salmon", "aircraft", "series", "species"}
_IRREGULAR_ENDINGS = (  # (singular ending, plural ending), tried in order
    ("woman", "women"),
    ("child", "children"),
    ("mouse", "mice"),
    ("goose", "geese"),
    ("foot", "feet"),
    ("tooth", "teeth"),
    ("thief", "thieves"),
    ("ife", "ives"),
    ("lf", "lves"),
    ("arf", "arves"),
    ("tato", "tatoes"),
    ("mato", "matoes"),
)


@dataclass(frozen=True)
class Vocabulary:
    """Modifiers (``ModifierLexicon.table()`` columns as numpy arrays), nouns, and which modifier
    fits which noun (``fits[m, n]``) and which pair may stack as M1 M2 (``stacks[m1, m2]``)."""

    modifiers: dict[str, np.ndarray]
    nouns: dict[str, np.ndarray]
    fits: np.ndarray
    stacks: np.ndarray

    @property
    def names_people(self) -> np.ndarray:
        """Per noun, whether it names people (WordNet supersense ``person``): what the sentence
        prefix shows (He/She/They are, or This/These are) and the rules read."""
        return np.asarray(self.nouns["supersense"]) == "person"


def _columns(table: pa.Table) -> dict[str, np.ndarray]:
    return {name: np.array(table[name].to_pylist(), dtype=object) for name in table.column_names}


@functools.cache
def _is_noun_synset(name: str) -> bool:
    try:
        return wordnet().synset(name).pos() == "n"
    except Exception:  # nltk raises WordNetError or ValueError for malformed names
        return False


def selector_masks(nouns: pa.Table, selectors: set[str]) -> dict[str, np.ndarray]:
    """For each selector, the nouns it matches."""
    supersense = np.array(nouns["supersense"].to_pylist())
    role = np.array(nouns["role"].to_pylist())
    ancestors = nouns["ancestors"].to_pylist()
    masks = {}
    for selector in sorted(selectors):
        if selector in SUPERSENSES:
            masks[selector] = supersense == selector
        elif selector in ROLES:
            masks[selector] = role == selector
        elif _is_noun_synset(selector):
            masks[selector] = np.array([selector in names for names in ancestors], dtype=bool)
        else:
            raise LexiconError(
                f"applies_to names {selector!r}, which is neither a supersense "
                f"({', '.join(SUPERSENSES)}), a noun role ({', '.join(ROLES)}), nor a WordNet noun "
                "synset such as gun.n.01."
            )
    return masks


def fit_matrix(modifiers: pa.Table, nouns: pa.Table) -> np.ndarray:
    """``fits[m, n]``: modifier m may modify noun n (never itself: no 'orange orange')."""
    applies = modifiers["applies_to"].to_pylist()
    masks = selector_masks(nouns, {s for selectors in applies for s in selectors})
    fits = np.zeros((len(applies), len(nouns)), dtype=bool)
    for index, selectors in enumerate(applies):
        for selector in selectors:
            fits[index] |= masks[selector]
    texts = np.array(modifiers["modifier"].to_pylist(), dtype=object)
    for index in range(len(texts)):  # a later row of a modifier takes its nouns from earlier ones
        earlier = np.flatnonzero(texts[:index] == texts[index])
        fits[earlier] &= ~fits[index]
    same = texts[:, None] == np.array(nouns["noun"].to_pylist(), dtype=object)
    return fits & ~same


def restrict_to_corpus(fits: np.ndarray, modifiers, nouns, pairs: pa.Table) -> np.ndarray:
    """Keep a fit only if the corpus saw the pair, or never saw the modifier or the noun (no
    evidence either way). ``pairs`` has ``adjective`` and ``noun`` columns (lemmas)."""
    seen = set(zip(pairs["adjective"].to_pylist(), pairs["noun"].to_pylist(), strict=True))
    adjectives = {a for a, _ in seen}
    corpus_nouns = {n for _, n in seen}
    lowered = [m.lower() for m in modifiers]
    observed = np.array([[(m, n) in seen for n in nouns] for m in lowered], dtype=bool)
    no_evidence = (
        ~np.isin(lowered, list(adjectives))[:, None]
        | ~np.isin(list(nouns), list(corpus_nouns))[None, :]
    )
    return fits & (observed | no_evidence)


def stack_matrix(modifiers: dict[str, np.ndarray]) -> np.ndarray:
    """``stacks[m1, m2]``: M1 may precede M2. Different modifiers of different dimensions, in
    adjective order; at most one determiner-forcing modifier, and the/ordinal/superlative ones
    only first; no privative before a stage of a role (a former beginner drummer: scope is
    ambiguous, so such phrases are left out)."""
    dimension, order, determiner = (
        modifiers["dimension"],
        modifiers["order"],
        modifiers["determiner"],
    )
    forcing = determiner != "indefinite"
    text = modifiers["modifier"]
    stacks = (
        (dimension[:, None] != dimension[None, :])
        & (text[:, None] != text[None, :])  # the rows of a noun-dependent modifier
        & (order[:, None].astype(int) <= order[None, :].astype(int))
        & ~(forcing[:, None] & forcing[None, :])
        & (determiner != "definite")[None, :]
        & ~(
            (modifiers["category"] == "privative")[:, None]
            & (modifiers["kind"] == "stage")[None, :]
        )
    )
    np.fill_diagonal(stacks, False)
    return stacks


def build_vocabulary(
    lexicon: ModifierLexicon, nouns: pa.Table, corpus_pairs: pa.Table | None = None
) -> Vocabulary:
    table = lexicon.table()
    modifiers = _columns(table.drop(["applies_to"]))
    fits = fit_matrix(table, nouns)
    if corpus_pairs is not None:
        fits = restrict_to_corpus(
            fits, modifiers["modifier"], nouns["noun"].to_pylist(), corpus_pairs
        )
    return Vocabulary(modifiers, _columns(nouns.drop(["ancestors"])), fits, stack_matrix(modifiers))


def _masked_choice(allowed: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """For each row of a boolean matrix, a uniformly random column where it is True."""
    keys = rng.random(allowed.shape, dtype=np.float32)
    keys[~allowed] = -1.0
    return keys.argmax(axis=1)


def sample_phrases(
    vocabulary: Vocabulary,
    first: np.ndarray,
    second: np.ndarray,
    groups: list[tuple[np.ndarray, int]],
    count: int,
    rng: np.random.Generator,
    chunk: int = 20_000,
) -> np.ndarray:
    """About ``count`` phrases ``(m1, m2, noun)`` (rows of indices), shared by the noun
    ``groups`` (nouns, weight) that can form one, as they are weighted: in each, M1 uniformly
    from ``first``, then M2 uniformly from the ``second`` modifiers that may follow it on some
    noun of the group both fit, then such a noun. Every modifier of a position gets an even
    share, however few nouns it fits. Empty when no phrase exists."""
    formable = []
    for nouns, weight in groups:
        fits = vocabulary.fits[:, nouns]
        shared = fits[first].astype(np.float32) @ fits[second].T.astype(np.float32)
        viable = vocabulary.stacks[np.ix_(first, second)] & (shared > 0)
        if viable.any():
            formable.append((nouns, weight, fits, viable))
    total = sum(weight for _, weight, _, _ in formable)
    picks = [np.empty((0, 3), dtype=np.int64)]
    for nouns, weight, fits, viable in formable:
        candidates = np.flatnonzero(viable.any(axis=1))
        share = -(-count * weight // total)
        for start in range(0, share, chunk):
            m1 = rng.choice(candidates, size=min(chunk, share - start))
            m2 = _masked_choice(viable[m1], rng)
            noun = _masked_choice(fits[first[m1]] & fits[second[m2]], rng)
            picks.append(np.stack([first[m1], second[m2], nouns[noun]], axis=1))
    return np.concatenate(picks)


def determiner(*forced: str) -> str:
    """The determiner an NP's modifiers force: 'definite', 'possessive' or 'indefinite'."""
    for kind in ("possessive", "definite"):
        if kind in forced:
            return kind
    return "indefinite"


def noun_phrase(words: list[str], forced: str, plural: bool = False) -> tuple[str, str]:
    """('a', 'a fake red gun'): the determiner and the phrase; plural: ('', 'fake red guns'),
    the/my kept ('the', 'the second green balls'). A modifier ending in '-' (ex-) is a prefix
    and joins the next word."""
    if plural:
        words = [*words[:-1], plural_form(words[-1])]
    text = " ".join(words).replace("- ", "-")
    article = ARTICLES.get(forced) or ("" if plural else indefinite_article(text))
    return article, f"{article} {text}".strip()


@functools.cache
def plural_form(noun: str) -> str | None:
    """The plural of a count noun (of a compound's last word: health professionals), or None
    where the rules below give none that WordNet reads back as the noun (canary: canaries is
    a lemma of its own)."""
    head, _, last = noun.rpartition(" ")
    form = next((last[: -len(a)] + b for a, b in _IRREGULAR_ENDINGS if last.endswith(a)), None)
    if last in _SAME_PLURAL:
        form = last
    elif form is None and last.endswith("man") and (last == "man" or _is_word(last[:-3])):
        form = last[:-3] + "men"  # policeman, fisherman; not human
    elif form is None:
        form = with_s_ending(last)
    senses = wordnet().synsets(form, "n")  # WordNet's morphology reads a plural back
    if not any(last in {lemma.name().lower() for lemma in s.lemmas()} for s in senses):
        return None
    return f"{head} {form}".strip()


def _is_word(text: str) -> bool:
    return bool(text) and bool(wordnet().morphy(text))


def sentence_prefix(
    supersense: str, gender: str, rng: np.random.Generator, plural: bool = False
) -> str:
    """He is / She is for people (by gender, else at random), This is for things; plural:
    They are for people, These / Those / They are for things."""
    if plural:
        options = PLURAL_PREFIXES["person" if supersense == "person" else "thing"]
        return options[rng.integers(len(options))]
    if supersense == "person":
        return PERSON_PREFIXES.get(gender) or PERSON_PREFIXES[("male", "female")[rng.integers(2)]]
    return THING_PREFIX
