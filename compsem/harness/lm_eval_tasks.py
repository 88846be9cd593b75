"""``compsem lm-eval-tasks``: every config of an export (or Hub dataset) as an lm-evaluation-harness
multiple-choice task, with the same prompts and choices as ``compsem llm``.

One YAML per config, ``compsem_<benchmark>_<config>.yaml``, and a group per benchmark,
``compsem_<benchmark>``. A local export is read as Parquet (``dataset_path: parquet`` with the
files' absolute paths), a Hub dataset by its id and config. Configs, splits and columns come from
the dataset card (its ``configs`` and ``dataset_info``), the benchmark from its ``compsem``
block. lm-eval draws few-shot demonstrations with its own sampler, so ``--num_fewshot`` runs use
other demonstrations than ``compsem llm --shots`` (zero-shot runs agree row for row).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
import yaml
from huggingface_hub import DatasetCard, hf_hub_download

from compsem.card import compsem_metadata
from compsem.harness.llm_prompts import prompts_for
from compsem.harness.presets import PRESETS
from compsem.harness.results import write_text
from compsem.names import card_files, check_name, check_repo_id
from compsem.prompts import LLMPrompt

FEWSHOT_SPLITS = ("few_shot", "train")
VALIDATION_SPLITS = ("validation", "dev")


@dataclass(frozen=True)
class ConfigFiles:
    """A config as the card declares it: its splits (with absolute files when local) and
    columns."""

    name: str
    splits: dict[str, list[str]]
    columns: tuple[str, ...]


def _read_card(dataset: str, revision: str | None) -> tuple[DatasetCard, Path | None]:
    folder = Path(dataset).expanduser()
    if folder.is_dir():
        readme = folder / "README.md"
        if not readme.is_file():
            raise ValueError(f"{folder} has no README.md: pass a folder written by compsem build")
        return DatasetCard.load(readme), folder.resolve()
    if dataset.startswith((".", "/", "~")):
        raise ValueError(f"no folder {dataset}: pass an export folder or a Hub id")
    check_repo_id(dataset, "export folder or Hub id (no such folder)")
    readme = hf_hub_download(dataset, "README.md", repo_type="dataset", revision=revision)
    return DatasetCard.load(readme), None


def _card_columns(card: DatasetCard, config: str) -> tuple[str, ...]:
    infos = card.data.to_dict().get("dataset_info") or []
    infos = [infos] if isinstance(infos, dict) else infos
    for info in infos:
        if info.get("config_name") == config:
            return tuple(feature["name"] for feature in info.get("features", []))
    raise ValueError(f"the card's dataset_info lists no features for config {config!r}")


def read_configs(card: DatasetCard, folder: Path | None) -> list[ConfigFiles]:
    """Each config of the card, its splits' files resolved in ``folder`` when local."""
    configs = card.data.to_dict().get("configs") or []
    if not configs:
        raise ValueError("the dataset card declares no configs: pass a compsem export or Hub id")
    found = []
    for entry in configs:
        name, splits = check_name(entry.get("config_name"), "config", "the card"), {}
        for data in entry.get("data_files") or []:
            split = check_name(data.get("split"), "split", f"the card's config {name}")
            files = card_files(folder, data.get("path"), f"config {name}") if folder else []
            if folder and not files:
                raise ValueError(f"config {name!r}: no files match {data['path']} in {folder}")
            splits[split] = [str(f) for f in files]
        if not splits:
            raise ValueError(f"the card's config {name!r} lists no data files: rebuild the export")
        columns = pq.read_schema(splits[next(iter(splits))][0]).names if folder else None
        found.append(ConfigFiles(name, splits, tuple(columns or _card_columns(card, name))))
    return found


def _benchmark(card: DatasetCard, configs: list[ConfigFiles]) -> str:
    name = compsem_metadata(card).get("benchmark")
    if name:
        return check_name(name, "benchmark", "the card's compsem block")
    columns = set(configs[0].columns)
    for preset in PRESETS.values():
        if preset.signature and preset.signature <= columns:
            return preset.name
    raise ValueError("cannot tell which benchmark this is: the card has no compsem block")


def task_yaml(
    task: str, config: ConfigFiles, prompt: LLMPrompt, source: dict, version: str | None
) -> dict | None:
    """The lm-eval task of one config, or None when it has no test split to evaluate."""
    if "test" not in config.splits:
        return None
    entry = {"task": task, **source, "output_type": "multiple_choice", "test_split": "test"}
    validation = next((s for s in VALIDATION_SPLITS if s in config.splits), None)
    fewshot = next((s for s in FEWSHOT_SPLITS if s in config.splits), None)
    if validation:
        entry["validation_split"] = validation
    if fewshot:
        entry["fewshot_split"] = fewshot
    if prompt.description:
        entry["description"] = prompt.description
    entry["doc_to_text"] = prompt.text
    entry["doc_to_choice"] = prompt.choices if prompt.row_choices else list(prompt.choices)
    entry["doc_to_target"] = "label"
    entry["target_delimiter"] = prompt.target_delimiter
    entry["fewshot_delimiter"] = prompt.fewshot_delimiter
    entry["metric_list"] = [
        {"metric": metric, "aggregation": "mean", "higher_is_better": True}
        for metric in ("acc", "acc_norm")
    ]
    entry["metadata"] = {"version": version or "0", "prompt": prompt.name}
    return entry


def _source(dataset: str, config: ConfigFiles, local: bool, revision: str | None) -> dict:
    if local:
        return {"dataset_path": "parquet", "dataset_kwargs": {"data_files": config.splits}}
    source = {"dataset_path": dataset, "dataset_name": config.name}
    if revision:
        source["dataset_kwargs"] = {"revision": revision}
    return source


def _dump(path: Path, payload: dict) -> None:
    text = yaml.safe_dump(payload, sort_keys=False, allow_unicode=True, width=1000)
    write_text(path, text)


def write_tasks(dataset: str, out: Path, revision: str | None = None) -> dict[str, list[str]]:
    """Write the tasks and the group of ``dataset``'s benchmark into ``out``; returns
    ``{benchmark: [task names]}``."""
    card, folder = _read_card(dataset, revision)
    configs = read_configs(card, folder)
    benchmark = _benchmark(card, configs)
    version = compsem_metadata(card).get("version")
    out = Path(out)
    names = []
    for config in configs:
        prompt = prompts_for(benchmark, config.columns)[0]
        task = f"compsem_{benchmark}_{config.name}"
        source = _source(dataset, config, folder is not None, revision)
        entry = task_yaml(task, config, prompt, source, version)
        if entry is not None:
            _dump(out / benchmark / f"{task}.yaml", entry)
            names.append(task)
    if not names:
        raise ValueError(f"no config of {dataset} has a test split to evaluate")
    group = {
        "group": f"compsem_{benchmark}",
        "task": names,
        "aggregate_metric_list": [{"metric": "acc", "aggregation": "mean", "weight_by_size": True}],
        "metadata": {"version": version or "0"},
    }
    _dump(out / benchmark / f"_compsem_{benchmark}.yaml", group)
    return {benchmark: names}
