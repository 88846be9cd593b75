"""PLANE's split regimes: GOoD (§6.1), One-IT (§6.2), in-distribution (Appendix D), two-shot
prompts (§4) and the original release, each from one seeded generator per regime and resample."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from tqdm.auto import tqdm

from compsem.builders.plane.config import (
    IN_DISTRIBUTION_SHARES,
    INFERENCE_TYPES,
    ITEM_FEATURES,
    REGIMES,
    PlaneConfig,
)
from compsem.builders.plane.items.hypernyms import unigram_hypernyms
from compsem.builders.plane.items.pool import build_item_pool
from compsem.builders.plane.prompts import two_shot_pairs, two_shot_prompts, zero_shot_prompts
from compsem.builders.plane.splits.balancing import balance
from compsem.builders.plane.splits.partition import balanced_ceiling, partition_vocabulary
from compsem.builders.plane.splits.vocabulary import (
    SPLITS,
    ItemCodes,
    atoms_seen_in,
    compound_sides,
    nouns_with_every_class,
    rows_within_sides,
)
from compsem.files.content_fingerprint import table_fingerprint
from compsem.files.fingerprint import cache_path, cached_table, fingerprint
from compsem.loading_scripts.plane_release import read_original_split
from compsem.pipeline.process_guard import guarded_map
from compsem.resources.lexicon import ADJECTIVE_CLASSES

# Distinct intensional phrases a pool needs for all five resamples of a regime to come out with
# no empty split, measured on prefixes of WordNet's glosses with PLANE 2.0.0's splits: 20 gave
# empty One-IT tests, 94 some empty GOoD and in-distribution splits but full One-IT ones, 161
# every split of every regime.
MIN_INTENSIONAL_PHRASES = {"goood": 160, "one_it": 95, "in_distribution": 160}
# The vocabulary partition draws from its own stream of the regime's seed; SEARCH_REVISION is
# bumped whenever the search gives other sides for the same pool and seed (cache key; 5: three
# sides, validation its own vocabulary; 6: the three sides cut in two steps; 9: rows counted
# after cue removal).
PARTITION_STREAM = 1
SEARCH_REVISION = 9
PARTITION_STEP = "plane_partitions"


def regime_seed(config: PlaneConfig) -> list[int]:
    return [config.seed, REGIMES.index(config.regime), config.split_index]


def regime_generator(config: PlaneConfig) -> np.random.Generator:
    return np.random.default_rng(regime_seed(config))


def partition_sides(
    pool: pa.Table, items: ItemCodes, config: PlaneConfig, inference_types: tuple[int, ...]
) -> np.ndarray:
    """The vocabulary partition of a GOoD or One-IT config (a side per word of ``items``: 0
    train, 1 validation, 2 test, at :attr:`~PlaneConfig.partition_shares`), from a generator of
    its own (so the regime's generator draws the same with or without the cache), cached by the
    pool's content and every setting the search depends on: the search is most of a warm build's
    time (:func:`search_partitions` runs an export's searches in parallel beforehand)."""
    key = partition_key(pool, config, inference_types)
    search = functools.partial(search_partition, (items, inference_types, config))
    return cached_table(PARTITION_STEP, key, search)["side"].to_numpy()


def partition_key(pool: pa.Table, config: PlaneConfig, inference_types: tuple[int, ...]) -> str:
    return fingerprint(
        "plane_partition",
        table_fingerprint(pool.select(["id"])),
        list(inference_types),
        config.partition_shares,
        config.min_label_share,
        _partition_seed(config),
        SEARCH_REVISION,
    )


def _partition_seed(config: PlaneConfig) -> list[int]:
    return [*regime_seed(config), PARTITION_STREAM]


def search_partition(job: tuple[ItemCodes, tuple[int, ...], PlaneConfig]) -> pa.Table:
    """The search behind :func:`partition_sides`: one ``side`` column."""
    items, inference_types, config = job
    partition = partition_vocabulary(
        items,
        inference_types,
        config.partition_shares,
        np.random.default_rng(_partition_seed(config)),
        config.min_label_share,
    )
    return pa.table({"side": partition.side})


def search_partitions(configs: list[PlaneConfig]) -> None:
    """The vocabulary searches of the GOoD and One-IT configs about to be built, run at once on
    the configs' ``workers`` processes and cached, so that each config's build reads its own:
    the searches are independent, and after the parse they are most of a build's time. A pool
    too small for a config fails here, before any search."""
    jobs: dict[str, tuple] = {}
    for config in configs:
        if config.regime not in SEARCHED_TYPES:
            continue
        pool, inference_types = search_pool(checked_pool(config), config)
        key = partition_key(pool, config, inference_types)
        if key not in jobs and not cache_path(PARTITION_STEP, key).is_file():
            jobs[key] = (ItemCodes.from_table(pool, ADJECTIVE_CLASSES), inference_types, config)
    if not jobs:
        return
    workers = max(config.workers for config in configs)
    sides = guarded_map(search_partition, list(jobs.values()), workers)
    progress = tqdm(sides, total=len(jobs), desc="Searching vocabulary partitions", unit="split")
    for key, table in zip(jobs, progress, strict=True):
        cached_table(PARTITION_STEP, key, lambda table=table: table)


def _too_small(config: PlaneConfig, what: str) -> ValueError:
    return ValueError(
        f"Config {config.name!r}: {what}: the corpus is too small for this regime's constraints. "
        "Parse more text (raise --max-docs or pass a larger --corpus)."
    )


def intensional_phrases(pool: pa.Table) -> int:
    """Distinct intensional adjective-noun phrases of the pool (its IT1 rows of class O): the
    only negatives of IT1 and IT2, so what bounds every balanced split."""
    it1 = pool.filter(pc.equal(pool["inference_type"], 1))
    return int(pc.sum(pc.equal(it1["adjective_class"], "O")).as_py() or 0)


def _check_nonempty(
    splits: dict[str, pa.Table], config: PlaneConfig, pool: pa.Table
) -> dict[str, pa.Table]:
    empty = [name for name, table in splits.items() if len(table) == 0]
    if empty:
        have = intensional_phrases(pool)
        need = MIN_INTENSIONAL_PHRASES[config.regime]
        more = f"so about {need - have} more" if need > have else "more for this resample"
        raise _too_small(
            config,
            f"split(s) {', '.join(empty)} came out empty (the pool holds {have} distinct "
            f"intensional adjective-noun phrases; {config.regime} splits need about {need}, "
            f"{more})",
        )
    return splits


def goood_splits(
    pool: pa.Table, config: PlaneConfig, rng: np.random.Generator, inference_types=INFERENCE_TYPES
) -> dict[str, pa.Table]:
    """§6.1: train, validation and test over three disjoint vocabularies (no adjective, noun or
    hypernym shared between any two, in any role), each balanced. Validation is drawn as test
    is, out of distribution and from nouns seen with every adjective class (§3.2), so that it
    selects models for what test measures (a validation sharing train's words rewards a model
    that memorises them); the restriction also keeps its nouns from being lexical cues, which
    balancing would otherwise drop with most of their rows."""
    items = ItemCodes.from_table(pool, ADJECTIVE_CLASSES)
    row_side = rows_within_sides(items, partition_sides(pool, items, config, inference_types))
    splits = {}
    for index, split in enumerate(SPLITS):
        rows = np.flatnonzero(row_side == index)
        if split != "train":  # the partition counted only these rows on held-out sides
            rows = nouns_with_every_class(items, rows)
        splits[split] = balance(items, rows, inference_types, rng, config.min_label_share)
    return {split: pool.take(rows) for split, rows in splits.items()}


def one_it_splits(pool: pa.Table, config: PlaneConfig, rng: np.random.Generator):
    """§6.2: GOoD splits of the IT3 items alone, the one type where I and S disagree."""
    it3, inference_types = search_pool(pool, config)
    return goood_splits(it3, config, rng, inference_types)


def in_distribution_splits(
    pool: pa.Table, config: PlaneConfig, rng: np.random.Generator
) -> dict[str, pa.Table]:
    """Appendix D: adjective-noun phrases (hence every ⟨A, N, h(N), IT⟩ compound) are disjoint
    across splits, while every adjective, noun and hypernym of validation and test also occurs,
    in the same role, in train. Validation takes :attr:`~PlaneConfig.validation_share` of
    train's phrases the way test takes its own, so its atoms are checked against the whole train
    split."""
    items = ItemCodes.from_table(pool, ADJECTIVE_CLASSES)
    share = config.min_label_share
    train_share, test_share = IN_DISTRIBUTION_SHARES
    held = config.validation_share * train_share
    row_side = compound_sides(items, (train_share - held, held, test_share), rng)
    train = balance(items, np.flatnonzero(row_side == 0), INFERENCE_TYPES, rng, share)
    validation = atoms_seen_in(items, np.flatnonzero(row_side == 1), train)
    test = nouns_with_every_class(items, atoms_seen_in(items, np.flatnonzero(row_side == 2), train))
    splits = {
        "train": train,
        "validation": balance(items, validation, INFERENCE_TYPES, rng, share),
        "test": balance(items, test, INFERENCE_TYPES, rng, share),
    }
    return {split: pool.take(rows) for split, rows in splits.items()}


# The regimes whose splits come from a vocabulary partition, and the inference types each
# searches (One-IT: IT3 alone).
SEARCHED_TYPES = {"goood": INFERENCE_TYPES, "one_it": (3,)}


def search_pool(pool: pa.Table, config: PlaneConfig) -> tuple[pa.Table, tuple[int, ...]]:
    """The items of the pool a GOoD or One-IT config's partition is searched over, and their
    inference types."""
    inference_types = SEARCHED_TYPES[config.regime]
    if inference_types == INFERENCE_TYPES:
        return pool, inference_types
    (only,) = inference_types
    return pool.filter(pc.equal(pool["inference_type"], only)), inference_types


# The regimes whose splits come from a pool, each with its split function.
# The configs of the two-shot triplets (§4, Appendix B.1, §5), each one test split.
TRIPLET_CONFIGS = {
    "two_shot": two_shot_prompts,
    "zero_shot": zero_shot_prompts,
    "two_shot_pairs": two_shot_pairs,
}
SPLIT_REGIMES = {
    "goood": goood_splits,
    "one_it": one_it_splits,
    "in_distribution": in_distribution_splits,
}


def pool_ceilings(
    pool: pa.Table, configs: list[PlaneConfig], min_label_share: float = 0.0
) -> dict[str, int]:
    """The balanced ceiling of the pool (:func:`~compsem.builders.plane.splits.partition.balanced_ceiling`,
    each label at least ``min_label_share`` of each inference type) for each GOoD, One-IT and
    in-distribution config: what split efficiency divides by."""
    items = ItemCodes.from_table(pool, ADJECTIVE_CLASSES)
    ceilings = {
        regime: balanced_ceiling(items, inference_types, min_label_share)
        for regime, inference_types in (("goood", INFERENCE_TYPES), ("one_it", (3,)))
    }
    ceilings["in_distribution"] = ceilings["goood"]
    return {config.name: ceilings[config.regime] for config in configs if config.regime in ceilings}


def plane_splits(config: PlaneConfig) -> dict[str, pa.Table]:
    """The splits of one config, as Arrow tables in ITEM_FEATURES (or PROMPT_FEATURES) order."""
    if config.regime.startswith("original_"):
        return original_splits(config)
    pool = checked_pool(config)
    rng = regime_generator(config)
    if config.regime == "full":
        return {"train": pool}
    if config.regime in TRIPLET_CONFIGS:
        # The same triplets in all three: the two-shot config's generator draws them.
        triplets = regime_generator(dataclasses.replace(config, regime="two_shot"))
        make = TRIPLET_CONFIGS[config.regime]
        return {"test": make(pool, config.two_shot_triplets_per_class, triplets)}
    return _check_nonempty(SPLIT_REGIMES[config.regime](pool, config, rng), config, pool)


def checked_pool(config: PlaneConfig) -> pa.Table:
    """The item pool of ``config``, which must hold every adjective class (but for ``full``)."""
    pool = build_item_pool(config)
    classes = set(pool["adjective_class"].unique().to_pylist())
    if not classes or (config.regime != "full" and classes != set(ADJECTIVE_CLASSES)):
        missing = ", ".join(sorted(set(ADJECTIVE_CLASSES) - classes))
        raise _too_small(config, f"no phrases with adjectives of class {missing}")
    return pool


def original_splits(config: PlaneConfig) -> dict[str, pa.Table]:
    """The published split, read by ``loading_scripts/plane_release.py``, with each hypernym's
    WordNet path distance from its noun (-1 where WordNet has no such path)."""
    records = read_original_split(config.original_release, config.regime, config.split_index)
    distances = functools.cache(lambda noun: unigram_hypernyms(noun, 3))
    for rows in records.values():
        for row in rows:
            it, noun, hypernym = row["inference_type"], row["noun"], row["hypernym"]
            row["hypernym_distance"] = 0 if it == 1 else distances(noun).get(hypernym, -1)
    return {
        split: pa.Table.from_pylist(rows, schema=ITEM_FEATURES.arrow_schema)
        for split, rows in records.items()
    }
