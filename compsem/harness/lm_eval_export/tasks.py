"""``compsem lm-eval-tasks``: every config of an export (or Hub dataset) as an lm-evaluation-harness
multiple-choice task, with the same prompts and choices as ``compsem llm``.

One folder per benchmark, as lm-eval's own task folders: a YAML per config
(``compsem_<benchmark>_<config>``, all tagged ``compsem_<benchmark>``, which runs them without
averaging), a group per family of comparable configs that the benchmark's spec declares
(``task_families``: e.g. ``compsem_plane_goood``, the mean over the five GOoD splits), a
``README.md`` and a ``utils.py``. A local export is read by ``utils.load_export`` from its path
relative to the task folder, so the two move together (``--metadata '{"<benchmark>_export":
DIR}'`` points elsewhere); a Hub dataset by its id and config. Configs, splits, columns and label
names come from the dataset card. lm-eval draws few-shot demonstrations with its own sampler, so
``--num_fewshot`` runs use other demonstrations than ``compsem llm --shots`` (zero-shot runs
agree row for row).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
import yaml
from huggingface_hub import DatasetCard, hf_hub_download

from compsem.benchmark import answers
from compsem.benchmark.card import compsem_metadata
from compsem.benchmark.prompts import LLMPrompt
from compsem.benchmark.spec import TaskFamily
from compsem.builders import BENCHMARKS
from compsem.files import bounded_read
from compsem.files.bounded_read import read_text
from compsem.files.export_reader import read_export, read_export_card, view_names
from compsem.files.names import check_name, check_repo_id
from compsem.harness.data.presets import PRESETS
from compsem.harness.llm.prompts import choose_prompt, prompts_for
from compsem.harness.lm_eval_export.readme import task_readme
from compsem.harness.results.files import check_writable, write_text
from compsem.metrics import module_folder
from compsem.text.escape import yaml_text

FEWSHOT_SPLITS = ("few_shot", "train")
VALIDATION_SPLITS = ("validation", "dev")
UTILS = Path(__file__).with_name("utils.py")
ANSWERS = Path(answers.__file__)


@dataclass(frozen=True)
class ConfigFiles:
    """A config as the card declares it: its splits, columns and label names."""

    name: str
    splits: tuple[str, ...]
    columns: tuple[str, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class TaskFolder:
    """What ``write_tasks`` wrote: the folder, its tasks and its groups (``{group: tasks}``)."""

    benchmark: str
    folder: Path
    tasks: list[str]
    groups: dict[str, list[str]]


class Function(str):
    """A YAML ``!function utils.NAME`` reference (lm-eval imports it from the task's folder)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(Function, lambda dumper, name: dumper.represent_scalar("!function", name))


def _read_card(dataset: str, revision: str | None) -> tuple[DatasetCard, Path | None]:
    folder = Path(dataset).expanduser()
    if folder.is_dir():
        return read_export_card(folder), folder.resolve()
    if dataset.startswith((".", "/", "~")):
        raise ValueError(f"no folder {dataset}: pass an export folder or a Hub id")
    check_repo_id(dataset, "export folder or Hub id (no such folder)")
    readme = hf_hub_download(dataset, "README.md", repo_type="dataset", revision=revision)
    return DatasetCard(read_text(readme, "card")), None


def _card_features(card: DatasetCard, config: str) -> list[dict]:
    infos = card.data.to_dict().get("dataset_info") or []
    infos = [infos] if isinstance(infos, dict) else infos
    for info in infos:
        if info.get("config_name", config if len(infos) == 1 else None) == config:
            return info.get("features", [])
    return []


def _label_names(features: list[dict]) -> tuple[str, ...]:
    for feature in features:
        if feature["name"] == "label" and isinstance(feature.get("dtype"), dict):
            names = feature["dtype"].get("class_label", {}).get("names", {})
            return tuple(names[key] for key in sorted(names, key=int))
    return ()


def read_configs(card: DatasetCard, folder: Path | None) -> list[ConfigFiles]:
    """Each config of the card; its files must exist in ``folder`` when local."""
    configs = card.data.to_dict().get("configs") or []
    if not configs:
        raise ValueError("the dataset card declares no configs: pass a compsem export or Hub id")
    exported = read_export(folder).configs if folder else {}
    views = view_names(card)  # Inspect's rows that `compsem push` adds: no task of their own
    found = []
    for entry in configs:
        name = check_name(entry.get("config_name"), "config", "the card")
        if name in views:
            continue
        features = _card_features(card, name)
        columns, splits = tuple(feature["name"] for feature in features), []
        for data in entry.get("data_files") or []:
            split = check_name(data.get("split"), "split", f"the card's config {name}")
            splits.append(split)
            files = exported.get(name, {}).get(split, [])
            columns = columns or tuple(pq.read_schema(files[0]).names if files else ())
        if not splits:
            raise ValueError(f"the card's config {name!r} lists no data files: rebuild the export")
        if not columns:
            raise ValueError(f"the card's dataset_info lists no features for config {name!r}")
        found.append(ConfigFiles(name, tuple(splits), columns, _label_names(features)))
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


def reports_aucnorm(benchmark: str, config: ConfigFiles) -> bool:
    """BoOQA ranks binary rows by P(true) and scores them by AUCnorm (its spec says so)."""
    spec = BENCHMARKS.get(benchmark)
    return bool(spec and spec.reports_aucnorm(config.name) and len(config.labels) == 2)


def metric_list(aucnorm: bool) -> list[dict]:
    """lm-eval's ``acc`` and ``acc_norm``; or ``acc`` and AUCnorm through ``utils.py``."""
    names = ("acc", "aucnorm") if aucnorm else ("acc", "acc_norm")
    return [
        {
            "metric": name,
            "aggregation": Function("utils.aucnorm") if name == "aucnorm" else "mean",
            "higher_is_better": True,
        }
        for name in names
    ]


def task_yaml(
    task: str, config: ConfigFiles, prompt: LLMPrompt, source: dict, meta: dict
) -> dict | None:
    """The lm-eval task of one config, or None when it has no test split to evaluate."""
    if "test" not in config.splits:
        return None
    entry = {"task": task, "tag": [meta["tag"]], **source}
    entry |= {"output_type": "multiple_choice", "test_split": "test"}
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
    if meta["aucnorm"]:
        entry["process_results"] = Function("utils.process_results")
    entry["metric_list"] = metric_list(meta["aucnorm"])
    entry["metadata"] = {"version": meta["version"], "prompt": prompt.name}
    return entry


def generate_yaml(entry: dict, prompt: LLMPrompt, tag: str) -> dict | None:
    """The ``generate_until`` twin of a multiple-choice task: the model answers in text (greedy,
    32 new tokens, stopped by its end-of-sequence token only, as ``compsem llm --generate``) and
    ``utils.acc`` / ``utils.unparsable`` read the answer with the parser the benchmark declares
    (``answers.py``, a copy of compsem's). None for prompts whose choices differ per row (lm-eval
    hands a metric the gold answer, not the row)."""
    if prompt.row_choices:
        return None
    generate = {key: value for key, value in entry.items() if key != "metric_list"}
    generate.pop("process_results", None)
    generate |= {"task": f"{entry['task']}_generate", "tag": [tag]}
    generate["output_type"] = "generate_until"
    generate["generation_kwargs"] = {"until": [], "do_sample": False, "max_gen_toks": 32}
    generate["metric_list"] = [
        {"metric": Function(f"utils.{name}"), "aggregation": "mean", "higher_is_better": better}
        | {"parser": prompt.parser, "choices": list(prompt.choices)}
        for name, better in (("acc", True), ("unparsable", False))
    ]
    return generate


def _source(dataset: str, config: str, export: str | None, benchmark: str, revision) -> dict:
    """Where lm-eval reads a config: ``utils.load_export`` for a local export, else the Hub."""
    if export is not None:
        kwargs = {"compsem_config": config, "compsem_export": export}
        kwargs["compsem_benchmark"] = benchmark
        return {"custom_dataset": Function("utils.load_export"), "dataset_kwargs": kwargs}
    source = {"dataset_path": dataset, "dataset_name": config}
    if revision:
        source["dataset_kwargs"] = {"revision": revision}
    return source


def _yaml(payload: dict) -> str:
    return yaml_text(payload, _Dumper)


def _write_folder(target: Path, files: dict[str, str]) -> None:
    """Write ``files`` into ``target``; one clear error, before writing anything, where it
    holds task YAMLs this run would not write (another export's, or an older compsem's whose
    group ``compsem_<benchmark>`` would clash with the tag), or where one of ``files`` is there
    and compsem did not write it (or it changed since)."""
    stale = sorted(p.name for p in target.glob("*.yaml") if p.name not in files)
    if stale:
        raise ValueError(
            f"{target} holds task files this export does not write ({', '.join(stale[:3])}"
            f"{' …' if len(stale) > 3 else ''}): lm-eval would load them too; pass an --out "
            "whose <benchmark> folder is empty or was written from this export"
        )
    check_writable(target / name for name in files)
    for name, text in files.items():
        write_text(target / name, text)


def family_groups(
    benchmark: str, families, configs: dict[str, ConfigFiles], tasks: dict[str, str]
) -> dict[str, tuple[TaskFamily, list[str]]]:
    """``{group: (family, its member configs)}`` for each family with two or more configs
    here; one clear error for a family whose configs differ in label names."""
    groups = {}
    for family in families:
        members = [name for name in family.configs if name in tasks]
        spaces = {configs[name].labels for name in members}
        if len(spaces) > 1:
            raise ValueError(
                f"{benchmark} family {family.name!r} mixes label spaces "
                f"({' vs '.join(map(str, sorted(spaces)))}): fix its task_families"
            )
        if len(members) > 1:
            groups[f"compsem_{benchmark}_{family.name}"] = (family, members)
    return groups


def group_yaml(group: str, tasks: list[str], metrics: list[dict], version: str) -> dict:
    """An lm-eval group: each metric averaged over its tasks with equal weight (the splits of a
    family are resamples of one test, not one test cut in pieces)."""
    aggregate = [
        {"metric": metric["metric"], "aggregation": "mean", "weight_by_size": False}
        for metric in metrics
    ]
    return {
        "group": group,
        "task": tasks,
        "aggregate_metric_list": aggregate,
        "metadata": {"version": version},
    }


def write_tasks(dataset: str, out: Path, revision: str | None = None) -> TaskFolder:
    """Write the task folder of ``dataset``'s benchmark into ``out/<benchmark>``."""
    card, folder = _read_card(dataset, revision)
    configs = {config.name: config for config in read_configs(card, folder)}
    benchmark = _benchmark(card, list(configs.values()))
    target = Path(out) / benchmark
    export = os.path.relpath(folder, target.resolve()) if folder else None
    version = str(compsem_metadata(card).get("version") or "0")
    tasks, aucnorm, files = {}, {}, {}
    for config in configs.values():
        prompt = prompts_for(benchmark, config.columns)[0]
        task = f"compsem_{benchmark}_{config.name}"
        meta = {"tag": f"compsem_{benchmark}", "version": version}
        meta["aucnorm"] = reports_aucnorm(benchmark, config)
        source = _source(dataset, config.name, export, benchmark, revision)
        entry = task_yaml(task, config, prompt, source, meta)
        if entry is not None:
            files[f"{task}.yaml"] = _yaml(entry)
            tasks[config.name], aucnorm[config.name] = task, meta["aucnorm"]
            # The twin asks the config's default question (a cloze is no question to a chat).
            asked = choose_prompt(benchmark, config.columns, generate=True)
            asked_entry = entry if asked is prompt else task_yaml(task, config, asked, source, meta)
            generate = generate_yaml(asked_entry, asked, f"compsem_{benchmark}_generate")
            if generate is not None:
                files[f"{task}_generate.yaml"] = _yaml(generate)
    if not tasks:
        raise ValueError(f"no config of {dataset} has a test split to evaluate")
    spec = BENCHMARKS.get(benchmark)
    groups = family_groups(benchmark, spec.task_families if spec else (), configs, tasks)
    members = {group: [tasks[m] for m in names] for group, (_, names) in groups.items()}
    for group, (_, names) in groups.items():
        metrics = metric_list(aucnorm[names[0]])
        files[f"_{group}.yaml"] = _yaml(group_yaml(group, members[group], metrics, version))
    files["utils.py"] = UTILS.read_text()
    files["answers.py"] = ANSWERS.read_text()
    files["bounded_read.py"] = Path(bounded_read.__file__).read_text()
    if any(aucnorm.values()):
        files["aucnorm.py"] = (module_folder("aucnorm") / "aucnorm.py").read_text()
    files["README.md"] = task_readme(
        benchmark, card, dataset, export, tasks, groups, configs, aucnorm
    )
    _write_folder(target, files)
    return TaskFolder(benchmark, target, list(tasks.values()), members)
