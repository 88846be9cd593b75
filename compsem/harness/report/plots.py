"""PNG plots: few-shot learning curves with a band over seeds, and precision-recall curves."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from compsem.files.ownership import claim_file


def _pyplot():
    import matplotlib  # matplotlib takes a second to import: only plots pay for it

    matplotlib.use("Agg")  # files only; no display needed
    import matplotlib.pyplot as plt

    return plt


def curve_plot(summary: dict, metric: str, title: str, path: Path) -> Path:
    """Mean score against shots, with a band of ± one standard deviation over seeds."""
    plt = _pyplot()
    shots = np.asarray(summary["shots"], dtype=float)
    mean = np.asarray(summary["mean"], dtype=float)
    std = np.asarray([s if s is not None else 0.0 for s in summary["std"]], dtype=float)
    figure, axes = plt.subplots(figsize=(5.5, 3.6), dpi=120)
    axes.plot(shots, mean, marker="o", label=f"mean {metric}")
    axes.fill_between(shots, mean - std, mean + std, alpha=0.25, label="± std over seeds")
    positive = shots[shots > 0]
    if len(positive) and positive.max() / positive.min() >= 16:
        axes.set_xscale("symlog", linthresh=max(1.0, positive.min()))  # doubling grids (SETI)
    axes.set_xlabel("training examples (shots)")
    axes.set_ylabel(metric)
    axes.set_ylim(0, 1)
    return _save(plt, figure, axes, title, path)


def _save(plt, figure, axes, title: str, path: Path) -> Path:
    """Title, grid and legend in the plots' common style, then write the PNG and free it."""
    axes.set_title(title, fontsize=9)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    claim_file(path, lambda partial: figure.savefig(partial, format="png"))
    plt.close(figure)
    return path


def precision_recall_plot(curve: dict, baseline: float, title: str, path: Path) -> Path:
    """Precision against recall, with the random baseline precision ξ."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(5, 3.6), dpi=120)
    axes.plot(curve["recall"], curve["precision"], label="model")
    axes.axhline(baseline, color="grey", linestyle="--", label=f"random ξ = {baseline:.3f}")
    axes.set_xlabel("recall")
    axes.set_ylabel("precision")
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1.02)
    return _save(plt, figure, axes, title, path)
