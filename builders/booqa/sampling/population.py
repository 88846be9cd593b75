"""The population of a BoOQA build (Appendix D): from the corpus's partitioned triples to every
positive with its candidate negatives, cached, with one clear error naming the threshold to lower
when the corpus yields nothing.

The functions take a config resolved by ``compsem.builders.booqa.config.resolved`` (``s``).
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from tqdm.auto import tqdm

from compsem.builders.booqa.config import TYPED_ARGUMENTS, BooqaConfig
from compsem.builders.booqa.corpus.extraction import extract_triples
from compsem.builders.booqa.sampling.partitions import (
    Partitions,
    felicitous_predicates,
    partition_triples,
    read_bucket,
)
from compsem.builders.booqa.sampling.propositions import window_population
from compsem.files.fingerprint import cached_table, fingerprint
from compsem.loading_scripts.booqa_corpus import NewsCorpusError, open_news_corpus
from compsem.pipeline.runner import check_extracted, spacy_pipeline
from compsem.resources.spacy_pipeline import pipeline_id
from compsem.resources.wordnet import wordnet_version

# Bumped whenever the population or the splits change what the caches hold.
REVISION = 3


class ThresholdError(ValueError):
    """The corpus yields nothing at the chosen thresholds: the message names which to lower."""


def parser_id(s: BooqaConfig) -> str:
    return pipeline_id(spacy_pipeline(s.spacy_model))


def extraction(s: BooqaConfig) -> Partitions:
    """The partitioned triples of the corpus (extracted here, or read from ``extracted``)."""
    if s.extracted:
        shards = check_extracted(s.extracted, NewsCorpusError)
    else:
        corpus = open_news_corpus(s.corpus, s.text_column, s.date_column, s.split)
        shards = extract_triples(corpus, s.spacy_model, s.tasks, s.workers)
    return partition_triples(shards, s.window_days, s.rows_per_bucket, linked=s.link_arguments)


def _no_starring_pair(s: BooqaConfig, stats: pa.Table) -> ThresholdError:
    least = max(s.min_articles, s.min_predicates)
    typed = TYPED_ARGUMENTS[s.arguments]
    kind = ("pair", "pair with a named entity", "pair of named entities")[typed]
    best = f" No {kind} has even {least} triples in one window."
    if len(stats):
        score = np.minimum(
            stats["articles"].to_numpy() / s.min_articles,
            stats["predicates"].to_numpy() / s.min_predicates,
        )
        top = stats.slice(int(np.argmax(score)), 1).to_pylist()[0]
        best = (
            f" The best pair, {top['a']!r} and {top['b']!r}, has {top['articles']} articles and "
            f"{top['predicates']} predicates in window {top['window']}."
        )
    return ThresholdError(
        f"No starring argument {kind}: none is mentioned in at least {s.min_articles} articles "
        f"with at least {s.min_predicates} different predicates within one {s.window_days}-day "
        f"window.{best} Lower --min-articles or --min-predicates (or widen --window-days), "
        + ("let common nouns star (--arguments nouns), " if typed else "")
        + "or use a larger corpus."
    )


def _population(s: BooqaConfig, partitions: Partitions) -> pa.Table:
    felicitous = felicitous_predicates(partitions, s.min_pairs)
    if len(felicitous) == 0:
        raise ThresholdError(
            f"No felicitous predicate: none is seen with at least {s.min_pairs} distinct argument "
            "pairs in the corpus. Lower --min-pairs or use a larger corpus."
        )
    parts, stats, pairs = [], [], 0
    for path in tqdm(partitions.window_files(), desc="Positives and negatives", unit="bucket"):
        population, pair_stats, bucket_pairs = window_population(
            read_bucket(path),
            felicitous,
            s.min_articles,
            s.min_predicates,
            s.word_sense,
            typed_arguments=TYPED_ARGUMENTS[s.arguments],
        )
        parts.append(population)
        stats.append(pair_stats)
        pairs += bucket_pairs
    stats = pa.concat_tables(stats)
    starring = pc.sum(
        pc.and_(
            pc.greater_equal(stats["articles"], s.min_articles),
            pc.greater_equal(stats["predicates"], s.min_predicates),
        ).cast(pa.int64())
    ).as_py()
    if not starring:
        raise _no_starring_pair(s, stats)
    population = pa.concat_tables(parts).sort_by(
        [
            ("window", "ascending"),
            ("subject", "ascending"),
            ("predicate", "ascending"),
            ("object", "ascending"),
        ]
    )
    if len(population) == 0:
        raise ThresholdError(
            f"The {starring} starring pair(s) have no proposition with a felicitous predicate (seen "
            f"with at least {s.min_pairs} argument pairs). Lower --min-pairs or use a larger corpus."
        )
    if pc.max(pc.list_value_length(population["negatives"])).as_py() == 0:
        raise ThresholdError(
            f"None of the {len(population)} positives has a negative: no WordNet hyponym "
            f"replacement of their predicates is felicitous (seen with at least {s.min_pairs} "
            "argument pairs) and absent from the window. Lower --min-pairs or use a larger corpus."
        )
    summary = {
        "triples": partitions.triples,
        "linking": partitions.linking,
        "argument_pairs_in_windows": pairs,
        "starring_pairs": int(starring),
        "felicitous_predicates": len(felicitous),
        "positives": len(population),
        "positives_with_negatives": int(
            pc.sum(pc.greater(pc.list_value_length(population["negatives"]), 0)).as_py()
        ),
        "negative_candidates": int(pc.sum(pc.list_value_length(population["negatives"])).as_py()),
    }
    return population.replace_schema_metadata({"compsem_summary": json.dumps(summary)})


def corpus_population(s: BooqaConfig) -> tuple[Partitions, pa.Table]:
    """Partitions and the population of positives with their negatives (cached)."""
    partitions = extraction(s)
    key = fingerprint(
        "booqa_population",
        partitions.folder.name,
        s.min_articles,
        s.min_predicates,
        s.min_pairs,
        s.word_sense,
        s.arguments,
        wordnet_version(),
        REVISION,
    )
    return partitions, cached_table("booqa_population", key, lambda: _population(s, partitions))


def population_summary(population: pa.Table) -> dict:
    return json.loads(population.schema.metadata[b"compsem_summary"])
