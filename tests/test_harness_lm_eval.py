"""``compsem lm-eval-tasks``: a task folder per benchmark with groups only over comparable
configs, a README, BoOQA's AUCnorm through ``utils.py``, and data read relative to the folder;
checked against the real ``lm_eval`` CLI with the offline SmolLM2 on a handful of rows.
"""

import dataclasses
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest
import yaml

from compsem.benchmark.spec import TaskFamily
from compsem.builders import BENCHMARKS
from compsem.harness.llm.run import run_llm
from compsem.harness.lm_eval_export.tasks import write_tasks
from compsem.publish.export import export_benchmark
from tests.harness_data import tiny_booqa_export, tiny_plane_export, write_export

pytestmark = pytest.mark.slow
LIMIT = 12


@pytest.fixture(scope="module")
def rnpc(tmp_path_factory):
    folder = tmp_path_factory.mktemp("exports") / "rnpc"
    export_benchmark("rnpc", folder, ["spte", "epc", "spte_challenge"])
    return folder


@pytest.fixture(scope="module")
def plane(tmp_path_factory):
    """goood_split_1/2 and in_distribution_1/2 (the tiny split twice each) and two_shot."""
    import datasets

    tiny = tiny_plane_export(tmp_path_factory.mktemp("tiny") / "plane")
    splits = datasets.load_dataset(str(tiny), "goood_split_1")
    two_shot = datasets.load_dataset(str(tiny), "two_shot")
    configs = {name: dict(splits) for name in ("goood_split_1", "goood_split_2")}
    configs |= {name: dict(splits) for name in ("in_distribution_1", "in_distribution_2")}
    configs["two_shot"] = dict(two_shot)
    return write_export(tmp_path_factory.mktemp("exports") / "plane", configs)


def load_yaml(path):
    return yaml.safe_load(path.read_text().replace("!function ", ""))


def test_every_declared_family_holds_configs_of_one_regime():
    for name, spec in BENCHMARKS.items():
        for family in spec.task_families:
            regimes = {spec.config_regime(config) for config in family.configs}
            assert len(family.configs) > 1 and None not in regimes, (name, family.name)
            assert len(regimes) == 1, (name, family.name, regimes)


def test_groups_average_only_resamples_of_one_regime(plane, tmp_path):
    written = write_tasks(str(plane), tmp_path)
    assert written.groups == {
        "compsem_plane_goood": ["compsem_plane_goood_split_1", "compsem_plane_goood_split_2"],
        "compsem_plane_in_distribution": [
            "compsem_plane_in_distribution_1",
            "compsem_plane_in_distribution_2",
        ],
    }
    assert "compsem_plane_two_shot" in written.tasks  # a task of its own, in no group
    group = load_yaml(tmp_path / "plane" / "_compsem_plane_goood.yaml")
    assert group["aggregate_metric_list"][0] == {
        "metric": "acc",
        "aggregation": "mean",
        "weight_by_size": False,
    }
    task = load_yaml(tmp_path / "plane" / "compsem_plane_goood_split_2.yaml")
    assert task["tag"] == ["compsem_plane"]
    assert task["metadata"]["prompt"] == "plane_external_tf"  # scored as the paper's cloze
    twin = load_yaml(tmp_path / "plane" / "compsem_plane_goood_split_2_generate.yaml")
    assert twin["metadata"]["prompt"] == "plane_question_tf"  # asked as a question
    assert twin["doc_to_text"].endswith("Is this statement true or false?\nAnswer:")
    from lm_eval.tasks import TaskManager

    manager = TaskManager(include_path=str(tmp_path))
    tagged = manager.load("compsem_plane")  # the tag: every task, in no group
    assert sorted(tagged["tasks"]) == sorted(written.tasks) and not tagged["groups"]
    groups = manager.load(list(written.groups))["group_map"]
    assert groups == written.groups  # lm-eval reads each group with its own tasks
    readme = (tmp_path / "plane" / "README.md").read_text()
    assert (
        "| `compsem_plane_goood` | `compsem_plane_goood_split_1`, `compsem_plane_goood_split_2`"
        in readme
    )
    assert "Generalise out of distribution" in readme and "## Changelog" in readme


