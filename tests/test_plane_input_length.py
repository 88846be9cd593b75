"""PLANE's accuracy against input length (App. D, Fig. 8) on the results page: train runs of one
model and config at several ``--max-length`` values become one curve and a table."""

import json

from compsem.harness.models.device import resolve
from compsem.harness.report.run import run_report
from compsem.harness.results.files import make_result, write_result


def train_run(folder, max_length: int, seed: int, accuracy: float, epochs: float = 1.0):
    dataset = {"path": "exports/plane", "config": "in_distribution_1", "split": "test"}
    dataset |= {"revision": None, "fingerprint": "f" * 16, "version": "3.4.0", "preset": "plane"}
    settings = {"epochs": epochs, "batch_size": 8, "learning_rate": 2e-5, "max_length": max_length}
    settings |= {"train_examples": 400, "eval_examples": 200, "max_eval_examples": None}
    # as train writes it: the preset's note names what the run overrode
    settings["preset_note"] = "" if max_length == 12 else f"overridden: max_length {max_length}"
    scores = {"accuracy": accuracy, "macro_f1": accuracy}
    result = make_result(
        "train", "bert-base-cased", dataset, seed, settings, scores, resolve("cpu")
    )
    return write_result(folder / f"len{max_length}-seed{seed}-epochs{epochs}", result)


def test_runs_at_several_max_lengths_make_one_curve_on_the_page(tmp_path):
    for length, accuracies in ((6, (0.5, 0.52)), (8, (0.8, 0.84)), (12, (0.99, 1.0))):
        for seed, accuracy in enumerate(accuracies, start=1):
            train_run(tmp_path / "runs", length, seed, accuracy)
    run_report([tmp_path / "runs"], tmp_path / "page")
    page = (tmp_path / "page" / "index.md").read_text()
    section = page.split("### Accuracy against input length (PLANE Fig. 8)", 1)[1]
    assert "| bert-base-cased, in_distribution_1 | 8 | 0.820 ± 0.028 | 2 |" in section
    plot = (tmp_path / "page" / "plots" / "input-length.svg").read_text()
    assert plot.count('class="curve"') == 1 and ">12<" in plot


def test_one_max_length_draws_no_curve_nor_do_lengths_of_runs_trained_otherwise(tmp_path):
    train_run(tmp_path / "runs", 12, 1, 0.9)
    train_run(tmp_path / "runs", 8, 1, 0.8, epochs=3.0)
    run_report([tmp_path / "runs"], tmp_path / "page")
    assert "Accuracy against input length" not in (tmp_path / "page" / "index.md").read_text()


def length_section(page) -> str:
    """The page's Fig. 8 section: its heading to the next heading."""
    text = (page / "index.md").read_text()
    return text.split("### Accuracy against input length (PLANE Fig. 8)", 1)[1].split("\n#", 1)[0]


def test_a_sweep_in_one_folder_draws_the_curve_a_folder_per_length_draws(tmp_path):
    """``train --max-length 6 8 12`` writes each length's files into its one --out, named apart
    (``-len6``); the page draws them as the curve of one ``train`` per length does."""
    for length, accuracies in ((6, (0.5, 0.52)), (8, (0.8, 0.84)), (12, (0.99, 1.0))):
        for seed, accuracy in enumerate(accuracies, start=1):
            path = train_run(tmp_path / "apart", length, seed, accuracy)
            write_result(tmp_path / "sweep", json.loads(path.read_text()), f"len{length}")
    assert sorted(path.name for path in (tmp_path / "sweep").glob("train-*.json"))[:3] == [
        "train-in_distribution_1-len12-seed1.json",
        "train-in_distribution_1-len12-seed2.json",
        "train-in_distribution_1-len6-seed1.json",
    ]
    run_report([tmp_path / "apart"], tmp_path / "page-apart")
    run_report([tmp_path / "sweep"], tmp_path / "page-sweep")
    section = length_section(tmp_path / "page-sweep")
    assert "| bert-base-cased, in_distribution_1 | 8 | 0.820 ± 0.028 | 2 |" in section
    assert section == length_section(tmp_path / "page-apart")
    plots = [
        tmp_path / page / "plots" / "input-length.svg" for page in ("page-sweep", "page-apart")
    ]
    assert plots[0].read_text() == plots[1].read_text()
