"""Adjective-noun phrases of a corpus: extracted on datatrove, counted out of core.

1. :func:`an_extraction_pipeline`: the corpus's readers, then spaCy (one pipeline per worker,
   NER left out) finding ``amod`` arcs onto noun heads, then one Parquet shard per task holding
   each document's (adjective, noun) pairs. Any datatrove executor runs it: locally through
   :func:`extract_an_pairs`, or on Slurm or Ray (see the PLANE card).
2. :func:`count_an_shards`: streams the shard files a batch at a time and folds per-batch
   pyarrow counts into running totals, so memory follows the number of distinct pairs, not the
   corpus. PMI comes from the pair counts' marginals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from tqdm.auto import tqdm

from compsem.fingerprint import fingerprint
from compsem.loading_scripts.corpora import Corpus
from compsem.pipeline import (
    CorpusError,
    FirstDocuments,
    SpacyAnnotator,
    check_shards,
    parquet_shards,
    run_in_cache,
    spacy_pipeline,
)
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, pipeline_id

# Bumped whenever extraction changes what the shards hold.
EXTRACTION_REVISION = 1
# The parse of an AN arc needs the tagger, parser and lemmatizer; NER only costs time.
DISABLED = ("ner",)
PAIR_TYPE = pa.struct([("adjective", pa.string()), ("noun", pa.string())])
AN_SHARD_SCHEMA = pa.schema([("id", pa.string()), ("pairs", pa.list_(PAIR_TYPE))])
AN_PAIR_SCHEMA = pa.schema(
    [
        ("adjective", pa.string()),
        ("noun", pa.string()),
        ("count", pa.int64()),
        ("pmi", pa.float64()),
    ]
)
COUNT_SCHEMA = AN_PAIR_SCHEMA.remove(AN_PAIR_SCHEMA.get_field_index("pmi"))
PAIR = ["adjective", "noun"]
# Partial counts held before they are folded into the running totals.
FOLD_ROWS = 2_000_000


def amod_pairs(doc) -> Iterator[tuple[str, str]]:
    """(adjective lemma, noun lemma) for every ``amod`` arc whose head is a common noun."""
    for token in doc:
        if token.dep_ == "amod" and token.head.pos_ == "NOUN":
            adjective, noun = token.lemma_.lower(), token.head.lemma_.lower()
            if adjective.isalpha() and noun.isalpha():
                yield adjective, noun


def annotate_an(doc) -> dict:
    """The SpacyAnnotator function: a document's AN pairs."""
    return {"an_pairs": [{"adjective": a, "noun": n} for a, n in amod_pairs(doc)]}


def an_row(self, document) -> dict:
    """The ParquetWriter adapter: one row per document (AN_SHARD_SCHEMA)."""
    return {"id": document.id, "pairs": document.metadata["an_pairs"]}


