"""``compsem llm --generate --samples N``: a majority vote over sampled answers, end to end with
the real offline SmolLM2-135M-Instruct, and BoOQA scored by generation (AUCnorm over each row's
vote share, ``gen_ranking``), with its interval, recomputed by ``compsem rescore``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from compsem.benchmark.answers import majority, parse_answer
from compsem.cli.program import main
from compsem.harness.llm.gen_ranking import row_score
from compsem.metrics.aucnorm.aucnorm import aucnorm_scores
from tests.harness_data import tiny_booqa_export

TRUTH = ["False", "True"]


def read_result(out):
    (result,) = out.glob("llm-*.json")
    rows = [json.loads(line) for line in result.with_suffix(".rows.jsonl").open()]
    return json.loads(result.read_text()), rows


def test_a_row_scores_its_vote_share_a_stated_probability_or_the_wrong_answer():
    def record(texts, label, parser="choices"):
        answers = [parse_answer(parser, text, TRUTH) for text in texts]
        return {"output": texts, "answers": answers, "label": label}

    assert row_score(record(["True.", "False", "True", "Maybe"], 1), 1, "choices", []) == 2 / 3
    # No sample parses: the wrong answer's score, as accuracy counts it wrong.
    assert row_score(record(["Maybe", "?"], 1), 1, "choices", []) == 0.0
    assert row_score(record(["Maybe"], 0), 1, "choices", []) == 1.0
    # The score parser: the stated probabilities (of the second label), or a label word's 1/0.
    stated = record(["<think>70%?</think> 0.8", "True"], 1, parser="score")
    assert row_score(stated, 1, "score", ["think"]) == pytest.approx(0.9)
    assert row_score(stated, 0, "score", ["think"]) == pytest.approx(0.1)


@pytest.mark.slow
def test_samples_vote_with_temperature_and_booqa_reports_aucnorm_of_the_vote_share(
    smollm2, one_thread, tmp_path, capsys
):
    export = tiny_booqa_export(tmp_path / "booqa")
    argv = ["llm", "--generate", "--dataset", str(export), "--config", "en", "--limit", "8"]
    argv += ["--samples", "3", "--temperature", "1.0", "--max-new-tokens", "4", "--seed", "3"]
    argv += ["--device", "cpu", "--system", "Answer True or False."]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    assert "AUCnorm" in capsys.readouterr().out
    result, rows = read_result(tmp_path / "a")
    settings, scores = result["settings"], result["scores"]
    assert settings["samples"] == 3 and settings["temperature"] == 1.0 and settings["seed"] == 3
    assert settings["ranking_positive"] == 1 and settings["cluster_by"]
    for row in rows:
        assert len(row["output"]) == 3 and len(row["output_tokens"]) == 3
        assert row["answers"] == [parse_answer("choices", t, TRUTH) for t in row["output"]]
        assert row["prediction"] == majority(row["answers"])
        votes = [a for a in row["answers"] if a is not None]
        expected = np.mean([a == 1 for a in votes]) if votes else float(row["label"] == 0)
        assert row["score"] == pytest.approx(expected)
    correct = [row["prediction"] == row["label"] for row in rows]
    assert scores["accuracy"] == pytest.approx(np.mean(correct))
    assert scores["unparsable"] == pytest.approx(np.mean([r["prediction"] is None for r in rows]))
    ranked = aucnorm_scores([r["score"] for r in rows], [r["label"] == 1 for r in rows])
    assert scores["aucnorm"] == pytest.approx(ranked["aucnorm"])
    low, high = scores["aucnorm_ci"]
    assert low <= scores["aucnorm"] <= high
    assert scores["intervals"]["bootstrap"]["cluster_by"] == settings["cluster_by"]
    assert "AUCnorm" in (tmp_path / "a" / "summary.md").read_text()
    # Seeded sampling: the same run again answers from the cache with the same votes.
    assert main([*argv, "--out", str(tmp_path / "b")]) == 0
    again, again_rows = read_result(tmp_path / "b")
    assert again["settings"]["model_calls"] == 0 and again_rows == rows
    # Rescored from the rows without a model: the same accuracy and AUCnorm with its interval.
    rows_file = next((tmp_path / "a").glob("*.rows.jsonl"))
    assert main(["rescore", str(rows_file), "--out", str(tmp_path / "c")]) == 0
    assert read_result(tmp_path / "c")[0]["scores"] == scores
