"""``compsem subwords``, PLANE's subword analysis (§6.1–6.2, Figs. 2–3), on real train runs of
the offline MiniLM over a tiny PLANE export, checked against the rows and the tokenizer itself."""

import json

import pytest
from transformers import AutoTokenizer

from compsem.builders import BENCHMARKS
from compsem.builders.plane.config import ITEM_FEATURES
from compsem.cli import main
from compsem.harness.analysis.subwords import Item, analyse, least_squares
from compsem.harness.models.offline import model_path
from compsem.harness.results.files import read_results, result_name, rows_path
from tests.harness_data import compsem, tiny_plane_export
from tests.test_report_page import CHROMIUM, dump_dom

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_thread")]
TINY = "--device cpu --max-train-examples 16 --max-eval-examples 40"
WORDS = ("adjective", "noun", "hypernym")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A train run on a GOoD config and one on a One-IT config."""
    plane = tiny_plane_export(tmp_path_factory.mktemp("exports") / "plane")
    folders = []
    for config, seeds in (("goood_split_1", "1"), ("one_it_split_1", "1")):
        out = tmp_path_factory.mktemp("runs") / config
        assert (
            compsem(f"train --config {config} --seeds {seeds} {TINY}", dataset=plane, out=out) == 0
        )
        folders.append(out)
    return plane, folders


def test_plane_declares_its_word_and_class_columns():
    declared = BENCHMARKS["plane"].subword_analysis
    assert declared.words == WORDS and declared.words[0] == "adjective"
    assert set(declared.words) | {declared.by} <= set(ITEM_FEATURES)


def test_each_point_matches_the_rows_and_the_tokenizer(runs, tmp_path, capsys):
    plane, folders = runs
    out = tmp_path / "analysis"
    argv = ["subwords", *map(str, folders), "--out", str(out), "--by", "adjective_class"]
    assert main([*argv, "--words", *WORDS]) == 0
    assert "share with subwords" in capsys.readouterr().out
    analysis = json.loads((out / "subwords.json").read_text())
    tokenize = AutoTokenizer.from_pretrained(model_path("minilm")).tokenize
    # What the analysis should find, recomputed here from the per-row files and the export.
    import datasets

    expected = {}
    for folder in folders:
        for result in read_results([folder]):
            config = result["dataset"]["config"]
            test = datasets.load_dataset(str(plane), config, split="test")
            by_id = {row["id"]: row for row in test}
            for line in rows_path(folder / result_name(result)).read_text().splitlines():
                row = json.loads(line)
                item = by_id[row["id"]]
                split = any(
                    len(tokenize(" " + word)) > 1 for c in WORDS for word in (item[c] or "").split()
                )
                key = (config, item["adjective_class"])
                n, hits, with_sw = expected.get(key, (0, 0, 0))
                expected[key] = (n + 1, hits + (row["label"] == row["prediction"]), with_sw + split)
    points = {(p["config"], p["group"]): p for p in analysis["points"]}
    assert set(points) == set(expected)
    for key, (n, hits, with_sw) in expected.items():
        assert points[key]["items"] == n
        assert points[key]["accuracy"] == pytest.approx(hits / n)
        assert points[key]["with_subwords"] == pytest.approx(with_sw / n)
    assert sum(p["items"] for p in analysis["points"] if p["config"] == "goood_split_1") == 40
    # One line per class with a point in both configs, whose shares differ.
    for group, fit in analysis["fits"].items():
        shares = {points[(c, g)]["with_subwords"] for c, g in points if g == group}
        assert (fit is None) == (len(shares) < 2)
    svg = (out / "subwords.svg").read_text()
    assert svg.count('class="point"') == len(analysis["points"])
    assert (out / "subwords.md").read_text().startswith("# Subword analysis")


def test_a_dataset_that_declares_nothing_needs_the_columns_named(runs, tmp_path, capsys):
    _, folders = runs
    # A run read under a preset no registered benchmark declares an analysis for.
    (result,) = sorted(folders[0].glob("train-*.json"))
    own = tmp_path / "own"
    own.mkdir()
    payload = json.loads(result.read_text())
    payload["dataset"]["preset"] = "custom"
    (own / result.name).write_text(json.dumps(payload))
    (own / rows_path(result).name).write_text(rows_path(result).read_text())
    assert main(["subwords", str(own), "--out", str(tmp_path / "a")]) == 2
    error = capsys.readouterr().err
    assert "--words" in error and "--by" in error and "Traceback" not in error
    assert not (tmp_path / "a" / "subwords.json").exists()


def test_a_missing_rows_file_is_named(runs, tmp_path, capsys):
    _, folders = runs
    result = next(iter(sorted(folders[1].glob("train-*.json"))))
    copy = tmp_path / "run"
    copy.mkdir()
    (copy / result.name).write_text(result.read_text())
    argv = ["subwords", str(copy), "--out", str(tmp_path / "b"), "--by", "adjective_class"]
    assert main([*argv, "--words", *WORDS]) == 2
    assert "no per-row file" in capsys.readouterr().err


def test_pieces_overlap_and_fits_on_a_hand_made_tokenizer():
    # A tokenizer that splits every word longer than five letters into halves.
    def tokenize(text):
        word = text.strip()
        return [word] if len(word) <= 5 else [word[:3], "##" + word[3:]]

    items = [
        Item("I", {"adjective": "wooden", "noun": "woodpile"}, True),
        Item("I", {"adjective": "red", "noun": "cat"}, False),
        Item("S", {"adjective": "small", "noun": "dog"}, True),
    ]
    analysis = analyse({"c1": items}, tokenize, "adjective")
    points = {p["group"]: p for p in analysis["points"]}
    assert points["I"]["with_subwords"] == 0.5 and points["I"]["accuracy_with_subwords"] == 1.0
    assert points["I"]["accuracy_without_subwords"] == 0.0 and points["S"]["with_subwords"] == 0
    overlap = {o["group"]: o for o in analysis["overlap"]}
    # wooden → woo, ##den; woodpile → woo, ##dpile: one of the adjective's two pieces is shared.
    assert overlap["I"]["shared_share"] == 0.5 and overlap["S"]["shared_share"] is None
    assert least_squares([(0.0, 1.0), (1.0, 3.0)]) == {"slope": 2.0, "intercept": 1.0, "points": 2}
    assert least_squares([(0.5, 1.0), (0.5, 0.0)]) is None


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (scripts/setup.sh does)")
def test_the_results_page_shows_the_analysis_in_plane_section(runs, tmp_path):
    _, folders = runs
    analysis = tmp_path / "analysis"
    argv = ["subwords", *map(str, folders), "--out", str(analysis), "--by", "adjective_class"]
    assert main(argv) == 0  # PLANE declares its word columns
    # The test export's card names no benchmark: the analysis goes with its runs' preset.
    page = tmp_path / "page"
    assert main(["report", *map(str, folders), str(analysis), "--out", str(page)]) == 0
    twin = (page / "index.md").read_text()
    assert "### Subword analysis (PLANE §6, Figs. 2–3)" in twin
    (plot,) = sorted((page / "plots").glob("subwords-*.svg"))
    points = json.loads((analysis / "subwords.json").read_text())["points"]
    assert plot.read_text().count('class="point"') == len(points)
    dom = dump_dom(page / "index.html")
    assert "Subword analysis" in dom and dom.count('class="point"') >= len(points)


def test_a_curves_rows_are_its_largest_size_for_every_seed(tmp_path):
    from compsem.harness.analysis.run import evaluated_rows

    result = tmp_path / "curve-c.json"
    rows = [
        {"shots": shots, "seed": seed, "id": "a", "label": 1, "prediction": seed % 2}
        for shots in (10, 20)
        for seed in (1, 2)
    ]
    rows_path(result).write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert evaluated_rows(result) == [("a", True), ("a", False)]
