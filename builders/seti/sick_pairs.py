"""SETI's natural-inference pairs from SICK (§4.1). Two kinds of pairs are kept:

- lexical: the sentences differ in exactly one word, and WordNet relates the two words
  (synonym, hypernym, antonym or co-hyponym, over any of their senses);
- structural: the spaCy parser finds one sentence active and the other passive, with the same
  arguments (active ↔ passive), swapped arguments (argument swap) or the same arguments and
  another verb (different event).

Labels are SICK's own; rules and relations are recorded as for generated pairs.
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pyarrow as pa

from compsem.builders.seti.lexicon import relation
from compsem.builders.seti.sentences import NAT_PAIR_SCHEMA, deduplicated, pair_row, parse_frames
from compsem.loading_scripts.sick_release import read_sick
from compsem.resources.wordnet import wordnet

# When the two words' senses stand in several relations, the first of these is recorded.
_RELATION_ORDER = ("synonym", "hypernym", "antonym", "co_hyponym")


def word_relation(a: str, b: str) -> str | None:
    """The first relation of _RELATION_ORDER between any noun or verb senses of two words."""
    found = set()
    for pos in ("n", "v"):
        for left, right in product(wordnet().synsets(a, pos), wordnet().synsets(b, pos)):
            kind = relation(left.name(), right.name())
            if kind is not None:
                found.add(kind)
    return next((kind for kind in _RELATION_ORDER if kind in found), None)


def _tokens(sentence: str) -> list[str]:
    """Lowercased words, with "an" read as "a" (a apple → a fruit differs in one word)."""
    return ["a" if word == "an" else word for word in sentence.lower().split()]


def _verb_lemmas(form: str, parser_lemma: str) -> set[str]:
    """WordNet's lemmas of a verb form, else the parser's (which reads "riding" as "rid")."""
    return set(wordnet()._morphy(form, "v")) or {parser_lemma}


def lexical_pair(a: str, b: str) -> tuple[str, str] | None:
    """(relation, rule) when the sentences differ in one word that WordNet relates."""
    left, right = _tokens(a), _tokens(b)
    if len(left) != len(right):
        return None
    differing = [(x, y) for x, y in zip(left, right, strict=True) if x != y]
    if len(differing) != 1:
        return None
    x, y = differing[0]
    kind = word_relation(x, y)
    return (kind, f"{x} → {y}") if kind else None


def structural_pair(frame_a, frame_b) -> tuple[str, str] | None:
    """(relation, rule) when one sentence is active and the other passive."""
    if frame_a is None or frame_b is None or frame_a[4] == frame_b[4]:
        return None
    subject_a, form_a, verb_a, object_a, voice_a = frame_a
    subject_b, form_b, verb_b, object_b, voice_b = frame_b
    if object_a is None or object_b is None:
        return None
    lemmas_a, lemmas_b = _verb_lemmas(form_a, verb_a), _verb_lemmas(form_b, verb_b)
    same_verb = bool(lemmas_a & lemmas_b)
    verb_a, verb_b = min(lemmas_a & lemmas_b or lemmas_a), min(lemmas_b)
    voices = f"{voice_a} → {voice_b}"
    if (subject_a, object_a) == (subject_b, object_b):
        if same_verb:
            return f"{voice_a}_to_{voice_b}", f"{verb_a}: {voices}"
        return "different_event", f"{verb_a} → {verb_b}: {voices}"
    if (subject_a, object_a) == (object_b, subject_b) and same_verb:
        return "argument_swap", f"{verb_a}: argument swap"
    return None


def sick_natural_pairs(path: str | Path, nlp) -> pa.Table:
    """The lexical and structural pairs of a SICK file, in NAT_PAIR_SCHEMA, in file order."""
    rows = read_sick(path)
    texts = list(
        dict.fromkeys(text for row in rows for text in (row["sentence_A"], row["sentence_B"]))
    )
    frames = dict(zip(texts, parse_frames(texts, nlp), strict=True))
    pairs = []
    for row in rows:
        a, b = row["sentence_A"], row["sentence_B"]
        lexical = lexical_pair(a, b)
        if lexical:
            pairs.append(pair_row(a, b, "lex", row["label"], *lexical))
            continue
        structural = structural_pair(frames[a], frames[b])
        if structural:
            pairs.append(pair_row(a, b, "stru", row["label"], *structural))
    return pa.Table.from_pylist(deduplicated(pairs), schema=NAT_PAIR_SCHEMA)
