"""The chi-square test across adjective types (builders/montague/significance.py): its maths
against hand-worked cases and scipy, and its p-values on the shipped reference scores."""

import pytest
from scipy.stats import chi2, chi2_contingency

from compsem.builders.montague import significance
from compsem.builders.montague.report import tables
from compsem.builders.montague.tables import read_scores_tsv, reference_path, reference_results


@pytest.mark.parametrize("dof", [1, 2, 3, 4, 7, 24])
@pytest.mark.parametrize("statistic", [0.01, 0.7, 3.2, 10.5, 40.0, 200.0])
def test_chi2_survival_matches_scipy(statistic, dof):
    assert significance.chi2_sf(statistic, dof) == pytest.approx(
        chi2.sf(statistic, dof), rel=1e-9, abs=1e-300
    )


def test_hand_computed_two_groups():
    """5 of 10 hold against 9 of 10: rate 0.7, expected 7 and 3 in each group,
    χ² = 2 · (4/7 + 4/3) = 80/21 on 1 degree of freedom."""
    result = significance.homogeneity({"a": (0.5, 10), "b": (0.9, 10)})
    assert result["statistic"] == pytest.approx(80 / 21)
    assert result["dof"] == 1 and result["smallest_expected"] == pytest.approx(3.0)
    table = [[5, 5], [9, 1]]
    expected = chi2_contingency(table, correction=False)
    assert result["p_value"] == pytest.approx(expected.pvalue, rel=1e-9)


def test_the_same_rate_everywhere_gives_p_one_and_no_variation_too():
    assert significance.homogeneity({"a": (0.5, 10), "b": (0.5, 30)})["p_value"] == pytest.approx(1)
    every = significance.homogeneity({"a": (1.0, 10), "b": (1.0, 30)})
    assert every["statistic"] == 0.0 and every["p_value"] == 1.0


def test_the_shipped_reference_scores_types_differ_but_for_an_intersectivity():
    """Mean pooling makes every AN phrase intersective (Table 2: all 1.0), so there is nothing to
    test; non-subsectivity and AAN intersectivity differ across types for MiniLM and GloVe."""
    _, rows = read_scores_tsv(reference_path().read_text())
    tests = {(t["model"], t["phrase_set"], t["test"]): t for t in significance.type_tests(rows)}
    assert {model for model, _, _ in tests} == {"all-MiniLM-L6-v2", "GloVe 6B 50d"}
    for model in ("all-MiniLM-L6-v2", "GloVe 6B 50d"):
        assert tests[(model, "an", "intersectivity")]["p_value"] == 1.0
        non_subsective = tests[(model, "an", "non_subsectivity")]
        assert non_subsective["phrases"] == 732 and non_subsective["dof"] == 4
        assert non_subsective["p_value"] < 1e-6
        assert tests[(model, "aan", "intersectivity")]["dof"] == 24


def test_the_card_and_every_report_show_the_tests():
    _, rows = read_scores_tsv(reference_path().read_text())
    section = significance.markdown(rows, "###")
    assert section.startswith("### Do adjective types differ?") and "2.3e-11" in section
    fingerprint = read_scores_tsv(reference_path().read_text())[0]["lexicon_fingerprint"]
    assert reference_results(fingerprint)["significance"] == section
    report = {
        "models": [
            {
                "label": "m",
                "results": {
                    "an": {
                        "non_subsectivity": {
                            "score": 0.7,
                            "count": 20,
                            "by_type": {
                                "ambiguous": {"score": 0.5, "count": 10},
                                "subsective_intersective": {"score": 0.9, "count": 10},
                            },
                        }
                    }
                },
            }
        ]
    }
    assert "| m | non-subsectivity (eq. 7), AN, by type | 20 | 2 | 3.8 | 1 |" in tables(
        report, "###"
    )
