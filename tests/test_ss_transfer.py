"""A saved S&S model scored on another config: `compsem zero-shot --method ss` (BoOQA Table 1's
cells across Levy/Holt subsets, Table 6's Levy/Holt → SherLIiC). One tiny S&S model is trained
on `levyholt_full` (the Levy/Holt fixture of tests/test_booqa_export.py) and scored on
`levyholt_directional` and on `sherliic` (the release fixture of tests/test_sherliic.py); scored
on its own training config it gives `train`'s evaluation row for row."""

import json

import pytest

from compsem.cli import main
from compsem.harness.report.run import run_report
from compsem.harness.results.comparable import evaluation
from compsem.harness.results.files import read_results
from compsem.harness.results.reproduce import command_line
from compsem.publish.export import export_benchmark
from tests.harness_data import compsem, minilm_with_head, tiny_plane_export
from tests.test_booqa_export import levyholt  # noqa: F401 — the Levy/Holt files, a fixture
from tests.test_sherliic import ROWS, write_release

CONFIGS = ["levyholt_full", "levyholt_directional", "sherliic"]
# SherLIiC's test split of the fixture holds one pair: score both labels' pairs, for AUCnorm
SHERLIIC = {"dev": ROWS["dev"], "test": ROWS["dev"] + ROWS["test"]}


