"""The leaderboard of each benchmark: a line per model and comparable group (``comparable``),
mean ± std over seeds and resampled splits, the runs and rows behind it, and what keeps a number
honest beside it: the accuracy of always answering the most frequent true label on the same rows,
a warning where a model answers (almost) one label only, and the size floor
(``compsem.size_floor``) where a line was scored on too few rows to rank models.

The results page links every number to its runs (``report_page``); ``compsem baselines`` prints
the same tables without links."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

from compsem.harness.comparable import Line, group, rows_text, shared_settings
from compsem.harness.report import _table, config_of, family_of, fmt, mean_std, model_of
from compsem.harness.results import rows_path
from compsem.size_floor import MIN_TEST_ROWS, accuracy_interval

ORDER = ("plane", "rnpc", "seti", "booqa", "montague")
TITLES = {
    "plane": "PLANE: adjective-noun entailment",
    "rnpc": "RNPC: recursive noun phrases",
    "seti": "SETI: systematic entailment",
    "booqa": "BoOQA: open question answering by entailment",
    "montague": "Montague consistency of embeddings",
}
# The leaderboard's score columns, and how a run gives each.
SCORES = (
    ("accuracy", lambda r: r["scores"].get("accuracy")),
    ("macro-F1", lambda r: r["scores"].get("macro_f1")),
    ("AUCnorm", lambda r: r["scores"].get("aucnorm")),
    ("weighted F1", lambda r: r["scores"].get("weighted_f1") if r["command"] == "prompt" else None),
    ("AUC50%", lambda r: r["scores"].get("auc_50")),
    ("AULC", lambda r: (r["scores"].get("curve") or {}).get("aulc")),
)
POOLED = {"train": family_of, "llm": family_of}  # resampled splits pool; others per config
# A model that gives one answer to this share of the rows or more is flagged: its accuracy is
# that answer's share of the rows, not skill.
ONE_ANSWER = 0.95


def lines_by_benchmark(results: list[dict], sources: list[str]) -> dict[str, list[tuple]]:
    """(command, Line) per benchmark, grouped the way ``compsem report`` groups them; a line's
    label names what sets it apart within its benchmark and command."""
    by_command = defaultdict(lambda: ([], []))
    for result, source in zip(results, sources, strict=True):
        key = (result["dataset"].get("preset") or "other", result["command"])
        by_command[key][0].append(result)
        by_command[key][1].append(source)
    benchmarks = defaultdict(list)
    for (benchmark, command), (runs, files) in sorted(by_command.items()):
        for line in group(runs, model_of, POOLED.get(command, config_of), files):
            benchmarks[benchmark].append((command, line))
    return benchmarks


def ordered(benchmarks) -> list[str]:
    return sorted(benchmarks, key=lambda b: (ORDER.index(b) if b in ORDER else len(ORDER), b))


def runs_of(command: str, line: Line) -> int:
    """Runs behind a line: a curve's seeds (one file holds them all), else its result files."""
    if command == "curve":
        latest = max(line.runs, key=lambda r: r["created"])
        return len(latest["settings"].get("seeds") or [None])
    return len(line.runs)


def answers(line: Line) -> tuple[list[float], list[float]]:
    """Per run with per-row labels and predictions (its ``.rows.jsonl``): the share of its rows
    holding the most frequent true label (what always answering it scores), and the share of its
    most frequent prediction."""
    majority, dominant = [], []
    for file in line.files:
        rows = rows_path(file) if file else None
        if rows is None or not rows.is_file():
            continue
        labels, predictions = Counter(), Counter()
        with open(rows, encoding="utf-8") as stream:
            for text in stream:
                row = json.loads(text)
                if "label" not in row or "prediction" not in row or "shots" in row:
                    break  # scores without a prediction (BoOQA), or a curve's many points
                labels[row["label"]] += 1
                predictions[row["prediction"]] += 1
        total = sum(labels.values())
        if total:
            majority.append(max(labels.values()) / total)
            dominant.append(max(predictions.values()) / total)
    return majority, dominant


def table(lines: list[tuple], link=None) -> tuple[str, list[str]]:
    """The leaderboard of one benchmark's lines as Markdown, and the notes under it. ``link``:
    ``(command, line) -> anchor``, to link each number to its runs."""
    stats = {
        label: [mean_std(score(r) for r in line.runs) for _, line in lines]
        for label, score in SCORES
    }
    shown = [label for label, column in stats.items() if any(s["n"] for s in column)]
    rows, one_answer, small = [], [], []
    for index, (command, line) in enumerate(lines):
        majority, dominant = answers(line)
        flagged = bool(dominant) and max(dominant) >= ONE_ANSWER
        if flagged:
            one_answer.append(f"{name(command, line)}: one answer to {max(dominant):.0%}")
        if line.rows["min"] is not None and line.rows["min"] < MIN_TEST_ROWS:
            small.append(_small(command, line))
        # Which rows were scored is always shown: lines of different commands are compared here.
        settings = [f"rows {line.evaluation.get('rows')}", *filter(None, line.varying.split(", "))]
        anchor = link(command, line) if link else None
        cells = [
            (f"[{fmt(stats[label][index])}](#{anchor})" if anchor else fmt(stats[label][index]))
            if stats[label][index]["n"]
            else "–"
            for label in shown
        ]
        rows.append(
            [("⚠ " if flagged else "") + line.model, command, configs_of(line)]
            + [", ".join(dict.fromkeys(settings)), str(runs_of(command, line))]
            + [rows_text(line.rows), *cells, fmt(mean_std(majority))]
        )
    header = ["model", "command", "config", "settings", "runs", "n rows", *shown]
    notes = [shared_settings([line for _, line in lines])]
    if any(row[-1] != "–" for row in rows):
        notes.append(
            "majority: the accuracy of always answering the most frequent true label on the "
            "same rows; a model is only as good as its lead over it."
        )
    if one_answer:
        notes.append(
            f"⚠ gives one answer to {ONE_ANSWER:.0%} of its rows or more, so its accuracy is that "
            "answer's share, not skill: " + "; ".join(one_answer) + "."
        )
    if small:
        notes.append(
            f"Below the size floor of {MIN_TEST_ROWS:,} rows (compsem.size_floor; the "
            "half-width of a 95% interval at 50% accuracy in brackets), too few to rank models "
            "closer than that: " + "; ".join(small) + "."
        )
    return _table([*header, "majority"], rows, 4), [note for note in notes if note]


def configs_of(line: Line) -> str:
    """The config a line ran on, or its family and how many resamples it pools."""
    configs = sorted({run["dataset"]["config"] for run in line.runs})
    return configs[0] if len(configs) == 1 else f"{line.config} ({len(configs)} splits)"


def _small(command: str, line: Line) -> str:
    rows = line.rows["min"]
    taken = line.evaluation.get("rows")
    split = line.evaluation.get("split")
    where = f"its {split} split has {rows_text(line.rows)} rows" if taken == "all" else taken
    return f"{name(command, line)}: {where} (±{accuracy_interval(rows):.1f} points)"


def name(command: str, line: Line) -> str:
    return f"{line.model} {command} on {configs_of(line)}"


def leaderboards(results: list[dict], sources: list[str]) -> str:
    """Every benchmark's leaderboard without links, as ``compsem baselines`` prints it."""
    benchmarks = lines_by_benchmark(results, sources)
    parts = []
    for name in ordered(benchmarks):
        markdown, notes = table(benchmarks[name])
        parts += [f"### {TITLES.get(name, name)}", markdown, *notes]
    return "\n\n".join(parts)
