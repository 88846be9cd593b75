"""BoOQA's splits from its population: ``en`` (§4, App. D: bundles sampled per time span, with
their evidence) and ``h_only`` (App. E.1: train/dev2 carved from dev, arguments masked, no
proposition in two splits).

The functions take a config resolved by ``compsem.builders.booqa.config.resolved`` (``s``) and the
Arrow schema of the rows they return.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from compsem.builders.booqa.config import PRESETS, BooqaConfig, generation_settings
from compsem.builders.booqa.corpus.relations import realise
from compsem.builders.booqa.sampling.bundles import (
    bucket_labels,
    frequency_bucket,
    sample_bundles,
    time_split,
)
from compsem.builders.booqa.sampling.partitions import Partitions, read_bucket, window_bounds
from compsem.builders.booqa.sampling.population import REVISION, ThresholdError, corpus_population
from compsem.builders.booqa.sampling.propositions import bundle_evidence
from compsem.files.fingerprint import cached_table, fingerprint, row_id
from compsem.resources.wordnet import wordnet_version

# Arguments are typed by linking (coarse FIGER-like types, App. E.1 masks arguments by type);
# an argument without a type is a "thing", FIGER's root.
UNTYPED = "thing"


def column_rows(table: pa.Table, *columns: str):
    """Tuples of the named columns, row by row."""
    return zip(*(table[column].to_pylist() for column in columns), strict=True)


def split_windows(s: BooqaConfig, population: pa.Table, articles: dict[int, int]) -> dict:
    """Windows of dev and test: a chronological split of the windows that hold bundles."""
    has_negatives = pc.greater(pc.list_value_length(population["negatives"]), 0)
    windows = np.unique(population.filter(has_negatives)["window"].to_numpy())
    if len(windows) < 2:
        raise ThresholdError(
            f"Bundles come from {len(windows)} context window only; dev and test need disjoint "
            "time spans, so at least two windows with bundles. Use a corpus spanning more time, "
            "or lower the thresholds (--min-articles, --min-predicates, --min-pairs)."
        )
    dev = time_split(windows, np.array([articles[w] for w in windows]), s.dev_fraction)
    return {"dev": windows[dev], "test": windows[~dev]}


def proposition_id(window: int, subject: str, predicate: str, obj: str) -> str:
    """The stable id of an entry (and, for a positive, of its bundle)."""
    return row_id("booqa", window, subject, predicate, obj)


def _entry_rows(s: BooqaConfig, positive: dict, negatives: tuple[int, ...], evidence: list) -> list:
    """The rows of one bundle: its positive, then the chosen negatives."""
    start, end = window_bounds(positive["window"], s.window_days)
    labels = bucket_labels(s.frequency_buckets)
    window, subject, obj = positive["window"], positive["subject"], positive["object"]
    chosen = [(positive["predicate"], positive["frequency"], 1)] + [
        (positive["negatives"][i]["predicate"], positive["negatives"][i]["frequency"], 0)
        for i in negatives
    ]
    return [
        {
            "id": proposition_id(window, subject, predicate, obj),
            "hypothesis": realise(subject, predicate, obj),
            "label": label,
            "subject": subject,
            "predicate": predicate,
            "object": obj,
            "subject_type": positive["subject_type"],
            "object_type": positive["object_type"],
            "window": window,
            "window_start": start.isoformat(),
            "window_end": end.isoformat(),
            "bundle_id": proposition_id(window, subject, positive["predicate"], obj),
            "frequency": frequency,
            "frequency_bucket": labels[frequency_bucket([frequency], s.frequency_buckets)[0]],
            "evidence": evidence,
        }
        for predicate, frequency, label in chosen
    ]


def _evidence(s: BooqaConfig, partitions: Partitions, positives: pa.Table) -> dict[str, list]:
    """The evidence of each sampled positive's bundle, one window bucket at a time."""
    table = positives.select(["window", "a", "b", "subject", "predicate", "object"])
    ids = [
        proposition_id(*row)
        for row in column_rows(table, "window", "subject", "predicate", "object")
    ]
    table = table.append_column("bundle_id", pa.array(ids, pa.string()))
    bucket = np.mod(table["window"].to_numpy(), partitions.buckets)
    evidence: dict[str, list] = {}
    for index, path in enumerate(partitions.window_files()):
        mine = table.filter(pa.array(bucket == index))
        if len(mine) == 0:
            continue
        for row in bundle_evidence(read_bucket(path), mine, s.max_evidence).to_pylist():
            proposition = {key: row[key] for key in ("subject", "predicate", "object")}
            evidence.setdefault(row["bundle_id"], []).append(
                {**proposition, "text": realise(*proposition.values()), "mentions": row["mentions"]}
            )
    return evidence