def rows_of(folder) -> list[dict]:
    (path,) = folder.glob("*.rows.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def booqa(tmp_path_factory, levyholt):  # noqa: F811 — the imported fixture
    root = tmp_path_factory.mktemp("ss-transfer")
    release = write_release(root / "sherliic-release", SHERLIIC)
    out = root / "booqa"
    export_benchmark("booqa", out, CONFIGS, levyholt=str(levyholt), sherliic=str(release))
    return out


@pytest.fixture(scope="module")
def trained(booqa, tmp_path_factory, one_thread):
    """`train --method ss --save-model` on levyholt_full: its result folder (model-seed1 in it)."""
    out = tmp_path_factory.mktemp("ss-transfer") / "lh"
    command = "train --config levyholt_full --method ss --save-model --device cpu --epochs 1"
    assert compsem(command, dataset=booqa, out=out) == 0
    return out


def zero_shot(booqa, trained, out, config: str, *flags: str) -> dict:
    command = f"zero-shot --config {config} --device cpu {' '.join(flags)}"
    assert compsem(command, dataset=booqa, model=trained / "model-seed1", out=out) == 0
    (result,) = read_results([out])
    return result


@pytest.mark.slow
def test_scored_on_its_training_config_it_gives_trains_evaluation_row_for_row(
    booqa, trained, tmp_path
):
    # no --method: the model's folder records ss, and zero-shot scores it as S&S
    result = zero_shot(booqa, trained, tmp_path / "same", "levyholt_full")
    (train,) = read_results([trained])
    settings = result["settings"]
    assert settings["method"] == "ss" and settings["train_config"] == "levyholt_full"
    assert settings["training"]["seed"] == 1 and settings["max_length"] == 128
    for key in ("aucnorm", "auc_50", "auc_xi", "accuracy"):
        assert result["scores"][key] == pytest.approx(train["scores"][key], abs=1e-6), key
    ours, theirs = rows_of(tmp_path / "same"), rows_of(trained)
    assert [row["id"] for row in ours] == [row["id"] for row in theirs]
    for mine, train_row in zip(ours, theirs, strict=True):
        assert mine["prediction"] == train_row["prediction"]
        assert mine["score"] == pytest.approx(train_row["score"], abs=1e-6)
        assert mine["pattern_probabilities"] == pytest.approx(
            train_row["pattern_probabilities"], abs=1e-6
        )
    # the report keeps it apart from NLI zero-shot, its train → test cell named; its command
    # line reruns it as S&S
    assert evaluation(result)["method"] == "ss"
    assert evaluation(result)["train_config"] == "levyholt_full"
    assert "training" not in evaluation(result)  # the seed pools; where the data sat is no setting
    assert "--method ss" in command_line(result)
    assert "| trained on | levyholt_full (ss) |" in run_report([tmp_path / "same"])


@pytest.mark.slow
@pytest.mark.parametrize("config, rows", [("levyholt_directional", 2), ("sherliic", 3)])
def test_a_model_trained_on_levyholt_full_is_scored_as_ss_on_another_config(
    booqa, trained, tmp_path, config, rows
):
    result = zero_shot(booqa, trained, tmp_path / config, config, "--method ss")
    assert result["dataset"]["config"] == config
    settings = result["settings"]
    assert settings["method"] == "ss" and settings["train_config"] == "levyholt_full"
    assert {"aucnorm", "aucnorm_ci", "auc_50", "accuracy"} <= set(result["scores"])
    assert result["scores"]["n"] == rows
    for row in rows_of(tmp_path / config):
        score = max(row["pattern_probabilities"]) - max(row["antipattern_probabilities"])
        assert row["score"] == pytest.approx(score) and row["prediction"] == int(score > 0)


def refused(tmp_path, capsys, argv: list[str]) -> str:
    """Run ``compsem`` on ``argv`` (--out runs, in tmp_path): exit 2, one line, nothing written."""
    capsys.readouterr()  # what the fixtures printed
    code = main([*argv, "--out", str(tmp_path / "runs"), "--device", "cpu"])
    error = capsys.readouterr().err
    assert code == 2, error
    assert len([line for line in error.splitlines() if line.strip()]) == 1, error
    assert "Traceback" not in error
    assert not (tmp_path / "runs").exists()
    return error


@pytest.mark.slow
def test_a_method_other_than_the_one_the_model_was_trained_with_is_refused(
    booqa, trained, tmp_path, capsys
):
    model = str(trained / "model-seed1")
    for method in ("ss-symmetric", "classifier"):
        argv = ["zero-shot", "--dataset", str(booqa), "--config", "levyholt_directional"]
        error = refused(tmp_path, capsys, [*argv, "--model", model, "--method", method])
        assert "was trained with --method ss" in error and f"--method {method}" in error


@pytest.mark.slow
def test_an_ss_model_on_a_config_without_propositions_is_refused_before_it_loads(
    trained, tmp_path, capsys, monkeypatch
):
    import transformers

    def no_weights(*args, **kwargs):
        raise AssertionError("the model's weights were read")

    monkeypatch.setattr(
        transformers.AutoModelForSequenceClassification, "from_pretrained", no_weights
    )
    plane = tiny_plane_export(tmp_path / "plane")
    argv = ["zero-shot", "--dataset", str(plane), "--config", "goood_split_1"]
    model = ["--model", str(trained / "model-seed1")]
    error = refused(tmp_path, capsys, [*argv, *model, "--method", "ss"])
    assert "--method ss" in error and "premise_subject" in error
    # without --method the folder's record says ss, and the error says so
    error = refused(tmp_path, capsys, [*argv, *model])
    assert "was trained with --method ss" in error and "drop --method" not in error


@pytest.mark.usefixtures("one_thread")
def test_method_ss_with_a_model_that_is_not_a_two_label_classifier_is_refused(
    booqa, tmp_path, capsys, monkeypatch
):
    import transformers

    nli = minilm_with_head(tmp_path / "nli", ["contradiction", "neutral", "entailment"])

    def no_weights(*args, **kwargs):
        raise AssertionError("the model's weights were read")

    monkeypatch.setattr(
        transformers.AutoModelForSequenceClassification, "from_pretrained", no_weights
    )
    argv = ["zero-shot", "--dataset", str(booqa), "--config", "levyholt_full", "--method", "ss"]
    error = refused(tmp_path, capsys, [*argv, "--model", str(nli)])
    assert "two labels" in error and "3 labels" in error
    error = refused(tmp_path, capsys, [*argv, "--model", "minilm"])  # an encoder, no head
    assert "two labels" in error and "BertModel" in error
