"""What each source of the embedded corpus yields PLANE, measured whole: the table on the card.

:func:`whole_source_yield` extracts each named source with PLANE's own cached extraction (so a
later ``compsem build plane`` of ``embedded`` parses nothing again), times the parse, builds the
source's item pool with the shipped lexicon and the default filters, and counts its intensional
rows: distinct intensional phrases (= IT1 rows of class O), IT2 O rows, and the intensional
phrases no other source has (what dropping the source would cost). ``perf/corpus_yield.py
--whole`` runs it and writes :data:`YIELD_FILE`, which the card reads.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from compsem.builders.plane.config import MAX_HYPERNYM_DISTANCE, PlaneConfig
from compsem.builders.plane.corpus.extraction import (
    DISABLED,
    count_an_occurrences,
    extract_an_pairs,
)
from compsem.builders.plane.items.hypernyms import hypernym_table
from compsem.builders.plane.items.pool import pool_from_occurrences
from compsem.loading_scripts.corpora import open_corpus
from compsem.pipeline.runner import shard_files, spacy_pipeline
from compsem.resources.lexicon import load_adjective_lexicon
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL, pipeline_id

YIELD_FILE = Path(__file__).with_name("corpus_yield.json")


def source_pool(occurrences: pa.Table, lexicon) -> pa.Table:
    """PLANE's item pool of ``occurrences`` under the default build settings."""
    defaults = PlaneConfig(name="full")
    nouns = occurrences["noun"].unique().to_pylist()
    hypernyms = hypernym_table(nouns, max(MAX_HYPERNYM_DISTANCE.values()))
    pool, _ = pool_from_occurrences(
        occurrences, lexicon.classes, hypernyms, defaults.non_compositional, defaults.lemma_guard
    )
    return pool


def intensional(pool: pa.Table, inference_type: int) -> pa.Table:
    mask = pc.and_(
        pc.equal(pool["adjective_class"], "O"), pc.equal(pool["inference_type"], inference_type)
    )
    return pool.filter(mask)


def measure_source(
    name: str, tasks: int, workers: int, lexicon, parsed_before: float | None = None
) -> tuple[dict, pa.Table]:
    """One source's row of the table, and its AN occurrences. An extraction found in the cache
    takes no time: its parse time is then ``parsed_before``, the one measured when it ran."""
    corpus = open_corpus(name)
    texts = list(corpus.documents())
    start = time.perf_counter()
    shards = extract_an_pairs(corpus, DEFAULT_SPACY_MODEL, None, tasks, workers)
    seconds = time.perf_counter() - start
    if parsed_before and seconds < parsed_before / 10:
        seconds = parsed_before
    occurrences = count_an_occurrences(shard_files(shards))
    pool = source_pool(occurrences, lexicon)
    phrases = intensional(pool, 1)
    return {
        "source": name,
        "documents": len(texts),
        "words": sum(len(text.split()) for text in texts),
        "parse_seconds": round(seconds),
        "items": len(pool),
        "intensional_phrases": len(phrases),
        "it2_intensional_rows": len(intensional(pool, 2)),
        "intensional_phrases_per_parse_minute": round(60 * len(phrases) / max(seconds, 1), 1),
        "_phrases": sorted(
            zip(phrases["adjective"].to_pylist(), phrases["noun"].to_pylist(), strict=True)
        ),
    }, occurrences


def whole_source_yield(names: list[str], tasks: int, workers: int, out: Path = YIELD_FILE) -> Path:
    """Measure every source in ``names`` and all of them together; write the JSON ``out``."""
    lexicon = load_adjective_lexicon()
    before = json.loads(out.read_text())["sources"] if out.is_file() else []
    parsed = {row["source"]: row["parse_seconds"] for row in before}
    rows, tables = [], []
    for name in names:
        row, occurrences = measure_source(name, tasks, workers, lexicon, parsed.get(name))
        rows.append(row)
        tables.append(occurrences)
        print(json.dumps({k: v for k, v in row.items() if not k.startswith("_")}), flush=True)
    for row in rows:
        others = {p for other in rows if other is not row for p in map(tuple, other["_phrases"])}
        row["intensional_phrases_only_here"] = len(set(map(tuple, row["_phrases"])) - others)
    together = source_pool(pa.concat_tables(tables), lexicon)
    report = {
        "spacy_pipeline": pipeline_id(spacy_pipeline(DEFAULT_SPACY_MODEL, DISABLED)),
        "tasks": tasks,
        "workers": workers,
        "sources": [{k: v for k, v in row.items() if not k.startswith("_")} for row in rows],
        "together": {
            "sources": names,
            "words": sum(row["words"] for row in rows),
            "parse_seconds": sum(row["parse_seconds"] for row in rows),
            "items": len(together),
            "intensional_phrases": len(intensional(together, 1)),
            "it2_intensional_rows": len(intensional(together, 2)),
        },
    }
    out.write_text(json.dumps(report, indent=2) + "\n")
    return out
