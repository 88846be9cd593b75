"""The BoOQA export: loading round trip, determinism, the card, Levy/Holt configs and clear
errors for corpora and settings that cannot give a benchmark."""

import json
import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from datasets import ClassLabel, load_dataset

from compsem.benchmark.size_floor import MIN_TEST_ROWS
from compsem.builders.booqa.config import LABEL_NAMES, BooqaConfig
from compsem.builders.booqa.corpus.extraction import extraction_pipeline
from compsem.builders.booqa.sampling.population import ThresholdError
from compsem.builders.plane.config import PlaneConfig
from compsem.loading_scripts.booqa_corpus import (
    NewsCorpusError,
    open_news_corpus,
)
from compsem.loading_scripts.levyholt_release import LevyHoltError, read_levyholt
from compsem.pipeline.runner import available_cores, run_locally
from compsem.publish.export import export_benchmark
from tests.conftest import INVENTED_NEWS, TINY_BOOQA, read_config
from tests.row_order import unrepresentative_prefixes

# Levy/Holt lines: hypothesis, premise, label, language. Each pair comes with its converse.
LEVYHOLT = {
    "train": [
        ("John,went to,IKEA", "John,shopped in,IKEA", "True"),  # directional, true
        ("John,shopped in,IKEA", "John,went to,IKEA", "False"),  # its converse
        ("Mary,arrived at,Paris", "Mary,got to,Paris", "True"),  # paraphrase
        ("Mary,got to,Paris", "Mary,arrived at,Paris", "True"),
    ],
    "dev": [
        ("Ann,fell ill in,Rome", "Ann,shopped in,Rome", "False"),  # unrelated
        ("Ann,shopped in,Rome", "Ann,fell ill in,Rome", "False"),
    ],
    "test": [
        ("Bob,visited,Oslo", "Bob,toured,Oslo", "True"),
        ("Bob,toured,Oslo", "Bob,visited,Oslo", "False"),
        ("Eve,left,Rome", "Eve,departed,Rome", "True"),  # no converse in the file
    ],
}


@pytest.fixture(scope="module")
def levyholt(tmp_path_factory):
    folder = tmp_path_factory.mktemp("levyholt")
    for split, lines in LEVYHOLT.items():
        (folder / f"{split}.txt").write_text(
            "".join("\t".join([*line, "EN"]) + "\n" for line in lines)
        )
    return folder


@pytest.fixture(scope="module")
def booqa_export(tmp_path_factory, levyholt):
    out = tmp_path_factory.mktemp("exports") / "booqa"
    export_benchmark("booqa", out, levyholt=str(levyholt), **TINY_BOOQA)
    return out


@pytest.mark.slow
def test_load_dataset_reads_every_config_offline_with_class_labels(booqa_export):
    names = sorted(p.name for p in booqa_export.iterdir() if p.is_dir())
    levyholt = [
        f"levyholt_{subset}{suffix}"
        for subset in (
            "full",
            "directional",
            "symmetric",
            "para_dirtrue",
            "para_dirfalse",
            "dirtrue_unrelated",
            "dirfalse_unrelated",
        )
        for suffix in ("", "_hypothesis_only")
    ]
    assert names == sorted(["en", "h_only", *levyholt])
    en = load_dataset(str(booqa_export), "en")
    assert set(en) == {"dev", "test"}
    assert en["dev"].features["label"] == ClassLabel(names=LABEL_NAMES)
    assert en["test"][0]["evidence"] and set(en["test"][0]["evidence"][0]) == {
        "subject",
        "predicate",
        "object",
        "text",
        "mentions",
    }
    for split, frame in read_config(booqa_export, "en").items():
        assert en[split]["id"] == list(frame.id)
    h_only = load_dataset(str(booqa_export), "h_only")
    assert set(h_only) == {"train", "dev2", "test"} and "evidence" not in h_only["test"].features


@pytest.mark.slow
def test_same_inputs_give_identical_bytes(booqa_export, levyholt, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path / "fresh-cache"))  # recompute everything
    export_benchmark("booqa", tmp_path / "again", levyholt=str(levyholt), **TINY_BOOQA)
    for config in ("en", "h_only", "levyholt_full"):
        for path in sorted((tmp_path / "again" / config).iterdir()):
            assert path.read_bytes() == (booqa_export / config / path.name).read_bytes()


