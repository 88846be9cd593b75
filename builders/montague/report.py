"""How a Montague embedding report (``compsem embed``) reads: score rows, the paper's Tables 2-5, the
demo's table, type × type heatmaps (PNG files, and grids for the results page) and the report
folder. Declared on the spec as its ``EmbeddingTests``: the harness computes the scores, this module
says what a report of them holds."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from compsem.benchmark.spec import EmbeddingTests, Heatmap
from compsem.builders.montague import significance
from compsem.builders.montague.lexicon import ADJECTIVE_TYPES, NOUN, TYPE_CODES
from compsem.builders.montague.tables import (
    ALL_TYPES,
    HEATMAPS,
    S_I,
    markdown_tables,
    score_cell,
    scores_tsv,
)
from compsem.files.output_folder import atomic_folder

REPORT_KIND = "Montague embedding report"


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
            + " | ".join(score_cell(scores.get(key(t)), 2) for t in ADJECTIVE_TYPES)
            + " |"
        )
    return "\n".join(lines)


def heatmap(rows: list[dict], phrase_set: str, test: str, path: Path) -> Path | None:
    """A type × type heatmap per model (a1 rows, a2 columns), side by side in one PNG."""
    import matplotlib  # matplotlib takes a second to import: only plots pay for it

    matplotlib.use("Agg")  # files only; no display needed
    import matplotlib.pyplot as plt

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


def report_comments(report: dict, command: str) -> list[str]:
    lexicon = report["lexicon"]
    return [
        f"benchmark: {report['benchmark']} {report['version']}",
        f"lexicon: {lexicon['source']}",
        f"lexicon_fingerprint: {lexicon['fingerprint']}",
        f"command: {command}",
    ]


def write_report(report: dict, out: Path, command: str, force: bool = False) -> list[Path]:
    """``results.json``, its per-phrase ``results.rows.jsonl``, ``tables.md``, ``scores.tsv``
    and heatmap PNGs, written atomically (``force``: as
    :func:`compsem.files.output_folder.check_output_folder` allows)."""
    rows = score_rows(report)
    summary = {key: value for key, value in report.items() if key != "rows"}
    with atomic_folder(out, {"kind": REPORT_KIND}, force=force) as staging:
        (staging / "results.json").write_text(
            json.dumps({**summary, "command": command}, indent=2) + "\n"
        )
        (staging / "results.rows.jsonl").write_text(
            "".join(json.dumps(row) + "\n" for row in report.get("rows", ()))
        )
        header = f"# Montague consistency: {', '.join(m['label'] for m in report['models'])}\n\n"
        header += f"Regenerate with `{command}`.\n\n"
        (staging / "tables.md").write_text(
            header + markdown_tables(rows) + "\n" + significance.markdown(rows, "##")
        )
        (staging / "scores.tsv").write_text(scores_tsv(rows, report_comments(report, command)))
        for phrase_set, test in HEATMAPS:
            heatmap(rows, phrase_set, test, staging / f"heatmap_{phrase_set}_{test}.png")
    return sorted(path for path in Path(out).iterdir() if not path.name.startswith("."))


def tables(report: dict, level: str) -> str:
    """The paper's Tables 2-5 of a report, then the chi-square tests across adjective types
    (``significance``), headed at ``level``."""
    rows = score_rows(report)
    return (
        markdown_tables(rows, (2, 3, 4, 5), level=level) + "\n" + significance.markdown(rows, level)
    )


def demo_table(report: dict) -> str:
    """One model's AN scores in one table (the demo's)."""
    return demo_markdown(score_rows(report))


def heatmaps(report: dict) -> list[Heatmap]:
    """Per model, the type × type grids of AN pair intersectivity and AAN intersectivity."""
    codes = tuple(TYPE_CODES[t] for t in ADJECTIVE_TYPES)
    grids = []
    for phrase_set, test in (("an", "pair_intersectivity"), ("aan", "intersectivity")):
        for model in report["models"]:
            result = model["results"].get(phrase_set, {}).get(test)
            if not result:
                continue
            cells = {
                tuple(TYPE_CODES[t] for t in key.split(", ")): cell["score"]
                for key, cell in result["by_type"].items()
                if len(key.split(", ")) == 2
            }
            title = f"{model['label']}: {phrase_set.upper()} {test.replace('_', ' ')}"
            grids.append(Heatmap(title, codes, codes, cells))
    return grids


def lexicon_entries(read, vocabulary: str) -> list[tuple[str, str, str]]:
    """The words a vocabulary's phrase sets were built from, with their types and synonyms:
    Appendix A's from the ``lexicon`` config; PLANE's from the phrases of ``plane_an``."""
    if vocabulary == "paper":
        rows = read("lexicon", "train")
        return list(zip(rows["word"], rows["type"], rows["synonym"], strict=True))
    rows = read("plane_an", "test")
    words = {}
    for kinds, synonyms, phrase_words in zip(
        rows["adjective_types"], rows["synonyms"], rows["words"], strict=True
    ):
        for word, kind, synonym in zip(phrase_words, [*kinds, NOUN], synonyms, strict=True):
            words.setdefault((kind == NOUN, word), (word, kind, synonym))
    return list(words.values())


EMBEDDING_TESTS = EmbeddingTests(
    # The export's config of each phrase set, by vocabulary: Appendix A's, or PLANE's adjectives.
    phrase_configs={"paper": {"an": "an", "aan": "aan"}, "plane": {"an": "plane_an"}},
    report_kind=REPORT_KIND,
    write_report=write_report,
    tables=tables,
    demo_table=demo_table,
    heatmaps=heatmaps,
    lexicon=lexicon_entries,
)
