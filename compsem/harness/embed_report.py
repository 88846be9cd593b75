"""Reports of ``compsem embed``: the paper's Tables 2-7 in Markdown, heatmaps of the type-pair
tables, a long-format score TSV, and the shipped reference scores the dataset card shows.

Every table is rendered from score rows ``(model, phrase_set, test, types, score, count)``, the
format of ``scores.tsv``, so a report and the shipped reference file render the same way.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from compsem.builders.montague.lexicon import ADJECTIVE_TYPES, TYPE_CODES

SCORE_COLUMNS = ("model", "phrase_set", "test", "types", "score", "count")
ALL_TYPES = "all"
REFERENCE_FILE = "montague_reference_scores.tsv"
REFERENCE_COMMAND = "compsem embed --model minilm --model glove --out DIR"


@dataclass(frozen=True)
class Table:
    """One of the paper's tables: a test on a phrase set, columns of types or type pairs."""

    number: int
    title: str
    phrase_set: str
    test: str
    columns: tuple[tuple[str, ...], ...]
    digits: int


S_I = ADJECTIVE_TYPES[0]
TABLES = (
    Table(2, "Intersectivity (eq. 3), AN phrases", "an", "intersectivity",
          tuple((t,) for t in ADJECTIVE_TYPES), 2),
    Table(3, "Intersectivity (eq. 3), AAN phrases, second adjective S-I", "aan", "intersectivity",
          tuple((t, S_I) for t in ADJECTIVE_TYPES), 2),
    Table(4, "Pair intersectivity (eq. 5), AN phrase pairs, a1 S-I", "an", "pair_intersectivity",
          tuple((S_I, t) for t in ADJECTIVE_TYPES), 2),
    Table(5, "Non-subsectivity (eq. 7), AN phrases", "an", "non_subsectivity",
          tuple((t,) for t in ADJECTIVE_TYPES), 2),
    Table(6, "Intersectivity (eq. 3), AAN phrases, every type pair", "aan", "intersectivity",
          tuple((first, second) for second in ADJECTIVE_TYPES for first in ADJECTIVE_TYPES), 4),
    Table(7, "Pair intersectivity (eq. 5), AN phrase pairs, every type pair (a1, a2)", "an",
          "pair_intersectivity",
          tuple((a, b) for i, a in enumerate(ADJECTIVE_TYPES) for b in ADJECTIVE_TYPES[i:]), 4),
)  # fmt: skip
MAIN_TABLES = (2, 3, 4, 5)
HEATMAPS = (("aan", "intersectivity"), ("an", "pair_intersectivity"))
_COLUMNS_PER_BLOCK = 9  # the paper splits its wide appendix tables into blocks


def score_rows(report: dict) -> list[dict]:
    """Long-format rows of a ``run_embed`` report: overall (types ``all``) and per type key."""
    rows = []
    for model in report["models"]:
        for phrase_set, tests in model["results"].items():
            for test, result in tests.items():
                cells = [(ALL_TYPES, result)] + sorted(result["by_type"].items())
                for types, cell in cells:
                    rows.append(
                        {
                            "model": model["label"],
                            "phrase_set": phrase_set,
                            "test": test,
                            "types": types,
                            "score": cell["score"],
                            "count": cell["count"],
                        }
                    )
    return rows


def _header(column: tuple[str, ...]) -> str:
    codes = ", ".join(TYPE_CODES[kind] for kind in column)
    return f"({codes})" if len(column) > 1 else codes


def _cell(score, digits: int) -> str:
    return "–" if score is None else f"{score:.{digits}f}"


def render_table(table: Table, rows: list[dict]) -> str | None:
    """The table in Markdown (rows = models), or None when no row has its phrase set and test."""
    scores: dict[str, dict[str, float]] = {}
    for row in rows:
        if row["phrase_set"] == table.phrase_set and row["test"] == table.test:
            scores.setdefault(row["model"], {})[row["types"]] = row["score"]
    if not scores:
        return None
    blocks = []
    for start in range(0, len(table.columns), _COLUMNS_PER_BLOCK):
        columns = table.columns[start : start + _COLUMNS_PER_BLOCK]
        lines = [
            "| model | " + " | ".join(_header(c) for c in columns) + " |",
            "|---|" + "---:|" * len(columns),
        ]
        for model, by_type in scores.items():
            cells = [_cell(by_type.get(", ".join(c)), table.digits) for c in columns]
            lines.append(f"| {model} | " + " | ".join(cells) + " |")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def markdown_tables(
    rows: list[dict],
    numbers=tuple(t.number for t in TABLES),
    level: str = "##",
    legend: bool = True,
) -> str:
    """The paper's tables (``numbers``) that the rows can fill, each under a heading."""
    parts = []
    for table in TABLES:
        body = render_table(table, rows) if table.number in numbers else None
        if body:
            parts.append(f"{level} Table {table.number}: {table.title}\n\n{body}")
    if legend:
        types = ", ".join(f"{code}: {name}" for name, code in TYPE_CODES.items())
        parts.append(f"Adjective types: {types}. A score is the share of cases that hold.")
    return "\n\n".join(parts) + "\n"


def demo_markdown(rows: list[dict]) -> str:
    """One model's AN scores in one table: a row per test, a column per adjective type."""
    tests = (
        ("intersectivity", "intersectivity (eq. 3, Table 2)", lambda t: t),
        (
            "pair_intersectivity",
            "pair intersectivity, a1 S-I (eq. 5, Table 4)",
            lambda t: f"{S_I}, {t}",
        ),
        ("non_subsectivity", "non-subsectivity (eq. 7, Table 5)", lambda t: t),
    )
    lines = [
        "| AN test | " + " | ".join(TYPE_CODES[t] for t in ADJECTIVE_TYPES) + " |",
        "|---|" + "---:|" * len(ADJECTIVE_TYPES),
    ]
    for test, title, key in tests:
        scores = {
            r["types"]: r["score"] for r in rows if r["phrase_set"] == "an" and r["test"] == test
        }
        lines.append(
            f"| {title} | "
            + " | ".join(_cell(scores.get(key(t)), 2) for t in ADJECTIVE_TYPES)
            + " |"
        )
    return "\n".join(lines)


