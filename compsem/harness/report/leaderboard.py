"""The leaderboard of each benchmark: a line per model and comparable group (``comparable``),
mean ± std over seeds and resampled splits, the runs and rows behind it, and what keeps a number
honest beside it: the accuracy of always answering the most frequent true label on the same rows
(every line with per-row files: classification, LLM, curve and score runs), what random orders of
the same labels score beside AUCnorm, a warning where a model answers (almost) one label only (at
any point of a curve) or ties (almost) all its scores, a note where the rows scored hold one label
only (accuracy there cannot rank models), and the size floor (``compsem.benchmark.size_floor``) where a line
was scored on too few rows to rank models.

The results page links every number to its runs (``report_page``); ``compsem baselines`` prints
the same tables without links."""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np

from compsem.benchmark.size_floor import MIN_TEST_ROWS, accuracy_interval
from compsem.builders import BENCHMARKS
from compsem.files.bounded_read import read_json_lines
from compsem.harness.analysis.reference import reference_parts
from compsem.harness.data.schema import POSITIVE_LABELS
from compsem.harness.report.cells import (
    SCORES,
    fmt,
    fmt_interval,
    interval_of,
    markdown_table,
    mean_std,
)
from compsem.harness.report.labels import CI, CI_NOTE
from compsem.harness.results.comparable import Line, rows_text, shared_settings
from compsem.harness.results.comparable import notes as comparable_notes
from compsem.harness.results.files import rows_path
from compsem.harness.results.model import Results
from compsem.text.escape import Markdown, markdown_text

# The columns with a 95% interval beside them, and the field of a result's scores it is in.
INTERVALS = {
    "accuracy": "accuracy_ci",
    "macro-F1": "macro_f1_ci",
    "AUCnorm": "aucnorm_ci",
    "weighted F1": "weighted_f1_ci",
}
# A model that gives one answer to this share of the rows or more is flagged: its accuracy is
# that answer's share of the rows, not skill.
ONE_ANSWER = 0.95
# Random orders behind a line's "AUCnorm chance" at most (fewer on large sets): on 19 rows the
# mean moves by about ±0.002 from one seed to another.
CHANCE_ORDERS = 2000


def ordered(benchmarks) -> list[str]:
    """The benchmarks in the registry's order, then any other preset by name."""
    order = list(BENCHMARKS)
    return sorted(benchmarks, key=lambda b: (order.index(b) if b in order else len(order), b))


def heading(benchmark: str) -> str:
    """A benchmark's heading on the page and above its leaderboard, as its spec declares it."""
    return BENCHMARKS[benchmark].heading if benchmark in BENCHMARKS else benchmark


def runs_of(command: str, line: Line) -> int:
    """Runs behind a line: a curve's seeds (one file holds them all), else its result files."""
    if command == "curve":
        latest = max(line.runs, key=lambda r: r["created"])
        return len(latest["settings"].get("seeds") or [None])
    return len(line.runs)


@dataclass
class Answers:
    """What a line's per-row files say beside its scores, per run (per point of a curve)."""

    # The share of the rows holding the most frequent true label: what always answering it
    # scores.
    majority: list[float] = field(default_factory=list)
    # The share of the most frequent prediction (classification, LLM and curve runs).
    dominant: list[float] = field(default_factory=list)
    # Per curve point with one answer to ONE_ANSWER of its rows or more: (shots, share).
    collapsed: list[tuple[int, float]] = field(default_factory=list)
    # The share of the most frequent score (score runs: scores without a prediction).
    tied: list[float] = field(default_factory=list)
    # The labels of runs whose rows hold one label only.
    one_label: set = field(default_factory=set)
    # AUCnorm of random orders of each run's labels (runs reporting AUCnorm).
    chance: list[float] = field(default_factory=list)


