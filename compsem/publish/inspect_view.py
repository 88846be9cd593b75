"""The Inspect view that ``compsem push`` adds, so that a pushed dataset is a Hub benchmark:
``inspect eval hf/ORG/NAME`` runs it.

Inspect reads a Hub benchmark from the repo's ``eval.yaml``: tasks whose input, target and
choices are *columns* of a dataset config, solved and scored by built-ins picked by name. A
compsem config's rows hold the prompt's fields and a ``ClassLabel`` index, not a question, so
for each config with a test split and a question (its default prompt for a model that answers
in text, as ``compsem llm --generate`` asks it; clozes have none) the push adds a view: the
config ``inspect_<config>``, its test rows in stored order as ``id``, ``input`` (the question),
``choices`` (the answer words) and ``label``, and one task on it: Inspect's ``multiple_choice``
solver and ``choice`` scorer, as ``compsem inspect-tasks`` writes its choice task. The card's
compsem block names the views (``inspect_views``), so compsem's own readers never take one for
a config of the benchmark. The export on disk is not changed: the view is written beside a copy
of it, in the folder that is uploaded.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import yaml
from huggingface_hub import DatasetCard, DatasetCardData

from compsem.benchmark.card import compsem_metadata
from compsem.benchmark.prompts import LLMPrompt, default_prompt
from compsem.builders import BENCHMARKS
from compsem.files.export_reader import CARD, VIEWS_KEY, ExportFiles

EVAL_FILE = "eval.yaml"
VIEW_PREFIX = "inspect_"
SPLIT = "test"


def view_rows(prompt: LLMPrompt, files: list[Path]) -> datasets.Dataset:
    """The rows as Inspect's ``multiple_choice`` reads them: the question, the answer words,
    the gold label (the config's ``ClassLabel``; Inspect turns its index into the letter)."""
    table = pq.ParquetDataset([str(path) for path in files]).read()
    label = datasets.Features.from_arrow_schema(table.schema)["label"]
    rows = table.to_pylist()
    features = datasets.Features(
        {
            "id": datasets.Value("string"),
            "input": datasets.Value("string"),
            "choices": datasets.List(datasets.Value("string")),
            "label": label,
        }
    )
    return datasets.Dataset.from_dict(
        {
            "id": [str(row.get("id", index)) for index, row in enumerate(rows)],
            "input": [prompt.question(row).strip() for row in rows],
            "choices": [prompt.answers(row) for row in rows],
            "label": [int(row["label"]) for row in rows],
        },
        features=features,
    )


def question_of(benchmark: str, files: dict[str, list[Path]]) -> LLMPrompt | None:
    """The config's default question, or None: no test split, no declared prompt, or clozes
    only (a sentence to continue is no multiple-choice question)."""
    spec = BENCHMARKS.get(benchmark)
    if spec is None or not files.get(SPLIT):
        return None
    offered = spec.prompts_for(pq.read_schema(files[SPLIT][0]).names)
    if not offered:
        return None
    prompt = default_prompt(offered, generate=True)
    return None if prompt.cloze else prompt


def eval_task(config: str, prompt: LLMPrompt) -> dict:
    """One ``eval.yaml`` task: the view's rows, ``multiple_choice`` and ``choice``."""
    solvers = [{"name": "system_message", "args": {"template": prompt.description}}]
    return {
        "id": config,
        "config": VIEW_PREFIX + config,
        "split": SPLIT,
        "field_spec": {"input": "input", "target": "label", "choices": "choices"},
        "solvers": [*(solvers if prompt.description else []), {"name": "multiple_choice"}],
        "scorers": [{"name": "choice"}],
    }


def stage_upload(export: ExportFiles, staging: Path, repo_id: str) -> list[str]:
    """Copy the export's card and data files into ``staging`` and add the Inspect view of each
    config that has a question, with its ``eval.yaml`` and the card naming the views; returns
    the configs given a task (none: the copy alone, no ``eval.yaml``)."""
    for files in export.configs.values():
        for path in (p for split in files.values() for p in split):
            target = staging / path.relative_to(export.folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    benchmark = compsem_metadata(export.card).get("benchmark")
    tasks, views = [], {}
    for config, files in export.configs.items():
        prompt = question_of(benchmark, files)
        if prompt is None:
            continue
        rows = view_rows(prompt, files[SPLIT])
        target = staging / "inspect" / config / f"{SPLIT}-00000-of-00001.parquet"
        target.parent.mkdir(parents=True, exist_ok=True)
        rows.to_parquet(str(target))
        tasks.append(eval_task(config, prompt))
        views[VIEW_PREFIX + config] = (config, rows)
    # ``staging`` is the push's own temporary folder: plain writes, nothing of a user's there.
    if tasks:
        (staging / EVAL_FILE).write_text(yaml.safe_dump({"tasks": tasks}, sort_keys=False))
    (staging / CARD).write_text(str(_card_with_views(export.card, views, repo_id)))
    return [task["id"] for task in tasks]


def _card_with_views(
    card: DatasetCard, views: dict[str, tuple[str, datasets.Dataset]], repo_id: str
) -> DatasetCard:
    """``card`` with a config (files and features) per view, the views named in its compsem
    block, and a section saying how to run them."""
    if not views:
        return card
    data = card.data.to_dict()
    data["configs"] = [
        *data.get("configs", []),
        *(
            {
                "config_name": view,
                "data_files": [{"split": SPLIT, "path": f"inspect/{config}/*.parquet"}],
            }
            for view, (config, _) in views.items()
        ),
    ]
    data["dataset_info"] = [
        *data.get("dataset_info", []),
        *(
            {
                "config_name": view,
                "features": rows.features._to_yaml_list(),
                "splits": [
                    {"name": SPLIT, "num_bytes": rows.data.nbytes, "num_examples": len(rows)}
                ],
            }
            for view, (_, rows) in views.items()
        ),
    ]
    data["compsem"] = {
        **data.get("compsem", {}),
        VIEWS_KEY: {view: config for view, (config, _) in views.items()},
    }
    configs = ", ".join(f"`{config}`" for config, _ in views.values())
    section = (
        "\n\n## Evaluating with Inspect\n\n"
        f"`inspect eval hf/{repo_id} --model MODEL` runs one multiple-choice task per config "
        f"({configs}): Inspect's `multiple_choice` solver and `choice` scorer on the test rows, "
        f"asked as `compsem llm --generate` asks them (`hf/{repo_id}/CONFIG` runs one). Their "
        "rows are the `inspect_*` configs, views of the test splits that `compsem push` adds; "
        "`compsem inspect-tasks` writes the same tasks, with a generation variant read by the "
        "benchmark's own answer parser, for a local export.\n"
    )
    yaml_text = DatasetCardData(**data).to_yaml()
    return DatasetCard(f"---\n{yaml_text}\n---\n{card.text.rstrip()}{section}")
