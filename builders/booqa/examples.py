"""What the BoOQA card shows beyond the split statistics: sampled bundles, how many arguments the
parser's named-entity recogniser typed, and the threshold sweep measured on Reuters-21578."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

EVIDENCE_LINES = 3


def typed_arguments(splits: dict[str, pa.Table]) -> dict:
    """Distinct (window, argument) of the positives with an entity type from NER, of all; an
    argument's type is its most frequent label in the window, so one count per window."""
    arguments = (
        pa.concat_tables(
            table.filter(pc.equal(table["label"], 1))
            .select(["window", role, f"{role}_type"])
            .rename_columns(["window", "argument", "type"])
            for table in splits.values()
            for role in ("subject", "object")
        )
        .group_by(["window", "argument", "type"])
        .aggregate([])
    )
    typed = int(pc.sum(pc.is_valid(arguments["type"]).cast(pa.int64())).as_py() or 0)
    return {"arguments": len(arguments), "typed": typed, "share": typed / max(len(arguments), 1)}


def card_bundles(splits: dict[str, pa.Table], seed: int, count: int = 10) -> list[dict]:
    """``count`` bundles drawn at random (seeded) from all splits, each as its split, window
    span, entries (hypothesis, label) and first evidence lines."""
    rows = [
        {**row, "split": split}
        for split, table in splits.items()
        for row in table.select(
            ["bundle_id", "hypothesis", "label", "window_start", "window_end", "evidence"]
        ).to_pylist()
    ]
    bundles: dict[str, list[dict]] = {}
    for row in rows:
        bundles.setdefault(row["bundle_id"], []).append(row)
    ids = sorted(bundles)
    chosen = np.random.default_rng([seed, 10]).permutation(len(ids))[:count]
    return [
        {
            "split": bundles[ids[i]][0]["split"],
            "window": f"{bundles[ids[i]][0]['window_start']} to {bundles[ids[i]][0]['window_end']}",
            "entries": [
                {"hypothesis": row["hypothesis"], "label": "true" if row["label"] else "false"}
                for row in sorted(bundles[ids[i]], key=lambda r: -r["label"])
            ],
            "evidence": [e["text"] for e in bundles[ids[i]][0]["evidence"][:EVIDENCE_LINES]],
        }
        for i in sorted(chosen)
    ]


SWEEP_FILE = "reuters_sweep.json"


def sweep_table() -> str:
    """The threshold sweep measured on Reuters-21578 (``perf/booqa_thresholds.py --card``), as a
    markdown table; empty if it was never measured."""
    path = resources.files("compsem.builders.booqa") / SWEEP_FILE
    if not path.is_file():
        return ""
    lines = [
        "| arguments | linked | articles = predicates per pair | argument pairs per predicate | "
        "starring pairs | felicitous predicates | positives | with a negative | "
        "bundles (dev + test) | windows | `h_only` train rows |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    measured = json.loads(path.read_text())
    for row in measured["grid"]:
        counts = [
            row.get(key, 0)
            for key in (
                "starring_pairs",
                "felicitous_predicates",
                "positives",
                "positives_with_negatives",
                "bundles",
                "windows",
                "h_only_train",
            )
        ]
        cells = [row["min_articles"], row["min_pairs"], *counts]
        kind = f"`{row.get('arguments', 'nouns')}`"
        linked = "yes" if row.get("linked", False) else "no"
        lines.append("| " + " | ".join([kind, linked, *(f"{c:,}" for c in cells)]) + " |")
    if "extraction_revision" in measured:
        lines.append(
            f"\n(Measured on the triples of extraction revision {measured['extraction_revision']}.)"
        )
    return "\n".join(lines)