def answers(line: Line) -> Answers:
    """Per run with per-row labels (its ``.rows.jsonl``): the share of its rows holding the most
    frequent true label (what always answering it scores); the share of its most frequent
    prediction, per point of a curve (rows with ``shots``) and, for scores without a prediction
    (BoOQA), the share of its most frequent score; whether its rows hold one label only; and
    where the run reports AUCnorm, what random orders of its labels score."""
    found = Answers()
    for result, file in zip(line.runs, line.files, strict=True):
        rows = rows_path(file) if file else None
        if rows is None or not rows.is_file():
            continue
        points = defaultdict(lambda: (Counter(), Counter()))  # (shots, seed): labels, answers
        scored = False
        try:
            for row in read_json_lines(rows, "rows"):
                if not isinstance(row, dict) or "label" not in row:
                    continue
                answer = row.get("prediction", row.get("score"))
                scored = scored or ("prediction" not in row and "score" in row)
                labels, given = points[(row.get("shots"), row.get("seed"))]
                labels[row["label"]] += 1
                if answer is not None:
                    given[answer] += 1
        except (ValueError, TypeError):  # a bad rows file (listed under "Files not read")
            continue
        if not points:
            continue
        # One value per run: a curve's points share the evaluation rows (and seeds pool as runs).
        found.majority.append(
            float(
                np.mean(
                    [max(labels.values()) / sum(labels.values()) for labels, _ in points.values()]
                )
            )
        )
        for (shots, _), (labels, given) in sorted(points.items(), key=_point_order):
            total = sum(labels.values())
            if len(labels) == 1:
                found.one_label.add(next(iter(labels)))
            share = max(given.values()) / total if given else None
            if share is None:
                continue
            (found.tied if scored else found.dominant).append(share)
            if shots is not None and share >= ONE_ANSWER:
                found.collapsed.append((shots, share))
        if result["scores"].get("aucnorm") is not None and len(points) == 1:
            ((labels, _),) = points.values()
            positives = _positives(result, labels)
            if positives is not None:
                found.chance.append(random_order_aucnorm(positives, sum(labels.values())))
    return found


def _point_order(item) -> tuple:
    (shots, seed), _ = item
    return (shots is not None, shots or 0, str(seed))


def _positives(result: dict, labels: Counter) -> int | None:
    """How many of a run's rows AUCnorm counted as positive: from its ξ where it recorded one,
    else the count of the positive class (entailment, true; else label 1) among its labels."""
    total = sum(labels.values())
    xi = result["scores"].get("baseline_precision")
    if xi is not None:
        return round(xi * total)
    names = list(result["scores"].get("f1") or {})
    if len(names) != 2 or not set(labels) <= {0, 1}:
        return None
    positive = next((i for i, name in enumerate(names) if name in POSITIVE_LABELS), 1)
    return labels[positive]


