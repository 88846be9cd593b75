"""The sanity check beside likelihood probing's table (RNPC App. C.3): how often each probed
model found the right one of a statement as "necessarily" and "not necessarily" true."""

from __future__ import annotations

from compsem.harness.results.model import model_name
from compsem.text.escape import markdown_text


def sanity_lines(runs: list[dict]) -> list[dict]:
    """Each probed model's sanity check: its accuracy on the benchmark's sentence pairs."""
    checks = {
        (run["model"], run["scores"]["sanity"]["n"], run["scores"]["sanity"]["accuracy"])
        for run in runs
        if run["scores"].get("sanity")
    }
    return [{"model": m, "pairs": n, "accuracy": a} for m, n, a in sorted(checks)]


def render_sanity(aggregate: dict) -> list[str]:
    """One paragraph naming each model's sanity accuracy, or nothing."""
    if not aggregate.get("sanity"):
        return []
    checks = "; ".join(
        f"{markdown_text(model_name(c['model']))} {100 * c['accuracy']:.0f}% of {c['pairs']} pairs"
        for c in aggregate["sanity"]
    )
    return [
        "Sanity check (App. C.3: the more likely of a statement as 'necessarily' and as 'not "
        f"necessarily' true; chance 50%, the paper's causal LMs 70-80%): {checks}."
    ]
