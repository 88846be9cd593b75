"""A second `compsem demo` keeps an export only when building it again would write the same."""

import json

import datasets

from compsem.builders import benchmark_spec
from compsem.cli import main
from compsem.files.output_folder import MARKER
from compsem.publish import export_key
from compsem.publish.export import export_benchmark, export_summary, kept_summary
from compsem.publish.export_key import build_key


def test_an_untouched_export_is_kept_with_its_summary_in_export_order(tmp_path):
    out = tmp_path / "montague"
    exports = export_benchmark("montague", out)
    summary = kept_summary("montague", out)
    assert summary == export_summary(exports)
    assert [row["config"] for row in summary] == [export.name for export in exports]
    labels = exports[0].info.features["label"].names
    assert [name for name, _ in summary[0]["labels"]] == labels


def test_other_settings_a_subset_or_an_edited_file_are_not_kept(tmp_path):
    out = tmp_path / "montague"
    export_benchmark("montague", out)
    assert kept_summary("montague", out, vocabulary="plane") is None
    card = out / "README.md"
    card.write_text(card.read_text() + "\nmy note\n")
    assert kept_summary("montague", out) is None

    subset = tmp_path / "subset"
    export_benchmark("montague", subset, ["an"])
    assert kept_summary("montague", subset) is None


def test_a_folder_compsem_did_not_write_or_another_benchmark_is_not_kept(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    assert kept_summary("montague", tmp_path / "mine") is None
    assert kept_summary("montague", tmp_path / "absent") is None
    out = tmp_path / "montague"
    export_benchmark("montague", out)
    marker = json.loads((out / MARKER).read_text())
    assert kept_summary("rnpc", out) is None and marker["kind"] == "montague export"


def test_the_key_follows_code_settings_and_the_files_settings_name(tmp_path, monkeypatch):
    code = tmp_path / "code"
    code.mkdir()
    (code / "rules.py").write_text("THRESHOLD = 1\n")
    monkeypatch.setattr(export_key, "code_folders", lambda: [code])
    plane = benchmark_spec("plane")
    key = build_key(plane, ["full"], {"tasks": 2})
    assert key == build_key(plane, ["full"], {"tasks": 2})
    assert key != build_key(plane, ["full"], {"tasks": 1})
    assert key != build_key(plane, ["full", "two_shot"], {"tasks": 2})
    assert key != build_key(benchmark_spec("rnpc"), ["full"], {"tasks": 2})
    (code / "rules.py").write_text("THRESHOLD = 2\n")
    assert build_key(plane, ["full"], {"tasks": 2}) != key
    changed = build_key(plane, ["full"], {"tasks": 2})
    monkeypatch.setattr(plane.builder, "VERSION", datasets.Version("9.9.9"))
    assert build_key(plane, ["full"], {"tasks": 2}) != changed

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("A former president spoke.\n")
    named = build_key(plane, ["full"], {"corpus": str(corpus)})
    corpus.write_text("A former president spoke. A fake gun fired.\n")
    assert build_key(plane, ["full"], {"corpus": str(corpus)}) != named


def test_a_second_demo_keeps_the_export_and_prints_the_same_table(tmp_path, capsys):
    arguments = ["demo", "--out", str(tmp_path / "demo"), "--benchmarks", "montague"]
    assert main(arguments) == 0
    first = capsys.readouterr().out
    card = tmp_path / "demo" / "montague" / "README.md"
    written = card.stat().st_mtime_ns
    assert main(arguments) == 0
    second = capsys.readouterr().out
    assert "is up to date" in second and "is up to date" not in first
    assert card.stat().st_mtime_ns == written

    def tables(text):
        return [line for line in text.splitlines() if line.startswith("| ")]

    assert tables(first) == tables(second)
