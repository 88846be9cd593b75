"""Timing shared by the benchmark scripts (run as ``python perf/NAME.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from compsem.resources.spacy_pipeline import pipeline_id


def against_raw_spacy(
    nlp, texts: Sequence[str], run_pipeline: Callable[[Path], object], folder: Path, batch_size: int
) -> dict:
    """Documents a second of raw ``nlp.pipe`` over ``texts`` and of ``run_pipeline(work)`` on the
    same texts, each the best of two runs, interleaved because the machine's load varies."""
    list(nlp.pipe(texts[:100]))  # warm up
    raw, pipeline = [], []
    for repeat in range(2):
        start = time.perf_counter()
        for _ in nlp.pipe(texts, batch_size=batch_size):
            pass
        raw.append(time.perf_counter() - start)
        start = time.perf_counter()
        run_pipeline(Path(folder) / f"work-{repeat}")
        pipeline.append(time.perf_counter() - start)
    return {
        "documents": len(texts),
        "spacy_pipeline": pipeline_id(nlp),
        "raw_docs_per_second": len(texts) / min(raw),
        "pipeline_docs_per_second": len(texts) / min(pipeline),
        "ratio": min(raw) / min(pipeline),
        "target_ratio": 0.8,
    }
