"""PLANE's zero-shot masked-LM experiment (Appendix B.1) through ``compsem prompt``: each row's
first prediction read through Table 7's conversion table, scores per class over the templates
(Table 8) and per joint cell (Fig. 5)."""

import json

import datasets
import numpy as np
import pytest

from compsem.builders.plane.prompts import ZERO_SHOT_FEATURES, zero_shot_prompts
from compsem.harness.models.loading import default_model
from compsem.harness.probing.masked_lm import verbalised_predictions
from compsem.harness.results.files import read_results, result_name, rows_path
from compsem.harness.results.scores import OTHER
from tests.harness_data import compsem, plane_pool, write_export

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_thread")]


def test_any_word_of_the_table_counts_for_its_label():
    negatives = [["poor", "false"], ["poor"]]
    positives = [["good", "True"], ["good"]]
    predictions = verbalised_predictions(["true", "false"], negatives, positives)
    assert predictions.tolist() == [1, OTHER]


def test_prompt_scores_zero_shot_rows_through_the_conversion_table(tmp_path):
    prompts = zero_shot_prompts(plane_pool(), 2, np.random.default_rng(0))
    test = datasets.Dataset(prompts, info=datasets.DatasetInfo(features=ZERO_SHOT_FEATURES))
    export = write_export(tmp_path / "plane", {"zero_shot": {"test": test}})
    out = tmp_path / "run"
    assert (
        compsem(
            "prompt --device cpu --config zero_shot", dataset=export, model=default_model(), out=out
        )
        == 0
    )
    (result,) = read_results([out])
    scores = result["scores"]
    assert scores["n"] == prompts.num_rows == 3 * 2 * 2 * 3  # classes × triplets × ITs × templates
    # Table 8: per class, mean ± std over the two templates.
    assert list(scores["per_class"]) == ["I", "S", "O", "Average"]
    # Fig. 5: one cell per class × template × IT, each of its triplets' rows.
    cells = scores["cells"]
    assert len(cells) == 3 * 2 * 3 and {cell["n"] for cell in cells} == {2}
    assert {cell["verbaliser"] for cell in cells} == {"V"}
    table = prompts.to_pylist()
    for line in rows_path(out / result_name(result)).read_text().splitlines():
        row = json.loads(line)
        source = next(r for r in table if r["id"] == row["id"])
        expected = (
            1
            if row["word"] in source["positive_words"]
            else 0
            if row["word"] in source["negative_words"]
            else OTHER
        )
        assert row["prediction"] == expected
