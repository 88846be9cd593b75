"""AUCnorm, AUC_ξ and AUC50% in every evaluation of a config the benchmark's spec declares
(BoOQA and its Levy/Holt configs): `zero-shot` scores a BoOQA hypothesis from its evidence as
`score` does, and both report the same numbers."""

import dataclasses
import json

import numpy as np
import pytest

from compsem.builders import BENCHMARKS
from compsem.harness.results.files import read_results
from tests.harness_data import compsem, minilm_with_head, tiny_booqa_export


def test_the_spec_declares_which_configs_report_aucnorm():
    booqa, plane = BENCHMARKS["booqa"], BENCHMARKS["plane"]
    configs = [config.name for config in booqa.builder.BUILDER_CONFIGS]
    assert "en" in configs and any(name.startswith("levyholt") for name in configs)
    assert all(booqa.reports_aucnorm(name) for name in configs)
    assert not plane.reports_aucnorm("goood_split_1")
    some = dataclasses.replace(plane, aucnorm=frozenset({"goood_split_1"}))
    assert some.reports_aucnorm("goood_split_1") and not some.reports_aucnorm("goood_split_2")


@pytest.mark.slow
@pytest.mark.usefixtures("one_thread")
def test_zero_shot_on_en_reports_scores_aucnorm_from_the_same_evidence(tmp_path):
    booqa = tiny_booqa_export(tmp_path / "booqa")
    labels = ["CONTRADICTION", "NEUTRAL", "ENTAILMENT"]
    model = minilm_with_head(tmp_path / "minilm-nli", labels)
    assert (
        compsem(
            "zero-shot --config en --device cpu", dataset=booqa, model=model, out=tmp_path / "zero"
        )
        == 0
    )
    assert (
        compsem(
            "score --config en --device cpu", dataset=booqa, model=model, out=tmp_path / "score"
        )
        == 0
    )
    (zero,) = read_results([tmp_path / "zero"])
    (score,) = read_results([tmp_path / "score"])
    assert score["settings"]["method"] == "nli"
    for key in ("aucnorm", "auc_xi", "auc_50", "baseline_precision"):
        assert abs(zero["scores"][key] - score["scores"][key]) < 1e-9, key
    assert zero["settings"]["inputs"] == ["evidence", "hypothesis"]
    # P(true) of each row is score's max over its evidence; the rows without evidence get 0
    zero_rows = [
        json.loads(line)
        for line in next((tmp_path / "zero").glob("*.rows.jsonl")).read_text().splitlines()
    ]
    score_rows = [
        json.loads(line)
        for line in next((tmp_path / "score").glob("*.rows.jsonl")).read_text().splitlines()
    ]
    true = labels_of(booqa).index("true")
    by_id = {row["id"]: row["score"] for row in score_rows}
    got = np.array([row["probabilities"][true] for row in zero_rows])
    assert np.allclose(got, [by_id[row["id"]] for row in zero_rows], atol=1e-9, rtol=0)
    assert (
        sum(row["model_label"] is None for row in zero_rows)
        == score["scores"]["hypotheses_without_evidence"]
    )


def labels_of(export) -> list[str]:
    import datasets

    return datasets.load_dataset(str(export), "en", split="test").features["label"].names
