"""The hub-ready export: loading round trip, determinism, atomicity and clear errors."""

import os
from pathlib import Path

import pytest
from datasets import ClassLabel, load_dataset

from compsem.builders import UnknownBenchmarkError
from compsem.builders.plane.config import LABEL_NAMES
from compsem.files.output_folder import OutputFolderError
from compsem.pipeline.runner import CorpusError
from compsem.publish.export import ExportError, export_benchmark
from tests.conftest import read_config, reference_settings

SMALL = {**reference_settings, "max_docs": 2000}


@pytest.mark.slow
def test_load_dataset_reads_the_export_offline_with_class_labels(plane_export):
    dataset = load_dataset(str(plane_export), "goood_split_2")
    assert set(dataset) == {"train", "validation", "test"}
    assert dataset["train"].features["label"] == ClassLabel(names=LABEL_NAMES)
    on_disk = read_config(plane_export, "goood_split_2")
    for split, frame in on_disk.items():
        assert dataset[split]["id"] == list(frame.id)


@pytest.mark.slow
def test_card_declares_every_config_with_exact_split_sizes(plane_export):
    from huggingface_hub import DatasetCard

    card = DatasetCard.load(plane_export / "README.md")
    configs = {entry["config_name"]: entry for entry in card.data.configs}
    infos = {entry["config_name"]: entry for entry in card.data.dataset_info}
    exported = sorted(p.name for p in plane_export.iterdir() if p.is_dir())
    assert sorted(configs) == sorted(infos) == exported
    for name in exported:
        sizes = {split["name"]: split["num_examples"] for split in infos[name]["splits"]}
        assert sizes == {
            split: len(frame) for split, frame in read_config(plane_export, name).items()
        }
    text = (plane_export / "README.md").read_text()
    assert "bertolini-etal-2022-testing" in text and "Provenance" in text


@pytest.mark.slow
def test_same_inputs_give_identical_bytes(plane_export, tmp_path):
    configs = ["goood_split_1", "two_shot"]
    export_benchmark("plane", tmp_path / "again", configs, **reference_settings)
    for config in configs:
        for path in sorted((tmp_path / "again" / config).iterdir()):
            assert path.read_bytes() == (plane_export / config / path.name).read_bytes()


def test_unknown_config_is_named_and_nothing_is_written(tmp_path):
    with pytest.raises(ExportError, match=r"Unknown config\(s\) 'goood_split_9'.*goood_split_1"):
        export_benchmark("plane", tmp_path / "out", ["goood_split_9"], **SMALL)
    assert list(tmp_path.iterdir()) == []


def test_unknown_benchmark_is_named(tmp_path):
    with pytest.raises(
        UnknownBenchmarkError, match="Unknown benchmark 'plain'; choose one of plane"
    ):
        export_benchmark("plain", tmp_path / "out")


def test_unwritable_output_folder_gets_one_clear_error(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.access(locked, os.W_OK):  # root ignores permissions: use a path under a file instead
        (tmp_path / "a-file").write_text("")
        target = tmp_path / "a-file" / "plane"
    else:
        target = locked / "plane"
    with pytest.raises(OutputFolderError, match="choose an? .*--out|a file; choose a new folder"):
        export_benchmark("plane", target, ["full"], **SMALL)


def test_empty_corpus_fails_clearly_and_leaves_the_previous_export(tmp_path):
    out = tmp_path / "plane"
    export_benchmark("plane", out, ["full"], **SMALL)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    with pytest.raises(CorpusError, match="no adjective-noun phrases"):
        export_benchmark("plane", out, ["full"], corpus=str(empty))
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.txt", "plane"]


def test_a_failing_config_leaves_no_partial_export(tmp_path, monkeypatch):
    import compsem.builders.plane.splits.regimes as plane

    def explode(*args, **kwargs):
        raise RuntimeError("interrupted")

    monkeypatch.setitem(plane.TRIPLET_CONFIGS, "two_shot", explode)
    with pytest.raises(RuntimeError, match="interrupted"):
        export_benchmark("plane", tmp_path / "plane", ["full", "two_shot"], **SMALL)
    assert list(tmp_path.iterdir()) == []


def test_regime_too_small_for_the_corpus_says_what_to_do(tmp_path):
    with pytest.raises(ValueError, match="raise --max-docs"):
        export_benchmark(
            "plane", tmp_path / "plane", ["goood_split_1"], **{**reference_settings, "max_docs": 50}
        )
    assert not Path(tmp_path / "plane").exists()


def test_a_cold_and_a_warm_cache_write_the_same_card(tmp_path, monkeypatch):
    """The card's byte counts are the Parquet files' sizes, whatever the caches held."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(
        "A former president met a possible candidate.\nA red car passed a fake gun shop.\n"
    )
    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path / "cold"))
    cards = []
    for name in ("cold", "warm"):
        out = tmp_path / name / "export"
        export_benchmark("plane", out, ["full"], corpus=str(corpus))
        cards.append((out / "README.md").read_text())
        sizes = sum(path.stat().st_size for path in (out / "full").glob("*.parquet"))
        assert f"dataset_size: {sizes}" in cards[-1]
    assert cards[0] == cards[1]
