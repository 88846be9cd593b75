"""Benchmark PLANE's AN extraction against raw spaCy; writes JSON.

The datatrove pipeline that ``compsem build plane`` runs (Parquet reader → spaCy AN arcs →
Parquet shards, ``LocalPipelineExecutor``, the CLI's default of one task and one worker), then
the out-of-core count of its shards, against raw ``nlp.pipe`` with the same spaCy pipeline (NER
disabled), the same batch size and the same documents: the first ``--docs`` documents of one
source of the embedded default (by default Reuters-21578's newswire articles; WordNet's glosses
are far shorter, so per-document costs weigh more there). Target: the extraction keeps ≥ 85% of
raw spaCy's documents per second.

Usage: python perf/plane_extraction.py [--docs 2000] [--source reuters_21578]
    [--out perf/results/plane_extraction.json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from itertools import islice
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from timing import against_raw_spacy

from compsem.builders.plane.corpus.extraction import (
    DISABLED,
    an_extraction_pipeline,
    count_an_shards,
)
from compsem.loading_scripts.corpora import WORDNET_GLOSSES, open_corpus, wordnet_glosses
from compsem.loading_scripts.embedded_corpora import SOURCES, source_parts
from compsem.pipeline.runner import run_locally, shard_files, spacy_pipeline
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL


def corpus_file(folder: Path, source: str, docs: int) -> tuple[Path, list[str]]:
    """The first ``docs`` documents of an embedded source (all of them for 0) as one Parquet
    file."""
    if source == WORDNET_GLOSSES:
        table = pa.table({"text": list(islice(wordnet_glosses(), docs or None))})
    else:
        parts = source_parts(source)
        table = pa.concat_tables(pq.read_table(path, columns=["text"]) for path in parts)
    table = table.slice(0, docs or len(table))
    path = folder / f"{source}.parquet"
    pq.write_table(table, path)
    return path, table["text"].to_pylist()


def extraction_throughput(source: str, docs: int, batch_size: int, repeats: int) -> dict:
    nlp = spacy_pipeline(DEFAULT_SPACY_MODEL, DISABLED)
    with tempfile.TemporaryDirectory() as folder:
        path, texts = corpus_file(Path(folder), source, docs)

        def run_pipeline(work: Path) -> None:
            run_locally(an_extraction_pipeline(open_corpus(path), work), work / "logs")
            count_an_shards(shard_files(work / "shards"))

        timing = against_raw_spacy(nlp, texts, run_pipeline, Path(folder), batch_size, repeats)
        pairs = len(count_an_shards(shard_files(Path(folder) / "work-1" / "shards")))
    return {
        **timing,
        "source": source,
        "batch_size": batch_size,
        "distinct_pairs": pairs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=2000, help="documents (0: all)")
    parser.add_argument(
        "--source",
        default="reuters_21578",
        choices=[WORDNET_GLOSSES, *SOURCES],
        help="embedded source to read",
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs of each, the best kept")
    parser.add_argument("--out", type=Path, default=Path("perf/results/plane_extraction.json"))
    args = parser.parse_args()
    results = {"extraction": extraction_throughput(args.source, args.docs, 512, args.repeats)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
