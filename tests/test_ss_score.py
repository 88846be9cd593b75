"""BoOQA Table 5's S&S baseline: `compsem score --method ss` scores each hypothesis by the
maximum, over its evidence, of a saved S&S model's score of (evidence proposition => hypothesis
proposition). One tiny S&S model is trained on `levyholt_full` (the Levy/Holt fixture of
tests/test_booqa_export.py) and scored on the tiny `en` config (tests/harness_data.py); the
pairs of a few hypotheses are scored again by `zero-shot --method ss` (the evaluation `train`
uses) as a Levy/Holt config of their own, and each hypothesis's score is their maximum."""

import json

import datasets
import pytest

from compsem.builders.booqa.config import LEVYHOLT_FEATURES
from compsem.harness.report.run import run_report
from compsem.harness.results.comparable import evaluation
from compsem.harness.results.files import read_results
from compsem.harness.results.reproduce import command_line
from compsem.harness.training.evidence_patterns import proposition_pairs, score_method
from compsem.publish.export import export_benchmark
from tests.harness_data import (
    compsem,
    minilm_with_head,
    tiny_booqa_export,
    tiny_plane_export,
    write_export,
)
from tests.test_booqa_export import levyholt  # noqa: F401 — the Levy/Holt files, a fixture
from tests.test_ss_transfer import refused

CHECKED = ("0-0", "1-1", "4-0")  # hypotheses whose evidence pairs are scored again


def rows_of(folder) -> dict[str, dict]:
    (path,) = folder.glob("*.rows.jsonl")
    return {row["id"]: row for row in map(json.loads, path.read_text().splitlines())}


@pytest.fixture(scope="module")
def trained(tmp_path_factory, levyholt, one_thread):  # noqa: F811 — the imported fixture
    """A tiny S&S model: `train --method ss --save-model` on levyholt_full (model-seed1), in
    runs beside the export it was trained on (lh-export)."""
    root = tmp_path_factory.mktemp("ss-score")
    configs = ["levyholt_full", "levyholt_directional"]
    export_benchmark("booqa", root / "lh-export", configs, levyholt=str(levyholt))
    # at a length of its own, which score must read the pairs at (not its default 128)
    command = (
        "train --config levyholt_full --method ss --save-model --device cpu --epochs 1 "
        "--max-length 96"
    )
    assert compsem(command, dataset=root / "lh-export", out=root / "lh") == 0
    return root / "lh" / "model-seed1"


@pytest.fixture(scope="module")
def booqa(tmp_path_factory):
    return tiny_booqa_export(tmp_path_factory.mktemp("ss-score") / "booqa")


def as_levyholt(entries: list[dict]) -> datasets.Dataset:
    """Each (evidence, hypothesis) pair of ``entries`` as a Levy/Holt row (the label alternates,
    so the config has both)."""
    rows = [
        {
            "id": f"{entry['id']}/{number}",
            "premise": item["text"],
            "hypothesis": entry["hypothesis"],
            "label": number % 2,
            "subgroup": "",
            "language": "EN",
            **{f"premise_{part}": item[part] for part in ("subject", "predicate", "object")},
            **{f"hypothesis_{part}": entry[part] for part in ("subject", "predicate", "object")},
        }
        for entry in entries
        for number, item in enumerate(entry["evidence"])
    ]
    return datasets.Dataset.from_list(rows, features=LEVYHOLT_FEATURES)


@pytest.mark.slow
def test_each_hypothesis_gets_the_max_of_its_evidence_pairs_ss_scores(booqa, trained, tmp_path):
    # no --method: the model's folder records ss, and score scores it as S&S
    assert (
        compsem("score --config en --device cpu", dataset=booqa, model=trained, out=tmp_path) == 0
    )
    (result,) = read_results([tmp_path])
    settings = result["settings"]
    assert settings["method"] == "ss" and settings["train_config"] == "levyholt_full"
    assert settings["training"]["seed"] == 1 and settings["max_evidence"] == 3200
    assert settings["max_length"] == 96  # the length the model was trained at
    assert {"aucnorm", "aucnorm_ci", "auc_50"} <= set(result["scores"])
    assert result["scores"]["released"]["aucnorm"] is not None
    assert next(tmp_path.glob("*-pr-curve.json")).exists() and next(tmp_path.glob("*.png"))
    scored = rows_of(tmp_path)
    # the hypotheses without evidence get S&S's lowest score
    assert scored["none-0"]["score"] == scored["none-1"]["score"] == -1.0
    assert scored["none-0"]["evidence"] == 0 and scored["0-0"]["evidence"] == 2
    assert all(-1.0 <= row["score"] <= 1.0 for row in scored.values())

    # the checked hypotheses' pairs, scored again by zero-shot --method ss as Levy/Holt rows
    test = datasets.load_dataset(str(booqa), "en", split="test")
    entries = [row for row in test if row["id"] in CHECKED]
    pairs = write_export(tmp_path / "pairs", {"pairs": {"test": as_levyholt(entries)}})
    out = tmp_path / "zero"
    command = "zero-shot --config pairs --method ss --device cpu"
    assert compsem(command, dataset=pairs, model=trained, out=out) == 0
    again, spread = rows_of(out), []
    for entry in entries:
        mine = [row["score"] for key, row in again.items() if key.startswith(f"{entry['id']}/")]
        assert len(mine) == len(entry["evidence"])
        assert scored[entry["id"]]["score"] == pytest.approx(max(mine), abs=1e-6), entry["id"]
        spread.append(max(mine) - min(mine))
    assert max(spread) > 1e-4  # the maximum is over pairs that score differently

    # kept apart from NLI, cosine and graph lines, its train -> test cell named; reruns as S&S
    assert evaluation(result)["method"] == "ss"
    assert evaluation(result)["train_config"] == "levyholt_full"
    assert "--method ss" in command_line(result)
    assert "levyholt_full (ss)" in run_report([tmp_path])


