"""Timing shared by the benchmark scripts (run as ``python perf/NAME.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from compsem.resources.spacy_pipeline import pipeline_id

# A corpus pipeline on datatrove (PLANE's AN pairs, BoOQA's triples) keeps at least this share
# of raw nlp.pipe's documents per second on the same documents.
TARGET_RATIO = 0.85


def timed(work: Callable, *args) -> tuple[float, float]:
    """Wall-clock and CPU seconds (this process, all its threads) that ``work(*args)`` takes."""
    wall, cpu = time.perf_counter(), time.process_time()
    work(*args)
    return time.perf_counter() - wall, time.process_time() - cpu


def consume(docs) -> None:
    for _ in docs:
        pass


def against_raw_spacy(
    nlp,
    texts: Sequence[str],
    run_pipeline: Callable[[Path], object],
    folder: Path,
    batch_size: int,
    repeats: int = 2,
) -> dict:
    """Documents a second of raw ``nlp.pipe`` over ``texts`` and of ``run_pipeline(work)`` on the
    same texts, each the best of ``repeats`` runs, interleaved because the machine's load varies.

    Both run in this process (a one-worker datatrove run does), so their CPU seconds compare
    too: on a machine shared with other work, wall-clock time also counts the time the other
    work held the cores, and ``cpu_ratio`` is the steadier measure."""
    list(nlp.pipe(texts[:100]))  # warm up
    raw, pipeline = [], []
    for repeat in range(repeats):
        raw.append(timed(consume, nlp.pipe(texts, batch_size=batch_size)))
        pipeline.append(timed(run_pipeline, Path(folder) / f"work-{repeat}"))
    (raw_wall, raw_cpu), (pipeline_wall, pipeline_cpu) = (
        [min(times) for times in zip(*runs, strict=True)] for runs in (raw, pipeline)
    )
    return {
        "documents": len(texts),
        "spacy_pipeline": pipeline_id(nlp),
        "repeats": repeats,
        "raw_docs_per_second": len(texts) / raw_wall,
        "pipeline_docs_per_second": len(texts) / pipeline_wall,
        "ratio": raw_wall / pipeline_wall,
        "raw_docs_per_cpu_second": len(texts) / raw_cpu,
        "pipeline_docs_per_cpu_second": len(texts) / pipeline_cpu,
        "cpu_ratio": raw_cpu / pipeline_cpu,
        "target_ratio": TARGET_RATIO,
    }