@pytest.mark.slow
def test_four_datatrove_tasks_build_the_same_benchmark(booqa_export, tmp_path):
    corpus = tmp_path / "news"
    corpus.mkdir()
    lines = INVENTED_NEWS.read_text().splitlines(keepends=True)
    for index in range(4):
        (corpus / f"part-{index}.jsonl").write_text("".join(lines[index::4]))
    for tasks in (1, 4):
        export_benchmark(
            "booqa",
            tmp_path / f"tasks-{tasks}",
            ["en"],
            corpus=str(corpus),
            preset="tiny",
            tasks=tasks,
            workers=1,
        )
    for name in ("dev-00000-of-00001.parquet", "test-00000-of-00001.parquet"):
        one = (tmp_path / "tasks-1" / "en" / name).read_bytes()
        assert one == (tmp_path / "tasks-4" / "en" / name).read_bytes()
        assert one == (booqa_export / "en" / name).read_bytes()  # the same articles as the fixture


@pytest.mark.slow
def test_shards_extracted_elsewhere_build_the_same_benchmark(booqa_export, tmp_path):
    """The scale-out path: run the extraction pipeline with any datatrove executor (here the
    local one, in two tasks), then build from its shards."""
    work = tmp_path / "work"
    steps = extraction_pipeline(open_news_corpus(INVENTED_NEWS), work)
    run_locally(steps, work / "logs", tasks=2, workers=1)
    export_benchmark(
        "booqa", tmp_path / "booqa", ["en"], extracted=str(work / "shards"), preset="tiny"
    )
    for path in sorted((booqa_export / "en").iterdir()):
        assert path.read_bytes() == (tmp_path / "booqa" / "en" / path.name).read_bytes()
    (work / "logs" / "completions" / "00001").unlink()  # as if task 1 had not finished
    with pytest.raises(NewsCorpusError, match=r"not finished: 1 of 2 tasks \(ranks \[1\]\)"):
        export_benchmark(
            "booqa", tmp_path / "again", ["en"], extracted=str(work / "shards"), preset="tiny"
        )
    assert not (tmp_path / "again").exists()


@pytest.mark.slow
def test_compsem_audit_finds_every_promise_kept(booqa_export):
    from compsem.files.content_fingerprint import read_split_tables
    from compsem.publish.audit import audit_tables

    configs = {name: read_split_tables(booqa_export, name) for name in ("en", "h_only")}
    report = audit_tables(configs, str(booqa_export), "booqa", hypothesis_only=False)
    checks = {(audit.config, check.name) for audit in report.configs for check in audit.checks}
    assert ("en", "bundles whole") in checks and (
        "h_only",
        "no proposition in two splits",
    ) in checks
    assert report.ok, report.broken()


@pytest.mark.slow
def test_card_derives_its_numbers_and_shows_ten_bundles(booqa_export):
    from compsem.benchmark.card import card_problems

    text = (booqa_export / "README.md").read_text()
    assert f"| corpus | `{INVENTED_NEWS}`" in text and "research purposes only" in text
    bundles = text.split("## Ten sampled bundles")[1].split("\n## ")[0]
    assert bundles.count("evidence: ") == 10 and "**true**" in bundles and "**false**" in bundles
    assert "Entity types." in text and "51.0%" in text
    assert "li-etal-2022-language" in text and "SlurmPipelineExecutor" in text
    stats = read_config(booqa_export, "en")
    assert f"| dev | {len(stats['dev'])} |" in text
    assert card_problems(text) == []
    # linking, counted; and the size said in the header, from the one declared floor
    linking = text.split("**Arguments linked to entities**")[1].split("2. **Starring")[0]
    assert "`--link-arguments`, the" in linking and "argument mentions" in linking
    header = text.split("## ")[0]
    test_rows = len(stats["test"])
    assert f"en: its test split has {test_rows} rows, below the {MIN_TEST_ROWS:,}" in header
    assert "Too small to rank models." in header


def test_levyholt_subsets_come_from_each_pairs_converse(levyholt):
    splits = read_levyholt(levyholt)
    assert [row["subgroup"] for row in splits["train"]] == [
        "dir_true",
        "dir_false",
        "paraphrase",
        "paraphrase",
    ]
    assert {row["subgroup"] for row in splits["dev"]} == {"unrelated"}
    assert [row["subgroup"] for row in splits["test"]] == ["dir_true", "dir_false", "unpaired"]
    first = splits["train"][0]
    assert first["premise"] == ("John", "shopped in", "IKEA") and first["label"] == 1


@pytest.mark.slow
def test_levyholt_configs_hold_their_subsets(booqa_export):
    full = read_config(booqa_export, "levyholt_full")
    directional = read_config(booqa_export, "levyholt_directional")
    symmetric = read_config(booqa_export, "levyholt_symmetric")
    assert {len(full[s]) for s in ("train", "dev", "test")} == {4, 2, 3}
    assert set(directional["train"].subgroup) == {"dir_true", "dir_false"}
    assert "dev" not in directional and set(symmetric["dev"].subgroup) == {"unrelated"}
    assert sorted(directional["train"].premise) == ["John shopped in IKEA", "John went to IKEA"]


