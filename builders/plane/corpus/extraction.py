"""Adjective-noun phrases of a corpus: extracted on datatrove, counted out of core.

1. :func:`an_extraction_pipeline`: the corpus's readers, then spaCy (one pipeline per worker,
   NER left out) finding ``amod`` arcs onto noun heads, then one Parquet shard per task holding
   each document's (adjective, noun) pairs. Any datatrove executor runs it: locally through
   :func:`extract_an_pairs`, or on Slurm or Ray (see the PLANE card).
2. :func:`count_an_occurrences`: streams the shard files a batch at a time and folds per-batch
   pyarrow counts into running totals, so memory follows the number of distinct pairs, not the
   corpus. Each pair is counted per written form of its words (the adjective as written when
   not sentence-initial, for "Australian"; the noun as written, for lemmas such as
   "means" → "mean" that change its meaning). :func:`an_pairs` sums the forms and adds PMI from
   the pair counts' marginals; :func:`adjective_forms` picks each adjective's written form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from tqdm.auto import tqdm

from compsem.files.fingerprint import fingerprint
from compsem.loading_scripts.corpora import Corpus
from compsem.pipeline.runner import (
    CorpusError,
    FirstDocuments,
    SpacyAnnotator,
    check_shards,
    parquet_shards,
    run_in_cache,
    spacy_pipeline,
)
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, pipeline_id

# Bumped whenever extraction changes what the shards hold (2: written forms of both words).
EXTRACTION_REVISION = 2
# The parse of an AN arc needs the tagger, parser and attribute ruler; NER only costs time, and
# the lemmatizer, run over every token, took two-fifths of the parse when only the two words of
# each arc need a lemma: :func:`amod_arcs` lemmatizes those itself, as the lemmatizer would.
DISABLED = ("ner", "lemmatizer")
PAIR_TYPE = pa.struct(
    [
        ("adjective", pa.string()),
        ("noun", pa.string()),
        ("adjective_form", pa.string()),
        ("noun_form", pa.string()),
    ]
)
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
FORMS = ["adjective_form", "noun_form"]
OCCURRENCE_SCHEMA = pa.schema(
    [*((name, pa.string()) for name in PAIR + FORMS), ("count", pa.int64())]
)
# Partial counts held before they are folded into the running totals.
FOLD_ROWS = 2_000_000


def lemma(token, lemmatizer) -> str:
    """``token``'s lemma as the pipeline's lemmatizer step sets it: kept where the attribute
    ruler already set one (its exceptions) or the step ran (``lemmatizer`` None), else
    ``lemmatizer``'s own."""
    if token.lemma or lemmatizer is None:
        return token.lemma_
    return lemmatizer.lemmatize(token)[0]


def amod_arcs(doc, lemmatizer) -> Iterator[tuple[str, str, str | None, str]]:
    """(adjective lemma, noun lemma, adjective form, noun form) for every ``amod`` arc whose head
    is a common noun, lemmatized by ``lemmatizer`` (:func:`pipeline_lemmatizer` for a parse with
    :data:`DISABLED`; None for a parse that ran the lemmatizer). The adjective's form is its
    written case ("Australian", "former") where it is the lemma as written, not
    sentence-initial and not all capitals (a headline), else None; the noun's form is the word
    as written, lower-cased ("means" for the lemma "mean")."""
    for token in doc:
        if token.dep_ == "amod" and token.head.pos_ == "NOUN":
            adjective = lemma(token, lemmatizer).lower()
            noun = lemma(token.head, lemmatizer).lower()
            if adjective.isalpha() and noun.isalpha():
                text = token.text
                written = text.lower() == adjective and not token.is_sent_start
                form = text if written and not (text.isupper() and len(text) > 1) else None
                yield adjective, noun, form, token.head.text.lower()


def amod_pairs(doc, lemmatizer) -> Iterator[tuple[str, str]]:
    """(adjective lemma, noun lemma) for every ``amod`` arc whose head is a common noun."""
    for adjective, noun, _, _ in amod_arcs(doc, lemmatizer):
        yield adjective, noun


