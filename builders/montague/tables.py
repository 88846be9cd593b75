"""The paper's consistency Tables 2-7 as Markdown, from long-format score rows ``(model,
phrase_set, test, types, score, count)`` (the format of ``scores.tsv``), and the shipped reference
scores of all-MiniLM-L6-v2 and GloVe that the dataset card shows. ``compsem embed`` writes its
reports with the same functions, so a report and the reference file render the same way.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from compsem.builders.montague import significance
from compsem.builders.montague.lexicon import ADJECTIVE_TYPES, TYPE_CODES
from compsem.text.escape import markdown_text

SCORE_COLUMNS = ("model", "phrase_set", "test", "types", "score", "count")
ALL_TYPES = significance.ALL_TYPES
REFERENCE_FILE = "montague_reference_scores.tsv"
REFERENCE_COMMAND = (
    "compsem embed --dataset compsem/montague --model minilm --model glove --out DIR"
)


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
    Table(4, "Pair intersectivity (eq. 5) with each adjective's synonym as an adjective of its "
          "type (§4.1.1; `--phrase-sets an_synonyms`), a1 S-I", "an_synonyms",
          "pair_intersectivity", tuple((S_I, t) for t in ADJECTIVE_TYPES), 2),
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


def _header(column: tuple[str, ...]) -> str:
    codes = ", ".join(TYPE_CODES[kind] for kind in column)
    return f"({codes})" if len(column) > 1 else codes


def score_cell(score, digits: int) -> str:
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
            cells = [score_cell(by_type.get(", ".join(c)), table.digits) for c in columns]
            lines.append(f"| {markdown_text(model)} | " + " | ".join(cells) + " |")
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


def reference_path() -> Path:
    return Path(str(resources.files(__package__) / "data" / REFERENCE_FILE))


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
        "significance": significance.markdown(rows, level="###"),
    }
