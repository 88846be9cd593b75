"""``compsem score``: BoOQA's hypotheses scored by the maximum over their evidence (an NLI
model's entailment probability, embedding cosine, an entailment graph, or a saved S&S model:
:mod:`compsem.harness.training.evidence_patterns`), with AUCnorm (honest and released ties), its
interval and a precision-recall plot; a Levy/Holt pair is a hypothesis whose one piece of
evidence is its premise."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import transformers

from compsem.harness.data.benchmark import load_benchmark
from compsem.harness.data.sampling import cap, clusters_of
from compsem.harness.models.device import resolve
from compsem.harness.models.loading import default_model
from compsem.harness.probing import evidence as scoring
from compsem.harness.probing.graph import graph_scores
from compsem.harness.report.plots import precision_recall_plot
from compsem.harness.report.summary import summarise
from compsem.harness.results.files import (
    PR_CURVE,
    check_writable,
    make_result,
    pr_curve_path,
    result_files,
    row_ids,
    write_json,
    write_result,
    write_rows,
)
from compsem.harness.results.intervals import method as interval_method
from compsem.harness.results.model import model_name
from compsem.harness.results.scores import (
    aucnorm_interval,
)
from compsem.harness.training import evidence_patterns as ss
from compsem.harness.training import transfer
from compsem.loading_scripts.entailment_graph import MATCHINGS, read_graphs

MAX_LENGTH = 128  # tokens of an evidence-hypothesis pair an NLI or embedding model reads


def run_score(
    dataset: str,
    config: str,
    out: Path,
    model: str | None = None,
    method: str = "auto",
    split: str = "test",
    revision: str | None = None,
    max_evidence: int | None = None,
    max_eval_examples: int | None = None,
    batch_size: int = 64,
    max_length: int | None = None,
    device: str = "auto",
    precision: str = "auto",
    graph: str | None = None,
    graph_measure: str = "BInc",
    graph_matching: str | None = None,
) -> dict:
    """BoOQA: each hypothesis scored by the max over its evidence (an NLI model, embedding
    cosine, an entailment graph's edges, or S&S: ``method`` ss or ss-symmetric, the default for
    a model ``train --method ss --save-model`` saved), reported with AUCnorm, the released
    computation's AUCnorm beside it, and a precision-recall plot. ``graph_matching``: ``fuzzy``
    (the paper's, the default) or ``exact`` grounding of predicates to graph nodes (Figure 6's
    two curves, a run each)."""
    from compsem.metrics.aucnorm.aucnorm import (
        aucnorm_scores,  # a metric script imports evaluate, hence transformers and torch
    )

    if method not in (*scoring.METHODS, "graph", *ss.PATTERN_METHODS):
        raise ValueError(
            f"--method must be one of {', '.join(scoring.METHODS)}, graph, "
            f"{', '.join(ss.PATTERN_METHODS)}; got {method!r}"
        )
    if (method == "graph") != (graph is not None):
        raise ValueError(
            "--method graph needs --graph DIR (a folder of entailment graph *_sim.txt files), "
            "and --graph needs --method graph"
        )
    if graph_matching is not None and graph is None:
        raise ValueError("--graph-matching is for --method graph (with --graph DIR)")
    graph_matching = graph_matching or "fuzzy"
    if graph_matching not in MATCHINGS:
        raise ValueError(
            f"--graph-matching must be one of {', '.join(MATCHINGS)}; got {graph_matching!r}"
        )
    check_writable(result_files(out, "score", config, beside=[PR_CURVE, ".png"]))
    # bad files fail before the data; only the matching's map of the edges is built
    graphs = read_graphs(graph, graph_measure, graph_matching) if graph else None
    training = transfer.recorded_training(model) if model and not graph else None
    method = ss.score_method(model, method, training)
    if max_length is None:  # an S&S model reads its pairs at the length it was trained at
        recorded = (training or {}).get("max_length") if method in ss.PATTERN_METHODS else None
        max_length = recorded or MAX_LENGTH
    if method in ss.PATTERN_METHODS:
        transfer.check_sentence_classifier(model, method)  # its config only, no weights
    model = graph if graph else (model or default_model())
    placement = resolve(device, precision)
    if method in ("auto", "nli"):
        # read before the data: a model without an entailment label fails now, not once its
        # evidence pairs are scored
        try:
            scoring.entailment_index(transformers.AutoConfig.from_pretrained(model).id2label or {})
            method = "nli"
        except ValueError:
            if method == "nli":
                raise
            method = "cosine"
    bench = load_benchmark(dataset, config, revision)  # the preset its columns call for
    test = cap(bench.split(split), max_eval_examples, "--max-eval-examples")
    rows = hypotheses_with_evidence(test, bench.schema.evidence, config)
    limit = max_evidence or bench.preset.max_evidence
    if method in ss.PATTERN_METHODS:
        patterns = ss.check_propositions(bench, set(rows[0] if rows else test.column_names), method)
        premises, owners, pairs = ss.proposition_pairs(rows, limit, config)
    else:
        premises, hypotheses, owners, pairs = scoring.evidence_pairs(
            [row["hypothesis"] for row in rows], [row["evidence"] for row in rows], limit
        )
    if not len(premises):
        raise ValueError(f"no hypothesis of the {split!r} split has evidence: nothing to score")
    start = time.perf_counter()
    if graphs is not None:
        capped = ({**row, "evidence": list(row["evidence"] or ())[:limit]} for row in rows)
        hypothesis_scores, _ = graph_scores(capped, graphs, graph_matching)
    elif method in ss.PATTERN_METHODS:
        hypothesis_scores = ss.evidence_pair_scores(
            model, patterns, premises, placement, batch_size, max_length
        )[pairs]
    else:
        hypothesis_scores = scoring.model_pair_scores(
            method, model, premises, hypotheses, batch_size, max_length, placement
        )[pairs]
    seconds = time.perf_counter() - start
    if graphs is None:
        hypothesis_scores = scoring.max_per_hypothesis(
            hypothesis_scores, owners, len(test), scoring.FLOOR.get(method, ss.FLOOR)
        )
    references = np.asarray(test["label"]) == bench.schema.positive_label
    scores = aucnorm_scores(hypothesis_scores, references, return_curve=True)
    curve = scores.pop("curve")
    clusters = clusters_of(test, bench)
    scores.update(aucnorm_interval(hypothesis_scores, references, clusters))
    by, items = clusters or (None, None)
    scores["intervals"] = interval_method(items, by)
    released = aucnorm_scores(hypothesis_scores, references, ties="released")
    scores["released"] = {key: released[key] for key in ("aucnorm", "auc_xi", "auc_50")}
    scores["hypotheses_without_evidence"] = int(len(test) - len(set(owners.tolist())))
    result = make_result(
        "score",
        model,
        bench.provenance(split),
        None,
        {
            "method": method,
            # a saved S&S model: how it was trained, so a report labels its train → test cell
            **(
                {"training": training, "train_config": training["config"]}
                if training and method in ss.PATTERN_METHODS
                else {}
            ),
            **(
                {"graph": graph, "graph_measure": graph_measure, "graph_matching": graph_matching}
                if graphs is not None
                else {}
            ),
            "max_evidence": limit,
            "batch_size": batch_size,
            "max_length": max_length,
            "hypotheses": len(test),
            "max_eval_examples": max_eval_examples,
            "evidence_pairs": len(premises),
        },
        scores,
        placement,
        {"eval_seconds": seconds, "pairs_per_second": len(premises) / seconds},
    )
    shown = f"{method}, {graph_matching} matching" if graphs is not None else method  # plot title
    return write_score(out, result, test, hypothesis_scores, owners, curve, model, shown, config)


# A Levy/Holt pair's columns: its premise is its hypothesis's one piece of evidence.
PAIR_FIELDS = ("premise", "hypothesis", "premise_predicate", "hypothesis_predicate")
SIDES = ("premise", "hypothesis")


def hypotheses_with_evidence(test, evidence: str | None, config: str) -> list[dict]:
    """Each row as a hypothesis and its evidence: a BoOQA entry as it is (its predicate and
    argument types pick the entailment graph); a Levy/Holt pair as its hypothesis with the
    premise as its one piece of evidence (Li et al., Table 17), without argument types, so a
    graph reads every type pair's edges merged, and fuzzy matching ignores argument order (exact
    matching reads each predicate as an active subject-verb-object node). Where the pair's
    propositions are in columns (``premise_subject`` …), both sides keep them, for S&S."""
    columns = set(test.column_names)
    if evidence is not None and evidence in columns and "hypothesis" in columns:
        return [{**row, "evidence": row[evidence]} for row in test]
    if set(PAIR_FIELDS) <= columns:
        parts = [part for part in ss.PARTS if {f"{s}_{part}" for s in SIDES} <= columns]
        return [
            {
                "hypothesis": row["hypothesis"],
                **{part: row[f"hypothesis_{part}"] for part in parts},
                "predicate": row["hypothesis_predicate"],
                "evidence": [
                    {
                        "text": row["premise"],
                        **{part: row[f"premise_{part}"] for part in parts},
                        "predicate": row["premise_predicate"],
                    }
                ],
            }
            for row in test
        ]
    raise ValueError(
        f"config {config!r} has neither hypothesis and evidence columns nor Levy/Holt's "
        f"{', '.join(PAIR_FIELDS)}: scoring is for BoOQA configs such as en and the levyholt_* "
        "configs"
    )


def write_score(out, result, test, hypothesis_scores, owners, curve, model, method, config):
    """A score run's result, per-row file (id, label, score, evidence count), curve and plot."""
    path = write_result(out, result)
    evidence = np.bincount(owners, minlength=len(test))
    write_rows(
        path,
        (
            {"id": i, "label": int(gold), "score": float(value), "evidence": int(count)}
            for i, gold, value, count in zip(
                row_ids(test), test["label"], hypothesis_scores, evidence, strict=True
            )
        ),
    )
    write_json(pr_curve_path(path), curve)
    precision_recall_plot(
        curve,
        result["scores"]["baseline_precision"],
        f"{model_name(model)} · {method} · {config}",
        path.with_suffix(".png"),
    )
    summarise(out, [result], f"compsem score · {config}")
    return result