@pytest.mark.slow
def test_on_a_levyholt_config_score_gives_zero_shots_scores(trained, tmp_path):
    """A Levy/Holt pair is a hypothesis whose one piece of evidence is its premise: S&S's score
    of the hypothesis is zero-shot's of the pair."""
    export = trained.parent.parent / "lh-export"
    argv = "--config levyholt_directional --method ss --device cpu"
    assert compsem(f"score {argv}", dataset=export, model=trained, out=tmp_path / "s") == 0
    assert compsem(f"zero-shot {argv}", dataset=export, model=trained, out=tmp_path / "z") == 0
    score, zero = rows_of(tmp_path / "s"), rows_of(tmp_path / "z")
    assert score.keys() == zero.keys() and len(score) == 2
    for key, row in score.items():
        assert row["score"] == pytest.approx(zero[key]["score"], abs=1e-6)


def test_pairs_are_distinct_propositions_capped_per_hypothesis():
    rows = [
        {
            "subject": "Bob",
            "predicate": "visited",
            "object": "Oslo",
            "evidence": [
                {"subject": "Bob", "predicate": "toured", "object": "Oslo", "text": "x"},
                {"subject": "Bob", "predicate": "toured", "object": "Oslo", "text": "y"},
                {"subject": "Bob", "predicate": "left", "object": "Oslo", "text": "z"},
            ],
        },
        {"subject": "Eve", "predicate": "left", "object": "Rome", "evidence": []},
    ]
    table, owners, pairs = proposition_pairs(rows, 2, "en")
    assert len(table) == 1 and owners.tolist() == [0, 0] and pairs.tolist() == [0, 0]
    assert table[0] == {
        "premise_subject": "Bob",
        "premise_predicate": "toured",
        "premise_object": "Oslo",
        "hypothesis_subject": "Bob",
        "hypothesis_predicate": "visited",
        "hypothesis_object": "Oslo",
    }
    with pytest.raises(ValueError, match="evidence as str"):
        proposition_pairs([{**rows[0], "evidence": ["Bob toured Oslo"]}], 5, "en")


@pytest.mark.slow
def test_bad_inputs_are_refused_before_the_weights_load(
    booqa, trained, tmp_path, capsys, monkeypatch
):
    import transformers

    nli = minilm_with_head(tmp_path / "nli", ["contradiction", "neutral", "entailment"])
    plane = tiny_plane_export(tmp_path / "plane")

    def no_weights(*args, **kwargs):
        raise AssertionError("the model's weights were read")

    monkeypatch.setattr(
        transformers.AutoModelForSequenceClassification, "from_pretrained", no_weights
    )
    en = ["score", "--dataset", str(booqa), "--config", "en"]
    model = ["--model", str(trained)]
    for method in ("nli", "cosine", "ss-symmetric"):  # contradicts the manifest
        error = refused(tmp_path, capsys, [*en, *model, "--method", method])
        assert "was trained with --method ss" in error and f"--method {method}" in error
    error = refused(tmp_path, capsys, [*en, "--model", str(nli), "--method", "ss"])
    assert "two labels" in error and "3 labels" in error
    error = refused(tmp_path, capsys, [*en, "--method", "ss"])
    assert "--method ss needs --model" in error
    plane_argv = ["score", "--dataset", str(plane), "--config", "goood_split_1", *model]
    error = refused(tmp_path, capsys, plane_argv)
    assert "goood_split_1" in error


def test_the_method_is_what_the_manifest_records_and_a_contradiction_is_refused():
    ss, classifier = {"method": "ss"}, {"method": "classifier"}
    assert score_method("runs/m", "auto", ss) == "ss"
    assert score_method("runs/m", "auto", classifier) == "auto"  # nli or cosine, as before
    assert score_method("hub/model", "ss-symmetric", None) == "ss-symmetric"  # nothing recorded
    with pytest.raises(ValueError, match="trained with --method ss.*--method nli"):
        score_method("runs/m", "nli", ss)
    with pytest.raises(ValueError, match="trained with --method classifier.*drop --method$"):
        score_method("runs/m", "ss", classifier)
    with pytest.raises(ValueError, match="--method ss needs --model"):
        score_method(None, "ss", None)
