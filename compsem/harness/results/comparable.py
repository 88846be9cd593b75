"""Which runs may share a line of a report: the same model on the same config (or family of
resampled splits) under every evaluation setting that changes the number: the benchmark and its
version, the split, how many of its rows and which (all, the first N, N of a shuffle), the
precision, and each setting the run recorded (shots, prompt, epochs, learning rate, input length
…). Runs differing in any of these are separate lines; only seeds and resamples pool.

Two more rules keep a line's runs on the same rows and its seeds real:

- **Builds.** Two builds of a dataset (``compsem build`` with another seed or version of the
  builder) hold different rows under the same config name. Runs of one config pool only when
  they read the same build of it: its content fingerprint on the export's card, else the
  fingerprint of the data files. A line of a family (``goood_split_1`` … ``_5``) pools one run
  set per resample; where a config was read from more than one build, each build is a line of
  its own, labelled ``build <fingerprint>``, and a note says why.
- **Repeats.** A seed run twice under the same settings on the same rows is one experiment
  repeated, not two seeds: the latest run counts, the earlier ones are left out and named in a
  note (as a rerun curve supersedes the earlier one)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

# Recorded settings that do not change a run's numbers: derived counts, where the model sat on
# disk, the preset's note, the evaluation batch size, where a prompt template sat on disk and
# which built-in gave it its answers (its content is ``prompt_fingerprint``); for generation, how
# many answers came from the call cache, the model calls made, the rows file a rescore read, the
# label names (the config's) and where a chat template sat (its content is its fingerprint); how
# a saved model was trained (its seed, where its data sat: ``train_config`` is keyed).
NOT_SETTINGS = frozenset(
    {
        "cached_rows",
        "chat_template_file",
        "label_names",
        "model_calls",
        "rescored_from",
        "eval_batch_size",
        "eval_examples",
        "evidence_pairs",
        "forward_passes",
        "hypotheses",
        "limit",
        "max_eval_examples",
        "model_path",
        "preset_note",
        "template",
        "template_base",
        "training",
        "untrained_weights",
    }
)
# Settings that only restate another (a prompt's content beside its name, where its wording
# came from): keyed, but shown in a line's label only where nothing else tells the lines apart.
RESTATING = ("prompt_fingerprint", "prompt_source")
# Commands whose batch size only batches inference (fine-tuning's changes the optimisation).
INFERENCE = frozenset({"zero-shot", "prompt", "score", "llm"})
# Commands whose ``method`` is a sequence classifier or S&S's prompt model: fine-tuning, and
# zero-shot, which also scores a saved S&S model as S&S (``zero-shot --method ss``).
WITH_METHOD = frozenset({"train", "curve", "zero-shot"})


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
    """Every setting of a run that changes its numbers, by name (the build of the data apart:
    see :func:`same_rows`)."""
    dataset = result["dataset"]
    setting = {
        "benchmark": dataset.get("preset"),
        "version": dataset.get("version"),
        "split": dataset["split"],
        "rows": rows_taken(result),
        "precision": result["environment"].get("precision"),
    }
    recorded = result["settings"]
    if result["command"] in WITH_METHOD:  # runs from before S&S were all the classifier
        recorded = {"method": "classifier", **recorded}
    for name, value in sorted(recorded.items()):
        inference_batch = name == "batch_size" and result["command"] in INFERENCE
        # Where the prompt's content is recorded, where its wording came from adds nothing; an
        # older result has only that to tell a user template from the built-in of its name.
        restated = name == "prompt_source" and "prompt_fingerprint" in recorded
        if name not in NOT_SETTINGS and not inference_batch and not restated:
            setting[name] = value
    if result["command"] == "score" and recorded.get("graph"):
        # a graph run from before --graph-matching was fuzzy matched: it pools with fuzzy runs
        setting.setdefault("graph_matching", "fuzzy")
    return setting


def build_of(result: dict) -> str:
    """The fingerprint that names the build of the config a run read: the card's content
    fingerprint of the config, else the data files'."""
    dataset = result["dataset"]
    return dataset.get("card_fingerprint") or dataset.get("fingerprint") or ""


def same_rows(one: dict, other: dict) -> bool:
    """Whether two runs of a config read the same build of it: the same content fingerprint
    where both exports' cards give one (a copy of an export, or another Hub commit of the same
    data, is the same build), else the same data files."""
    a, b = one["dataset"], other["dataset"]
    if a.get("card_fingerprint") and b.get("card_fingerprint"):
        return a["card_fingerprint"] == b["card_fingerprint"]
    return a.get("fingerprint") == b.get("fingerprint")


