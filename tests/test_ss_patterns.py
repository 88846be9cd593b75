"""S&S, BoOQA's gauge model (§3): a Levy/Holt pair of propositions put into Schmitt and
Schütze's patterns and antipatterns (and, for 'S&S, both ways round), one sentence classifier
trained with transformers.Trainer on them, and `compsem train --method ss` end to end on the
Levy/Holt configs the BoOQA builder reads from the fixture of tests/test_booqa_export.py."""

import json

import numpy as np
import pytest
import torch

from compsem.builders.booqa.ss_patterns import SS_PATTERNS
from compsem.cli import main
from compsem.harness.models.loading import default_model
from compsem.harness.results.comparable import evaluation
from compsem.harness.results.files import read_results
from compsem.harness.training.patterns import (
    PatternCollator,
    PatternMethod,
    PatternTrainer,
    encode_patterns,
)
from compsem.publish.export import export_benchmark
from tests.harness_data import compsem
from tests.test_booqa_export import levyholt  # noqa: F401 — the Levy/Holt files, a fixture

PAIR = {
    "premise_subject": "John",
    "premise_predicate": "shopped in",
    "premise_object": "IKEA",
    "hypothesis_subject": "John",
    "hypothesis_predicate": "went to",
    "hypothesis_object": "IKEA",
}
PATTERNS = [
    "John shopped in IKEA, which means that John went to IKEA.",
    "It is not the case that John went to IKEA, let alone that John shopped in IKEA.",
    "John went to IKEA because John shopped in IKEA.",
]
ANTIPATTERNS = [
    "It is not sure that John went to IKEA just because John shopped in IKEA.",
    "John shopped in IKEA. This does not mean that John went to IKEA.",
    "The fact that John shopped in IKEA does not necessarily mean that John went to IKEA.",
    "Even if John shopped in IKEA, John maybe went to IKEA.",
    "Just because John shopped in IKEA, it might still not be true that John went to IKEA.",
]
REVERSED_PATTERNS = [
    "John went to IKEA, which means that John shopped in IKEA.",
    "It is not the case that John shopped in IKEA, let alone that John went to IKEA.",
    "John shopped in IKEA because John went to IKEA.",
]
REVERSED_ANTIPATTERNS = [
    "It is not sure that John shopped in IKEA just because John went to IKEA.",
    "John went to IKEA. This does not mean that John shopped in IKEA.",
    "The fact that John went to IKEA does not necessarily mean that John shopped in IKEA.",
    "Even if John went to IKEA, John maybe shopped in IKEA.",
    "Just because John went to IKEA, it might still not be true that John shopped in IKEA.",
]
COLUMNS = list(PAIR)


def test_a_pair_is_put_into_the_patterns_and_antipatterns():
    assert SS_PATTERNS.sentences(PAIR) == (PATTERNS, ANTIPATTERNS)
    assert SS_PATTERNS.columns == tuple(COLUMNS)
    # the hypothesis-only premise "true" (Fig. 2) leaves no gap where its predicate would be
    only = {**PAIR, "premise_subject": "true", "premise_predicate": "", "premise_object": ""}
    patterns, antipatterns = SS_PATTERNS.sentences(only)
    assert patterns[0] == "true, which means that John went to IKEA."
    assert antipatterns[1] == "true. This does not mean that John went to IKEA."


def test_the_symmetric_variant_adds_each_sentence_with_premise_and_hypothesis_swapped():
    patterns, antipatterns = SS_PATTERNS.sentences(PAIR, symmetric=True)
    assert patterns == PATTERNS + REVERSED_PATTERNS
    assert antipatterns == ANTIPATTERNS + REVERSED_ANTIPATTERNS
    # the input cannot show the direction: the converse pair gives the same sentences
    converse = {
        f"{side}_{part}": PAIR[f"{other}_{part}"] for side, other in SIDES for part in PARTS
    }
    swapped = SS_PATTERNS.sentences(converse, symmetric=True)
    assert sorted(swapped[0]) == sorted(patterns) and sorted(swapped[1]) == sorted(antipatterns)


SIDES = (("premise", "hypothesis"), ("hypothesis", "premise"))
PARTS = ("subject", "predicate", "object")


