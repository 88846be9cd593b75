"""``compsem embed``: the three Montague consistency tests (Carvalho et al., §3.3-3.5) for
embedding models over the AN and AAN phrase sets, as in the paper's Tables 2-7.

The phrase sets come from a Montague export (``compsem build montague --out DIR``, or the Hub's
``compsem/montague``), as any user of the dataset would read them. Each model embeds every
distinct string it needs (phrases and words of every phrase set) once; the tests are the
``consistency`` metric's plain functions, run on those vectors:

- AN phrases: intersectivity (eq. 3, Table 2), pair intersectivity (eq. 5, Tables 4 and 7) and
  non-subsectivity (eq. 7, Table 5);
- AAN phrases: intersectivity (eq. 3, Tables 3 and 6).

Example::

    from compsem.harness.embed.run import run_embed
    report = run_embed(["minilm", "glove"], "compsem-demo/montague")
    report["models"][0]["results"]["an"]["intersectivity"]["by_type"]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import datasets
import numpy as np

from compsem.benchmark.spec import EmbeddingTests
from compsem.builders import BENCHMARKS
from compsem.files.fingerprint import fingerprint
from compsem.harness.data.benchmark import card_metadata, load_config
from compsem.harness.embed.models import Encoder, ModelError, is_static, load_encoder

PHRASE_SETS = ("an", "aan")
# §4.1.1: "for each adjective … a closest synonym was chosen for the phrase pair intersectivity
# test, totaling 122 adjectives": the AN phrases and the same phrases with each adjective's
# synonym (of its adjective's type) in its place, tested for pair intersectivity only.
SYNONYMS = "an_synonyms"
DERIVED = {SYNONYMS: "an"}  # a phrase set made from another's config
TESTS = {
    "an": ("intersectivity", "pair_intersectivity", "non_subsectivity"),
    "aan": ("intersectivity",),
    SYNONYMS: ("pair_intersectivity",),
}
# The tests with one case per phrase (pair intersectivity's cases are quadruples of phrases).
PER_PHRASE_TESTS = {
    "an": ("intersectivity", "non_subsectivity"),
    "aan": ("intersectivity",),
    SYNONYMS: (),
}


def embedding_benchmarks() -> dict[str, EmbeddingTests]:
    """The registered benchmarks whose specs declare phrase sets for the consistency tests."""
    return {name: spec.embedding for name, spec in BENCHMARKS.items() if spec.embedding}


def vocabularies() -> tuple[str, ...]:
    """Every vocabulary any of them declares (``--vocabulary``'s choices)."""
    tests = embedding_benchmarks().values()
    return tuple(dict.fromkeys(name for t in tests for name in t.phrase_configs))


NOUN = "noun"  # the type a Montague export gives a noun, which the metric expects last


@dataclass
class PhraseSet:
    """The metric's inputs for one phrase set: phrases, their words and the words' types."""

    name: str
    phrases: list[str]
    words: list[list[str]]
    types: list[list[str]]

    def strings(self) -> set[str]:
        return {*self.phrases, *(word for words in self.words for word in words)}


def phrase_set(name: str, rows: datasets.Dataset) -> PhraseSet:
    """A phrase set from the rows of its config: each phrase, its words, and their types."""
    types = [[*kinds, NOUN] for kinds in rows["adjective_types"]]
    return PhraseSet(name, rows["phrase"], rows["words"], types)


def with_synonyms(an: PhraseSet, entries: Sequence[tuple[str, str, str]]) -> PhraseSet:
    """The AN phrases and, for each adjective with a synonym, the same phrases with the synonym
    in its place, typed as the adjective (``entries``: the vocabulary's (word, type, synonym)).
    A synonym that is itself one of the vocabulary's adjectives, or the synonym of an earlier
    one, is already in the set and is not added twice."""
    adjectives = {word for words in an.words for word in words[:-1]}
    synonyms = {}
    for word, kind, synonym in entries:
        if kind != NOUN and synonym and word in adjectives and synonym not in adjectives:
            synonyms.setdefault(synonym, (word, kind))
    taken = {word: synonym for synonym, (word, _) in synonyms.items()}
    phrases, words, types = list(an.phrases), list(an.words), list(an.types)
    for phrase_words, kinds in zip(an.words, an.types, strict=True):
        synonym = taken.get(phrase_words[0]) if len(phrase_words) == 2 else None
        if synonym:
            phrases.append(f"{synonym} {phrase_words[1]}")
            words.append([synonym, phrase_words[1]])
            types.append(list(kinds))
    return PhraseSet(SYNONYMS, phrases, words, types)


def embedding_tests(dataset: str, revision: str | None) -> tuple[str, EmbeddingTests]:
    """The benchmark of phrase sets an export (or Hub dataset) holds, found by its card, and
    what its spec declares for ``compsem embed``. A dataset whose card names no benchmark is
    read as the one registered benchmark of phrase sets (its configs then say whether it is)."""
    known = embedding_benchmarks()
    name = card_metadata(str(dataset), revision).get("benchmark")
    if name is None and len(known) == 1:
        name = next(iter(known))
    if name not in known:
        raise ValueError(
            f"{dataset} is not a benchmark of phrase sets (its card names {name!r}): give an "
            f"export of {', '.join(known) or 'one'} (compsem build NAME --out DIR)"
        )
    return name, known[name]


def vocabulary_entries(
    dataset: str, tests: EmbeddingTests, vocabulary: str, revision: str | None
) -> list[tuple[str, str, str]]:
    """(word, type, synonym) of each word of a vocabulary, as the benchmark declares them."""

    def read(config: str, split: str):
        return load_config(dataset, config, revision).splits[split]

    return tests.lexicon(read, vocabulary)


def vocabulary_summary(
    dataset: str, tests: EmbeddingTests, vocabulary: str, revision: str | None
) -> dict:
    """What the phrase sets were built from: the words with their types and synonyms (as the
    benchmark declares them), and a fingerprint of them as a set (the one the builder gives its
    lexicon, so shipped reference scores can be matched to a dataset, whatever the order of its
    rows)."""

    entries = vocabulary_entries(dataset, tests, vocabulary, revision)
    adjectives = sum(kind != NOUN for _, kind, _ in entries)
    return {
        "source": f"{dataset} ({vocabulary} vocabulary)",
        "fingerprint": fingerprint(sorted(entries)),
        "adjectives": adjectives,
        "nouns": len(entries) - adjectives,
    }


def consistency_results(encoder: Encoder, sets: Sequence[PhraseSet]) -> dict:
    """Embed each distinct string once, then run each phrase set's tests on the vectors."""
    # A metric script imports evaluate, which imports transformers and torch (over ten seconds).
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
            s.phrases,
            s.words,
            s.types,
            embeddings=embeddings,
            tests=TESTS[s.name],
            return_cases=True,
        )
        for s in sets
    }
    cases = {
        s.name: {test: results[s.name][test].pop("cases") for test in PER_PHRASE_TESTS[s.name]}
        for s in sets
    }
    return {
        **encoder.describe(),
        "strings": len(strings),
        "dimension": int(vectors.shape[1]),
        "embed_seconds": round(embed_seconds, 3),
        "test_seconds": round(time.perf_counter() - start, 3),
        "results": results,
        "cases": cases,
    }