def test_rnpc_tasks_stand_alone_and_read_the_export_relative_to_the_folder(rnpc, tmp_path):
    written = write_tasks(str(rnpc), tmp_path / "tasks")
    assert written.groups == {}  # spte lies inside spte_challenge; epc is three-way
    assert sorted(written.tasks) == [
        "compsem_rnpc_epc",
        "compsem_rnpc_spte",
        "compsem_rnpc_spte_challenge",
    ]
    epc = load_yaml(tmp_path / "tasks" / "rnpc" / "compsem_rnpc_epc.yaml")
    assert epc["doc_to_choice"] == ["less", "equally", "more"]
    assert epc["dataset_kwargs"]["compsem_export"] == os.path.relpath(
        rnpc, tmp_path / "tasks" / "rnpc"
    )
    for path in (tmp_path / "tasks" / "rnpc").iterdir():
        text = path.read_text()  # no absolute path baked in
        assert str(tmp_path) not in text and str(rnpc) not in text, path.name
    readme = (tmp_path / "tasks" / "rnpc" / "README.md").read_text()
    assert "Recursive Noun Phrases" in readme and "@inproceedings{lyu-etal-2022-favorite" in readme
    assert "less_plausible / equally_plausible / more_plausible" in readme


def test_a_family_that_mixes_label_spaces_is_one_clear_error(rnpc, tmp_path, monkeypatch):
    mixed = TaskFamily("mixed", ("spte", "epc"), "binary and three-way together")
    spec = dataclasses.replace(BENCHMARKS["rnpc"], task_families=(mixed,))
    monkeypatch.setitem(BENCHMARKS, "rnpc", spec)
    with pytest.raises(ValueError, match="family 'mixed' mixes label spaces"):
        write_tasks(str(rnpc), tmp_path)


