"""``compsem probe-likelihood`` (RNPC Appendix C) with the offline SmolLM2 on generated RNPC
rows: the statements, θ chosen on train alone, the scores against a direct computation, and the
refusals."""

import json

import numpy as np
import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from compsem.builders.rnpc.evaluation.llm_prompts import SANITY_PAIRS
from compsem.cli import main
from compsem.harness.probing.likelihood import CausalScorer, necessity_statements
from compsem.harness.probing.likelihood_probe import (
    choose_theta,
    plausibility_predictions,
    read_sanity_pairs,
)
from compsem.harness.results.files import read_results, result_name, rows_path
from compsem.publish.export import export_benchmark

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_thread")]
LABELS = {"less": 0, "equally": 1, "more": 2}


@pytest.fixture(scope="module")
def rnpc(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports") / "rnpc"
    export_benchmark("rnpc", out, ["spte", "epc"])
    return out


@pytest.mark.parametrize(
    ("sentence", "necessarily", "not_necessarily"),
    [
        ("This is a car.", "This is necessarily a car.", "This is not necessarily a car."),
        (
            "He was a former mayor.",
            "He was necessarily a former mayor.",
            "He was not necessarily a former mayor.",
        ),
        (
            "Birds fly.",
            "It is necessarily true that birds fly.",
            "It is not necessarily true that birds fly.",
        ),
    ],
)
def test_statements_put_necessarily_after_the_first_verb(sentence, necessarily, not_necessarily):
    assert necessity_statements(sentence) == (necessarily, not_necessarily)


def test_the_sanity_pairs_are_fifty_balanced_and_differ_by_not():
    pairs = read_sanity_pairs(SANITY_PAIRS)
    assert len(pairs) == 50 and sum(gold == "a" for _, _, gold in pairs) == 25
    for a, b, _ in pairs:
        negated, plain = (a, b) if "not necessarily" in a else (b, a)
        assert "not necessarily" not in plain
        assert negated.replace("not necessarily", "necessarily") == plain


def test_theta_is_the_accuracy_maximising_threshold():
    differences = np.array([-3.0, -0.2, 0.1, 0.3, 2.5])
    labels = np.array([0, 1, 1, 1, 2])
    theta = choose_theta(differences, labels, LABELS)
    assert 0.3 < theta <= 2.5
    assert (plausibility_predictions(differences, theta, LABELS) == labels).all()


def test_causal_scores_equal_a_direct_sum_of_token_log_probabilities(smollm2):
    tokenizer = AutoTokenizer.from_pretrained(smollm2)
    model = AutoModelForCausalLM.from_pretrained(smollm2).eval()
    scorer = CausalScorer(model, tokenizer, "cpu", 2, 256)
    pairs = [("This is a red car.", "This is necessarily a car."), ("", "A dog barks.")]
    scores = scorer.score(pairs, progress=False)
    for (context, text), score in zip(pairs, scores, strict=True):
        prefix = (
            tokenizer.encode(context)
            if context
            else [tokenizer.bos_token_id or tokenizer.eos_token_id]
        )
        target = tokenizer.encode((" " if context else "") + text)
        ids = torch.tensor([prefix + target])
        with torch.no_grad():
            log_probs = torch.log_softmax(model(ids).logits[0], -1)
        expected = sum(float(log_probs[len(prefix) - 1 + i, t]) for i, t in enumerate(target))
        assert score == pytest.approx(expected, abs=1e-3)


def test_spte_and_epc_end_to_end(rnpc, smollm2, tmp_path):
    spte, epc = tmp_path / "spte", tmp_path / "epc"
    common = ["--dataset", str(rnpc), "--model", str(smollm2), "--device", "cpu"]
    assert (
        main(
            [
                "probe-likelihood",
                *common,
                "--config",
                "spte",
                "--max-eval-examples",
                "24",
                "--out",
                str(spte),
            ]
        )
        == 0
    )
    argv = ["probe-likelihood", *common, "--config", "epc", "--max-eval-examples", "24"]
    assert main([*argv, "--max-train-examples", "30", "--out", str(epc)]) == 0
    (result,) = read_results([spte])
    assert result["command"] == "probe-likelihood" and result["settings"]["scorer"] == "causal"
    assert result["scores"]["n"] == 24 and result["scores"]["sanity"]["n"] == 50
    rows = [
        json.loads(line) for line in rows_path(spte / result_name(result)).read_text().splitlines()
    ]
    entail = 1  # spte's labels: non_entailment, entailment
    for row in rows:
        necessarily, not_necessarily = row["log_likelihoods"]
        assert row["prediction"] == (entail if necessarily > not_necessarily else 1 - entail)
    (result,) = read_results([epc])
    assert result["settings"]["theta_from"] == "train" and result["scores"]["theta"] >= 0


def test_a_config_that_is_neither_task_is_refused_before_loading_a_model(smollm2, tmp_path, capsys):
    from tests.harness_data import tiny_plane_export

    plane = tiny_plane_export(tmp_path / "plane")
    argv = [
        "probe-likelihood",
        "--dataset",
        str(plane),
        "--config",
        "two_shot",
        "--model",
        str(smollm2),
    ]
    assert main([*argv, "--out", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert "neither an entailment config" in error and "Traceback" not in error
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_pseudo_log_likelihood_masks_each_text_token_in_turn():
    """MiniLM has no trained masked-LM head: a seeded fresh one checks the bookkeeping only."""
    from transformers import AutoModelForMaskedLM

    from compsem.harness.models.loading import default_model
    from compsem.harness.probing.likelihood import MaskedScorer

    tokenizer = AutoTokenizer.from_pretrained(default_model())
    torch.manual_seed(0)
    model = AutoModelForMaskedLM.from_pretrained(default_model()).eval()
    scorer = MaskedScorer(model, tokenizer, "cpu", 3, 128)
    pairs = [("This is a red car.", "This is not necessarily a car."), ("", "A dog barks.")]
    for (context, text), score in zip(pairs, scorer.score(pairs, progress=False), strict=True):
        before = tokenizer.encode(context, add_special_tokens=False) if context else []
        target = tokenizer.encode((" " if context else "") + text, add_special_tokens=False)
        ids = [tokenizer.cls_token_id, *before, *target, tokenizer.sep_token_id]
        expected = 0.0
        for offset, token in enumerate(target):
            position = 1 + len(before) + offset
            masked = torch.tensor(
                [ids[:position] + [tokenizer.mask_token_id] + ids[position + 1 :]]
            )
            with torch.no_grad():
                log_probs = torch.log_softmax(model(masked).logits[0, position], -1)
            expected += float(log_probs[token])
        assert score == pytest.approx(expected, abs=1e-3)
