"""``compsem pmi``: PLANE's PMI by adjective class (App. A, Fig. 4) over a tiny export whose phrases
have corpus counts of their own, checked against the PMI the builder's extraction computes, and
shown on the results page."""

import json
from collections import Counter

import datasets
import numpy as np
import pytest

from compsem.builders.plane.config import ITEM_FEATURES
from compsem.builders.plane.corpus.extraction import an_pair_table
from compsem.builders.plane.items.hypernyms import hypernym_table
from compsem.builders.plane.items.pool import item_pool
from compsem.cli import main
from compsem.harness.report.run import run_report
from tests.harness_data import ADJECTIVES, NOUNS, write_export
from tests.test_plane_input_length import train_run


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    """One item config whose phrases were counted 1 to 7 times (so their PMI differs)."""
    counts = Counter(
        {(a, n): 1 + (i * 3 + j) % 7 for i, a in enumerate(ADJECTIVES) for j, n in enumerate(NOUNS)}
    )
    pairs = an_pair_table(counts)
    pool = item_pool(pairs, ADJECTIVES, hypernym_table(NOUNS, 3))
    out = tmp_path_factory.mktemp("exports") / "plane"
    half = len(pool) // 2
    splits = {"train": pool.slice(0, half), "test": pool.slice(half)}
    info = datasets.DatasetInfo(features=ITEM_FEATURES)
    splits = {
        k: datasets.Dataset(v.cast(ITEM_FEATURES.arrow_schema), info=info)
        for k, v in splits.items()
    }
    write_export(out, {"goood_split_1": splits})
    return out, pairs


def test_each_phrase_counts_once_with_the_pmi_its_build_recorded(export, tmp_path, capsys):
    folder, pairs = export
    out = tmp_path / "pmi"
    assert (
        main(["pmi", "--dataset", str(folder), "--config", "goood_split_1", "--out", str(out)]) == 0
    )
    assert "| class | phrases |" in capsys.readouterr().out
    analysis = json.loads((out / "pmi.json").read_text())
    phrases = zip(pairs["adjective"].to_pylist(), pairs["noun"].to_pylist(), strict=True)
    pmi = dict(zip(phrases, pairs["pmi"].to_pylist(), strict=True))
    for klass, stats in analysis["classes"].items():
        values = [v for (a, _), v in pmi.items() if ADJECTIVES[a] == klass]
        assert (
            stats["phrases"]
            == len(values)
            == len(NOUNS) * sum(c == klass for c in ADJECTIVES.values())
        )
        assert stats["mean"] == pytest.approx(np.mean(values))
        assert stats["median"] == pytest.approx(np.median(values))
        assert stats["at_most_0"] == pytest.approx(np.mean(np.array(values) <= 0))
    for shares in analysis["shares"].values():
        assert sum(shares) == pytest.approx(1.0)
    assert (out / "pmi.svg").read_text().count('class="curve"') == len(analysis["classes"])
    page = tmp_path / "page"
    run_report([train_run(tmp_path / "runs", 12, 1, 0.9).parent, out], page)
    text = (page / "index.md").read_text()
    assert "### PMI by adjective_class (PLANE App. A, Fig. 4)" in text and "plots/pmi-" in text


def test_a_config_without_pmi_is_refused_in_one_line(tmp_path, capsys):
    from tests.harness_data import tiny_plane_export

    folder = tiny_plane_export(tmp_path / "plane")
    argv = ["pmi", "--dataset", str(folder), "--config", "two_shot", "--out", str(tmp_path / "o")]
    assert main(argv) == 2
    assert "pmi column" in capsys.readouterr().err
    assert not (tmp_path / "o" / "pmi.json").exists()
