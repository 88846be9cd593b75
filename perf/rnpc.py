"""Benchmark RNPC generation; writes JSON.

1. End to end, in a fresh process: ``compsem build rnpc`` of every default config (SPTE, MPTE
   and EPC, learning-curve and challenge regimes) at ``--size`` items per task, Parquet and card
   included (target: under a minute at 50,000 items per task).
2. Where the time goes, in this process: loading the lexicon, nouns and WordNet, then generating
   each task's items.

Usage: python perf/rnpc.py [--size 50000] [--out perf/results/rnpc.json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

TARGET_SECONDS = 60


def end_to_end(size: int) -> dict:
    """Build every default config into a temporary folder; run in a fresh process."""
    start = time.perf_counter()
    from compsem.publish.export import export_benchmark

    with tempfile.TemporaryDirectory() as folder:
        os.environ["COMPSEM_CACHE"] = str(Path(folder) / "cache")
        exports = export_benchmark("rnpc", Path(folder) / "rnpc", size=size)
        seconds = time.perf_counter() - start
        parquet_mb = sum(p.stat().st_size for p in Path(folder, "rnpc").rglob("*.parquet")) / 2**20
    return {
        "seconds": seconds,
        "configs": {
            export.name: {split: s["rows"] for split, s in export.statistics.items()}
            for export in exports
        },
        "parquet_mb": parquet_mb,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def phases(size: int) -> dict:
    """Input loading, then item generation per task (learning-curve pools; the challenge
    configs reuse them)."""
    from compsem.builders.rnpc.config import RnpcConfig
    from compsem.builders.rnpc.generation import generation_key, load_inputs, task_splits

    start = time.perf_counter()
    load_inputs(None, None, None, None)
    timings = {"load_inputs": time.perf_counter() - start}
    for task in ("spte", "mpte", "epc"):
        start = time.perf_counter()
        splits = task_splits(generation_key(RnpcConfig(name=task, task=task, size=size)))
        timings[task] = time.perf_counter() - start
        timings[f"{task}_items"] = sum(len(table) for table in splits.values())
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=50_000, help="items per task")
    parser.add_argument("--out", type=Path, default=Path("perf/results/rnpc.json"))
    args = parser.parse_args()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        build = pool.submit(end_to_end, args.size).result()
    results = {
        "size_per_task": args.size,
        "end_to_end": {**build, "target_seconds": TARGET_SECONDS},
        "phases_seconds": phases(args.size),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
