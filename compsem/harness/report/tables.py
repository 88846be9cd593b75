"""Aggregating result files into mean ± std tables laid out like the papers': fine-tuning per
setting (PLANE Table 6), compositional vs in-distribution twins (SETI Figure 1), learning
curves (RNPC Figure 3), zero-shot NLI per class (PLANE Table 5), two-shot prompting per class
(PLANE Table 4) and BoOQA AUCnorm (Table 5).

Runs pool only where ``comparable`` says they may (seeds, resampled splits, on the same build of
the data); every line shows its runs and the rows each run scored, and the settings that tell it
apart from its neighbours. A cell of a per-group table shows the rows behind it and is marked
where they are too few to read it as a finding (:data:`MIN_GROUP_ROWS`)."""

from __future__ import annotations

from collections import defaultdict

from compsem.harness.report.cells import (
    IN_DISTRIBUTION,
    METRICS,
    cell_note,
    fmt,
    fmt_cell,
    group_cell,
    interval_of,
    markdown_table,
    mean_std,
)
from compsem.harness.report.harm import aggregate_harm, render_harm
from compsem.harness.report.labels import CI, CI_NOTE, ci_cell, per_label, per_label_section
from compsem.harness.report.sanity import render_sanity, sanity_lines
from compsem.harness.results.comparable import Line, notes, rows_text, shared_settings
from compsem.harness.results.model import Results
from compsem.text.escape import Markdown, markdown_code, markdown_text


def _line_fields(line: Line) -> dict:
    """What every aggregated line records: its runs, rows, setting and source files."""
    return {
        "label": line.label,
        "runs": len(line.runs),
        "rows": line.rows,
        "evaluation": line.evaluation,
        "build": line.build,
        "datasets": sorted({r["dataset"].get("path") or "" for r in line.runs}),
        "files": line.files,
        "repeats": [file for file, _ in line.repeats],
        "notes": line.notes,
    }


def aggregate_train(lines: list[Line]) -> dict:
    """Per line (model, setting, evaluation): mean ± std over seeds and resampled splits,
    overall and by group."""
    rows, by_group = [], defaultdict(dict)
    for line in lines:
        runs = line.runs
        row = {
            "model": line.model,
            "setting": line.config,
            "varying": line.varying,
            "configs": sorted({r["dataset"]["config"] for r in runs}),
            "seeds": sorted({r["seed"] for r in runs if r["seed"] is not None}),
            **_line_fields(line),
        }
        for metric, _ in (*METRICS, ("aucnorm", "AUCnorm")):
            row[metric] = mean_std(r["scores"].get(metric) for r in runs)
            row[f"{metric}_ci"] = interval_of([r["scores"] for r in runs], f"{metric}_ci")
        row["per_label"] = per_label(runs)
        rows.append(row)
        fields = {f for r in runs for f in r["scores"].get("by_group", {})}
        for field in sorted(fields):
            values = {v for r in runs for v in r["scores"]["by_group"].get(field, {})}
            by_group[field][line.label] = {
                value: group_cell(runs, field, value) for value in sorted(values)
            }
    return {
        "settings": rows,
        "shared": shared_settings(lines),
        "notes": notes(lines),
        "by_group": dict(by_group),
    }


