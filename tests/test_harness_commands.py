"""Each harness command end to end through its argparse front end, on tiny exports with the
offline MiniLM; result files, plots, the report, and the error paths.

No NLI or masked-LM weights are reachable offline: zero-shot and score use MiniLM with a 3-way
head saved under MNLI's label names (random head: the tests check the mapping and bookkeeping,
not accuracy), and prompting loads MiniLM with a fresh masked-LM head.
"""

import json

import numpy as np
import pytest
import torch

from compsem.cli import main
from compsem.files.ownership import MARKER, OutputFolderError
from compsem.harness.models.loading import default_model
from compsem.harness.probing.score import run_score
from compsem.harness.results.files import read_results, result_name, rows_path
from compsem.harness.results.reproduce import command_line
from tests.harness_data import compsem, minilm_with_head, tiny_booqa_export, tiny_plane_export

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_thread")]
TINY = "--device cpu --max-train-examples 16 --max-eval-examples 32"


def assert_intervals_and_per_label(scores: dict) -> None:
    """A classification result's 95% intervals hold its scores, overall and per group, and its
    precision and recall name every label its F1 does."""
    for key in ("accuracy", "macro_f1"):
        low, high = scores[f"{key}_ci"]
        assert low <= scores[key] <= high
    assert scores["accuracy_stderr"] >= 0
    assert set(scores["precision"]) == set(scores["recall"]) == set(scores["f1"])
    for groups in scores["by_group"].values():
        for cell in groups.values():
            assert cell["accuracy_ci"] is None or (
                cell["accuracy_ci"][0] <= cell["accuracy"] <= cell["accuracy_ci"][1]
            )


def per_row(folder, result) -> list[dict]:
    """The run's ``<result>.rows.jsonl``, one record per evaluated row."""
    lines = rows_path(folder / result_name(result)).read_text().splitlines()
    return [json.loads(line) for line in lines]


def assert_rows_give_the_scores(rows: list[dict], scores: dict) -> None:
    """The per-row file holds every scored row, and recomputes the result's accuracy."""
    assert len(rows) == scores["n"] and len({row["id"] for row in rows}) == scores["n"]
    hits = [row["label"] == row["prediction"] for row in rows]
    assert np.mean(hits) == pytest.approx(scores["accuracy"])


@pytest.fixture(scope="module")
def plane(tmp_path_factory):
    return tiny_plane_export(tmp_path_factory.mktemp("exports") / "plane")


@pytest.fixture(scope="module")
def booqa(tmp_path_factory):
    return tiny_booqa_export(tmp_path_factory.mktemp("exports") / "booqa")


@pytest.fixture(scope="module")
def nli_model(tmp_path_factory):
    """MiniLM with a 3-way head under MNLI's label names (as roberta-large-mnli has them)."""
    labels = ["CONTRADICTION", "NEUTRAL", "ENTAILMENT"]
    return minilm_with_head(tmp_path_factory.mktemp("models") / "minilm-nli", labels)


