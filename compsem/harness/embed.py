"""``compsem embed``: the three Montague consistency tests (Carvalho et al., §3.3-3.5) for
embedding models over the AN and AAN phrase sets, as in the paper's Tables 2-7.

Each model embeds every distinct string it needs (phrases and words of every phrase set) once;
the tests are the ``consistency`` metric's plain functions, run on those vectors:

- AN phrases: intersectivity (eq. 3, Table 2), pair intersectivity (eq. 5, Tables 4 and 7) and
  non-subsectivity (eq. 7, Table 5);
- AAN phrases: intersectivity (eq. 3, Tables 3 and 6).

Example::

    from compsem.harness.embed import run_embed
    report = run_embed(["minilm", "glove"])
    report["models"][0]["results"]["an"]["intersectivity"]["by_type"]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from compsem.builders.montague.lexicon import NOUN, MontagueLexicon
from compsem.harness.embed_models import Encoder, ModelError, load_encoder

PHRASE_SETS = ("an", "aan")
TESTS = {
    "an": ("intersectivity", "pair_intersectivity", "non_subsectivity"),
    "aan": ("intersectivity",),
}
LEXICONS = ("paper", "plane")


@dataclass
class PhraseSet:
    """The metric's inputs for one phrase set: phrases, their words and the words' types."""

    name: str
    phrases: list[str]
    words: list[list[str]]
    types: list[list[str]]

    def strings(self) -> set[str]:
        return {*self.phrases, *(word for words in self.words for word in words)}


def phrase_set(lexicon: MontagueLexicon, name: str) -> PhraseSet:
    from compsem.builders.montague.builder import PHRASE_SETS as ADJECTIVES_PER_PHRASE
    from compsem.builders.montague.builder import phrase_table

    table = phrase_table(lexicon, ADJECTIVES_PER_PHRASE[name])
    types = [[*kinds, NOUN] for kinds in table["adjective_types"].to_pylist()]
    return PhraseSet(name, table["phrase"].to_pylist(), table["words"].to_pylist(), types)


def resolve_lexicon(lexicon: str | MontagueLexicon | None) -> MontagueLexicon:
    """``paper`` (Appendix A, the default), ``plane`` (PLANE's adjectives and WordNet nouns), a
    lexicon TSV path, or a loaded lexicon."""
    from compsem.builders.montague.lexicon import load_lexicon

    if isinstance(lexicon, MontagueLexicon):
        return lexicon
    if lexicon == "plane":
        from compsem.builders.montague.plane_an import plane_lexicon

        return plane_lexicon()
    return load_lexicon(None if lexicon in (None, "paper") else lexicon)


def consistency_results(encoder: Encoder, sets: Sequence[PhraseSet]) -> dict:
    """Embed each distinct string once, then run each phrase set's tests on the vectors."""
    from compsem.metrics.consistency.consistency import consistency_scores

    strings = sorted(set().union(*(s.strings() for s in sets)))
    start = time.perf_counter()
    vectors = np.asarray(encoder.encode(strings))
    embed_seconds = time.perf_counter() - start
    if vectors.ndim != 2 or len(vectors) != len(strings):
        raise ModelError(
            f"{encoder.label} returned an array of shape {vectors.shape} for {len(strings)} "
            "strings: an encoder must give one vector per string"
        )
    embeddings = dict(zip(strings, vectors, strict=True))
    start = time.perf_counter()
    results = {
        s.name: consistency_scores(
            s.phrases, s.words, s.types, embeddings=embeddings, tests=TESTS[s.name]
        )
        for s in sets
    }
    return {
        **encoder.describe(),
        "strings": len(strings),
        "dimension": int(vectors.shape[1]),
        "embed_seconds": round(embed_seconds, 3),
        "test_seconds": round(time.perf_counter() - start, 3),
        "results": results,
    }


def run_embed(
    models: Sequence[str | Encoder],
    lexicon: str | MontagueLexicon | None = "paper",
    phrase_sets: Sequence[str] = PHRASE_SETS,
    pooling: str | None = None,
    device: str | None = None,
    batch_size: int = 256,
) -> dict:
    """The consistency scores of each model (a spec for ``load_encoder`` or an ``Encoder``) on
    the chosen phrase sets of a lexicon; everything ``write_report`` needs."""
    from compsem.builders.montague.builder import Montague

    if not models:
        raise ModelError("no model given: pass at least one --model")
    unknown = [name for name in phrase_sets if name not in PHRASE_SETS]
    if unknown or not phrase_sets:
        raise ValueError(f"unknown phrase sets {unknown or []}: choose from {list(PHRASE_SETS)}")
    lexicon = resolve_lexicon(lexicon)
    sets = [phrase_set(lexicon, name) for name in dict.fromkeys(phrase_sets)]
    rows = []
    for model in models:
        encoder = (
            model
            if isinstance(model, Encoder)
            else load_encoder(model, pooling, device, batch_size)
        )
        rows.append(consistency_results(encoder, sets))
    labels = [row["label"] for row in rows]
    if len(set(labels)) != len(labels):
        raise ModelError(f"two models share a row label ({labels}): name them apart as LABEL=MODEL")
    return {
        "benchmark": "montague",
        "version": str(Montague.VERSION),
        "lexicon": {
            "source": lexicon.source,
            "fingerprint": lexicon.fingerprint,
            "adjectives": len(lexicon.adjectives),
            "nouns": len(lexicon.nouns),
        },
        "phrase_sets": {s.name: len(s.phrases) for s in sets},
        "models": rows,
    }
