"""Benchmark BoOQA's corpus processing; writes JSON.

1. Extraction throughput: the datatrove pipeline (JSONL reader → spaCy relation triples → Parquet
   shards, LocalPipelineExecutor, one task) against raw ``nlp.pipe`` with the same pipeline on the
   same Reuters-21578 articles (``--articles 0``: the whole corpus; target: the pipeline keeps
   ≥ 85% of raw spaCy's articles per second).
2. Aggregation of synthetic triples (default 10 million) in shards of the extraction's schema:
   partitioning, felicitous predicates, starring pairs, positives and their WordNet negatives,
   out of core with pyarrow (target: under a minute). Memory is bounded by the partition size
   (2 million triples), not the corpus: peak memory is measured, in a fresh process, for the
   corpus and for one twice its size.

Usage: python perf/booqa.py [--articles 3000] [--triples 10000000] [--no-twice]
[--out perf/results/booqa.json] (``--triples 0 --articles 0``: only the cold parse of the whole
default corpus; ``--articles -1``: no parse)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import multiprocessing
import os
import resource
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from timing import against_raw_spacy

from compsem.builders.booqa.corpus.extraction import ARTICLE_SCHEMA, extraction_pipeline
from compsem.builders.booqa.corpus.relations import TRIPLE_TYPE
from compsem.builders.booqa.sampling.partitions import (
    felicitous_predicates,
    partition_triples,
    read_bucket,
)
from compsem.builders.booqa.sampling.propositions import window_population
from compsem.loading_scripts.booqa_corpus import open_news_corpus
from compsem.loading_scripts.embedded_corpora import source_parts
from compsem.pipeline.runner import run_locally, shard_files, spacy_pipeline
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL
from compsem.resources.wordnet import wordnet


def corpus_file(folder: Path, articles: int) -> tuple[Path, list[str]]:
    """The first ``articles`` articles of Reuters-21578 (all of them for 0), as one JSONL file:
    real newswire, so sentence lengths and parse costs are those of the default corpus."""
    table = pa.concat_tables(
        pq.read_table(path, columns=["id", "date", "text"])
        for path in source_parts("reuters_21578")
    )
    rows = table.slice(0, articles or len(table)).to_pylist()
    path = folder / "news.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path, [row["text"] for row in rows]


def extraction_throughput(articles: int) -> dict:
    nlp = spacy_pipeline(DEFAULT_SPACY_MODEL)
    with tempfile.TemporaryDirectory() as folder:
        path, texts = corpus_file(Path(folder), articles)

        def run_pipeline(work: Path) -> None:
            run_locally(extraction_pipeline(open_news_corpus(path), work), work / "logs")

        timing = against_raw_spacy(nlp, texts, run_pipeline, Path(folder), batch_size=256)
        triples = sum(
            pq.ParquetFile(p)
            .read(columns=["triples"])
            .column(0)
            .combine_chunks()
            .value_lengths()
            .to_numpy()
            .sum()
            for p in shard_files(Path(folder) / "work-1" / "shards")
        )
    return {**timing, "triples": int(triples)}


def synthetic_shards(folder: Path, triples: int, seed: int = 0, per_file: int = 1_000_000) -> None:
    """Shards in ARTICLE_SCHEMA shaped like news: 10 triples an article over 1,000 windows.
    Each window has 8 stories, each about one argument pair; 30% of articles follow a story, and
    3 of their triples are about its pair. Other triples pair arguments from a Zipf-distributed
    vocabulary of 200,000 names. Predicates are real WordNet verbs (Zipf-distributed, some with a
    preposition), so negatives are looked up in WordNet."""
    rng = np.random.default_rng(seed)
    verbs = sorted(
        {
            lemma.name()
            for s in wordnet().all_synsets("v")
            for lemma in s.lemmas()
            if lemma.name().isalpha() and lemma.name().islower()
        }
    )[:3000]
    verbs = [verbs[i] for i in rng.permutation(len(verbs))]
    predicates = pa.array(verbs + [f"{v} with" for v in verbs[:1000]])
    tags = pa.array(["V"] * len(verbs) + ["VP"] * 1000)
    names = pa.array([f"Entity {i:06d}" for i in range(200_000)])
    types = pa.array(["PERSON", "ORG", "GPE", None])
    coarse = pa.array(["person", "organization", "location", None])
    windows, stories, first = 1000, 8, dt.date(2010, 1, 1)
    story_pairs = rng.integers(0, len(names), (windows, stories, 2))
    for index, start in enumerate(range(0, triples, per_file)):
        n = min(per_file, triples - start)
        articles = -(-n // 10)
        per_article = np.full(articles, 10, dtype=np.int32)
        per_article[-1] -= 10 * articles - n
        offsets = np.r_[0, np.cumsum(per_article)].astype(np.int32)
        window = rng.integers(0, windows, articles)
        story = np.where(rng.random(articles) < 0.3, rng.integers(0, stories, articles), -1)
        article_of = np.repeat(np.arange(articles), per_article)
        subject = np.minimum(rng.zipf(1.1, n), len(names)) - 1
        obj = rng.integers(0, len(names), n)
        on_story = (story[article_of] >= 0) & (np.arange(n) - offsets[article_of] < 3)
        chosen = story_pairs[window[article_of[on_story]], story[article_of[on_story]]]
        subject[on_story], obj[on_story] = chosen[:, 0], chosen[:, 1]
        predicate = np.minimum(rng.zipf(1.3, n), len(predicates)) - 1
        arguments = {
            role: (names.take(pa.array(index)), types.take(pa.array(index % 4)))
            for role, index in (("subject", subject), ("object", obj))
        }
        linked = [  # linked to themselves, typed as the parser's label says
            array
            for role, index in (("subject", subject), ("object", obj))
            for array in (
                pc.binary_join_element_wise("name:", arguments[role][0], ""),
                arguments[role][0],
                coarse.take(pa.array(index % 4)),
                pa.array(np.full(n, "surface")),
            )
        ]
        struct = pa.StructArray.from_arrays(
            [
                pa.array(rng.integers(0, 20, n).astype(np.int32)),
                *arguments["subject"],
                predicates.take(pa.array(predicate)),
                tags.take(pa.array(predicate)),
                *arguments["object"],
                *linked,
            ],
            fields=list(TRIPLE_TYPE),
        )
        table = pa.table(
            {
                "id": pa.array([f"a{index}-{i}" for i in range(articles)]),
                "date": pa.array(
                    [first + dt.timedelta(days=int(3 * w + w % 3)) for w in window], pa.date32()
                ),
                "sentences": pa.array(np.full(articles, 20, np.int32)),
                "triples": pa.ListArray.from_arrays(pa.array(offsets), struct),
            },
            schema=ARTICLE_SCHEMA,
        )
        pq.write_table(table, folder / f"{index:05d}.parquet")


def _aggregate(folder: str, cache: str) -> dict:
    """Runs in a fresh process, so its peak memory is the aggregation's own."""
    os.environ["COMPSEM_CACHE"] = cache
    wordnet()  # loaded before the clock starts: its size is not the aggregation's
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    partitions = partition_triples(Path(folder), window_days=3, rows_per_bucket=2_000_000)
    partitioned = time.perf_counter()
    felicitous = felicitous_predicates(partitions, min_pairs=30)
    counted = time.perf_counter()
    positives = negatives = starring = 0
    for path in partitions.window_files():
        population, stats, _ = window_population(read_bucket(path), felicitous, 15, 15)
        positives += len(population)
        negatives += int(
            pa.compute.sum(pa.compute.list_value_length(population["negatives"])).as_py() or 0
        )
        starring += int(
            ((stats["articles"].to_numpy() >= 15) & (stats["predicates"].to_numpy() >= 15)).sum()
        )
    done = time.perf_counter()
    return {
        "buckets": partitions.buckets,
        "felicitous_predicates": len(felicitous),
        "starring_pairs": starring,
        "positives": positives,
        "negatives": negatives,
        "seconds": {
            "partition": partitioned - start,
            "felicitous_predicates": counted - partitioned,
            "starring_positives_negatives": done - counted,
            "total": done - start,
        },
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "rss_before_mb": base,
    }


def aggregation(triples: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        shards = Path(folder) / "shards"
        shards.mkdir()
        synthetic_shards(shards, triples)
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=1, mp_context=context) as executor:
            result = executor.submit(_aggregate, str(shards), str(Path(folder) / "cache")).result()
    return {"triples": triples, **result, "target_seconds": 60}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--articles", type=int, default=3000, help="Reuters articles to parse (0: all, -1: none)"
    )
    parser.add_argument(
        "--triples", type=int, default=10_000_000, help="synthetic triples (0: skip aggregation)"
    )
    parser.add_argument(
        "--twice",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also aggregate twice as many triples (peak memory should not grow)",
    )
    parser.add_argument("--out", type=Path, default=Path("perf/results/booqa.json"))
    args = parser.parse_args()
    results: dict = {"cpus": os.cpu_count()}
    if args.triples:
        results["aggregation"] = aggregation(args.triples)
        if args.twice:
            results["aggregation_twice_the_size"] = aggregation(2 * args.triples)
    if args.articles >= 0:
        results["extraction"] = extraction_throughput(args.articles)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