def heatmap(rows: list[dict], phrase_set: str, test: str, path: Path) -> Path | None:
    """A type × type heatmap per model (a1 rows, a2 columns), side by side in one PNG."""
    import matplotlib

    matplotlib.use("Agg")  # files only; no display needed
    import matplotlib.pyplot as plt
    import numpy as np

    scores: dict[str, dict[str, float]] = {}
    for row in rows:
        if row["phrase_set"] == phrase_set and row["test"] == test and row["types"] != ALL_TYPES:
            scores.setdefault(row["model"], {})[row["types"]] = row["score"]
    if not scores:
        return None
    codes = [TYPE_CODES[t] for t in ADJECTIVE_TYPES]
    figure, axes = plt.subplots(
        1,
        len(scores),
        figsize=(3.8 * len(scores) + 1.0, 3.8),
        dpi=120,
        squeeze=False,
        layout="constrained",
    )
    for axis, (model, by_type) in zip(axes[0], scores.items(), strict=True):
        grid = np.array(
            [[by_type.get(f"{a}, {b}", np.nan) for b in ADJECTIVE_TYPES] for a in ADJECTIVE_TYPES],
            dtype=float,
        )
        image = axis.imshow(grid, vmin=0, vmax=1, cmap="viridis")
        for (i, j), value in np.ndenumerate(grid):
            if not np.isnan(value):
                axis.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7,
                          color="black" if value > 0.5 else "white")  # fmt: skip
        axis.set_xticks(range(len(codes)), codes, fontsize=7)
        axis.set_yticks(range(len(codes)), codes, fontsize=7)
        axis.set_xlabel(
            "second adjective (a2)" if test == "pair_intersectivity" else "second adjective",
            fontsize=8,
        )
        axis.set_ylabel(
            "first adjective (a1)" if test == "pair_intersectivity" else "first adjective",
            fontsize=8,
        )
        axis.set_title(model, fontsize=9)
    what = (
        "AAN intersectivity (eq. 3)"
        if test == "intersectivity"
        else "AN pair intersectivity (eq. 5)"
    )
    figure.suptitle(f"{what}: share of cases that hold", fontsize=9)
    figure.colorbar(image, ax=list(axes[0]), shrink=0.8)
    figure.savefig(path)
    plt.close(figure)
    return path


def scores_tsv(rows: list[dict], comments: list[str]) -> str:
    out = io.StringIO()
    for comment in comments:
        out.write(f"# {comment}\n")
    writer = csv.DictWriter(out, SCORE_COLUMNS, delimiter="\t", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, "score": "" if row["score"] is None else repr(float(row["score"]))})
    return out.getvalue()


def read_scores_tsv(text: str) -> tuple[dict[str, str], list[dict]]:
    """The ``key: value`` comment lines and the score rows of a scores TSV."""
    comments, lines = {}, []
    for line in text.splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            comments[key.strip()] = value.strip()
        elif line.strip():
            lines.append(line)
    rows = []
    for row in csv.DictReader(lines, delimiter="\t"):
        row["score"] = float(row["score"]) if row["score"] else None
        row["count"] = int(row["count"])
        rows.append(row)
    return comments, rows


def report_comments(report: dict, command: str) -> list[str]:
    lexicon = report["lexicon"]
    return [
        f"benchmark: {report['benchmark']} {report['version']}",
        f"lexicon: {lexicon['source']}",
        f"lexicon_fingerprint: {lexicon['fingerprint']}",
        f"command: {command}",
    ]


def write_report(report: dict, out: Path, command: str) -> list[Path]:
    """``results.json``, ``tables.md``, ``scores.tsv`` and heatmap PNGs, written atomically."""
    from compsem.export import atomic_folder

    rows = score_rows(report)
    with atomic_folder(out) as staging:
        (staging / "results.json").write_text(
            json.dumps({**report, "command": command}, indent=2) + "\n"
        )
        header = f"# Montague consistency: {', '.join(m['label'] for m in report['models'])}\n\n"
        header += f"Regenerate with `{command}`.\n\n"
        (staging / "tables.md").write_text(header + markdown_tables(rows))
        (staging / "scores.tsv").write_text(scores_tsv(rows, report_comments(report, command)))
        for phrase_set, test in HEATMAPS:
            heatmap(rows, phrase_set, test, staging / f"heatmap_{phrase_set}_{test}.png")
    return sorted(Path(out).iterdir())


def reference_path() -> Path:
    return Path(str(resources.files("compsem") / "data" / REFERENCE_FILE))


def reference_results(lexicon_fingerprint: str) -> dict | None:
    """The shipped reference scores as the card shows them, when they were computed on this
    lexicon (same fingerprint); otherwise None."""
    path = reference_path()
    if not path.is_file():
        return None
    comments, rows = read_scores_tsv(path.read_text(encoding="utf-8"))
    if comments.get("lexicon_fingerprint") != lexicon_fingerprint:
        return None
    return {
        "command": comments.get("command", REFERENCE_COMMAND),
        "models": list(dict.fromkeys(row["model"] for row in rows)),
        "tables": markdown_tables(rows, MAIN_TABLES, level="###"),
        "appendix_tables": markdown_tables(rows, (6, 7), level="###", legend=False),
    }
