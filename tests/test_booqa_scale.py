"""BoOQA at NewsCrawl scale: the card's recipe for a Hub news corpus, extraction on datatrove's
``RayPipelineExecutor`` (a real local Ray instance), gives the triples and the benchmark of the
local executor.

The Hub corpus runs offline: ``datasets`` resolves ``hf://datasets/acme/news`` to a local folder
of that relative path before it would ask the Hub, so it goes through the reader a Hub corpus
does."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.builders.booqa.corpus.extraction import check_shards, extract_triples
from compsem.builders.booqa.corpus.ray_extraction import main as ray_extraction
from compsem.cli import main as compsem
from compsem.loading_scripts.booqa_corpus import open_news_corpus
from compsem.pipeline.runner import shard_files
from tests.conftest import INVENTED_NEWS
from tests.test_plane_scale import local_ray_instance

HUB = "hf://datasets/acme/news/en"
# The card's Ray recipe, at the scale of a test (the card says --tasks 512 --workers 128).
RECIPE = ["--corpus", HUB, "--text-column", "body", "--date-column", "published"]


@pytest.fixture
def hub_news(tmp_path, monkeypatch):
    """The invented news as the Hub dataset ``acme/news`` (config ``en``), its text in ``body``
    and its date in ``published``, in two files so that two tasks each read one."""
    folder = tmp_path / "acme" / "news"
    (folder / "en").mkdir(parents=True)
    rows = [json.loads(line) for line in INVENTED_NEWS.read_text().splitlines()]
    for part in range(2):
        chunk = rows[part::2]
        table = pa.table(
            {
                "id": [row["id"] for row in chunk],
                "body": [row["text"] for row in chunk],
                "published": [row["date"] for row in chunk],
            }
        )
        pq.write_table(table, folder / "en" / f"train-0000{part}.parquet")
    (folder / "README.md").write_text(
        "---\nconfigs:\n- config_name: en\n  data_files:\n  - split: train\n"
        "    path: en/train-*.parquet\n---\n"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def ray_in_hub_news(hub_news):
    """A local Ray instance of two CPUs whose workers run in a copy of the folder holding
    ``acme/news`` (Ray's ``working_dir``), as the Hub reader resolves the name there; shut down
    after the test, leaving no process behind."""
    runtime_env = {"working_dir": str(hub_news), "excludes": ["booqa-work", "from-ray", "local"]}
    with local_ray_instance(runtime_env=runtime_env) as ray:
        yield ray


def triples_of(files) -> list[tuple]:
    """Every (article, triple) of the shards, sorted: the same whatever the tasks."""
    table = pa.concat_tables(pq.read_table(path) for path in files)
    return sorted(
        (article["id"], json.dumps(triple, sort_keys=True))
        for article in table.to_pylist()
        for triple in article["triples"]
    )


@pytest.mark.slow
def test_the_cards_ray_recipe_counts_what_the_local_executor_counts(ray_in_hub_news, hub_news):
    work = hub_news / "booqa-work"
    command = [*RECIPE, "--work", str(work), "--tasks", "2", "--workers", "2"]
    assert ray_extraction(command) == 0

    on_ray = check_shards(work / "shards")
    corpus = open_news_corpus(HUB, "body", "published")
    local = shard_files(extract_triples(corpus, tasks=1, workers=1))
    assert len(on_ray) == 2 and len(local) == 1
    triples = triples_of(on_ray)
    assert len(triples) > 50 and triples == triples_of(local)
    for _, triple in triples:  # linking ran in the Ray workers
        assert json.loads(triple)["subject_entity"].startswith(("name:", "wordnet:"))

    build = ["build", "booqa", "--config", "en", "--preset", "tiny", "--out"]
    assert compsem([*build, "from-ray", "--extracted", str(work / "shards")]) == 0
    assert compsem([*build, "local", *RECIPE, "--tasks", "1", "--workers", "1"]) == 0
    for name in ("dev-00000-of-00001.parquet", "test-00000-of-00001.parquet"):
        from_ray = (hub_news / "from-ray" / "en" / name).read_bytes()
        assert from_ray == (hub_news / "local" / "en" / name).read_bytes()
