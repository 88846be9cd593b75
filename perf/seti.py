"""Benchmark SETI generation; writes JSON.

1. Natural-inference generation (sampling, WordNet relations, spaCy parser check) for the
   default and a larger number of source sentences: sentences parsed per second.
2. The default ``compsem build seti`` (all 14 configs, Parquet and card) from a cold cache and
   from a warm one (target: well under a minute cold, since ``compsem demo`` builds it), with
   rows per config and peak memory.

Usage: python perf/seti.py [--sentences 1000 5000] [--out perf/results/seti.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path

from compsem.builders.seti.lexicon import load_sentence_lexicon
from compsem.builders.seti.sentences import generate_natural_pairs
from compsem.resources.spacy_pipeline import load_pipeline, pipeline_id


def generation(n_sentences: int) -> dict:
    nlp = load_pipeline()
    lexicon = load_sentence_lexicon()
    start = time.perf_counter()
    pairs, sentences = generate_natural_pairs(lexicon, n_sentences, 0.25, 42, nlp)
    seconds = time.perf_counter() - start
    return {
        "source_sentences": n_sentences,
        "sentences_parsed": len(sentences),
        "parser_check_passed": sum(sentences["parsed"].to_pylist()),
        "natural_pairs": len(pairs),
        "seconds": seconds,
        "sentences_per_second": len(sentences) / seconds,
        "spacy_pipeline": pipeline_id(nlp),
    }


def export(cache: Path, out: Path) -> dict:
    from compsem.builders.seti import generation
    from compsem.publish.export import export_benchmark

    os.environ["COMPSEM_CACHE"] = str(cache)
    generation._POOLS.clear()
    start = time.perf_counter()
    exports = export_benchmark("seti", out)
    seconds = time.perf_counter() - start
    rows = {e.name: {split: s["rows"] for split, s in e.statistics.items()} for e in exports}
    return {
        "seconds": seconds,
        "configs": len(exports),
        "total_rows": sum(sum(splits.values()) for splits in rows.values()),
        "rows": rows,
        "parquet_mb": sum(p.stat().st_size for p in out.rglob("*.parquet")) / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--out", type=Path, default=Path("perf/results/seti.json"))
    args = parser.parse_args()
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        cold = export(folder / "cache", folder / "cold")
        warm = export(folder / "cache", folder / "warm")
    results = {
        "generation": [generation(n) for n in args.sentences],
        "default_build": {
            "cold_cache": cold,
            "warm_cache_seconds": warm["seconds"],
            "target_seconds": 60,
        },
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps({k: v for k, v in results.items()}, indent=2))


if __name__ == "__main__":
    main()