@pytest.fixture(scope="module")
def train_runs(plane, tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "train"
    assert compsem(f"train --config goood_split_1 --seeds 1 2 {TINY}", dataset=plane, out=out) == 0
    return out


def test_train_writes_one_result_per_seed_with_provenance_and_grouped_scores(train_runs, plane):
    results = sorted(read_results([train_runs]), key=lambda r: r["seed"])
    assert [r["seed"] for r in results] == [1, 2]
    first = results[0]
    assert first["dataset"]["config"] == "goood_split_1"
    assert first["dataset"]["path"] == str(plane)
    assert len(first["dataset"]["fingerprint"]) == 16
    settings = first["settings"]
    assert (settings["epochs"], settings["max_length"], settings["inputs"]) == (
        1.0,
        12,
        ["sentence"],
    )
    assert (settings["train_examples"], settings["eval_examples"]) == (16, 32)
    scores = first["scores"]
    assert scores["n"] == 32 and 0 <= scores["accuracy"] <= 1
    for field in ("adjective_class", "inference_type"):
        groups = scores["by_group"][field]
        assert sum(g["n"] for g in groups.values()) == 32
        weighted = sum(g["n"] * g["accuracy"] for g in groups.values()) / 32
        assert weighted == pytest.approx(scores["accuracy"])
    assert set(scores["by_group"]["adjective_class"]) <= {"I", "S", "O"}
    cells = scores["by_group"]["adjective_class × inference_type"]
    assert sum(cell["n"] for cell in cells.values()) == 32
    assert {key.split(" × ")[0] for key in cells} == set(scores["by_group"]["adjective_class"])
    assert first["timing"]["examples_per_second"] > 0
    assert first["environment"]["device"] == "cpu (fp32)"
    assert_intervals_and_per_label(scores)
    assert scores["intervals"]["bootstrap"]["cluster_by"] == "adjective + noun"  # PLANE's items
    summary = (train_runs / "summary.md").read_text()
    assert "| goood_split | 2 | 32 |" in summary and "Accuracy by inference_type" in summary
    for result in results:
        rows = per_row(train_runs, result)
        assert_rows_give_the_scores(rows, result["scores"])
        assert all(sum(row["probabilities"]) == pytest.approx(1, abs=1e-5) for row in rows)
        assert all(row["prediction"] == np.argmax(row["probabilities"]) for row in rows)


def test_the_same_seed_gives_the_same_scores(train_runs, plane, tmp_path):
    compsem(f"train --config goood_split_1 --seeds 1 {TINY}", dataset=plane, out=tmp_path)
    again = read_results([tmp_path])[0]["scores"]
    before = next(r for r in read_results([train_runs]) if r["seed"] == 1)["scores"]
    assert again["accuracy"] == before["accuracy"] and again["by_group"] == before["by_group"]


def test_curve_scores_every_shot_and_seed_and_plots_a_band(plane, tmp_path):
    compsem(
        "curve --config one_it_split_1 --shots 0 4 --seeds 1 2 --epochs 1 --device cpu",
        dataset=plane,
        out=tmp_path,
        max_eval_examples=24,
    )
    (result,) = read_results([tmp_path])
    curve = result["scores"]["curve"]
    assert curve["shots"] == [0, 4] and curve["count"] == [2, 2] and curve["runs"] == 2
    points = result["scores"]["points"]
    assert sorted((p["shots"], p["seed"]) for p in points) == [
        (k, s) for k in (0, 4) for s in (1, 2)
    ]
    at_4 = [p["accuracy"] for p in points if p["shots"] == 4]
    assert curve["mean"][1] == pytest.approx(np.mean(at_4))
    assert result["settings"]["pool_split"] == "train" and result["settings"]["base_split"] is None
    assert (tmp_path / "curve-one_it_split_1.png").read_bytes()[:4] == b"\x89PNG"
    rows = per_row(tmp_path, result)
    for point in points:
        mine = [r for r in rows if (r["shots"], r["seed"]) == (point["shots"], point["seed"])]
        assert_rows_give_the_scores(mine, point)


def test_curve_can_fine_tune_on_a_base_split_before_the_shots_as_seti_does(plane, tmp_path):
    compsem(
        "curve --config goood_split_1 --shots 0 4 --seeds 3 --epochs 1 --device cpu "
        "--pool-split validation --base-split train --max-train-examples 8",
        dataset=plane,
        out=tmp_path,
        max_eval_examples=16,
    )
    (result,) = read_results([tmp_path])
    settings = result["settings"]
    assert (settings["pool_split"], settings["base_split"], settings["base_epochs"]) == (
        "validation",
        "train",
        1.0,
    )
    assert [p["shots"] for p in result["scores"]["points"]] == [0, 4]


def test_zero_shot_maps_the_models_labels_by_its_id2label(plane, nli_model, tmp_path):
    from datasets import load_dataset
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    compsem(
        "zero-shot --config goood_split_1 --device cpu",
        dataset=plane,
        model=nli_model,
        out=tmp_path,
    )
    (result,) = read_results([tmp_path])
    assert result["settings"]["label_mapping"] == {
        "CONTRADICTION": "non_entailment",
        "NEUTRAL": "non_entailment",
        "ENTAILMENT": "entailment",
    }
    assert result["settings"]["inputs"] == ["premise", "hypothesis"]
    # Recompute independently: entailment wins iff its probability beats the other two summed.
    test = load_dataset(str(plane), "goood_split_1", split="test")
    tokenizer = AutoTokenizer.from_pretrained(nli_model)
    model = AutoModelForSequenceClassification.from_pretrained(nli_model).eval()
    with torch.no_grad():
        batch = tokenizer(
            list(test["premise"]), list(test["hypothesis"]), padding=True, return_tensors="pt"
        )
        probabilities = model(**batch).logits.softmax(-1).numpy()
    predicted = (probabilities[:, 2] > probabilities[:, :2].sum(1)).astype(int)
    assert result["scores"]["accuracy"] == pytest.approx(np.mean(predicted == test["label"]))
    counts = np.array(result["scores"]["model_label_confusion"]["counts"])
    assert counts.sum() == len(test) and counts.shape == (2, 3)
    rows = per_row(tmp_path, result)
    assert_rows_give_the_scores(rows, result["scores"])
    assert [row["id"] for row in rows] == list(test["id"])
    assert [row["prediction"] for row in rows] == predicted.tolist()
    assert_intervals_and_per_label(result["scores"])


def test_zero_shot_refuses_a_model_without_a_trained_head(plane, tmp_path):
    with pytest.raises(ValueError, match="no trained classification head"):
        compsem(
            "zero-shot --config goood_split_1 --device cpu",
            dataset=plane,
            model=default_model(),
            out=tmp_path,
        )


def test_prompt_reads_the_first_prediction_at_the_mask(plane, tmp_path):
    from datasets import load_dataset
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    from compsem.harness.models.device import resolve
    from compsem.harness.probing.masked_lm import encode_prompts, first_predictions, token_word

    compsem(
        "prompt --device cpu --max-eval-examples 24",
        dataset=plane,
        model=default_model(),
        out=tmp_path,
    )
    (result,) = read_results([tmp_path])
    scores = result["scores"]
    assert result["dataset"]["config"] == "two_shot" and scores["n"] == 24
    assert result["settings"]["untrained_weights"]  # MiniLM ships no masked-LM head
    assert set(scores["by_group"]) == {
        "adjective_class",
        "inference_type",
        "template",
        "verbaliser",
        "adjective_class × inference_type",
    }
    assert 0 <= scores["accuracy"] <= scores["verbaliser_rate"] <= 1
    assert list(scores["per_class"])[-1] == "Average"
    rows = per_row(tmp_path, result)
    assert_rows_give_the_scores(rows, scores)
    assert np.mean([row["prediction"] >= 0 for row in rows]) == scores["verbaliser_rate"]
    # Batched, length-sorted predictions equal one-at-a-time argmaxes at the mask.
    prompts = load_dataset(str(plane), "two_shot", split="test").select(range(5))
    tokenizer = AutoTokenizer.from_pretrained(default_model())
    torch.manual_seed(0)
    model = AutoModelForMaskedLM.from_pretrained(default_model()).eval()
    words = first_predictions(
        model, tokenizer, encode_prompts(prompts, tokenizer, 128), 2, resolve("cpu")
    )
    for prompt, word in zip(prompts["prompt"], words, strict=True):
        ids = tokenizer(prompt.replace("{mask}", tokenizer.mask_token), return_tensors="pt")
        with torch.no_grad():
            logits = model(**ids).logits[0]
        at_mask = logits[ids["input_ids"][0] == tokenizer.mask_token_id][0]
        assert word == token_word(tokenizer.convert_ids_to_tokens(int(at_mask.argmax())))


def test_score_nli_refuses_a_model_without_entailment_before_reading_data(tmp_path):
    """--method nli with a model that has no entailment label failed only once every evidence
    pair was scored; it now fails before the dataset is read (this one does not exist)."""
    with pytest.raises(ValueError, match="the model has no entailment label"):
        run_score(str(tmp_path / "no-export"), "en", tmp_path / "out", method="nli")
    assert not (tmp_path / "out").exists()


def test_score_ranks_stated_hypotheses_first_by_max_cosine(booqa, tmp_path):
    compsem("score --config en --device cpu", dataset=booqa, out=tmp_path)
    (result,) = read_results([tmp_path])
    assert result["settings"]["method"] == "cosine"  # MiniLM has no entailment label
    scores = result["scores"]
    # Every true hypothesis with evidence is stated verbatim there (cosine 1): a near-perfect
    # ranking except for the unevidenced pair tied at the floor.
    assert scores["aucnorm"] > 0.8 and scores["hypotheses_without_evidence"] == 2
    assert (tmp_path / "score-en.png").read_bytes()[:4] == b"\x89PNG"
    curve = json.loads((tmp_path / "score-en-pr-curve.json").read_text())
    assert curve["recall"][-1] == 1.0
    from compsem.metrics.aucnorm.aucnorm import aucnorm_scores

    rows = per_row(tmp_path, result)
    assert sum(row["evidence"] == 0 for row in rows) == 2
    again = aucnorm_scores([row["score"] for row in rows], [row["label"] for row in rows])
    assert again["aucnorm"] == pytest.approx(scores["aucnorm"])
    low, high = scores["aucnorm_ci"]
    assert low <= scores["aucnorm"] <= high
    assert scores["intervals"]["bootstrap"]["cluster_by"] == "bundle_id"


def test_score_with_an_nli_model_uses_its_entailment_probability(booqa, nli_model, tmp_path):
    compsem(
        "score --config en --device cpu --max-evidence 1",
        dataset=booqa,
        model=nli_model,
        out=tmp_path,
    )
    (result,) = read_results([tmp_path])
    assert result["settings"]["method"] == "nli" and result["settings"]["evidence_pairs"] == 12


def test_report_aggregates_every_command(train_runs, tmp_path):
    assert compsem("report", train_runs, out=tmp_path) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    row = report["train"]["settings"][0]
    assert row["runs"] == 2 and row["seeds"] == [1, 2]
    accuracies = [r["scores"]["accuracy"] for r in read_results([train_runs])]
    assert row["accuracy"]["mean"] == pytest.approx(np.mean(accuracies))
    assert "Fine-tuning" in (tmp_path / "report.md").read_text()
    page = (tmp_path / "index.md").read_text()
    assert "## PLANE" in page and page.count("· [per row](") == 2
    assert (tmp_path / "index.html").read_text().count('<svg class="plot"') >= 1


def test_train_at_several_max_lengths_writes_a_run_per_length_the_page_draws_as_one_curve(
    plane, tmp_path
):
    """PLANE's Fig. 8 in one command: a run per length (and seed), each length's files named
    apart in the one --out, and the report's length curve finds them all."""
    out = tmp_path / "len"
    line = f"train --config goood_split_1 --max-length 6 8 {TINY}"
    assert compsem(line, dataset=plane, out=out) == 0
    results = sorted(read_results([out]), key=lambda r: r["settings"]["max_length"])
    assert [(r["settings"]["max_length"], r["seed"]) for r in results] == [(6, 1), (8, 1)]
    assert "max_length 6 (preset 12)" in results[0]["settings"]["preset_note"]
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert names == [
        "summary.md",
        "train-goood_split_1-len6-seed1.json",
        "train-goood_split_1-len6-seed1.rows.jsonl",
        "train-goood_split_1-len8-seed1.json",
        "train-goood_split_1-len8-seed1.rows.jsonl",
    ]
    for result in results:
        path = out / f"train-goood_split_1-len{result['settings']['max_length']}-seed1.json"
        lines = rows_path(path).read_text().splitlines()
        assert_rows_give_the_scores([json.loads(x) for x in lines], result["scores"])
    assert compsem("report", out, out=tmp_path / "page") == 0
    page = (tmp_path / "page" / "index.md").read_text()
    section = page.split("### Accuracy against input length (PLANE Fig. 8)", 1)[1]
    for result in results:
        length, accuracy = result["settings"]["max_length"], result["scores"]["accuracy"]
        assert f", goood_split_1 | {length} | {accuracy:.3f} | 1 |" in section
    plot = (tmp_path / "page" / "plots" / "input-length.svg").read_text()
    assert plot.count('class="curve"') == 1


def test_train_at_one_max_length_keeps_the_usual_file_names(plane, tmp_path, monkeypatch):
    skip_fine_tuning(monkeypatch)
    line = f"train --config goood_split_1 --max-length 8 --seeds 1 2 {TINY}"
    assert compsem(line, dataset=plane, out=tmp_path) == 0
    assert sorted(p.name for p in tmp_path.glob("train-*.json")) == [
        "train-goood_split_1-seed1.json",
        "train-goood_split_1-seed2.json",
    ]
    assert {r["settings"]["max_length"] for r in read_results([tmp_path])} == {8}


@pytest.mark.parametrize(
    "command_line, message",
    [
        ("train --config goood_split_9", r"unknown config 'goood_split_9'.*goood_split_1"),
        ("train --config two_shot", "has no train split"),
        ("curve --config goood_split_1 --shots 0 5000", "5000 shots need 5000"),
        ("curve --config goood_split_1 --base-split train", "both come from 'train'"),
        ("curve --config goood_split_1 --pool-split test", "--pool-split test is the split the"),
        (
            "curve --config goood_split_1 --pool-split validation --eval-split validation",
            "--pool-split validation is the split the curve is scored on",
        ),
        (
            "curve --config goood_split_1 --pool-split validation --base-split test",
            "--base-split test is the split the curve is scored on",
        ),
        ("prompt --model MODEL --config goood_split_1", "not a prompting config"),
        ("score --config goood_split_1", "neither hypothesis and evidence columns nor Levy/Holt"),
        ("zero-shot --model MODEL --config two_shot", "needs premise/hypothesis"),
    ],
)
def test_bad_requests_get_one_clear_message(plane, tmp_path, command_line, message):
    command_line = command_line.replace("MODEL", default_model())
    with pytest.raises(ValueError, match=message):
        compsem(f"{command_line} --device cpu", dataset=plane, out=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_missing_dataset_folder_or_model_is_named(tmp_path, plane, capsys):
    with pytest.raises(ValueError, match="no folder ./nowhere/plane"):
        compsem("train --config x", dataset="./nowhere/plane", out=tmp_path)
    with pytest.raises(SystemExit):
        compsem(
            f"train --config goood_split_1 {TINY}",
            dataset=plane,
            out=tmp_path / "runs",
            model=tmp_path / "no-model",
        )
    assert "no-model' not found: no such folder" in capsys.readouterr().err
    (tmp_path / "not-a-model").mkdir()
    with pytest.raises(OSError, match="cannot load the tokenizer of"):
        compsem(
            f"train --config goood_split_1 {TINY}",
            dataset=plane,
            out=tmp_path / "runs",
            model=tmp_path / "not-a-model",
        )


def test_an_offline_models_short_name_loads_it_and_reruns_by_that_name(tmp_path, plane):
    """``--model minilm``, as ``embed`` and ``llm`` take it, is the offline MiniLM for the
    commands that load a model from its folder too (train looked ``minilm`` up on the Hub as a
    repo id: a minute of retries, then an error), and the command line that reruns the result
    names it so, not by where this machine installed it."""
    compsem(f"train --config goood_split_1 {TINY}", dataset=plane, out=tmp_path, model="minilm")
    (result,) = read_results([tmp_path])
    assert result["model"] == default_model()
    assert "--model minilm " in command_line(result)


def skip_fine_tuning(monkeypatch, stop_at_seed: int | None = None) -> None:
    """The classifier as loaded, untrained (what these tests check needs no training); with
    ``stop_at_seed``, a Ctrl-C as that seed's fine-tune starts."""

    def fine_tune(model, tokenizer, train, settings, seed, *args, **kwargs):
        if seed == stop_at_seed:
            raise KeyboardInterrupt
        return {"training_loss": 0.0, "steps": 0, "seconds": 1.0, "examples_per_second": 1.0}

    monkeypatch.setattr("compsem.harness.training.classifier.fine_tune", fine_tune)


def test_save_model_writes_a_model_folder_compsem_owns_and_replaces_only_that(
    plane, tmp_path, monkeypatch
):
    from transformers import AutoConfig

    skip_fine_tuning(monkeypatch)
    line = f"train --config goood_split_1 --save-model {TINY}"
    assert compsem(line, dataset=plane, out=tmp_path) == 0
    folder = tmp_path / "model-seed1"
    first = json.loads((folder / MARKER).read_text())
    assert (first["kind"], first["seed"], first["config"]) == (
        "fine-tuned model",
        1,
        "goood_split_1",
    )
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= set(first["files"])
    assert AutoConfig.from_pretrained(folder).num_labels == 2
    assert compsem(line, dataset=plane, out=tmp_path) == 0  # compsem's own folder: replaced
    assert json.loads((folder / MARKER).read_text())["token"] != first["token"]
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(OutputFolderError, match="model-seed1 holds paths compsem did not write"):
        compsem(line, dataset=plane, out=tmp_path)
    assert (folder / "notes.txt").read_text() == "mine"
    assert not any(path.name.startswith(".model-seed1") for path in tmp_path.iterdir())


def test_ctrl_c_names_the_result_files_written_before_the_stop(
    plane, tmp_path, monkeypatch, capsys
):
    skip_fine_tuning(monkeypatch, stop_at_seed=2)
    out = tmp_path / "runs"
    argv = ["train", "--dataset", str(plane), "--config", "goood_split_1", "--seeds", "1", "2"]
    assert main([*argv, "--out", str(out), *TINY.split()]) == 130
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == (
        f"compsem train: stopped; the files it wrote to {out} before the stop are complete and "
        "kept: train-goood_split_1-seed1.json, train-goood_split_1-seed1.rows.jsonl."
    )
    assert sorted(p.name for p in out.iterdir()) == [
        ".compsem-files.json",
        "train-goood_split_1-seed1.json",
        "train-goood_split_1-seed1.rows.jsonl",
    ]