@pytest.mark.slow
def test_a_hub_corpus_with_its_own_columns_builds_the_same_benchmark(
    booqa_export, tmp_path, monkeypatch
):
    """``--corpus hf://datasets/OWNER/NAME/CONFIG`` with ``--text-column`` and
    ``--date-column`` streams through datatrove's Hub reader: datasets resolves ``acme/news`` to
    the local folder of that name before asking the Hub, so this runs offline through the same
    code path as a Hub corpus."""
    folder = tmp_path / "acme" / "news"
    (folder / "en").mkdir(parents=True)
    rows = [json.loads(line) for line in INVENTED_NEWS.read_text().splitlines()]
    table = pa.table(
        {
            "id": [row["id"] for row in rows],
            "body": [row["text"] for row in rows],
            "published": [row["date"] for row in rows],
        }
    )
    pq.write_table(table, folder / "en" / "train-00000.parquet")
    (folder / "README.md").write_text(
        "---\nconfigs:\n- config_name: en\n  data_files:\n  - split: train\n"
        "    path: en/train-*.parquet\n---\n"
    )
    monkeypatch.chdir(tmp_path)
    export_benchmark(
        "booqa",
        tmp_path / "booqa",
        ["en"],
        corpus="hf://datasets/acme/news/en",
        text_column="body",
        date_column="published",
        preset="tiny",
    )
    for name in ("dev-00000-of-00001.parquet", "test-00000-of-00001.parquet"):
        built = (tmp_path / "booqa" / "en" / name).read_bytes()
        assert built == (booqa_export / "en" / name).read_bytes()


def test_a_corpus_without_a_starring_pair_names_the_threshold_to_lower(tmp_path):
    with pytest.raises(ThresholdError, match=r"at least 400 articles.*Lower --min-articles"):
        export_benchmark("booqa", tmp_path / "booqa", ["en"], **TINY_BOOQA, min_articles=400)
    with pytest.raises(ThresholdError, match=r"at least 500 distinct.*Lower --min-pairs"):
        export_benchmark("booqa", tmp_path / "booqa", ["en"], **TINY_BOOQA, min_pairs=500)
    assert list(tmp_path.iterdir()) == []


def test_bad_settings_and_levyholt_files_get_one_clear_error(tmp_path):
    with pytest.raises(ValueError, match="Unknown preset 'huge'"):
        export_benchmark("booqa", tmp_path / "booqa", ["en"], preset="huge")
    with pytest.raises(ValueError, match="frequency_buckets must be increasing"):
        export_benchmark(
            "booqa", tmp_path / "booqa", ["en"], **TINY_BOOQA, frequency_buckets=(10, 5)
        )
    with pytest.raises(LevyHoltError, match="--levyholt DIR"):
        export_benchmark("booqa", tmp_path / "booqa", ["levyholt_full"])
    bad = tmp_path / "lh"
    bad.mkdir()
    for split in ("train", "dev", "test"):
        (bad / f"{split}.txt").write_text("John,went to IKEA\tJohn,shopped in,IKEA\tTrue\tEN\n")
    with pytest.raises(LevyHoltError, match=r"train.txt, line 1: 'John,went to IKEA' is not"):
        export_benchmark("booqa", tmp_path / "booqa", ["levyholt_full"], levyholt=str(bad))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lh"]


def test_build_help_documents_the_inputs():
    result = subprocess.run(
        [sys.executable, "-m", "compsem.cli", "build", "booqa", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    for flag in (
        "--corpus",
        "--extracted",
        "--preset",
        "--min-articles",
        "--min-pairs",
        "--tasks",
        "--workers",
        "--levyholt",
        "--word-sense",
        "--link-arguments",
        "--no-link-arguments",
    ):
        assert flag in result.stdout


def test_builds_parse_with_one_task_and_worker_per_available_core_by_default():
    cores = len(os.sched_getaffinity(0))
    for config_class in (BooqaConfig, PlaneConfig):
        config = config_class(name="x")
        assert (config.tasks, config.workers) == (cores, cores) == (available_cores(),) * 2


def test_the_fixture_corpus_is_labelled_as_invented():
    rows = [json.loads(line) for line in INVENTED_NEWS.read_text().splitlines()]
    assert len(rows) > 100 and all("not real news" in row["source"] for row in rows)
    assert all(row["id"].startswith("demo-") and row["date"] for row in rows)


@pytest.mark.slow
def test_every_prefix_of_every_split_is_representative(booqa_export):
    """Splits are stored shuffled, stratified: the first 100 rows of each hold every label and
    grouping field within 10 points of its share (so `--limit 100` scores a fair sample)."""
    assert unrepresentative_prefixes(booqa_export) == {}