def an_extraction_pipeline(
    corpus: Corpus,
    work: str | Path,
    spacy_model: str = DEFAULT_SPACY_MODEL,
    max_docs: int | None = None,
) -> list:
    """Readers, spaCy AN arcs and sharded Parquet: the steps any datatrove executor (local,
    Slurm, Ray) can run. Shards go to ``work/shards``; ``work`` must be reachable by every task.
    ``max_docs`` keeps each task's first documents."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    parser = pipeline_id(spacy_pipeline(spacy_model, DISABLED))  # fails early if missing
    schema = AN_SHARD_SCHEMA.with_metadata(
        {"compsem.parser": parser, "compsem.extraction_revision": str(EXTRACTION_REVISION)}
    )
    return [
        *corpus.readers(work),
        *([FirstDocuments(max_docs)] if max_docs else []),
        SpacyAnnotator(annotate_an, spacy_model, disable=DISABLED, batch_size=512),
        parquet_shards(work / "shards", schema, an_row),
    ]


def extract_an_pairs(
    corpus: Corpus,
    spacy_model: str = DEFAULT_SPACY_MODEL,
    max_docs: int | None = None,
    tasks: int = 1,
    workers: int = 1,
) -> Path:
    """Run (or resume, or reuse) the extraction locally; returns the folder of its shards."""
    parser = pipeline_id(spacy_pipeline(spacy_model, DISABLED))
    key = fingerprint("plane_an", corpus.fingerprint, parser, max_docs, tasks, EXTRACTION_REVISION)
    return run_in_cache(
        "plane_extraction",
        key,
        lambda work: an_extraction_pipeline(corpus, work, spacy_model, max_docs),
        tasks=tasks,
        workers=workers,
    )


def check_an_shards(folder: str | Path) -> list[Path]:
    """The shards of a finished AN extraction, checked to hold AN_SHARD_SCHEMA rows."""
    return check_shards(
        folder,
        AN_SHARD_SCHEMA,
        CorpusError,
        producer="compsem's PLANE extraction pipeline",
        empty="The corpus holds no documents; pass a corpus of English text",
    )


def count_an_shards(files: Sequence[Path]) -> pa.Table:
    """Count the AN pairs in an extraction's shard files out of core; AN_PAIR_SCHEMA rows."""
    partial: list[pa.Table] = []
    for path in tqdm(files, desc="Counting phrases", unit="shard", mininterval=1.0):
        for batch in pq.ParquetFile(path).iter_batches(batch_size=65_536, columns=["pairs"]):
            pairs = pc.list_flatten(batch.column("pairs"))
            table = pa.table({"adjective": pairs.field("adjective"), "noun": pairs.field("noun")})
            partial.append(_pair_counts(table, [], "count_all"))
            if sum(len(t) for t in partial) > FOLD_ROWS:
                partial = [_fold(partial)]
    return with_pmi(_fold(partial))


def _pair_counts(table: pa.Table, target: list[str], aggregation: str) -> pa.Table:
    """(adjective, noun, count) rows: ``aggregation`` of ``target`` per pair."""
    grouped = table.group_by(PAIR).aggregate([(target, aggregation)])
    return pa.table(
        {
            "adjective": grouped["adjective"],
            "noun": grouped["noun"],
            "count": grouped[next(c for c in grouped.column_names if c not in PAIR)],
        }
    )


def _fold(partial: list[pa.Table]) -> pa.Table:
    """One count per pair from partial counts."""
    table = (
        pa.concat_tables([t.cast(COUNT_SCHEMA) for t in partial])
        if partial
        else COUNT_SCHEMA.empty_table()
    )
    return _pair_counts(table, ["count"], "sum")


def an_pair_table(counts: Counter[tuple[str, str]]) -> pa.Table:
    """AN_PAIR_SCHEMA rows from in-memory counts (tests and benchmarks)."""
    pairs = list(counts)
    return with_pmi(
        pa.table(
            {
                "adjective": pa.array([a for a, _ in pairs], pa.string()),
                "noun": pa.array([n for _, n in pairs], pa.string()),
                "count": pa.array([counts[pair] for pair in pairs], pa.int64()),
            }
        )
    )


def _marginal(column: pa.ChunkedArray, count: np.ndarray) -> np.ndarray:
    """Each row's total count over the rows that share its value of ``column``."""
    codes = pc.dictionary_encode(column).combine_chunks()
    indices = codes.indices.to_numpy(zero_copy_only=False)
    totals = np.zeros(len(codes.dictionary), np.int64)
    np.add.at(totals, indices, count)
    return totals[indices]


def with_pmi(counts: pa.Table) -> pa.Table:
    """Pairs sorted by (adjective, noun), with ``pmi = log2(c(a,n) N / (c(a) c(n)))``."""
    counts = counts.sort_by([(name, "ascending") for name in PAIR])
    count = counts["count"].to_numpy()
    marginals = (_marginal(counts["adjective"], count) * _marginal(counts["noun"], count)).astype(
        np.float64
    )
    pmi = np.log2(count * float(count.sum()) / marginals) if len(count) else np.array([], float)
    return pa.Table.from_arrays(
        [counts["adjective"], counts["noun"], counts["count"], pa.array(pmi, pa.float64())],
        schema=AN_PAIR_SCHEMA,
    )
