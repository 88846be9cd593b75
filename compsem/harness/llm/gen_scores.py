"""Scores of generated answers, shared by ``compsem llm --generate`` and ``compsem rescore``: each
row's raw outputs parsed to a label (a majority vote over samples), accuracy and macro-F1 overall
and per grouping field with unparsable answers counted wrong, the unparsable share beside them,
the Markdown summary, and the files of a run (written, and its rows read back)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from compsem.benchmark.answers import majority, parse_answer
from compsem.files.bounded_read import read_json_lines
from compsem.harness.llm.gen_ranking import generation_ranking
from compsem.harness.report.cells import fmt_interval, markdown_table, number
from compsem.harness.report.leaderboard import ONE_ANSWER
from compsem.harness.results.files import SUMMARY, result_name, write_result, write_rows, write_text
from compsem.harness.results.scores import OTHER, grouped_scores
from compsem.text.escape import markdown_code, markdown_text


def parse_rows(records: list[dict], parser: str, tags) -> list[dict]:
    """The rows with ``answers`` (each sample's parsed label or None) and ``prediction`` (their
    majority, None when no sample parsed) read again from ``output`` by ``parser``."""
    parsed = []
    for record in records:
        answers = [parse_answer(parser, text, record["choices"], tags) for text in record["output"]]
        parsed.append({**record, "answers": answers, "prediction": majority(answers)})
    return parsed


def generation_scores(records: list[dict], names, settings: dict | None = None) -> dict:
    """Accuracy, macro-F1 and per-group scores (unparsable = wrong), the unparsable share, the
    refused share, and each label's share of predictions and of gold labels; intervals over the
    rows' items where the run's ``settings`` name them (``cluster_by``, each row's ``cluster``),
    and AUCnorm where they name the positive label of a ranked config (``ranking_positive``,
    ``gen_ranking``)."""
    settings = settings or {}
    references = np.asarray([r["label"] for r in records])
    predictions = np.asarray(
        [OTHER if r["prediction"] is None else r["prediction"] for r in records]
    )
    fields = list(records[0].get("groups", {})) if records else []
    groups = {field: [r.get("groups", {}).get(field) for r in records] for field in fields}
    by = settings.get("cluster_by")
    clustered = by is not None and all(r.get("cluster") is not None for r in records)
    clusters = (by, [r["cluster"] for r in records]) if clustered else None
    scores = grouped_scores(references, predictions, names, groups, clusters)
    if settings.get("ranking_positive") is not None:
        tags = settings.get("reasoning_tags") or []
        positive, parser = settings["ranking_positive"], settings["parser"]
        scores.update(
            generation_ranking(records, positive, parser, tags, by if clustered else None)
        )
    scores["unparsable"] = float(np.mean(predictions == OTHER))
    scores["refused"] = float(np.mean([bool(r.get("refused")) for r in records]))
    scores["label_shares"] = {n: float(np.mean(predictions == i)) for i, n in enumerate(names)}
    scores["reference_shares"] = {n: float(np.mean(references == i)) for i, n in enumerate(names)}
    return scores


def render_generation_summary(result: dict, names) -> str:
    """The run's Markdown: accuracy beside the unparsable share, label shares, groups."""
    scores, settings = result["scores"], result["settings"]
    shots = f"{settings['shots']}-shot (seed {result['seed']})" if settings["shots"] else "0-shot"
    votes = f", majority of {settings['samples']} samples" if settings["samples"] > 1 else ""
    auc = (
        f" · AUCnorm {scores['aucnorm']:.3f} {ci(scores, 'aucnorm')} (ξ "
        f"{scores['baseline_precision']:.3f})"
        if scores.get("aucnorm") is not None
        else ""
    )
    lines = [
        "# "
        + markdown_text(
            f"compsem llm --generate · {result['dataset']['config']} · {result['model']}"
        ),
        f"{shots}, prompt {markdown_code(settings['prompt'])}, parser "
        f"{markdown_code(settings['parser'])}, back end {markdown_text(settings['backend'])}, "
        f"temperature {settings['temperature']}{votes}, {settings['eval_examples']} rows of "
        f"{markdown_text(result['dataset']['split'])}: accuracy {scores['accuracy']:.3f} "
        f"{ci(scores, 'accuracy')} · unparsable {scores['unparsable']:.1%} (counted wrong) · "
        f"macro-F1 {number(scores['macro_f1'])} {ci(scores, 'macro_f1')}{auc} (in brackets: the "
        "95% interval)",
    ]
    if scores.get("ranking_score"):
        lines.append(f"AUCnorm ranks the rows by {markdown_text(scores['ranking_score'])}.")
    if scores.get("refused"):
        lines.append(f"The endpoint refused {scores['refused']:.1%} of the rows (unparsable).")
    top = max(scores["label_shares"].values(), default=0.0)
    if top >= ONE_ANSWER:
        lines.append(
            f"⚠ one answer to {top:.0%} of the rows: the accuracy is that answer's share, not skill."
        )
    unparsable = [["(unparsable)", f"{scores['unparsable']:.1%}", "–"]]
    lines += score_sections(scores, names, unparsable)
    return "\n\n".join(lines) + "\n"


def ci(scores: dict, metric: str):
    """``metric``'s 95% interval in ``scores`` as the tables print it (— where it has none)."""
    pair = scores.get(f"{metric}_ci")
    return fmt_interval({"low": pair[0], "high": pair[1]} if pair else None)


def score_sections(scores: dict, names, extra_shares=()) -> list[str]:
    """The Markdown sections of a summary after its headline: each label's predicted and true
    share (and ``extra_shares`` rows), precision and recall per label, then accuracy (with its
    interval) and macro-F1 by each grouping field; names escaped."""
    lines = [
        "## Label shares (predicted vs true)",
        markdown_table(
            ["label", "predicted", "true"],
            [
                [n, f"{scores['label_shares'][n]:.1%}", f"{scores['reference_shares'][n]:.1%}"]
                for n in names
            ]
            + list(extra_shares),
        ),
    ]
    if scores.get("precision"):
        lines.append("## Precision and recall per label")
        lines.append(
            markdown_table(
                ["label", "precision", "recall", "F1", "support"],
                [
                    [n, *(f"{scores[k][n]:.3f}" for k in ("precision", "recall", "f1"))]
                    + [str(scores["support"][n])]
                    for n in scores["precision"]
                ],
            )
        )
    for field, values in scores["by_group"].items():
        lines.append(f"## Accuracy by {markdown_text(field)}")
        lines.append(
            markdown_table(
                [field, "n", "accuracy", "accuracy 95% CI", "macro-F1"],
                [
                    [v, str(s["n"]), f"{s['accuracy']:.3f}", ci(s, "accuracy")]
                    + [number(s["macro_f1"])]
                    for v, s in values.items()
                ],
            )
        )
    return lines


def write_generation(out: Path, result: dict, records: list[dict], names) -> dict:
    """The result, its rows and its summary, each written whole."""
    write_result(out, result)
    write_rows(Path(out) / result_name(result), records)
    write_text(Path(out) / SUMMARY, render_generation_summary(result, names))
    return result


def read_rows(path: Path) -> list[dict]:
    """A generation run's rows file; one clear error naming the line that is not a row."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no rows file {path}: pass the <result>.rows.jsonl of a compsem llm run")
    records = []
    try:  # a regular file, read in bounded chunks
        lines = list(read_json_lines(path, "rows"))
    except ValueError as error:
        raise ValueError(
            f"{error} The rows file is damaged; rerun compsem llm --generate"
        ) from None
    for at, record in enumerate(lines, 1):
        if not isinstance(record, dict) or not {"label", "output", "choices"} <= set(record):
            raise ValueError(
                f"{path} line {at} is not a generated row (label, output, choices): rescore "
                "reads the rows of compsem llm --generate"
            )
        records.append(record)
    if not records:
        raise ValueError(f"{path} holds no rows")
    return records
