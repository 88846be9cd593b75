"""BoOQA's corpus processing on datatrove: sharding, resuming, and bad input.

The extraction is a datatrove pipeline (reader → spaCy triples → one Parquet shard per task); its
output must not depend on how many tasks ran it, a killed run must resume from the tasks it
completed, and a bad corpus must fail with one clear message.
"""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.builders.booqa.corpus.extraction import ARTICLE_SCHEMA, extraction_pipeline
from compsem.loading_scripts.booqa_corpus import (
    NewsCorpusError,
    open_news_corpus,
)
from compsem.pipeline.runner import CorpusError, run_locally, shard_files
from compsem.publish.export import export_benchmark
from tests.conftest import INVENTED_NEWS

INVENTED = [json.loads(line) for line in INVENTED_NEWS.read_text().splitlines()]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


@pytest.fixture(scope="module")
def four_files(tmp_path_factory) -> Path:
    """The invented fixture corpus dealt round-robin into four JSONL files (datatrove shards by file)."""
    folder = tmp_path_factory.mktemp("news")
    for index in range(4):
        write_jsonl(folder / f"part-{index}.jsonl", INVENTED[index::4])
    return folder


def extract(corpus: Path, work: Path, tasks: int, workers: int = 1) -> Path:
    steps = extraction_pipeline(open_news_corpus(corpus), work)
    run_locally(steps, work / "logs", tasks=tasks, workers=workers)
    return work / "shards"


def articles(shards: Path) -> list[dict]:
    """Every article row of an extraction, in id order."""
    table = pa.concat_tables(pq.read_table(path) for path in shard_files(shards))
    return sorted(table.to_pylist(), key=lambda row: row["id"])


@pytest.fixture(scope="module")
def one_task(four_files, tmp_path_factory) -> Path:
    return extract(four_files, tmp_path_factory.mktemp("one-task"), tasks=1)


def test_four_tasks_give_the_output_of_one_task(four_files, one_task, tmp_path):
    four = extract(four_files, tmp_path / "work", tasks=4, workers=2)
    assert len(shard_files(four)) == 4 and len(shard_files(one_task)) == 1
    rows = articles(one_task)
    assert articles(four) == rows
    assert len(rows) == len(INVENTED) and sum(len(row["triples"]) for row in rows) > 500


def test_shards_hold_every_article_with_its_date_and_triples(one_task):
    shard = shard_files(one_task)[0]
    assert pq.read_schema(shard).remove_metadata() == ARTICLE_SCHEMA
    assert pq.read_schema(shard).metadata[b"compsem.parser"].startswith(b"en_")
    by_id = {row["id"]: row for row in articles(one_task)}
    for article in INVENTED[:20]:
        row = by_id[article["id"]]
        assert row["date"].isoformat() == article["date"]
        assert row["triples"]
        for triple in row["triples"]:  # names as written, common nouns as lemmas
            for role in ("subject", "object"):
                assert triple[role].split()[-1][:4].lower() in article["text"].lower()


KILLED_RUN = """
import os, signal, sys
from pathlib import Path
from datatrove.pipeline.base import PipelineStep
from compsem.loading_scripts.booqa_corpus import open_news_corpus
from compsem.pipeline.runner import run_locally
from compsem.builders.booqa.corpus.extraction import extraction_pipeline

class KillDuringRank2(PipelineStep):
    name = "kill"
    type = "test"

    def run(self, data, rank=0, world_size=1):
        for index, document in enumerate(data):
            if rank == 2 and index == 5:  # mid-task: the whole job is killed, as by a scheduler
                os.killpg(os.getpgid(0), signal.SIGKILL)
            yield document

work = Path(sys.argv[2])
steps = extraction_pipeline(open_news_corpus(sys.argv[1]), work)
steps.insert(-1, KillDuringRank2())
run_locally(steps, work / "logs", tasks=4, workers=1)
"""