def _setting_columns(rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    """The "settings" column where lines differ in more than model and config, and runs and
    rows, which every line shows."""
    varied = any(row["varying"] for row in rows)
    header = [*(["settings"] if varied else []), "runs", "n rows"]
    cells = [
        [*([row["varying"]] if varied else []), str(row["runs"]), rows_text(row["rows"])]
        for row in rows
    ]
    return header, cells


def render_train(aggregate: dict, title="## Fine-tuning (mean ± std over seeds and splits)") -> str:
    rows = aggregate["settings"]
    has_auc = any(row["aucnorm"]["n"] for row in rows)
    header, setting_cells = _setting_columns(rows)
    metrics = [*METRICS, *([("aucnorm", "AUCnorm")] if has_auc else [])]
    header = ["model", "setting", *header]
    header += [name for _, label in metrics for name in (label, f"{label} {CI}")]
    lines = [
        [row["model"], row["setting"], *cells]
        + [text for metric, _ in metrics for text in (fmt(row[metric]), ci_cell(row, metric))]
        for row, cells in zip(rows, setting_cells, strict=True)
    ]
    parts = [title, markdown_table(header, lines, 2), CI_NOTE]
    parts += [markdown_text(aggregate["shared"])] if aggregate.get("shared") else []
    parts += map(markdown_text, aggregate.get("notes", []))
    twins = twin_lines(rows)
    if twins:
        parts += [
            "### Compositional generalisation vs in-distribution (accuracy)",
            markdown_table(
                ["model", "setting", "compositional generalisation", "in-distribution"],
                [[m, s, fmt(a), fmt(b)] for m, s, a, b in twins],
                2,
            ),
        ]
    for field, columns in aggregate["by_group"].items():
        values = sorted({v for cells in columns.values() for v in cells})
        parts += [
            f"### Accuracy by {markdown_text(field)}",
            markdown_table(
                [field, *columns],
                [[v, *(fmt_cell(cells.get(v)) for cells in columns.values())] for v in values],
            ),
        ]
        note = cell_note(cell for cells in columns.values() for cell in cells.values())
        parts += [note] if note else []
    return "\n\n".join(parts)


def _twin_key(row: dict) -> str:
    """A line's setting without what differs between a config and its in-distribution twin."""
    setting = {k: v for k, v in row["evaluation"].items() if k != "train_examples"}
    return repr(sorted(setting.items()))


def twin_lines(rows: list[dict]) -> list[tuple]:
    """(model, setting, accuracy, in-distribution accuracy) where both configs were run under
    the same evaluation setting; where either was read from more than one build of the data,
    each line pairs with the twin read from the same export folder."""
    index = defaultdict(list)
    for row in rows:
        index[(row["model"], row["setting"], _twin_key(row))].append(row)
    pairs = []
    for (model, setting, key), members in index.items():
        twins = index.get((model, setting + IN_DISTRIBUTION, key), [])
        for row in members:
            match = twins
            if len(members) > 1 or len(twins) > 1:
                match = [t for t in twins if set(t["datasets"]) & set(row["datasets"])]
            if len(match) == 1:
                build = f" (build {row['build']})" if row.get("build") else ""
                pairs.append((model, setting + build, row["accuracy"], match[0]["accuracy"]))
    return pairs


# ---------------------------------------------------------------- learning curves --------------
def aggregate_curves(lines: list[Line]) -> list[dict]:
    curves = []
    for line in lines:
        # A rerun of the same curve under the same settings supersedes the earlier one.
        latest = max(range(len(line.runs)), key=lambda i: line.runs[i]["created"])
        run, summary = line.runs[latest], line.runs[latest]["scores"]["curve"]
        curves.append(
            {
                "model": line.model,
                "config": line.config,
                "metric": run["settings"]["metric"],
                "shots": summary["shots"],
                "mean": summary["mean"],
                "std": summary["std"],
                "count": summary["count"],
                "aulc": summary["aulc"],
                "aulc_std": summary.get("aulc_std"),
                **_line_fields(line),
                "runs": len(run["settings"].get("seeds") or [None]),
                "files": [line.files[latest]],
            }
        )
    return curves


def render_curves(curves: list[dict]) -> str:
    shots = sorted({k for curve in curves for k in curve["shots"]})
    names = [f"{c['label']} ({c['metric']})" for c in curves]
    rows = []
    for k in shots:
        cells = []
        for curve in curves:
            if k in curve["shots"]:
                i = curve["shots"].index(k)
                cells.append(fmt({"mean": curve["mean"][i], "std": curve["std"][i]}))
            else:
                cells.append("–")
        rows.append([str(k), *cells])
    rows.append(["AULC", *(fmt({"mean": c["aulc"], "std": c["aulc_std"]}) for c in curves)])
    rows.append(["seeds", *(str(c["runs"]) for c in curves)])
    rows.append(["n rows", *(rows_text(c["rows"]) for c in curves)])
    return "\n\n".join(
        [
            "## Few-shot learning curves (mean ± std over seeds)",
            markdown_table(["shots", *names], rows),
            *_notes(curves),
        ]
    )


def _notes(lines) -> list[str]:
    """The distinct notes of aggregated lines (builds kept apart, repeats left out), escaped."""
    found = dict.fromkeys(note for line in lines for note in line.get("notes", []))
    return [markdown_text(note) for note in found]


# ---------------------------------------------------------------- zero-shot, prompt, score -----
def aggregate_by_class(lines: list[Line], metric: str, table_key: str | None = None) -> dict:
    """Per line (model, config, evaluation): overall and per-group mean ± std of ``metric``."""
    columns = {}
    for line in lines:
        runs = line.runs
        column = {
            "overall": mean_std(r["scores"][metric] for r in runs),
            "overall_ci": interval_of([r["scores"] for r in runs], f"{metric}_ci"),
            "per_label": per_label(runs),
            "by_group": {},
            **_line_fields(line),
        }
        for field in sorted({f for r in runs for f in r["scores"].get("by_group", {})}):
            values = sorted({v for r in runs for v in r["scores"]["by_group"][field]})
            column["by_group"][field] = {
                value: group_cell(runs, field, value, metric) for value in values
            }
        if table_key:
            column[table_key] = runs[-1]["scores"][table_key]
        columns[line.label] = column
    return columns


def _overall(column: dict) -> Markdown:
    """A line's overall score (%) and its 95% interval."""
    return Markdown(f"{fmt(column['overall'], True)} {ci_cell(column, 'overall', True)}")


def _count_rows(columns: dict) -> list[list[str]]:
    """Runs and rows of each line; where a line scored a model compsem trained (zero-shot of a
    saved model, BoOQA Table 1's cells), first the config it was trained on: train → test."""
    counts = [
        ["runs", *(str(c["runs"]) for c in columns.values())],
        ["n rows", *(rows_text(c["rows"]) for c in columns.values())],
    ]
    settings = [c.get("evaluation", {}) for c in columns.values()]
    if not any("train_config" in s for s in settings):
        return counts
    trained = [
        f"{s['train_config']} ({s['method']})" if "train_config" in s else "–" for s in settings
    ]
    return [["trained on", *map(markdown_text, trained)], *counts]


def render_by_class(title: str, columns: dict, metric_label: str, first_field: str | None) -> str:
    parts = [title]
    fields = sorted({f for c in columns.values() for f in c["by_group"]})
    if first_field in fields:
        fields.remove(first_field)
        fields.insert(0, first_field)
    for field in fields:
        values = sorted({v for c in columns.values() for v in c["by_group"].get(field, {})})
        cells = [[c["by_group"].get(field, {}).get(v) for c in columns.values()] for v in values]
        rows = [
            [v, *(fmt_cell(cell, percent=True) for cell in row)]
            for v, row in zip(values, cells, strict=True)
        ]
        rows.append(["all", *(_overall(c) for c in columns.values())])
        parts += [
            f"### {metric_label} (%) by {markdown_text(field)}",
            markdown_table([field, *columns], rows + _count_rows(columns)),
        ]
        note = cell_note(cell for row in cells for cell in row)
        note += " all: in brackets its 95% interval." if note else ""
        parts += [note] if note else []
    if not fields:
        rows = [["all", *(_overall(c) for c in columns.values())]]
        parts.append(markdown_table(["", *columns], rows + _count_rows(columns)))
    parts += _notes(columns.values())
    return "\n\n".join(parts)


def render_prompt_table(columns: dict) -> str:
    """PLANE Table 4: F1 per adjective class, mean ± std over templates × verbalisers."""
    classes = list(dict.fromkeys(k for c in columns.values() for k in c["per_class"]))
    rows = [
        [k, *(fmt(c["per_class"].get(k), percent=True) for c in columns.values())] for k in classes
    ]
    return "\n\n".join(
        [
            "### Two-shot F1 (%) per class, mean ± std over templates × verbalisers (PLANE Table 4)",
            markdown_table(["class", *columns], rows + _count_rows(columns)),
        ]
    )


def aggregate_scores(lines: list[Line]) -> list[dict]:
    rows = []
    for line in lines:
        rows.append(
            {
                "model": line.model,
                "config": line.config,
                "method": line.evaluation.get("method"),
                "varying": line.settings_text(without=("method",)),  # a column of its own
                **_line_fields(line),
                **{m: mean_std(r["scores"][m] for r in line.runs) for m in ("aucnorm", "auc_50")},
                "aucnorm_ci": interval_of([r["scores"] for r in line.runs], "aucnorm_ci"),
            }
        )
    return rows


def render_scores(rows: list[dict]) -> str:
    header, setting_cells = _setting_columns(rows)
    table = markdown_table(
        ["model", "method", "config", *header, "AUCnorm (%)", f"AUCnorm {CI}", "AUC50% (%)"],
        [
            [r["model"], r["method"], r["config"], *cells]
            + [fmt(r["aucnorm"], True), ci_cell(r, "aucnorm", True), fmt(r["auc_50"], True)]
            for r, cells in zip(rows, setting_cells, strict=True)
        ],
        3,
    )
    return "\n\n".join(["## BoOQA scoring (max over evidence)", table, CI_NOTE, *_notes(rows)])


# ---------------------------------------------------------------- the whole report ------------
# The commands whose runs aggregate as fine-tuning's do, and their sections' titles.
LIKE_TRAIN = {
    "llm": "## Causal LMs, by log-likelihood or generating (mean ± std over seeds)",
    "probe-likelihood": "## Pretrained LMs probed by likelihood, without fine-tuning (RNPC App. C)",
}


def aggregate(results: Results) -> dict:
    """Every section's lines, from the results model (its lines of each command, every
    benchmark's), and the files that could not be read."""
    commands = results.commands()
    report = {}
    if "curve" in commands:
        report["curve"] = aggregate_curves(results.of_command("curve"))
    if "zero-shot" in commands:
        report["zero_shot"] = aggregate_by_class(results.of_command("zero-shot"), "macro_f1")
    if "prompt" in commands:
        lines = results.of_command("prompt")
        report["prompt"] = aggregate_by_class(lines, "weighted_f1", "per_class")
    if "score" in commands:
        report["score"] = aggregate_scores(results.of_command("score"))
    for command in ("train", *LIKE_TRAIN):
        if command in commands:
            report[command.replace("-", "_")] = aggregate_train(results.of_command(command))
    if "probe-likelihood" in commands:
        runs, _ = results.runs_of("probe-likelihood")
        report["probe_likelihood"]["sanity"] = sanity_lines(runs)
    if "harm-detection" in commands:
        report["harm_detection"] = aggregate_harm(*results.runs_of("harm-detection"))
    if results.unreadable:
        report["unreadable"] = list(results.unreadable)
    return report


def render_unreadable(unreadable: list[dict]) -> str:
    lines = [f"- {markdown_code(u['file'])}: {markdown_text(u['reason'])}" for u in unreadable]
    return "\n\n".join(["## Files not read (their runs are missing above)", "\n".join(lines)])


def render(report: dict) -> str:
    parts = []
    if "train" in report:
        parts.append(render_train(report["train"]))
    if "curve" in report:
        parts.append(render_curves(report["curve"]))
    if "zero_shot" in report:
        title = "## Zero-shot: NLI models and saved S&S models (macro-F1)"
        parts.append(render_by_class(title, report["zero_shot"], "macro-F1", "adjective_class"))
    if "prompt" in report:
        title = "## Masked-LM prompting (weighted F1)"
        parts.append(render_prompt_table(report["prompt"]))
        parts.append(render_by_class(title, report["prompt"], "F1", "adjective_class"))
    if "score" in report:
        parts.append(render_scores(report["score"]))
    for command, title in LIKE_TRAIN.items():
        if (key := command.replace("-", "_")) in report:
            parts += [render_train(report[key], title), *render_sanity(report[key])]
    parts += per_label_section(report)
    if "harm_detection" in report:
        parts.append(render_harm(report["harm_detection"]))
    if report.get("unreadable"):
        parts.append(render_unreadable(report["unreadable"]))
    return "\n\n".join(parts) + "\n"
