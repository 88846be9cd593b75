"""Shared fixtures. No hub is reachable: everything loads offline."""

import os

os.environ.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_EVALUATE_OFFLINE="1")

from pathlib import Path  # noqa: E402

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402
from filelock import FileLock  # noqa: E402

# All of WordNet's glosses (about two minutes to parse): intensional adjectives are rare in them,
# and fewer documents leave some balanced GOoD splits empty.
TEST_MAX_DOCS = None
# The PLANE build the tests check: WordNet's glosses, not the embedded default (twenty minutes of
# parsing, and npm fetches into a fresh cache).
reference_settings = {"corpus": "wordnet_glosses", "max_docs": TEST_MAX_DOCS}


# Invented news-style articles (not real events) that exercise every step of the BoOQA
# construction at the `tiny` preset; real-text properties run on a Reuters-21578 slice.
INVENTED_NEWS = Path(__file__).parent / "fixtures" / "booqa_invented_news.jsonl"
TINY_BOOQA = {"corpus": str(INVENTED_NEWS), "preset": "tiny"}


def shared_folder(tmp_path_factory, name: str) -> Path:
    """A folder every worker of this run shares: under pytest-xdist the workers' temporary
    folders sit side by side in one, so they share what each would otherwise build again (a
    corpus parse, the PLANE export, the signing key that says compsem wrote it)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    folder = root / name
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(scope="session", autouse=True)
def compsem_cache(tmp_path_factory):
    """A cache shared by the session's builds (and its workers': a parse in progress is locked
    by compsem, so another waits for it), so the corpus is parsed once. Set COMPSEM_TEST_CACHE
    to a folder to reuse parses across sessions while developing."""
    cache = os.environ.get("COMPSEM_TEST_CACHE") or shared_folder(tmp_path_factory, "compsem-cache")
    os.environ["COMPSEM_CACHE"] = str(cache)
    return cache


@pytest.fixture(scope="session", autouse=True)
def compsem_config(tmp_path_factory):
    """compsem's config folder, which holds its signing key: the session's own, never the
    user's (subprocesses inherit it); one for all workers, made under a lock, so an export one
    worker wrote is compsem's in another."""
    from compsem.files.signing import secret_key

    folder = shared_folder(tmp_path_factory, "compsem-config")
    os.environ["COMPSEM_CONFIG"] = str(folder)
    with FileLock(str(folder) + ".lock"):
        secret_key()
    return folder


@pytest.fixture(scope="session")
def smollm2() -> str:
    """The offline SmolLM2-135M-Instruct's folder (CI's setup script converts it once)."""
    from compsem.harness.models.offline import model_path, setup_smollm2, smollm2_ready

    if not smollm2_ready():
        setup_smollm2()  # otherwise fetch and convert it now, once
    return model_path("smollm2")


@pytest.fixture(scope="session")
def plane_export(tmp_path_factory) -> Path:
    """Every generated PLANE config, exported once for the whole run (by the first worker that
    needs it; the others wait for it and read it). Tests copy it before changing anything."""
    from compsem.builders.plane import SPEC
    from compsem.publish.export import export_benchmark

    out = shared_folder(tmp_path_factory, "exports") / "plane"
    with FileLock(str(out) + ".lock"):
        if not (out / "README.md").is_file():
            export_benchmark("plane", out, None, **reference_settings, **SPEC.demo_settings())
    return out


def read_config(folder: Path, config: str) -> dict:
    """Each split of an exported config as a pandas DataFrame, read straight from Parquet."""
    splits = {}
    for path in sorted((folder / config).glob("*.parquet")):
        splits.setdefault(path.name.split("-")[0], []).append(pq.read_table(path))
    return {split: pa.concat_tables(tables).to_pandas() for split, tables in splits.items()}


@pytest.fixture(scope="module")
def one_thread():
    """Tiny models and batches gain nothing from intra-op threads, and on a small shared machine
    OpenMP's spinning threads make each step many times slower; restored afterwards."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
