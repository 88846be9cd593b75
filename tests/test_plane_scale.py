"""PLANE corpora at any scale: a Hub dataset streamed through datatrove, and the extraction run on
datatrove's ``RayPipelineExecutor`` giving the counts of the local executor.

Both run offline on real WordNet glosses: ``datasets`` resolves ``hf://datasets/acme/glosses`` to
a local folder of that relative path before it would ask the Hub, so the Hub corpus goes through
the very reader a Hub corpus does; Ray is a real local instance (PyPI ``ray``), started and stopped
by a fixture that checks no Ray process is left behind.
"""

import json
import sys
from contextlib import contextmanager
from itertools import islice
from pathlib import Path

import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.builders.plane.config import PlaneConfig
from compsem.builders.plane.corpus.extraction import (
    check_an_shards,
    count_an_shards,
    extract_an_pairs,
)
from compsem.builders.plane.corpus.ray_extraction import main as ray_extraction
from compsem.builders.plane.items.pool import build_item_pool
from compsem.cli import main as compsem
from compsem.loading_scripts.corpora import open_corpus, wordnet_glosses
from compsem.pipeline.runner import shard_files

GLOSSES = list(islice(wordnet_glosses(), 30_000, 30_800))  # past the first synsets' jargon
HUB_CARD = """---
configs:
- config_name: en
  data_files:
  - split: train
    path: en/train-*.parquet
  - split: validation
    path: en/validation-*.parquet
---
"""


def full_config(out: Path) -> list[bytes]:
    """The Parquet files of a PLANE export's ``full`` config."""
    return [path.read_bytes() for path in sorted((out / "full").glob("*.parquet"))]


@pytest.fixture
def hub_glosses(tmp_path, monkeypatch) -> Path:
    """A folder named like the Hub dataset ``acme/glosses`` (config ``en``, text in ``body``):
    its ``validation`` split holds the first 400 glosses, ``train`` the next 400."""
    folder = tmp_path / "acme" / "glosses"
    (folder / "en").mkdir(parents=True)
    for split, texts in (("validation", GLOSSES[:400]), ("train", GLOSSES[400:])):
        pq.write_table(pa.table({"body": texts}), folder / "en" / f"{split}-00000.parquet")
    (folder / "README.md").write_text(HUB_CARD)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_hub_corpus_builds_what_the_same_text_builds_from_a_file(hub_glosses):
    """``compsem build plane --corpus hf://datasets/OWNER/NAME/CONFIG --text-column --split``
    parses exactly that split's texts: its ``full`` config is the one built from a file of them,
    and another split gives another pool."""
    local = hub_glosses / "validation.jsonl"
    local.write_text("".join(json.dumps({"text": text}) + "\n" for text in GLOSSES[:400]))
    hub = ["--corpus", "hf://datasets/acme/glosses/en", "--text-column", "body"]
    for corpus, out in (
        ([*hub, "--split", "validation"], "from-hub"),
        (["--corpus", str(local)], "from-file"),
    ):
        assert compsem(["build", "plane", *corpus, "--config", "full", "--out", out]) == 0
    from_hub = full_config(hub_glosses / "from-hub")
    assert from_hub and from_hub == full_config(hub_glosses / "from-file")
    card = (hub_glosses / "from-hub" / "README.md").read_text()
    assert "hf://datasets/acme/glosses/en" in card and "`validation`" in card

    spec = "hf://datasets/acme/glosses/en"
    validation = build_item_pool(PlaneConfig(corpus=spec, text_column="body", split="validation"))
    train = build_item_pool(PlaneConfig(corpus=spec, text_column="body", split="train"))
    assert len(validation) > 100 and not train.equals(validation)
    assert (
        open_corpus(spec, "body", "validation").fingerprint != open_corpus(spec, "body").fingerprint
    )


def ray_processes(processes: list[psutil.Process]) -> list[psutil.Process]:
    return [p for p in processes if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@contextmanager
def local_ray_instance(**options):
    """A local Ray instance of two CPUs (``ray.init`` with ``options``), shut down afterwards;
    every process it started must be gone."""
    import ray  # the `ray` extra, which the test install includes

    before = {p.pid for p in psutil.Process().children(recursive=True)}
    ray.init(num_cpus=2, include_dashboard=False, **options)
    try:
        yield ray
    finally:
        started = [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
        ray.shutdown()
        _, alive = psutil.wait_procs(started, timeout=30)
        assert not ray_processes(alive), f"Ray left processes behind: {alive}"


@pytest.fixture
def local_ray():
    with local_ray_instance() as ray:
        yield ray


@pytest.mark.slow
def test_the_extraction_on_ray_counts_what_the_local_executor_counts(local_ray, tmp_path):
    """The PLANE card's Ray commands, on a local Ray instance: the shards pass the build's
    checks and give the counts, and the ``full`` config, of ``compsem build plane --corpus`` on
    the same text; run again, the extraction finds every task done."""
    corpus = tmp_path / "glosses"
    corpus.mkdir()
    for part in range(2):  # two files, so that the two tasks each parse one
        (corpus / f"part-{part}.txt").write_text("\n".join(GLOSSES[part::2][:200]) + "\n")
    work = tmp_path / "plane-work"
    command = ["--corpus", str(corpus), "--work", str(work), "--tasks", "2", "--workers", "2"]
    assert ray_extraction(command) == 0

    on_ray = check_an_shards(work / "shards")
    local = shard_files(extract_an_pairs(open_corpus(corpus), tasks=1))
    assert len(on_ray) == 2 and len(local) == 1
    counts = count_an_shards(on_ray)
    assert len(counts) > 100 and counts.equals(count_an_shards(local))
    build = ["build", "plane", "--config", "full", "--out"]
    assert compsem([*build, str(tmp_path / "from-ray"), "--extracted", str(work / "shards")]) == 0
    # one worker: a local pool's processes, slow to exit on a busy host, are not Ray's to check
    local_build = [str(tmp_path / "local"), "--corpus", str(corpus), "--workers", "1"]
    assert compsem([*build, *local_build]) == 0
    from_ray = full_config(tmp_path / "from-ray")
    assert from_ray and from_ray == full_config(tmp_path / "local")

    written = {path: path.stat().st_mtime_ns for path in on_ray}
    assert ray_extraction(command) == 0
    assert {path: path.stat().st_mtime_ns for path in shard_files(work / "shards")} == written


def test_without_ray_the_command_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the `ray` extra were not installed
    corpus = tmp_path / "glosses.txt"
    corpus.write_text("\n".join(GLOSSES[:10]) + "\n")
    assert ray_extraction(["--corpus", str(corpus), "--work", str(tmp_path / "work")]) == 2
    assert "pip install 'compsem[ray]'" in capsys.readouterr().err
    assert not list((tmp_path / "work").rglob("*.parquet"))
