"""S&S over BoOQA's evidence (Li et al. 2022, §4.2, Table 5's supervised S&S baseline):
``compsem score --method ss --model runs/lh/model-seed1``.

Each piece of a hypothesis's evidence and the hypothesis make a pair of propositions as a
Levy/Holt row has them: the evidence's subject, predicate and object as the premise's
(``pal``, ``prem``, ``par`` of the patterns), the hypothesis row's as the hypothesis's
(``hal``, ``hypo``, ``har``). Each distinct pair is put into S&S's patterns and scored by
:func:`patterns.true_probabilities` and :func:`patterns.pair_scores`, what ``train`` and
``zero-shot --method ss`` evaluate with, every sentence of every pair batched together;
``score`` then takes each hypothesis's maximum over its evidence. As in ``zero-shot``, the
method is what the model's manifest records, and a ``--method`` contradicting it is refused."""

from __future__ import annotations

from types import SimpleNamespace

import datasets
import numpy as np

from compsem.harness.data.benchmark import Benchmark
from compsem.harness.models.device import Placement
from compsem.harness.training import transfer
from compsem.harness.training.patterns import (
    PatternMethod,
    declared_patterns,
    pair_scores,
    true_probabilities,
)

PATTERN_METHODS = ("ss", "ss-symmetric")
PARTS = ("subject", "predicate", "object")
# A pair of propositions in a Levy/Holt config's columns: what S&S was trained on.
PAIR_COLUMNS = tuple(f"{side}_{part}" for side in ("premise", "hypothesis") for part in PARTS)
# The lowest S&S score (no pattern sentence true, an antipattern sentence surely true): what a
# hypothesis without evidence gets.
FLOOR = -1.0


def score_method(model: str | None, requested: str, training: dict | None) -> str:
    """The method ``score`` uses: S&S where ``model``'s manifest records it (``requested``
    ``auto`` or the same), else ``requested``. One ValueError for a ``--method`` contradicting
    the record (S&S asked of a plain classifier compsem trained, or anything else of an S&S
    model), or S&S without ``--model``."""
    recorded = training["method"] if training else None
    if recorded in PATTERN_METHODS:
        if requested not in ("auto", recorded):
            raise transfer.contradiction(model, recorded, requested)
        return recorded
    if recorded and requested in PATTERN_METHODS:  # score has no --method classifier to offer
        raise transfer.contradiction(model, recorded, requested, offer=False)
    if requested in PATTERN_METHODS and model is None:
        raise ValueError(
            f"--method {requested} needs --model: the folder compsem train --method "
            f"{requested} --save-model wrote (runs/…/model-seed1)"
        )
    return requested


def check_propositions(bench: Benchmark, columns, method: str) -> PatternMethod:
    """S&S's patterns for pairs of evidence and hypothesis; one ValueError, before the model
    loads, where the config's hypotheses are not propositions (subject, predicate, object)."""
    missing = [part for part in PARTS if part not in columns]
    if missing:
        raise ValueError(
            f"--method {method} puts each piece of evidence and its hypothesis into S&S's "
            f"patterns as propositions, but config {bench.config!r} has no hypothesis "
            f"{', '.join(missing)} column (it has {', '.join(sorted(columns))}): give a BoOQA "
            "config of hypotheses with evidence (en) or a Levy/Holt config"
        )
    templates = declared_patterns(bench, PAIR_COLUMNS)
    if templates is None:
        raise ValueError(f"no benchmark declares S&S patterns over {', '.join(PAIR_COLUMNS)}")
    return PatternMethod(method, templates, method == "ss-symmetric", 1)


def _proposition(record, config: str) -> tuple:
    if not isinstance(record, dict) or any(part not in record for part in PARTS):
        shown = sorted(record) if isinstance(record, dict) else type(record).__name__
        raise ValueError(
            f"S&S scores a piece of evidence as a proposition (subject, predicate, object), "
            f"but config {config!r} has evidence as {shown}: give a BoOQA config whose "
            "evidence records propositions (en)"
        )
    return tuple(record[part] or "" for part in PARTS)


def proposition_pairs(
    rows: list[dict], max_evidence: int, config: str
) -> tuple[datasets.Dataset, np.ndarray, np.ndarray]:
    """The distinct (evidence, hypothesis) pairs of propositions in :data:`PAIR_COLUMNS`, and
    for each kept piece of evidence its hypothesis row and its pair's index: at most
    ``max_evidence`` pieces per hypothesis, in the given order (as ``evidence_pairs``)."""
    index: dict[tuple, int] = {}
    owners, pairs = [], []
    for number, row in enumerate(rows):
        hypothesis = _proposition(row, config)
        for item in list(row["evidence"] or ())[:max_evidence]:
            key = _proposition(item, config) + hypothesis
            pairs.append(index.setdefault(key, len(index)))
            owners.append(number)
    table = {column: [key[i] for key in index] for i, column in enumerate(PAIR_COLUMNS)}
    return (
        datasets.Dataset.from_dict(table, features=_string_features()),
        np.asarray(owners, np.int64),
        np.asarray(pairs, np.int64),
    )


def _string_features() -> datasets.Features:
    return datasets.Features({column: datasets.Value("string") for column in PAIR_COLUMNS})


def evidence_pair_scores(
    model: str,
    method: PatternMethod,
    table: datasets.Dataset,
    placement: Placement,
    batch_size: int,
    max_length: int,
) -> np.ndarray:
    """The S&S score of each pair of ``table`` (:func:`proposition_pairs`) by the saved
    ``model``: its patterns' highest P(true) minus its antipatterns' highest."""
    classifier, tokenizer = transfer.load_pattern_classifier(model, method.name, placement)
    encoded = method.encode(table, tokenizer, max_length)
    settings = SimpleNamespace(eval_batch_size=batch_size, max_length=max_length)
    true, _ = true_probabilities(classifier, tokenizer, encoded, settings, placement)
    return pair_scores(true, method.patterns)
