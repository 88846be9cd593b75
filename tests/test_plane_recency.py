"""PLANE's recency analysis (App. B.2, Fig. 7) on the results page: F1 of a two-shot prompting run
by premise order, from the cells ``compsem prompt`` writes, as a table and a heatmap."""

import re

import pytest

from compsem.harness.analysis.recency import order_rows, panel_cells
from compsem.harness.models.device import resolve
from compsem.harness.report.run import run_report
from compsem.harness.results.files import make_result, write_result


def cells(gap: float) -> list[dict]:
    """Two-shot cells in which the second premise order scores ``gap`` more than the first."""
    return [
        {
            "adjective_class": klass,
            "template": template,
            "verbaliser": verbaliser,
            "inference_type": 3,
            "premise_inference_types": order,
            "n": 4,
            "weighted_f1": 0.5
            + (gap if order == "2,1" else 0.0)
            + (0.1 if verbaliser == "GP" else 0),
            "accuracy": 0.5,
        }
        for klass in ("I", "S")
        for template in ("internal", "external")
        for verbaliser in ("GP", "TF")
        for order in ("1,2", "2,1")
    ]


def test_the_order_table_gives_each_order_and_the_gap_between_them():
    rows = order_rows(cells(0.2))
    assert rows[0] == ["I", "3", "1,2: 0.550, 2,1: 0.750", "+0.200"]
    grid = panel_cells(cells(0.2))
    assert grid[("S · internal · GP", "2,1 → 3")] == pytest.approx(0.8)
    assert len(grid) == 2 * 2 * 2 * 2  # class · template · verbaliser rows × two IT sequences


def test_a_prompting_run_gets_its_recency_table_and_plot_on_the_page(tmp_path):
    scores = {"accuracy": 0.6, "weighted_f1": 0.6, "cells": cells(-0.1)}
    # Table 4's cells, as the prompt command writes them beside the joint ones
    scores["per_class"] = {k: {"mean": 0.5, "std": 0.1, "n": 4} for k in ("I", "S", "Average")}
    settings = {"batch_size": 32, "max_length": 128, "eval_examples": 32}
    dataset = {"path": "exports/plane", "config": "two_shot", "split": "test", "revision": None}
    dataset |= {"fingerprint": "f" * 16, "version": "3.4.0", "preset": "plane"}
    result = make_result(
        "prompt", "bert-base-cased", dataset, None, settings, scores, resolve("cpu")
    )
    write_result(tmp_path / "runs", result)
    run_report([tmp_path / "runs"], tmp_path / "page")
    page = (tmp_path / "page" / "index.md").read_text()
    assert "F1 by premise order" in page and "(PLANE Fig. 7)" in page
    assert "| S | 3 | 1,2: 0.550, 2,1: 0.450 | -0.100 |" in page
    (plot,) = (tmp_path / "page" / "plots").glob("recency-*.svg")
    assert plot.read_text().count('class="cell"') == 16
    assert re.search(r"plots/recency-[^)]*\.svg", page)