def _sample_split(
    s: BooqaConfig, members: pa.Table, articles: dict[int, int], rng: np.random.Generator
) -> list:
    """The bundles of one split from its part of the population."""
    rows = members.select(["window", "subject", "object", "negatives"]).to_pylist()
    return sample_bundles(
        members["window"].to_numpy(),
        members["frequency"].to_numpy(),
        [np.array([n["frequency"] for n in row["negatives"]], np.int64) for row in rows],
        articles,
        s.positives_per_split,
        s.frequency_buckets,
        rng,
        s.max_negatives,
        [
            [
                (row["window"], row["subject"], n["predicate"], row["object"])
                for n in row["negatives"]
            ]
            for row in rows
        ],
    )


def en_splits(s: BooqaConfig, schema: pa.Schema) -> dict[str, pa.Table]:
    """The ``en`` dev and test splits in ``schema`` (cached): sampled bundles with their
    evidence."""
    partitions, population = corpus_population(s)
    key = fingerprint(
        "booqa_en", partitions.folder.name, generation_settings(s), wordnet_version(), REVISION
    )
    per_window = partitions.articles_per_window
    articles = dict(column_rows(per_window, "window", "articles"))

    def build() -> pa.Table:
        tables = []
        for index, (split, windows) in enumerate(split_windows(s, population, articles).items()):
            members = population.filter(pc.is_in(population["window"], pa.array(windows)))
            rng = np.random.default_rng([s.seed, index])
            bundles = _sample_split(s, members, articles, rng)
            positives = members.take([bundle.positive for bundle in bundles])
            evidence = _evidence(s, partitions, positives)
            rows = [
                row
                for bundle, positive in zip(bundles, positives.to_pylist(), strict=True)
                for row in _entry_rows(
                    s, positive, bundle.negatives, evidence.get(positive_id(positive), [])
                )
            ]
            table = pa.Table.from_pylist(rows, schema=schema)
            tables.append(table.append_column("split", pa.array([split] * len(rows))))
        return _sorted(pa.concat_tables(tables))

    table = cached_table("booqa_en", key, build)
    return {
        split: table.filter(pc.equal(table["split"], split)).drop_columns(["split"])
        for split in ("dev", "test")
    }


def positive_id(positive: dict) -> str:
    return proposition_id(
        positive["window"], positive["subject"], positive["predicate"], positive["object"]
    )


def _sorted(table: pa.Table) -> pa.Table:
    return table.sort_by(
        [
            ("window", "ascending"),
            ("bundle_id", "ascending"),
            ("label", "descending"),
            ("predicate", "ascending"),
        ]
    )


def mask(entity_type: str | None) -> str:
    """The mask of an argument: its type, or ``thing`` where it has none (None, or a missing
    value as pandas reads it)."""
    return entity_type if isinstance(entity_type, str) and entity_type else UNTYPED


def check_h_only_room(s: BooqaConfig, dev_rows: int) -> None:
    """Sizes a user asked for (``--h-only-sizes``) that dev cannot give are refused, never
    silently scaled; the preset's sizes (Levy/Holt's) are scaled down with dev, as its card
    reason says."""
    asked = tuple(int(n) for n in s.h_only_sizes)
    if asked != tuple(PRESETS[s.preset]["h_only_sizes"]) and sum(asked) > dev_rows:
        raise ThresholdError(
            f"--h-only-sizes {asked[0]} {asked[1]} asks for {sum(asked):,} rows of H-only train "
            f"and dev2, but this corpus's dev split, which they are carved from, holds "
            f"{dev_rows:,}; pass sizes that sum to at most {dev_rows:,}, or omit --h-only-sizes "
            f"for the {s.preset} preset's sizes, scaled down with dev."
        )