def phrase_rows(report: dict, sets: Sequence[PhraseSet]) -> list[dict]:
    """Per (model, phrase set, phrase): the adjectives' types (what the phrase should do) and
    whether each per-phrase test holds; the report's ``cases`` are consumed."""
    rows = []
    for model in report["models"]:
        cases = model.pop("cases")
        for s in sets:
            tests = cases[s.name]
            an = [i for i, words in enumerate(s.words) if len(words) == 2]
            position = {"intersectivity": range(len(s.phrases)), "non_subsectivity": an}
            holds = [dict() for _ in s.phrases]
            for test, values in tests.items():
                for index, value in zip(position[test], values, strict=True):
                    holds[index][test] = value
            rows += [
                {"model": model["label"], "phrase_set": s.name, "id": phrase, "types": types} | held
                for phrase, types, held in zip(s.phrases, s.types, holds, strict=True)
            ]
    return rows


def run_embed(
    models: Sequence[str | Encoder],
    dataset: str | Path,
    vocabulary: str = "paper",
    phrase_sets: Sequence[str] = PHRASE_SETS,
    pooling: str | Sequence[str] | None = None,
    device: str | None = None,
    batch_size: int = 256,
    revision: str | None = None,
    trust_remote_code: bool = False,
    prefix: str | None = None,
) -> dict:
    """The consistency scores of each model (a spec for ``load_encoder`` or an ``Encoder``) on
    the chosen phrase sets of a Montague export (folder or Hub id); everything ``write_report``
    needs, ``rows`` (each phrase's outcome per model) included. Several poolings (``["cls",
    "mean"]``) give a row per model and pooling, each labelled with its pooling (static vectors:
    one mean-pooled row); ``trust_remote_code`` and ``prefix`` go to ``load_encoder``."""
    if not models:
        raise ModelError("no model given: pass at least one --model")
    benchmark, tests = embedding_tests(str(dataset), revision)
    if vocabulary not in tests.phrase_configs:
        raise ValueError(
            f"unknown vocabulary {vocabulary!r}: choose from {list(tests.phrase_configs)}"
        )
    available = tests.phrase_configs[vocabulary]
    available = {**available, **{k: available[v] for k, v in DERIVED.items() if v in available}}
    unknown = [name for name in phrase_sets if name not in available]
    if unknown or not phrase_sets:
        raise ValueError(
            f"no phrase set {unknown or []} in the {vocabulary} vocabulary: choose from "
            f"{list(available)}"
        )
    specs = [model for model in models if isinstance(model, str)]
    repeated = sorted({spec for spec in specs if specs.count(spec) > 1})
    if repeated:
        raise ModelError(f"--model {repeated[0]} is given twice: pass each model once")
    names = list(dict.fromkeys(phrase_sets))
    loaded = {name: load_config(str(dataset), available[name], revision) for name in names}
    sets = [phrase_set(name, data.splits["test"]) for name, data in loaded.items()]
    if SYNONYMS in loaded:
        base = phrase_set(SYNONYMS, loaded[SYNONYMS].splits["test"])
        entries = vocabulary_entries(str(dataset), tests, vocabulary, revision)
        sets = [with_synonyms(base, entries) if s.name == SYNONYMS else s for s in sets]
    poolings = [pooling] if pooling is None or isinstance(pooling, str) else list(pooling)
    poolings, rows = list(dict.fromkeys(poolings)), []
    pairs = [(m, p) for m in models for p in (poolings if isinstance(m, str) else [None])]
    for model, chosen in pairs:
        if len(poolings) > 1 and is_static(model) and chosen not in (None, "mean"):
            continue  # static vectors are mean-pooled: one row beside the transformers' poolings
        encoder = (
            model
            if isinstance(model, Encoder)
            else load_encoder(model, chosen, device, batch_size, trust_remote_code, prefix)
        )
        named = encoder.label.endswith(f"({encoder.pooling})")
        if len(poolings) > 1 and isinstance(model, str) and not named:
            encoder.label += f" ({encoder.pooling})"
        # checked as each model loads, before it embeds tens of thousands of phrases
        labels = [row["label"] for row in rows]
        if encoder.label in labels:
            raise ModelError(
                f"two models share a row label ({encoder.label!r}): name them apart as LABEL=MODEL"
            )
        rows.append(consistency_results(encoder, sets))
    first = next(iter(loaded.values()))
    report = {
        "benchmark": benchmark,
        "version": first.card.get("version"),
        "dataset": {
            "path": first.path,
            "revision": first.revision,
            "configs": {name: data.fingerprint for name, data in loaded.items()},
        },
        "vocabulary": vocabulary,
        "lexicon": vocabulary_summary(first.path, tests, vocabulary, revision),
        "phrase_sets": {s.name: len(s.phrases) for s in sets},
        "models": rows,
    }
    report["rows"] = phrase_rows(report, sets)
    return report
