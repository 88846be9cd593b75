"""The recency analysis of a two-shot prompting run (PLANE App. B.2, Fig. 7): each test item is
asked once with its premises in one order and once reversed (hypothesis IT 3 after premises of IT
1,2 and of IT 2,1), so F1 by premise order shows whether the premise nearer the question sways
the answer. Read from the ``cells`` a ``compsem prompt`` result holds (weighted F1 per class ×
template × verbaliser × hypothesis IT × premise order), averaged over runs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np

from compsem.harness.report import svg
from compsem.harness.report.cells import markdown_table
from compsem.harness.results.comparable import Line
from compsem.text.escape import markdown_text

ORDER = "premise_inference_types"


def sequence(cell: dict) -> str:
    """The IT sequence of an item as Fig. 7's x-axis names it: premises, then hypothesis."""
    return f"{cell[ORDER]} → {cell.get('inference_type')}"


def panel_cells(cells: Sequence[dict]) -> dict[tuple[str, str], float]:
    """Mean F1 per (class · template · verbaliser, IT sequence): Fig. 7's points, one grid."""
    grouped = defaultdict(list)
    for cell in cells:
        row = " · ".join(str(cell.get(f)) for f in ("adjective_class", "template", "verbaliser"))
        grouped[(row, sequence(cell))].append(cell["weighted_f1"])
    return {key: float(np.mean(values)) for key, values in grouped.items()}


def order_rows(cells: Sequence[dict]) -> list[list[str]]:
    """Per class and hypothesis IT: F1 with the premises in each order (over templates,
    verbalisers and runs) and how far the second order is from the first."""
    grouped = defaultdict(lambda: defaultdict(list))
    for cell in cells:
        key = (str(cell.get("adjective_class")), str(cell.get("inference_type")))
        grouped[key][str(cell[ORDER])].append(cell["weighted_f1"])
    rows = []
    for (klass, it), orders in sorted(grouped.items()):
        means = {order: float(np.mean(values)) for order, values in sorted(orders.items())}
        shown = [f"{order}: {f1:.3f}" for order, f1 in means.items()]
        values = list(means.values())
        gap = f"{values[1] - values[0]:+.3f}" if len(values) == 2 else "–"
        rows.append([klass, it, ", ".join(shown), gap])
    return rows


def recency_parts(lines: Sequence[tuple[str, Line]], plot: Callable[[str, str, str], str]) -> list:
    """For each prompting line whose cells hold a premise order: the table of F1 by premise
    order and a heatmap of F1 by class · template · verbaliser × IT sequence."""
    parts = []
    for command, line in lines:
        cells = [
            cell
            for run in line.runs
            for cell in run["scores"].get("cells") or []
            if cell.get(ORDER) is not None and cell.get("weighted_f1") is not None
        ]
        if command != "prompt" or not cells:
            continue
        header = ["class", "hypothesis IT", "F1 by premise order", "second − first"]
        parts += [
            f"### Recency: F1 by premise order, {markdown_text(line.label)} (PLANE Fig. 7)",
            markdown_table(header, order_rows(cells), 2),
            "Each item is asked with its two premises in both orders; a gap between the orders "
            "is the recency effect (the premise nearer the question swaying the answer). Mean "
            "weighted F1 over templates, verbalisers and runs.",
        ]
        grid = panel_cells(cells)
        rows = sorted({row for row, _ in grid})
        columns = sorted({column for _, column in grid})
        title = f"{line.label}: F1 by class · template · verbaliser × IT sequence"
        text = svg.heatmap(title, rows, columns, grid, "premise ITs → hypothesis IT", "panel")
        parts.append(plot(f"recency-{line.label}.svg", text, title))
    return parts