@functools.lru_cache(maxsize=256)
def random_order_aucnorm(positives: int, total: int) -> float | None:
    """The mean AUCnorm of random orders of ``positives`` positive rows among ``total`` (a fixed
    seed, ``CHANCE_ORDERS`` orders, fewer on large sets): what a model ranking at random scores on the same
    labels. Not 0 on few rows (the area below ξ counts as 0): about 0.156 for 8 of 19."""
    if not 0 < positives < total:
        return None
    from compsem.metrics.aucnorm.aucnorm import (
        aucnorm_scores,  # a metric script imports evaluate, hence transformers and torch
    )

    rng = np.random.default_rng(0)
    labels = np.zeros(total, dtype=np.int8)
    labels[:positives] = 1
    orders = max(20, min(CHANCE_ORDERS, 2_000_000 // total))  # about 2M rows in all
    return float(
        np.mean([aucnorm_scores(rng.random(total), labels)["aucnorm"] for _ in range(orders)])
    )


def table(lines: list[tuple], link=None) -> tuple[str, list[str]]:
    """The leaderboard of one benchmark's lines as Markdown, and the notes under it. ``link``:
    ``(command, line) -> anchor``, to link each number to its runs."""
    stats = {
        label: [mean_std(score(r) for r in line.runs) for _, line in lines]
        for label, score in SCORES
    }
    shown = [label for label, column in stats.items() if any(s["n"] for s in column)]
    rows, one_answer, tied, one_label, small = [], [], [], [], []
    any_chance = False
    for index, (command, line) in enumerate(lines):
        found = answers(line)
        who = name(command, line)
        flagged = False
        if found.collapsed:
            flagged = True
            at = ", ".join(str(shots) for shots in sorted({s for s, _ in found.collapsed}))
            share = max(s for _, s in found.collapsed)
            one_answer.append(f"{who}: one answer to {share:.0%} at {at} shots")
        elif found.dominant and max(found.dominant) >= ONE_ANSWER:
            flagged = True
            one_answer.append(f"{who}: one answer to {max(found.dominant):.0%}")
        if found.tied and max(found.tied) >= ONE_ANSWER:
            flagged = True
            tied.append(f"{who}: one score on {max(found.tied):.0%}")
        if found.one_label:
            labels = ", ".join(str(label) for label in sorted(found.one_label, key=str))
            one_label.append(f"{who} (label {labels})")
        if line.rows["min"] is not None and line.rows["min"] < MIN_TEST_ROWS:
            small.append(_small(command, line))
        # Which rows were scored is always shown: lines of different commands are compared here.
        settings = [f"rows {line.evaluation.get('rows')}", *filter(None, line.varying.split(", "))]
        anchor = link(command, line) if link else None
        cells = []
        for label in shown:
            text = fmt(stats[label][index])
            linked = Markdown(f"[{text}](#{anchor})") if anchor else text
            cells.append(linked if stats[label][index]["n"] else "–")
            if label in INTERVALS:
                scores = [run["scores"] for run in line.runs]
                cells.append(fmt_interval(interval_of(scores, INTERVALS[label])))
            if label == "AUCnorm":
                cells.append(fmt(mean_std(found.chance)))
            any_chance = any_chance or bool(found.chance)
        majority = fmt(mean_std(found.majority))
        rows.append(
            [("⚠ " if flagged else "") + line.model, command, configs_of(line)]
            + [", ".join(dict.fromkeys(settings)), str(runs_of(command, line))]
            + [rows_text(line.rows), *cells]
            + [majority + (" (one label)" if found.one_label else "")]
        )
    columns = []
    for label in shown:
        columns += [label, *([f"{label} {CI}"] if label in INTERVALS else [])]
        columns += ["AUCnorm chance"] if label == "AUCnorm" else []
    header = ["model", "command", "config", "settings", "runs", "n rows", *columns]
    shown_lines = [line for _, line in lines]
    notes = [CI_NOTE, shared_settings(shown_lines), *comparable_notes(shown_lines)]
    if any(row[-1] != "–" for row in rows):
        notes.append(
            "majority: the accuracy of always answering the most frequent true label on the "
            "same rows; a model is only as good as its lead over it."
        )
    if any_chance:
        notes.append(
            "AUCnorm chance: the mean AUCnorm of random orders of the same rows' labels, what "
            "a model ranking at random scores; it is 0 on many rows only (the area below ξ "
            "counts as 0), so read AUCnorm against it."
        )
    if one_answer:
        notes.append(
            f"⚠ gives one answer to {ONE_ANSWER:.0%} of its rows or more, so its accuracy is that "
            "answer's share, not skill: " + "; ".join(one_answer) + "."
        )
    if tied:
        notes.append(
            f"⚠ gives one score to {ONE_ANSWER:.0%} of its rows or more (ties): its ranking "
            "orders almost none of them, so its AUCnorm says nothing of skill: "
            + "; ".join(tied)
            + "."
        )
    if one_label:
        notes.append(
            "One label only in the rows scored: always answering it scores 1.000, so accuracy "
            "(and a curve's AULC) there measures how often a model gives that label and cannot "
            "rank models: " + "; ".join(one_label) + "."
        )
    if small:
        notes.append(
            f"Below the size floor of {MIN_TEST_ROWS:,} rows (compsem.benchmark.size_floor; the "
            "half-width of a 95% interval at 50% accuracy in brackets), too few to rank models "
            "closer than that: " + "; ".join(small) + "."
        )
    return markdown_table([*header, "majority"], rows, 4), [note for note in notes if note]


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


def leaderboards(results: Results) -> str:
    """Every benchmark's leaderboard without links, as ``compsem baselines`` prints it."""
    benchmarks = results.by_benchmark()
    parts = []
    for name in ordered(benchmarks):
        markdown, notes = table(benchmarks[name])
        parts += [f"### {markdown_text(heading(name))}", markdown, *map(markdown_text, notes)]
        parts += reference_parts(name, benchmarks[name], level="####")
    return "\n\n".join(parts)
