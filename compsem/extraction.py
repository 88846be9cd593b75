"""Adjective-noun phrases from dependency parses: spaCy ``amod`` arcs onto noun heads."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

import numpy as np
import pyarrow as pa
from tqdm.auto import tqdm

AN_PAIR_SCHEMA = pa.schema(
    [
        ("adjective", pa.string()),
        ("noun", pa.string()),
        ("count", pa.int64()),
        ("pmi", pa.float64()),
    ]
)


def amod_pairs(doc) -> Iterator[tuple[str, str]]:
    """(adjective lemma, noun lemma) for every ``amod`` arc whose head is a common noun."""
    for token in doc:
        if token.dep_ == "amod" and token.head.pos_ == "NOUN":
            adjective, noun = token.lemma_.lower(), token.head.lemma_.lower()
            if adjective.isalpha() and noun.isalpha():
                yield adjective, noun


def count_an_pairs(
    texts: Iterable[str],
    nlp,
    *,
    batch_size: int = 512,
    n_process: int = 1,
    total: int | None = None,
) -> pa.Table:
    """Parse ``texts`` and count AN pairs; PMI is over the distribution of all extracted arcs."""
    counts: Counter[tuple[str, str]] = Counter()
    docs = nlp.pipe(texts, batch_size=batch_size, n_process=n_process)
    for doc in tqdm(docs, total=total, unit="doc", desc="Parsing corpus", mininterval=1.0):
        counts.update(amod_pairs(doc))
    return an_pair_table(counts)


def an_pair_table(counts: Counter[tuple[str, str]]) -> pa.Table:
    """Pairs sorted by (adjective, noun), with ``pmi = log2(c(a,n) N / (c(a) c(n)))``."""
    pairs = sorted(counts)
    adjectives = [a for a, _ in pairs]
    nouns = [n for _, n in pairs]
    count = np.array([counts[pair] for pair in pairs], dtype=np.int64)
    adjective_total, noun_total = Counter(), Counter()
    for (adjective, noun), c in counts.items():
        adjective_total[adjective] += c
        noun_total[noun] += c
    marginals = np.array([adjective_total[a] * noun_total[n] for a, n in pairs], dtype=np.float64)
    pmi = np.log2(count * float(count.sum()) / marginals) if pairs else np.array([], np.float64)
    return pa.Table.from_arrays(
        [pa.array(adjectives, pa.string()), pa.array(nouns, pa.string()), count, pmi],
        schema=AN_PAIR_SCHEMA,
    )
