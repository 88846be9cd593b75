"""Down-sampling balanced over visible strata (MPTE's hypothesis, issue 18; SPTE's first
modifier, issue 25): strata that hold both labels give each the same number of items, so the
stratum alone does not tell the label."""

from collections import Counter

import numpy as np
import pyarrow as pa
import pytest

from compsem.builders.rnpc.audit import first_modifier_alone, majority_probe
from compsem.builders.rnpc.shortcut_balance import balance_by_visible
from compsem.builders.rnpc.tasks import spread_take


def candidates():
    """Stratum 'int' always entails, 'rel' never does, 'role' and 'fake' hold both labels."""
    visible = np.array(["int"] * 60 + ["rel"] * 60 + ["role"] * 50 + ["fake"] * 30)
    labels = np.array([1] * 60 + [0] * 60 + [1] * 20 + [0] * 30 + [1] * 10 + [0] * 20)
    cells = np.array([f"c{i % 3}" for i in range(len(labels))])
    return labels, visible, cells


def test_two_label_strata_give_each_label_alike_and_one_label_strata_the_rest():
    labels, visible, cells = candidates()
    chosen = balance_by_visible(
        labels, visible, cells, [40, 40], np.random.default_rng(0), spread_take, single_share=0.25
    )
    assert Counter(labels[chosen]) == {0: 40, 1: 40}
    per = Counter(zip(visible[chosen], labels[chosen], strict=True))
    assert per["role", 0] == per["role", 1] and per["fake", 0] == per["fake", 1]
    assert per["role", 1] + per["fake", 1] == 30  # 75% of each label in pairs
    assert per["int", 1] == per["rel", 0] == 10
    assert len(set(chosen)) == len(chosen)


def test_strict_asks_for_the_full_share_of_pairs():
    labels, visible, cells = candidates()
    rng = np.random.default_rng(0)
    # 30 pairs at most (role 20, fake 10): 60 per label would need 45
    assert (
        balance_by_visible(labels, visible, cells, [60, 60], rng, spread_take, strict=True) is None
    )
    chosen = balance_by_visible(labels, visible, cells, [60, 60], rng, spread_take)
    assert Counter(labels[chosen]) == {0: 60, 1: 60}


@pytest.mark.parametrize("quota", [91, 200])  # 90 entailments
def test_too_few_candidates_of_a_label_give_none(quota):
    labels, visible, cells = candidates()
    rng = np.random.default_rng(0)
    assert balance_by_visible(labels, visible, cells, [quota, quota], rng, spread_take) is None


def test_pairs_spread_over_families_before_strata():
    """Issue 25: spread over strata alone, an attribute of many words (72 nationalities) took
    most pairs; with families (an attribute) each family gets an even share first."""
    visible = np.repeat(["swiss", "french", "dutch", "red"], 20)
    labels = np.tile(np.repeat([0, 1], 10), 4)
    families = np.where(visible == "red", "colour", "nationality")
    cells = np.array(["c"] * len(labels))
    rng = np.random.default_rng(0)
    chosen = balance_by_visible(
        labels, visible, cells, [8, 8], rng, spread_take, single_share=0, families=families
    )
    assert Counter(families[chosen]) == {"colour": 8, "nationality": 8}
    alone = balance_by_visible(labels, visible, cells, [8, 8], rng, spread_take, single_share=0)
    assert Counter(families[alone])["colour"] == 4  # two pairs of eight, one stratum of four


def test_the_audit_flags_an_m1_attribute_that_tells_the_label():
    """Issue 25: 3.7.0's SPTE rows led by an ordinal were 79% non-entailments; the audit's check
    learns the commonest label per M1 attribute on half the rows and scores the other half."""
    rng = np.random.default_rng(1)
    attribute = rng.choice(["ordinal", "colour", "size", "time"], size=2000)
    leaning = np.where(attribute == "ordinal", 0, 1) ^ (rng.random(2000) < 0.15)
    even = rng.integers(0, 2, size=2000)
    assert majority_probe(attribute, leaning) > 0.8
    assert abs(majority_probe(attribute, even) - 0.5) < 0.05

    def spte(labels):
        return pa.table(
            {"m1_attribute": attribute, "hypothesis_type": ["n"] * 2000, "label": labels}
        )

    assert first_modifier_alone({"test": spte(leaning)}).passed is False
    assert first_modifier_alone({"test": spte(even)}).passed is True
    small = {"test": spte(leaning).slice(0, 500)}
    assert first_modifier_alone(small).passed is None  # too few rows to measure
    other = pa.table({"m1_attribute": attribute, "label": leaning})
    assert first_modifier_alone({"test": other}).passed is None  # not SPTE
