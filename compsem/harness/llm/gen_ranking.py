"""A ranking score for generated answers, where the benchmark scores a config by AUCnorm over
P(positive) (BoOQA): each row's score is the share of its samples that answer the positive label
(the vote share of ``--samples N``; 1 or 0 under greedy decoding), or, under the ``score`` parser,
the mean probability its samples state. A row no sample of which parses gets the score of the
wrong answer (0 for a positive row, 1 for a negative one): unparsable counts against the model,
as it counts wrong in accuracy. The rows are then ranked and scored as a log-likelihood run's
P(positive) is (``metrics/aucnorm``), with the same clustered bootstrap interval.

The score needs nothing but the saved outputs, so ``compsem rescore`` recomputes it, and every
back end (an endpoint without log-probabilities too) gives it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from compsem.benchmark.answers import answer_score, strip_reasoning
from compsem.builders import BENCHMARKS
from compsem.harness.results.scores import RANKING_KEYS, aucnorm_interval

SCORE_PARSER = "score"
RANKING_SCORE = (
    "the share of a row's samples answering the positive label (the stated probability under "
    "the score parser); a row with no parsable sample gets the wrong answer's score"
)


def ranking_positive(bench) -> int | None:
    """The positive label's index where ``bench``'s spec scores its config by AUCnorm (BoOQA),
    else None."""
    spec = BENCHMARKS.get(bench.benchmark)
    positive = bench.schema.positive_label
    if spec is None or positive is None or not spec.reports_aucnorm(bench.config):
        return None
    return int(positive)


def row_score(record: dict, positive: int, parser: str, tags: Sequence[str]) -> float:
    """One row's P(positive) from its parsed samples (see the module description)."""
    values = []
    for text, answer in zip(record["output"], record["answers"], strict=True):
        if answer is None:
            continue
        stated = answer_score(strip_reasoning(text, tags)) if parser == SCORE_PARSER else None
        if stated is not None and positive == 0:
            stated = 1 - stated  # a stated probability is of the second label
        values.append(float(answer == positive) if stated is None else stated)
    if not values:
        return float(record["label"] != positive)
    return float(np.mean(values))


def generation_ranking(
    records: list[dict], positive: int, parser: str, tags: Sequence[str], cluster_by: str | None
) -> dict:
    """AUCnorm, AUC_ξ, AUC50%, ξ and AUCnorm's 95% interval of the rows' scores, with each
    record given its ``score``; {} where the rows hold one class (AUCnorm is undefined)."""
    for record in records:
        record["score"] = row_score(record, positive, parser, tags)
    positives = np.asarray([record["label"] == positive for record in records])
    if positives.all() or not positives.any():
        return {}
    from compsem.metrics.aucnorm.aucnorm import (
        aucnorm_scores,  # a metric script imports evaluate, hence transformers and torch
    )

    probability = np.asarray([record["score"] for record in records])
    ranked = aucnorm_scores(probability, positives)
    found = {key: ranked[key] for key in RANKING_KEYS}
    clusters = None
    if cluster_by is not None and all(r.get("cluster") is not None for r in records):
        clusters = (cluster_by, [r["cluster"] for r in records])
    found.update(aucnorm_interval(probability, positives, clusters))
    found["ranking_score"] = RANKING_SCORE
    return found