def _key(value) -> str:
    return json.dumps(value, sort_keys=True, default=str)


@dataclass
class Line:
    """Runs that may be averaged: one model, one config (or family), one evaluation setting,
    one build of each config."""

    model: str
    config: str
    evaluation: dict
    runs: list[dict] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    label: str = ""
    # Where the runs of this model, config and setting read more than one build: this line's
    # build (its fingerprint), shown in its label.
    build: str = ""
    # Why this line holds the runs it holds: other builds kept apart, repeated seeds left out.
    notes: list[str] = field(default_factory=list)
    # Runs left out as repeats of a seed a later run of the line holds: (file, result).
    repeats: list[tuple[str, dict]] = field(default_factory=list)
    # The settings that tell this line apart from its neighbours, by name, and a last-resort
    # "line N" where nothing does.
    varying_names: list[str] = field(default_factory=list)
    suffix: str = ""

    @property
    def varying(self) -> str:
        """The settings that tell this line apart, as its label and settings column show them."""
        return self.settings_text()

    def settings_text(self, without=()) -> str:
        """The settings that tell this line apart (its ``varying``), less those a table shows
        in a column of its own (``without``)."""
        parts = [
            f"{name} {_text(self.evaluation.get(name))}"
            for name in self.varying_names
            if name not in without
        ]
        parts += [f"build {self.build}"] if self.build else []
        parts += [self.suffix] if self.suffix else []
        return ", ".join(parts)

    @property
    def rows(self) -> dict:
        counts = [n for n in map(rows_evaluated, self.runs) if n is not None]
        return {"min": min(counts, default=None), "max": max(counts, default=None)}


def group(results: list[dict], model_of, config_of, sources=None) -> list[Line]:
    """Lines of comparable runs, sorted by model, config and setting, each labelled with the
    settings that tell it apart from the others."""
    sources = list(sources) if sources else [""] * len(results)
    buckets: dict[tuple, list[int]] = {}
    settings: dict[tuple, dict] = {}
    for index, result in enumerate(results):
        setting = evaluation(result)
        key = (model_of(result), config_of(result), _key(setting))
        buckets.setdefault(key, []).append(index)
        settings[key] = setting
    ordered = []
    for key in sorted(buckets):
        model, config, _ = key
        indices = buckets[key]
        builds = _builds([results[i] for i in indices])
        split = _split_note(config, [[results[indices[p]] for p in b] for b in builds])
        for number, members in enumerate(builds):
            line = Line(model, config, settings[key])
            for position in sorted(members):
                line.runs.append(results[indices[position]])
                line.files.append(sources[indices[position]])
            if split:
                line.notes.append(split[0])
                line.build = split[1][number]
            _drop_repeats(line)
            ordered.append(line)
    _label(ordered)
    return ordered


def _builds(runs: list[dict]) -> list[list[int]]:
    """The runs (by position) split into builds: each build holds, for each config, runs that
    read the same build of it (:func:`same_rows`). A run joins a build that already holds its
    config's build, else one without its config (from the same export folder first, the latest
    first), else starts one; runs are taken by export folder and time, so a family's resamples
    read from one folder stay together."""
    order = sorted(
        range(len(runs)),
        key=lambda i: (runs[i]["dataset"].get("path") or "", str(runs[i].get("created")), i),
    )
    builds: list[dict] = []  # {"configs": {config: [result]}, "paths": set, "members": [int]}
    for i in order:
        run = runs[i]
        config, path = run["dataset"]["config"], run["dataset"].get("path")
        same = [
            b
            for b in builds
            if config in b["configs"] and all(same_rows(run, o) for o in b["configs"][config])
        ]
        free = [b for b in builds if config not in b["configs"]]
        near = [b for b in free if path in b["paths"]] or free
        chosen = same[0] if same else (near[-1] if near else None)
        if chosen is None:
            chosen = {"configs": {}, "paths": set(), "members": []}
            builds.append(chosen)
        chosen["configs"].setdefault(config, []).append(run)
        chosen["paths"].add(path)
        chosen["members"].append(i)
    return [b["members"] for b in builds]


