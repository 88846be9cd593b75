"""Benchmark PLANE generation; writes JSON.

1. AN extraction throughput (the datatrove pipeline, one task, then the out-of-core count)
   against raw ``nlp.pipe`` with the same pipeline on the same WordNet glosses (target: the
   extraction keeps ≥ 80% of raw spaCy's documents per second).
2. Item generation, GOoD splits and Parquet export on a pool of about 2 million items
   (target: ≥ 1 million items a minute, peak memory under 2 GB). The pool is every pairing of
   the shipped adjective lexicon with real WordNet nouns, so its hypernyms are real. The GOoD
   split's vocabulary optimiser is also timed alone (target: ≤ 60 s), and the split's rows are
   compared with the pool's balanced ceiling (split efficiency).

3. With ``--corpus`` (e.g. ``embedded``, read from the item-pool cache after one build): every
   GOoD, One-IT and in-distribution config's rows, the pool's balanced ceiling without and with
   the label floor (``min_label_share``), and the split efficiency against each.

Usage: python perf/plane.py [--docs 5000] [--items 2000000] [--corpus embedded]
[--out perf/results/plane.json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import islice, product
from pathlib import Path

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from datasets.arrow_writer import ArrowWriter
from timing import against_raw_spacy

from compsem.benchmark.builder import TableBuilder
from compsem.builders.plane.config import BUILDER_CONFIGS, ITEM_FEATURES, PlaneConfig
from compsem.builders.plane.corpus.extraction import (
    DISABLED,
    an_extraction_pipeline,
    an_pair_table,
    count_an_shards,
)
from compsem.builders.plane.items.hypernyms import hypernym_table
from compsem.builders.plane.items.pool import build_item_pool, item_pool
from compsem.builders.plane.splits.partition import balanced_ceiling, partition_vocabulary
from compsem.builders.plane.splits.regimes import (
    SPLIT_REGIMES,
    goood_splits,
    pool_ceilings,
    regime_generator,
)
from compsem.builders.plane.splits.vocabulary import ItemCodes
from compsem.loading_scripts.corpora import open_corpus, wordnet_glosses
from compsem.pipeline.runner import run_locally, shard_files, spacy_pipeline
from compsem.publish.export import write_parquet_shards
from compsem.resources.lexicon import ADJECTIVE_CLASSES, load_adjective_lexicon
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL
from compsem.resources.wordnet import wordnet


def extraction_throughput(n_docs: int) -> dict:
    """The datatrove extraction and the out-of-core count (one task) against raw spaCy."""
    nlp = spacy_pipeline(DEFAULT_SPACY_MODEL, DISABLED)
    texts = list(islice(wordnet_glosses(), n_docs))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "glosses.txt"
        path.write_text("\n".join(texts) + "\n")

        def run_pipeline(work: Path) -> None:
            run_locally(an_extraction_pipeline(open_corpus(path), work), work / "logs")
            count_an_shards(shard_files(work / "shards"))

        return against_raw_spacy(nlp, texts, run_pipeline, Path(folder), batch_size=512)


def synthetic_pairs(target_items: int, seed: int = 0):
    """AN pairs of every lexicon adjective with enough real WordNet nouns for the target size."""
    lexicon = load_adjective_lexicon()
    rng = np.random.default_rng(seed)
    nouns = sorted(
        {
            synset.lemmas()[0].name()
            for synset in wordnet().all_synsets("n")
            if synset.lemmas()[0].name().isalpha() and synset.lemmas()[0].name().islower()
        }
    )
    nouns = list(rng.permutation(nouns))
    tables, chosen = [], []
    # A noun with h hypernyms gives 1 + 2h items per adjective: 2 * rows - nouns over a table.
    while len(lexicon) * sum(2 * len(t) - len(t["noun"].unique()) for t in tables) < target_items:
        batch, nouns = nouns[:200], nouns[200:]
        tables.append(hypernym_table(batch))
        chosen.extend(batch)
    counts = rng.integers(1, 50, len(lexicon) * len(chosen))
    pairs = Counter(dict(zip(product(lexicon.classes, chosen), counts.tolist(), strict=True)))
    return an_pair_table(pairs), lexicon, pa.concat_tables(tables)


def export_like_the_builder(table: pa.Table, folder: Path, split: str) -> None:
    """A split's way out in ``compsem build``: the builder writes Arrow a batch at a time
    (``TableBuilder._BATCH_ROWS``), ``datasets`` memory-maps it, and the export writes Parquet
    from the map. (A ``datasets.Dataset`` made from an in-memory table would instead hash all of
    it for its fingerprint, which the build never does.)"""
    path = folder / f"{split}.arrow"
    with ArrowWriter(path=str(path), features=ITEM_FEATURES) as writer:
        for start in range(0, len(table), TableBuilder._BATCH_ROWS):
            writer.write_table(table.slice(start, TableBuilder._BATCH_ROWS))
        writer.finalize()
    dataset = datasets.Dataset.from_file(
        str(path), info=datasets.DatasetInfo(features=ITEM_FEATURES)
    )
    write_parquet_shards(dataset, folder, split)


def _generate_and_export(folder: str) -> dict:
    """Runs in a fresh process, so its peak memory is the generation's own; with a cache of
    its own, so the splits' vocabulary partition is searched, never read back."""
    os.environ["COMPSEM_CACHE"] = f"{folder}/cache"
    pairs = pq.read_table(f"{folder}/pairs.parquet")
    hypernyms = pq.read_table(f"{folder}/hypernyms.parquet")
    classes = dict(pq.read_table(f"{folder}/lexicon.parquet").to_pylist()[0]["classes"])
    start = time.perf_counter()
    pool = item_pool(pairs, classes, hypernyms)
    generated = time.perf_counter()
    config = PlaneConfig(name="benchmark")
    items = ItemCodes.from_table(pool, ADJECTIVE_CLASSES)
    partition = partition_vocabulary(
        items,
        (1, 2, 3),
        config.partition_shares,
        np.random.default_rng(0),
        config.min_label_share,
    )
    optimised = time.perf_counter()
    split_start = time.perf_counter()
    splits = goood_splits(pool, config, np.random.default_rng(0))
    split = time.perf_counter()
    ceiling = balanced_ceiling(items, (1, 2, 3))
    floor_ceiling = balanced_ceiling(items, (1, 2, 3), config.min_label_share)
    kept = sum(len(table) for table in splits.values())
    for name, table in {"full": pool, **splits}.items():
        export_like_the_builder(table, Path(folder), name)
    exported = time.perf_counter()
    seconds = exported - start - (optimised - generated)  # the optimiser ran twice
    return {
        "pairs": len(pairs),
        "items": len(pool),
        "split_rows": {name: len(table) for name, table in splits.items()},
        "balanced_ceiling": ceiling,
        "split_efficiency": kept / ceiling if ceiling else None,
        "floor_ceiling": floor_ceiling,
        "floor_efficiency": kept / floor_ceiling if floor_ceiling else None,
        "optimiser_rounds": partition.rounds,
        "target_optimiser_seconds": 60,
        "seconds": {
            "generate": generated - start,
            "optimiser": optimised - generated,
            "goood_split": split - split_start,
            "parquet_export": exported - split,
            "total": seconds,
        },
        "items_per_minute": len(pool) / seconds * 60,
        "target_items_per_minute": 1_000_000,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "target_peak_rss_mb": 2048,
    }