@pytest.mark.usefixtures("one_thread")
def test_the_loss_is_the_mean_over_patterns_plus_the_mean_over_antipatterns(tmp_path):
    """PatternTrainer.compute_loss on a collated batch of two pairs (labels 1 and 0) equals the
    formula computed by hand from each sentence's own forward pass."""
    import datasets
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, TrainingArguments

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(default_model())
    model = AutoModelForSequenceClassification.from_pretrained(default_model(), num_labels=2)
    model.eval()  # no dropout: the batch and the sentences one by one see the same network
    other = {**PAIR, "hypothesis_predicate": "fell ill in"}
    split = datasets.Dataset.from_list([{**PAIR, "label": 1}, {**other, "label": 0}])
    method = PatternMethod("ss", SS_PATTERNS, symmetric=False, positive=1)
    encoded = encode_patterns(split, tokenizer, method, max_length=64)
    batch = PatternCollator(tokenizer)([encoded[0], encoded[1]])
    assert batch["input_ids"].shape[0] == 2 * 8 and batch["labels"].tolist() == [1, 0]
    args = TrainingArguments(output_dir=str(tmp_path), use_cpu=True, report_to="none")
    trainer = PatternTrainer(model=model, args=args, patterns=method.patterns)
    with torch.no_grad():
        loss = trainer.compute_loss(model, batch)

        def nll(sentence: str, target: int) -> float:
            logits = model(**tokenizer(sentence, return_tensors="pt")).logits[0]
            return -torch.log_softmax(logits, -1)[target].item()

        on_patterns, on_antipatterns = [], []
        for row, label in ((PAIR, 1), (other, 0)):
            patterns, antipatterns = SS_PATTERNS.sentences(row)
            on_patterns += [nll(sentence, label) for sentence in patterns]
            on_antipatterns += [nll(sentence, 1 - label) for sentence in antipatterns]
    assert loss.item() == pytest.approx(np.mean(on_patterns) + np.mean(on_antipatterns), abs=1e-5)


@pytest.fixture(scope="module")
def levyholt_export(tmp_path_factory, levyholt):  # noqa: F811 — the imported fixture
    out = tmp_path_factory.mktemp("exports") / "booqa"
    export_benchmark("booqa", out, ["levyholt_full"], levyholt=str(levyholt))
    return out


@pytest.mark.slow
@pytest.mark.usefixtures("one_thread")
@pytest.mark.parametrize("method", ["ss", "ss-symmetric"])
def test_train_method_ss_on_a_levyholt_config_ranks_pairs_by_their_score(
    levyholt_export, tmp_path, method
):
    out = tmp_path / method
    command = f"train --config levyholt_full --method {method} --device cpu --epochs 1"
    assert compsem(command, dataset=levyholt_export, out=out) == 0
    (result,) = read_results([out])
    settings = result["settings"]
    assert settings["method"] == method and settings["inputs"] == COLUMNS
    assert evaluation(result)["method"] == method  # never on one report line with a classifier
    assert {"aucnorm", "aucnorm_ci", "auc_xi", "auc_50", "accuracy"} <= set(result["scores"])
    rows = [json.loads(line) for line in next(out.glob("*.rows.jsonl")).read_text().splitlines()]
    assert len(rows) == result["scores"]["n"] == 3
    patterns = 3 * (2 if method == "ss-symmetric" else 1)
    for row in rows:
        assert len(row["pattern_probabilities"]) == patterns
        assert len(row["antipattern_probabilities"]) == 5 * patterns // 3
        score = max(row["pattern_probabilities"]) - max(row["antipattern_probabilities"])
        assert row["score"] == pytest.approx(score)
        assert row["prediction"] == int(row["score"] > 0)


def test_a_classifier_result_written_before_methods_pools_as_a_classifier():
    result = {
        "command": "train",
        "dataset": {"split": "test", "preset": "default"},
        "environment": {},
        "settings": {"epochs": 3.0},
        "scores": {"n": 3},
    }
    assert evaluation(result)["method"] == "classifier"


@pytest.mark.usefixtures("one_thread")
def test_method_ss_on_a_config_without_propositions_is_refused_before_any_model_loads(
    tmp_path, monkeypatch, capsys
):
    import transformers

    def no_model(*args, **kwargs):
        raise AssertionError("a model was loaded")

    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", no_model)
    monkeypatch.chdir(tmp_path)
    from tests.harness_data import tiny_plane_export

    plane = tiny_plane_export(tmp_path / "plane")
    code = main(
        ["train", "--dataset", str(plane), "--config", "goood_split_1", "--method", "ss"]
        + ["--out", "runs", "--device", "cpu"]
    )
    error = capsys.readouterr().err
    assert code == 2
    assert "--method ss" in error and "premise_subject" in error and "Traceback" not in error
    assert not (tmp_path / "runs").exists()