def pipeline_lemmatizer(spacy_model: str = DEFAULT_SPACY_MODEL):
    """The lemmatizer of the extraction's pipeline (loaded, though left out of the parse), or
    None for a pipeline without one."""
    nlp = spacy_pipeline(spacy_model, DISABLED)
    return nlp.get_pipe("lemmatizer") if "lemmatizer" in nlp.component_names else None


def annotate_an(doc, spacy_model: str = DEFAULT_SPACY_MODEL) -> dict:
    """The SpacyAnnotator function: a document's AN arcs."""
    names = PAIR + FORMS
    arcs = amod_arcs(doc, pipeline_lemmatizer(spacy_model))
    return {"an_pairs": [dict(zip(names, arc, strict=True)) for arc in arcs]}


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
        SpacyAnnotator(
            partial(annotate_an, spacy_model=spacy_model),
            spacy_model,
            disable=DISABLED,
            batch_size=512,
        ),
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


def count_an_occurrences(files: Sequence[Path]) -> pa.Table:
    """Count the AN arcs in an extraction's shard files out of core, per pair and written forms;
    OCCURRENCE_SCHEMA rows."""
    keys = PAIR + FORMS
    partial: list[pa.Table] = []
    for path in tqdm(files, desc="Counting phrases", unit="shard", mininterval=1.0):
        for batch in pq.ParquetFile(path).iter_batches(batch_size=65_536, columns=["pairs"]):
            pairs = pc.list_flatten(batch.column("pairs"))
            table = pa.table({name: pairs.field(name) for name in keys})
            partial.append(_counts(table, keys, [], "count_all"))
            if sum(len(t) for t in partial) > FOLD_ROWS:
                partial = [_fold(partial, OCCURRENCE_SCHEMA)]
    return _fold(partial, OCCURRENCE_SCHEMA)


def count_an_shards(files: Sequence[Path]) -> pa.Table:
    """Count the AN pairs in an extraction's shard files out of core; AN_PAIR_SCHEMA rows."""
    return an_pairs(count_an_occurrences(files))


def an_pairs(occurrences: pa.Table) -> pa.Table:
    """AN_PAIR_SCHEMA rows: the occurrences' counts summed over written forms, with PMI."""
    return with_pmi(_fold([occurrences.select(COUNT_SCHEMA.names)], COUNT_SCHEMA))


def adjective_forms(occurrences: pa.Table) -> dict[str, str]:
    """Each adjective's most frequent written form where that is not its lemma (a proper
    adjective's capital: "australian" → "Australian"); ties go to the first form in sort order."""
    written = occurrences.filter(pc.is_valid(occurrences["adjective_form"]))
    counts = _counts(written, ["adjective", "adjective_form"], ["count"], "sum").sort_by(
        [("adjective", "ascending"), ("count", "descending"), ("adjective_form", "ascending")]
    )
    forms: dict[str, str] = {}
    for adjective, form in zip(
        counts["adjective"].to_pylist(), counts["adjective_form"].to_pylist(), strict=True
    ):
        forms.setdefault(adjective, form)
    return {adjective: form for adjective, form in forms.items() if form != adjective}


def _counts(table: pa.Table, keys: list[str], target: list[str], aggregation: str) -> pa.Table:
    """(*keys, count) rows: ``aggregation`` of ``target`` per distinct ``keys``."""
    grouped = table.group_by(keys).aggregate([(target, aggregation)])
    count = grouped[next(c for c in grouped.column_names if c not in keys)]
    return pa.table({**{key: grouped[key] for key in keys}, "count": count})


def _fold(partial: list[pa.Table], schema: pa.Schema) -> pa.Table:
    """One count per distinct key (``schema``'s columns but the count) from partial counts."""
    table = pa.concat_tables([t.cast(schema) for t in partial]) if partial else schema.empty_table()
    return _counts(table, schema.names[:-1], ["count"], "sum").cast(schema)


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
