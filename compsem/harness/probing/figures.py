"""RNPC §7's probes in words and pictures: the tables of ``probe-edges`` and ``probe-scope``
(their ``summary.md``), their rerun command, and their part of the results page: the probe's
accuracy per layer and model (Fig. 4's before and after) and the scope ratio r per layer and per
privative M1 (Fig. 5), as SVG."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

from compsem.harness.report import svg
from compsem.harness.report.cells import markdown_table
from compsem.text.escape import markdown_code, markdown_text

KINDS = ("probe-edges", "probe-scope")


def rerun_command(command: str, dataset, config, models, out, **options) -> str:
    """The command line that reruns a probe (options left at None are left out)."""
    words = ["compsem", command, "--dataset", str(dataset), "--config", config]
    for model in models:
        words += ["--model", str(model)]
    for key, value in options.items():
        if value is not None:
            values = value if isinstance(value, list | tuple) else [value]
            words += [f"--{key.replace('_', '-')}", *map(str, values)]
    return shlex.join([*words, "--out", str(out)])


def _f(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def edges_markdown(analysis: dict) -> str:
    """The probe's accuracy per model and layer, and per category at the last layer probed."""
    categories = analysis["categories"]
    header = ["model", "layer", "accuracy", "macro-F1", *categories, "validation", "probe"]
    rows = [
        [model["model"], str(layer["layer"]), _f(layer["accuracy"]), _f(layer["macro_f1"])]
        + [_f(layer["by_category"].get(c)) for c in categories]
        + [_f(layer["validation_accuracy"]), _probe(layer["best"])]
        for model in analysis["models"]
        for layer in model["layers"]
    ]
    items, words = analysis["items"], analysis["modifier_words"]
    majority = analysis["majority"]
    return (
        f"# compsem probe-edges · {markdown_text(analysis['dataset']['config'])}\n\n"
        + markdown_table(header, rows, numeric_from=1)
        + f"\n\nItems (modifier tokens) train / validation / test: {items['train']:,} / "
        f"{items['validation']:,} / {items['test']:,}, from {words['train']} / "
        f"{words['validation']} / {words['test']} modifier words kept apart; always answering "
        f"{markdown_text(majority['category'])} (train's most frequent) scores "
        f"{majority['accuracy']:.3f} on test. Per category: the share of its test items "
        "classified right. Probe: the grid setting chosen on validation.\n"
    )


def _probe(best: dict) -> str:
    return ", ".join(f"{k}={best[k]}" for k in ("loss", "penalty", "alpha", "learning_rate"))


def scope_markdown(analysis: dict) -> str:
    """r per model and layer, and per M1 word at the last layer."""
    header = ["model", "layer", "mean r", "median r", "share r < 0.5", "phrases"]
    rows = [
        [m["model"], str(layer["layer"]), _f(layer["mean"]), _f(layer["median"])]
        + [_f(layer["below_half"]), str(layer["n"])]
        for m in analysis["models"]
        for layer in m["layers"]
    ]
    words = list(analysis["modifiers"])
    by_word = [
        [word]
        + [_f((m["by_modifier"].get(word) or {}).get("mean")) for m in analysis["models"]]
        + [str(analysis["modifiers"][word])]
        for word in words
    ]
    last = analysis["models"][0]["layers"][-1]["layer"]
    return (
        f"# compsem probe-scope · {markdown_text(analysis['dataset']['config'])}\n\n"
        + markdown_table(header, rows, numeric_from=1)
        + "\n\nr = A(M1→M2) / (A(M1→M2) + A(M1→N)), attention averaged over heads: above 0.5 "
        f"M1 attends more to M2, below it more to N. Per M1 (mean r at layer {last}):\n\n"
        + markdown_table(["M1", *(m["model"] for m in analysis["models"]), "phrases"], by_word)
        + "\n"
    )


def probe_parts(analysis: dict, plot: Callable[[str, str, str], str]) -> list[str]:
    """A probe analysis on the results page: heading, plots and its tables."""
    config = analysis["dataset"]["config"]
    names = [m["model"] for m in analysis["models"]]
    rerun = f"From {markdown_code(Path(analysis['file']).name)}; rerun: {markdown_code(analysis['command'])}"
    if analysis["analysis"] == "probe-edges":
        title = f"Edge probing of modifier category · {config}"
        series = [_series(m["model"], m["layers"], "accuracy") for m in analysis["models"]]
        chance = analysis["majority"]["accuracy"]
        series.append(
            {
                **_series("majority category", analysis["models"][0]["layers"], "accuracy"),
                "mean": [chance] * len(series[0]["shots"]),
            }
        )
        bars = svg.bars(
            f"{title}: per category, layer {analysis['models'][0]['layer']}",
            analysis["categories"],
            [
                {
                    "name": m["model"],
                    "values": [m["by_category"].get(c) for c in analysis["categories"]],
                }
                for m in analysis["models"]
            ],
            "share right",
        )
        parts = [
            f"### Edge probing of modifier category (RNPC §7, Fig. 4) · {markdown_text(config)}",
            plot(
                f"probe-edges-{config}.svg",
                svg.curves(title, series, "layer", "probe accuracy"),
                title,
            ),
            plot(f"probe-edges-{config}-categories.svg", bars, title + " per category"),
            edges_markdown(analysis).split("\n\n", 1)[1],
        ]
    else:
        title = f"Modifier scope of a privative M1 · {config}"
        series = [_series(m["model"], m["layers"], "mean") for m in analysis["models"]]
        words = list(analysis["modifiers"])[:8]
        bars = svg.bars(
            f"{title}: r per M1",
            words,
            [
                {
                    "name": m["model"],
                    "values": [(m["by_modifier"].get(w) or {}).get("mean") for w in words],
                    "std": [(m["by_modifier"].get(w) or {}).get("std") for w in words],
                }
                for m in analysis["models"]
            ],
            "mean r (0.5: M2 = N)",
        )
        parts = [
            f"### Modifier scope, attention ratio r (RNPC §7, Fig. 5) · {markdown_text(config)}",
            plot(f"probe-scope-{config}.svg", svg.curves(title, series, "layer", "mean r"), title),
            plot(f"probe-scope-{config}-modifiers.svg", bars, title + " per M1"),
            scope_markdown(analysis).split("\n\n", 1)[1],
        ]
    return [*parts, f"Models: {', '.join(map(markdown_text, names))}. {rerun}"]


def _series(name: str, layers: list[dict], key: str) -> dict:
    return {
        "name": name,
        "shots": [layer["layer"] for layer in layers],
        "mean": [layer[key] for layer in layers],
        "std": [None] * len(layers),
    }