def test_a_killed_run_resumes_from_its_completed_tasks(four_files, one_task, tmp_path):
    work = tmp_path / "work"
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_RUN, str(four_files), str(work)],
        start_new_session=True,  # its own process group, killed whole
        capture_output=True,
        timeout=300,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr.decode()[-2000:]
    completed = sorted(p.name for p in (work / "logs" / "completions").iterdir())
    assert completed == ["00000", "00001"]
    finished = {p: p.stat().st_mtime_ns for p in shard_files(work / "shards")}
    finished = {p: t for p, t in finished.items() if p.stem.endswith(("00000", "00001"))}
    assert len(finished) == 2

    extract(four_files, work, tasks=4)
    assert sorted(p.name for p in (work / "logs" / "completions").iterdir()) == [
        f"{rank:05d}" for rank in range(4)
    ]
    for path, mtime in finished.items():  # completed tasks were not run again
        assert path.stat().st_mtime_ns == mtime
    assert articles(work / "shards") == articles(one_task)


def export_fails(tmp_path: Path, corpus, error, match: str, **kwargs) -> None:
    out = tmp_path / "booqa"
    with pytest.raises(error, match=match):
        export_benchmark("booqa", out, ["en"], corpus=str(corpus), preset="tiny", **kwargs)
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".booqa")]


def test_an_undated_article_is_named_with_its_line(tmp_path):
    rows = [dict(INVENTED[0]), {k: v for k, v in INVENTED[1].items() if k != "date"}]
    corpus = write_jsonl(tmp_path / "news.jsonl", rows)
    export_fails(
        tmp_path, corpus, NewsCorpusError, r"'demo-.*' \(.*news.jsonl, line 2\) has no date"
    )


def test_a_failing_task_prints_the_error_alone(tmp_path, capfd):
    """datatrove logged a failing task's traceback, with every local variable, on the console
    before the command's own error; the console now holds no traceback, and an article without
    an id is named by where it is."""
    rows = [dict(INVENTED[0]), {"date": INVENTED[1]["date"]}]
    corpus = write_jsonl(tmp_path / "news.jsonl", rows)
    export_fails(
        tmp_path,
        corpus,
        NewsCorpusError,
        r"^The article \(.*news.jsonl, line 2\) has no 'text' field",
        tasks=2,
        workers=2,
    )
    console = capfd.readouterr()
    assert "Traceback" not in console.err and "datatrove" not in console.err, console.err


def test_an_unparseable_date_is_named_with_the_fix(tmp_path):
    rows = [dict(INVENTED[0]), {**INVENTED[1], "date": "3rd of March"}]
    corpus = write_jsonl(tmp_path / "news.jsonl", rows)
    export_fails(tmp_path, corpus, NewsCorpusError, r"date '3rd of March'.*ISO 8601")


def test_an_unparseable_date_in_parquet_names_its_row(tmp_path):
    table = pa.Table.from_pylist([{**INVENTED[0], "date": "2025-02-30"}])
    pq.write_table(table, tmp_path / "news.parquet")
    export_fails(tmp_path, tmp_path / "news.parquet", NewsCorpusError, r"row 0\) has date")


def test_a_malformed_line_is_an_error_not_a_skipped_article(tmp_path):
    corpus = tmp_path / "news.jsonl"
    corpus.write_text(json.dumps(INVENTED[0]) + "\n{not json\n")
    export_fails(tmp_path, corpus, CorpusError, r"news.jsonl, line 2: not valid JSON")


def test_an_empty_corpus_says_so(tmp_path):
    corpus = tmp_path / "news.jsonl"
    corpus.write_text("\n")
    export_fails(tmp_path, corpus, NewsCorpusError, "holds no articles")
    (tmp_path / "empty").mkdir()
    export_fails(tmp_path, tmp_path / "empty", NewsCorpusError, "holds no .* files")


def test_parquet_and_saved_datasets_are_read_with_typed_dates(tmp_path):
    import datetime as dt

    from datasets import Dataset

    rows = [{**row, "date": dt.date.fromisoformat(row["date"])} for row in INVENTED[:8]]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "news.parquet")
    Dataset.from_list(rows).save_to_disk(str(tmp_path / "saved"))
    expected = [row["id"] for row in sorted(INVENTED[:8], key=lambda r: r["id"])]
    for corpus in (tmp_path / "news.parquet", tmp_path / "saved"):
        work = tmp_path / f"work-{corpus.name}"
        assert [row["id"] for row in articles(extract(corpus, work, tasks=1))] == expected


def test_corpus_specs_that_cannot_be_read_get_one_message(tmp_path):
    with pytest.raises(NewsCorpusError, match="pass reuters_21578"):
        open_news_corpus(tmp_path / "missing.csv")
    assert os.path.basename(open_news_corpus(INVENTED_NEWS).files[0]) == INVENTED_NEWS.name