def _split_note(config: str, builds: list[list[dict]]):
    """Where runs of one model, config and setting read more than one build: the note that says
    so, and each build's text (the fingerprints of its configs read in more than one); else
    None."""
    if len(builds) < 2:
        return None
    runs = [run for build in builds for run in build]
    seen: dict[str, dict[str, str]] = {}  # config -> fingerprint -> path
    for run in runs:
        prints = seen.setdefault(run["dataset"]["config"], {})
        prints.setdefault(build_of(run), run["dataset"].get("path") or "?")
    differing = sorted(c for c, prints in seen.items() if len(prints) > 1)
    texts = [
        "/".join(sorted({build_of(r)[:8] for r in build if r["dataset"]["config"] in differing}))
        or "–"
        for build in builds
    ]
    where = "; ".join(
        f"{name} on {len(seen[name])} builds ("
        + ", ".join(
            f"fingerprint {p} at {path}"
            for p, path in sorted(seen[name].items(), key=lambda item: item[::-1])
        )
        + ")"
        for name in differing
    )
    note = (
        f"{config}: runs read different builds of the dataset, {where}. Different builds hold "
        "different rows, so each build is a line of its own (build in its settings), not "
        "pooled as seeds."
    )
    return note, texts


def _drop_repeats(line: Line) -> None:
    """Keep the latest run of each (config, seed); the earlier ones are repeats, not seeds."""
    latest: dict[tuple, int] = {}
    for index, run in enumerate(line.runs):
        key = _repeat_key(run)
        if key not in latest or str(run.get("created")) >= str(
            line.runs[latest[key]].get("created")
        ):
            latest[key] = index
    kept = sorted(latest.values())
    if len(kept) == len(line.runs):
        return
    dropped = [i for i in range(len(line.runs)) if i not in set(kept)]
    line.repeats = [(line.files[i], line.runs[i]) for i in dropped]
    described = []
    for key, index in latest.items():
        same = [i for i in dropped if _repeat_key(line.runs[i]) == key]
        if not same:
            continue
        seed = line.runs[index].get("seed")
        what = f"seed {seed}" if seed is not None else "the run"
        described.append(
            f"{line.model}: {what} of {key[0]} ran {len(same) + 1} times with the same settings on the same "
            f"rows; the latest ({_where(line.files[index], line.runs[index])}) counts, "
            + ", ".join(_where(line.files[i], line.runs[i]) for i in same)
            + " left out"
        )
    line.notes.append(
        "; ".join(described) + ": a repeat is the same experiment, not another seed, so it is "
        "not counted in the runs nor the ±."
    )
    line.runs = [line.runs[i] for i in kept]
    line.files = [line.files[i] for i in kept]


def _repeat_key(run: dict) -> tuple:
    return run["dataset"]["config"], _key(run.get("seed"))


def _where(file: str, run: dict) -> str:
    score = run["scores"].get("accuracy")
    scored = f", accuracy {score:.3f}" if isinstance(score, float) else ""
    return f"{file or 'a result of ' + str(run.get('created'))}{scored}"


def _label(ordered: list[Line]) -> None:
    """Each line's ``varying`` (the settings that tell it apart) and ``label``, unique."""
    names = {name for line in ordered for name in line.evaluation}
    varying = sorted(
        name for name in names if len({_key(line.evaluation.get(name)) for line in ordered}) > 1
    )
    chosen = [name for name in varying if name not in RESTATING]
    for name in (name for name in RESTATING if name in varying):
        if not _distinct(ordered, chosen):
            chosen.append(name)
    chosen = [name for name in varying if name in chosen]
    for line in ordered:
        line.varying_names = chosen
        line.label = " · ".join(part for part in (line.model, line.config, line.varying) if part)
    counts: dict[str, int] = {}
    for line in ordered:  # a last resort: labels key the report's columns
        counts[line.label] = counts.get(line.label, 0) + 1
        if counts[line.label] > 1:
            line.suffix = f"line {counts[line.label]}"
            line.label += f" · {line.suffix}"


def _distinct(lines: list[Line], names: list[str]) -> bool:
    seen = {
        (line.model, line.config, line.build, *(_key(line.evaluation.get(n)) for n in names))
        for line in lines
    }
    return len(seen) == len(lines)


def notes(lines) -> list[str]:
    """Each distinct note of the lines, in order: builds kept apart, repeats left out."""
    return list(dict.fromkeys(note for line in lines for note in line.notes))


def shared_settings(lines: list[Line], shown=()) -> str:
    """The settings every line has in common, as one sentence for under a table."""
    if not lines:
        return ""
    first = lines[0].evaluation
    common = [
        f"{name} {_text(value)}"
        for name, value in first.items()
        if name not in shown
        and name not in RESTATING
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