def generation_throughput(target_items: int) -> dict:
    """Item generation, GOoD splits and export, timed and measured in a separate process (the
    synthetic inputs are built here and handed over as Parquet)."""
    pairs, lexicon, hypernyms = synthetic_pairs(target_items)
    with tempfile.TemporaryDirectory() as folder:
        pq.write_table(pairs, f"{folder}/pairs.parquet")
        pq.write_table(hypernyms, f"{folder}/hypernyms.parquet")
        classes = pa.table({"classes": [list(lexicon.classes.items())]})
        pq.write_table(classes, f"{folder}/lexicon.parquet")
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=1, mp_context=context) as executor:
            return executor.submit(_generate_and_export, folder).result()


def corpus_splits(corpus: str) -> dict:
    """Rows, balanced ceilings (without and with the label floor), split efficiency against
    each and seconds of every GOoD, One-IT and in-distribution config built from ``corpus``
    (seed 42, default settings; the seconds include the vocabulary search only when the
    partition cache does not hold it yet)."""
    pool = build_item_pool(PlaneConfig(name="full", corpus=corpus))
    configs = [c for c in BUILDER_CONFIGS if c.regime in SPLIT_REGIMES]
    floor = PlaneConfig(name="full").min_label_share
    ceilings = pool_ceilings(pool, configs)
    floor_ceilings = pool_ceilings(pool, configs, floor)
    results = {"corpus": corpus, "items": len(pool), "min_label_share": floor, "configs": {}}
    for base in configs:
        config = PlaneConfig(
            name=base.name, regime=base.regime, split_index=base.split_index, corpus=corpus
        )
        start = time.perf_counter()
        splits = SPLIT_REGIMES[config.regime](pool, config, regime_generator(config))
        rows = {name: len(table) for name, table in splits.items()}
        kept = sum(rows.values())
        results["configs"][config.name] = {
            "rows": rows,
            "balanced_ceiling": ceilings[config.name],
            "split_efficiency": kept / ceilings[config.name],
            "floor_ceiling": floor_ceilings[config.name],
            "floor_efficiency": kept / floor_ceilings[config.name],
            "seconds": time.perf_counter() - start,
        }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=5000, help="glosses for the extraction test")
    parser.add_argument("--items", type=int, default=2_000_000, help="size of the item pool")
    parser.add_argument("--corpus", help="also split this corpus's pool (e.g. embedded)")
    parser.add_argument("--out", type=Path, default=Path("perf/results/plane.json"))
    args = parser.parse_args()
    results = {
        "generation": generation_throughput(args.items),
        "extraction": extraction_throughput(args.docs),
    }
    if args.corpus:
        results["splits"] = corpus_splits(args.corpus)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
