"""Benchmark the Montague phrase sets and ``compsem embed``; writes JSON.

1. The default ``compsem build montague`` (an, aan, lexicon, plane_an; Parquet and card) from a
   cold cache (plane_an walks WordNet) and a warm one (target: well under a minute cold, since
   ``compsem demo`` builds it), and phrase generation alone.
2. ``compsem embed`` timings: GloVe on AN and AAN (44,725 distinct strings), the demo's MiniLM
   table on AN, and MiniLM's strings per second on a sample of AAN phrases, from which the full
   AAN run is extrapolated (the reference run embeds 44,725 strings).

Usage: python perf/montague.py [--aan-sample 4096] [--out perf/results/montague.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path


def default_build(cache: Path, out: Path) -> dict:
    from compsem.publish.export import export_benchmark

    os.environ["COMPSEM_CACHE"] = str(cache)
    start = time.perf_counter()
    exports = export_benchmark("montague", out)
    return {
        "seconds": time.perf_counter() - start,
        "rows": {e.name: sum(s["rows"] for s in e.statistics.values()) for e in exports},
        "parquet_mb": sum(p.stat().st_size for p in out.rglob("*.parquet")) / 2**20,
    }


def generation() -> dict:
    from compsem.builders.montague.builder import phrase_table
    from compsem.builders.montague.lexicon import load_lexicon

    lexicon = load_lexicon()
    start = time.perf_counter()
    rows = len(phrase_table(lexicon, 1)) + len(phrase_table(lexicon, 2))
    seconds = time.perf_counter() - start
    return {"phrases": rows, "seconds": seconds, "phrases_per_second": rows / seconds}


def embedding(export: Path, aan_sample: int) -> dict:
    import torch

    from compsem.builders.montague.builder import phrase_table
    from compsem.builders.montague.lexicon import load_lexicon
    from compsem.harness.embed.models import load_encoder
    from compsem.harness.embed.report import demo_table
    from compsem.harness.embed.run import run_embed

    glove = run_embed(["glove"], str(export))["models"][0]
    start = time.perf_counter()
    demo_table(export)
    demo_seconds = time.perf_counter() - start
    minilm = load_encoder("minilm")
    strings = phrase_table(load_lexicon(), 2)["phrase"].to_pylist()[:aan_sample]
    start = time.perf_counter()
    minilm.encode(strings)
    per_second = len(strings) / (time.perf_counter() - start)
    return {
        "device": "cuda" if torch.cuda.is_available() else "cpu",
        "torch_threads": torch.get_num_threads(),
        "glove_an_aan": {k: glove[k] for k in ("strings", "embed_seconds", "test_seconds")},
        "demo_table_seconds": demo_seconds,
        "minilm_strings_per_second": per_second,
        "minilm_full_reference_seconds_estimate": glove["strings"] / per_second,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aan-sample", type=int, default=4096)
    parser.add_argument("--out", type=Path, default=Path("perf/results/montague.json"))
    args = parser.parse_args()
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        cold = default_build(folder / "cache", folder / "cold")
        warm = default_build(folder / "cache", folder / "warm")
        results = {
            "default_build": {
                "cold_cache": cold,
                "warm_cache_seconds": warm["seconds"],
                "target_seconds": 60,
            },
            "generation": generation(),
            "embedding": embedding(folder / "warm", args.aan_sample),
            "cpu_count": os.cpu_count(),
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