def _carve(dev: pa.Table, sizes: tuple[int, int], rng: np.random.Generator) -> dict[str, pa.Table]:
    """train and dev2 from dev, whole bundles at a time, up to ``sizes`` rows (scaled down in
    proportion when dev is smaller than their sum)."""
    scale = min(1.0, len(dev) / sum(sizes))
    targets = {"train": round(sizes[0] * scale), "dev2": round(sizes[1] * scale)}
    bundle_ids, rows = np.unique(
        dev["bundle_id"].to_numpy(zero_copy_only=False), return_counts=True
    )
    sizes_by_bundle = dict(zip(bundle_ids, rows, strict=True))
    order = bundle_ids[rng.permutation(len(bundle_ids))]
    assigned: dict[str, list] = {"train": [], "dev2": []}
    filled = dict.fromkeys(assigned, 0)
    for bundle in order:
        split = next((name for name in assigned if filled[name] < targets[name]), None)
        if split is None:
            break
        assigned[split].append(bundle)
        filled[split] += sizes_by_bundle[bundle]
    # A dev of few bundles fills train before dev2 gets one (the tiny preset on Reuters gives
    # two): hand dev2 train's last bundle, so both splits hold rows where dev allows.
    if not assigned["dev2"] and len(assigned["train"]) > 1:
        assigned["dev2"].append(assigned["train"].pop())
    return {
        split: dev.filter(pc.is_in(dev["bundle_id"], pa.array(ids, pa.string())))
        for split, ids in assigned.items()
    }


def propositions_of(table: pa.Table) -> list[tuple[str, str, str]]:
    return list(column_rows(table, "subject", "predicate", "object"))


def _without_shared_propositions(
    splits: dict[str, pa.Table], rng: np.random.Generator
) -> dict[str, pa.Table]:
    """Each proposition found in several splits stays in one of them, chosen at random."""
    keys = {name: propositions_of(table) for name, table in splits.items()}
    owners: dict[str, list[str]] = {}
    for name, values in keys.items():
        for value in dict.fromkeys(values):
            owners.setdefault(value, []).append(name)
    keeper = {
        value: names[rng.integers(len(names))] if len(names) > 1 else names[0]
        for value, names in sorted(owners.items())
    }
    return {
        name: table.filter(pa.array([keeper[v] == name for v in keys[name]], pa.bool_()))
        for name, table in splits.items()
    }


def h_only_splits(s: BooqaConfig, en_schema: pa.Schema) -> dict[str, pa.Table]:
    """App. E.1: train/dev2 carved from dev, test; masked hypotheses; no shared proposition."""
    en = en_splits(s, en_schema)
    rng = np.random.default_rng([s.seed, 7])
    check_h_only_room(s, len(en["dev"]))
    splits = {**_carve(en["dev"], s.h_only_sizes, rng), "test": en["test"]}
    splits = _without_shared_propositions(splits, rng)
    empty = [name for name, table in splits.items() if not len(table)]
    if empty:
        raise ThresholdError(
            f"H-only split(s) {', '.join(empty)} would be empty: the corpus gives "
            f"{len(en['dev'])} dev rows in {len(set(en['dev']['bundle_id'].to_pylist()))} "
            f"bundle(s) and {len(en['test'])} test rows, too few to carve train and dev2 (after "
            "dropping propositions shared between splits). Use a larger corpus, lower "
            "--min-articles/--min-predicates/--min-pairs, or build --config en only."
        )
    masked = {}
    for name, table in splits.items():
        typed = column_rows(table, "subject_type", "predicate", "object_type")
        hypotheses = [realise(mask(st), p, mask(ot)) for st, p, ot in typed]
        table = table.drop_columns(["evidence"]).set_column(
            1, "hypothesis", pa.array(hypotheses, pa.string())
        )
        masked[name] = _sorted(table)
    return masked
