"""Which runs may share a line of a report: the same model on the same config (or family of
resampled splits) under every evaluation setting that changes the number: the benchmark and its
version, the split, how many of its rows and which (all, the first N, N of a shuffle), the
precision, and each setting the run recorded (shots, prompt, epochs, learning rate, input length
…). Runs differing in any of these are separate lines; only seeds and resamples pool."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

# Recorded settings that do not change a run's numbers: derived counts, where the model sat on
# disk, the preset's note, the evaluation batch size.
NOT_SETTINGS = frozenset(
    {
        "eval_batch_size",
        "eval_examples",
        "evidence_pairs",
        "forward_passes",
        "hypotheses",
        "limit",
        "max_eval_examples",
        "model_path",
        "preset_note",
        "prompt_source",
        "untrained_weights",
    }
)
# Commands whose batch size only batches inference (fine-tuning's changes the optimisation).
INFERENCE = frozenset({"zero-shot", "prompt", "score", "llm"})


def rows_evaluated(result: dict) -> int | None:
    """How many rows the run scored."""
    settings, scores = result["settings"], result["scores"]
    for value in (settings.get("eval_examples"), scores.get("n"), settings.get("hypotheses")):
        if isinstance(value, int):
            return value
    return None


def rows_taken(result: dict) -> str:
    """Which rows of the split: all, the first N (``--limit``) or N of a fixed shuffle
    (``--max-eval-examples``). A result written before the cap was recorded says so."""
    settings = result["settings"]
    if result["command"] == "llm":
        limit = settings.get("limit")
        return "all" if limit is None else f"first {limit}"
    if "max_eval_examples" in settings:
        cap = settings["max_eval_examples"]
        return "all" if cap is None else f"{cap} shuffled"
    return f"{rows_evaluated(result)} (cap not recorded)"


def evaluation(result: dict) -> dict:
    """Every setting of a run that changes its numbers, by name."""
    dataset = result["dataset"]
    setting = {
        "benchmark": dataset.get("preset"),
        "version": dataset.get("version"),
        "split": dataset["split"],
        "rows": rows_taken(result),
        "precision": result["environment"].get("precision"),
    }
    for name, value in sorted(result["settings"].items()):
        inference_batch = name == "batch_size" and result["command"] in INFERENCE
        if name not in NOT_SETTINGS and not inference_batch:
            setting[name] = value
    return setting


def _key(value) -> str:
    return json.dumps(value, sort_keys=True, default=str)


@dataclass
class Line:
    """Runs that may be averaged: one model, one config (or family), one evaluation setting."""

    model: str
    config: str
    evaluation: dict
    runs: list[dict] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    label: str = ""
    varying: str = ""

    @property
    def rows(self) -> dict:
        counts = [n for n in map(rows_evaluated, self.runs) if n is not None]
        return {"min": min(counts, default=None), "max": max(counts, default=None)}


def group(results: list[dict], model_of, config_of, sources=None, shown=()) -> list[Line]:
    """Lines of comparable runs, sorted by model, config and setting, each labelled with the
    settings that tell it apart from the others (``shown`` ones have a column of their own)."""
    lines: dict[tuple, Line] = {}
    for index, result in enumerate(results):
        model, config, setting = model_of(result), config_of(result), evaluation(result)
        line = lines.setdefault((model, config, _key(setting)), Line(model, config, setting))
        line.runs.append(result)
        line.files.append(sources[index] if sources else "")
    ordered = [lines[k] for k in sorted(lines)]
    names = {name for line in ordered for name in line.evaluation}
    varying = sorted(
        name
        for name in names - set(shown)
        if len({_key(line.evaluation.get(name)) for line in ordered}) > 1
    )
    for line in ordered:
        line.varying = ", ".join(f"{name} {_text(line.evaluation.get(name))}" for name in varying)
        line.label = " · ".join(part for part in (line.model, line.config, line.varying) if part)
    return ordered


def shared_settings(lines: list[Line], shown=()) -> str:
    """The settings every line has in common, as one sentence for under a table."""
    if not lines:
        return ""
    first = lines[0].evaluation
    common = [
        f"{name} {_text(value)}"
        for name, value in first.items()
        if name not in shown
        and all(_key(line.evaluation.get(name)) == _key(value) for line in lines)
    ]
    return "Every line: " + ", ".join(common) + "." if common else ""


def _text(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        return "/".join(map(_text, value))
    if isinstance(value, dict):
        return ";".join(f"{k}→{_text(v)}" for k, v in value.items())
    return "–" if value is None else str(value)


def rows_text(rows: dict) -> str:
    """ "1,300", or "1,250–1,300" where resampled splits differ in size."""
    if rows["min"] is None:
        return "–"
    if rows["min"] == rows["max"]:
        return f"{rows['min']:,}"
    return f"{rows['min']:,}–{rows['max']:,}"
