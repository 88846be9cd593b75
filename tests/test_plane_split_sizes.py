"""What the GOoD partition promises of its sides, as properties of generated Table 1 pools: no
word shared between sides, and the rows it counts on each side are the rows the build keeps
there (cue removal inside the search; balancing loses next to nothing after it)."""

import numpy as np
import pytest

from compsem.benchmark.settings import setting_values
from compsem.builders.plane import Plane
from compsem.builders.plane.config import (
    BUILDER_CONFIGS,
    ENTAILS,
    VALIDATION_FRACTIONS,
    PlaneConfig,
)
from compsem.builders.plane.splits.balancing import (
    _quota_sample,
    _swap_in_partners,
    balance,
    cue_free_rows,
)
from compsem.builders.plane.splits.partition import partition_vocabulary
from compsem.builders.plane.splits.vocabulary import (
    SPLITS,
    ItemCodes,
    nouns_with_every_class,
    rows_within_sides,
)
from compsem.cli.program import build_parser
from compsem.resources.lexicon import ADJECTIVE_CLASSES

SHARES = (0.64, 0.18, 0.18)
FLOOR = 1 / 6


def table_1_items(rng: np.random.Generator, n_adjectives=24, n_nouns=80, n_hypernyms=16):
    """A pool as PLANE builds one: adjectives of every class meet some nouns; each phrase gives
    AN ⊨ N and, for each of the noun's hypernyms (one, the direct one, for an intensional
    adjective), AN ⊨ h(N) and AN ⊨ A h(N), labelled by Table 1."""
    classes = np.arange(n_adjectives) % 3
    nouns = n_adjectives + np.arange(n_nouns)
    hypernyms = [
        n_adjectives + n_nouns + rng.choice(n_hypernyms, rng.integers(1, 3), replace=False)
        for _ in nouns
    ]
    rows = []
    for adjective, klass in enumerate(classes):
        entails = ENTAILS[ADJECTIVE_CLASSES[klass]]
        for index in np.flatnonzero(rng.random(n_nouns) < 0.25):
            rows.append((adjective, nouns[index], -1, klass, 1, int(entails[0])))
            for hypernym in hypernyms[index][: 1 if klass == 2 else None]:
                rows.append((adjective, nouns[index], hypernym, klass, 2, int(entails[1])))
                rows.append((adjective, nouns[index], hypernym, klass, 3, int(entails[2])))
    return ItemCodes(
        *map(np.array, zip(*rows, strict=True)), n_words=n_adjectives + n_nouns + n_hypernyms
    )


def split_rows(items: ItemCodes, side: np.ndarray) -> dict[str, np.ndarray]:
    """Each split's candidate rows as the build takes them (held-out sides: testable nouns)."""
    row_side = rows_within_sides(items, side)
    splits = {}
    for index, split in enumerate(SPLITS):
        rows = np.flatnonzero(row_side == index)
        splits[split] = rows if split == "train" else nouns_with_every_class(items, rows)
    return splits


@pytest.fixture(scope="module", params=range(6))
def partitioned(request):
    rng = np.random.default_rng(request.param)
    items = table_1_items(rng)
    partition = partition_vocabulary(items, (1, 2, 3), SHARES, rng, FLOOR)
    return items, partition, split_rows(items, partition.side)


def test_no_word_is_shared_between_any_two_sides_in_any_role(partitioned):
    items, _, splits = partitioned
    words = {
        split: set(items.adjective[rows]) | set(items.noun[rows]) | set(items.hypernym[rows]) - {-1}
        for split, rows in splits.items()
    }
    assert all(words.values())
    for first, second in (("train", "validation"), ("train", "test"), ("validation", "test")):
        assert not words[first] & words[second]


def test_the_search_counts_what_cue_removal_leaves_of_each_side(partitioned):
    items, partition, splits = partitioned
    for index, rows in enumerate(splits.values()):
        kept = cue_free_rows(items, rows)
        cells = np.bincount(
            (items.inference_type[kept] - 1) * 2 + items.label[kept], minlength=6
        ).reshape(3, 2)
        assert (partition.counts[index] == cells).all()


def test_balancing_keeps_what_the_search_counts_on_every_side(partitioned):
    """The search's balanced count bounds what any balanced cue-free subset holds (cue removal
    leaves the largest cue-free subset); :func:`balance` reaches it on these pools."""
    items, partition, splits = partitioned
    rng = np.random.default_rng(0)
    kept = [len(balance(items, rows, (1, 2, 3), rng, FLOOR)) for rows in splits.values()]
    assert kept == partition.balanced.tolist()
    assert min(kept) > 0


@pytest.mark.parametrize("seed", range(8))
def test_swapping_in_partners_keeps_every_cell_and_leaves_fewer_cues(seed):
    rng = np.random.default_rng(seed)
    items = table_1_items(rng, n_nouns=160)
    rows = cue_free_rows(items, np.arange(len(items.label)))
    sample = _quota_sample(items, rows, (1, 2, 3), rng, FLOOR)
    swapped = _swap_in_partners(items, sample, rows, rng)

    def cells(chosen):
        return np.bincount(items.inference_type[chosen] * 2 + items.label[chosen], minlength=8)

    assert np.isin(swapped, rows).all() and len(np.unique(swapped)) == len(swapped)
    assert (cells(swapped) == cells(sample)).all()
    assert len(cue_free_rows(items, swapped)) >= len(cue_free_rows(items, sample))
    assert len(cue_free_rows(items, swapped)) > 0


def test_a_noun_sampled_with_one_label_gets_its_other_label_by_a_swap():
    """Noun 10 was sampled only with entailments; its non-entailment (row 3) replaces row 2 or 4
    of the same cell, whose noun 11 keeps that label through the other."""
    # adjective, noun, hypernym, class, inference type, label
    rows = np.array(
        [
            (0, 10, -1, 0, 1, 1),
            (1, 11, -1, 0, 1, 1),
            (2, 11, -1, 2, 1, 0),
            (2, 10, -1, 2, 1, 0),
            (3, 11, -1, 2, 1, 0),
        ]
    )
    items = ItemCodes(*rows.T, n_words=12)
    swapped = _swap_in_partners(
        items, np.array([0, 1, 2, 4]), np.arange(5), np.random.default_rng(0)
    )
    assert swapped.tolist() in ([0, 1, 2, 3], [0, 1, 3, 4])
    assert len(cue_free_rows(items, swapped)) == 4


@pytest.mark.parametrize("flag", [[], ["--validation-fraction", "0.3"]])
def test_validation_share_is_each_regimes_default_unless_the_flag_sets_every_regime(flag, tmp_path):
    """GOoD's and One-IT's validation take less of the rows than in-distribution's by default;
    --validation-fraction, where given, is validation's share in every regime, and the partition
    aims at it."""
    args = build_parser().parse_args(["build", "plane", "--out", "hub/plane", *flag])
    settings = setting_values(args, PlaneConfig)
    expected = {regime: 0.3 for regime in VALIDATION_FRACTIONS} if flag else VALIDATION_FRACTIONS
    for config in BUILDER_CONFIGS:
        if config.regime in expected:
            built = Plane(config_name=config.name, cache_dir=str(tmp_path), **settings).config
            share = expected[config.regime]
            assert built.validation_share == share
            assert built.partition_shares[1] == pytest.approx((1 - built.test_fraction) * share)
    defaults = VALIDATION_FRACTIONS
    assert flag or defaults["goood"] == defaults["one_it"] < defaults["in_distribution"]