def copied_utils(folder):
    spec = importlib.util.spec_from_file_location("copied_utils", folder / "utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_utils_aucnorm_is_compsems_and_nan_for_one_class(tmp_path):
    export = tiny_booqa_export(tmp_path / "booqa")
    utils = copied_utils(write_tasks(str(export), tmp_path / "tasks").folder)
    row = utils.process_results({"label": 1}, [(-2.0, False), (-1.0, True)])
    assert row["acc"] == 1.0 and row["aucnorm"] == (pytest.approx(1 / (1 + math.e**-1)), 1)
    items = [(0.9, 1), (0.8, 0), (0.8, 1), (0.7, 1), (0.3, 0), (0.2, 0)]
    assert utils.aucnorm(items) == pytest.approx(0.6944, abs=1e-4)  # the metric card's example
    assert math.isnan(utils.aucnorm([(0.9, 1), (0.2, 1)]))


def _fifo_card(export):
    (export / "README.md").unlink()
    os.mkfifo(export / "README.md")


def _huge_card(export):
    with open(export / "README.md", "r+b") as card:
        card.truncate(17 * 1024 * 1024)


def _fifo_shard(export):
    (shard,) = (export / "goood_split_1").glob("test-*.parquet")
    shard.unlink()
    os.mkfifo(shard)


def _shard_outside(export):
    (shard,) = (export / "goood_split_1").glob("test-*.parquet")
    outside = export.parent / "outside.parquet"
    shard.rename(outside)
    shard.symlink_to(outside)


# Issue 55: the copied utils.py reads an export through compsem's bounded reader (copied beside
# it), so a planted card or data file is one error at once, never a hang or a read outside.
UTILS_EXPORTS = {
    "fifo-card": (_fifo_card, "FIFO"),
    "huge-card": (_huge_card, "MiB"),
    "fifo-shard": (_fifo_shard, "FIFO"),
    "shard-outside": (_shard_outside, "points outside the export"),
}


@pytest.mark.parametrize("name", list(UTILS_EXPORTS))
def test_utils_load_export_refuses_what_compsem_would_not_read(name, tmp_path):
    export = tiny_plane_export(tmp_path / "plane")
    folder = write_tasks(str(export), tmp_path / "tasks").folder
    kwargs = load_yaml(folder / "compsem_plane_goood_split_1.yaml")["dataset_kwargs"]
    utils = copied_utils(folder)
    assert len(utils.load_export(**kwargs)["test"]) > 0  # the good export loads
    damage, words = UTILS_EXPORTS[name]
    damage(export)
    started = time.monotonic()
    with pytest.raises(ValueError, match=words):
        utils.load_export(**kwargs)
    assert time.monotonic() - started < 5


def run_lm_eval(tasks, smollm2, task: str, out, metadata: dict | None = None):
    """The real lm_eval CLI, offline, on ``task``: its results, per-row samples and stdout."""
    command = [sys.executable, "-m", "lm_eval", "--model", "hf", "--model_args"]
    command += [f"pretrained={smollm2}", "--include_path", str(tasks), "--tasks", task]
    command += ["--limit", str(LIMIT), "--apply_chat_template", "--batch_size", "8"]
    command += ["--device", "cpu", "--output_path", str(out), "--log_samples"]
    if metadata:
        command += ["--metadata", json.dumps(metadata)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    finished = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert finished.returncode == 0, finished.stderr[-2000:]
    (results,) = out.rglob("results_*.json")
    (samples,) = out.rglob(f"samples_{task}_*.jsonl")
    rows = sorted(map(json.loads, samples.read_text().splitlines()), key=lambda s: s["doc_id"])
    return json.loads(results.read_text())["results"][task], rows, finished.stdout


def compsem_llm_rows(export, config, out):
    ours = run_llm(str(export), config, out, limit=LIMIT, progress=False)
    (row_file,) = out.glob("*.rows.jsonl")
    return ours["scores"], [json.loads(line) for line in row_file.read_text().splitlines()]


def test_lm_eval_on_a_moved_booqa_folder_reports_compsem_llms_aucnorm(smollm2, tmp_path):
    site = tmp_path / "site"
    export = tiny_booqa_export(site / "hub" / "booqa")
    write_tasks(str(export), site / "tasks")
    moved = tmp_path / "elsewhere"
    shutil.copytree(site, moved)
    shutil.rmtree(site)  # only the copy is left: nothing may point back here
    results, samples, stdout = run_lm_eval(
        moved / "tasks", smollm2, "compsem_booqa_en", tmp_path / "lm_eval"
    )
    scores, rows = compsem_llm_rows(moved / "hub" / "booqa", "en", tmp_path / "ours")
    assert len(samples) == len(rows) == results["sample_len"]
    assert results["aucnorm,none"] == pytest.approx(scores["aucnorm"], abs=1e-6)
    assert results["acc,none"] == pytest.approx(scores["accuracy"])
    header = next(line for line in stdout.splitlines() if "Metric" in line)
    assert header.split("|")[1].strip() == "Tasks"  # the real headers, not A B C …


def test_lm_eval_reads_an_export_named_by_metadata_and_agrees_row_for_row(smollm2, tmp_path):
    export = tiny_plane_export(tmp_path / "hub" / "plane")
    write_tasks(str(export), tmp_path / "site" / "tasks")
    alone = tmp_path / "alone"
    shutil.copytree(tmp_path / "site" / "tasks", alone)  # the task folder without the export
    task = "compsem_plane_goood_split_1"
    metadata = {"plane_export": str(export)}
    kwargs = load_yaml(alone / "plane" / f"{task}.yaml")["dataset_kwargs"]
    with pytest.raises(FileNotFoundError, match="plane_export"):
        copied_utils(alone / "plane").load_export(**kwargs)  # not found without the metadata
    results, samples, _ = run_lm_eval(alone, smollm2, task, tmp_path / "lm_eval", metadata)
    scores, rows = compsem_llm_rows(export, "goood_split_1", tmp_path / "ours")
    assert len(samples) == len(rows) == LIMIT
    theirs = [int(np.argmax([float(r[0]) for r in s["filtered_resps"]])) for s in samples]
    assert theirs == [row["prediction"] for row in rows]
    assert scores["accuracy"] == pytest.approx(results["acc,none"])
    for sample, row in zip(samples, rows, strict=True):
        lm_eval_scores = [float(r[0]) for r in sample["filtered_resps"]]
        assert row["log_likelihoods"] == pytest.approx(lm_eval_scores, abs=1e-4)


def test_a_folder_holding_other_tasks_is_refused_before_anything_is_written(rnpc, tmp_path):
    old_group = tmp_path / "rnpc" / "_compsem_rnpc.yaml"  # compsem's former group, now a tag
    old_group.parent.mkdir()
    old_group.write_text("group: compsem_rnpc\n")
    with pytest.raises(ValueError, match="holds task files this export does not write"):
        write_tasks(str(rnpc), tmp_path)
    assert [p.name for p in old_group.parent.iterdir()] == [old_group.name]
    old_group.unlink()
    write_tasks(str(rnpc), tmp_path)
    write_tasks(str(rnpc), tmp_path)  # writing the same export again is fine
