"""Propositions of one window bucket (BoOQA §4.1 and Appendix D): starring pairs, positives
with their WordNet negatives (:func:`window_population`), and the evidence of sampled bundles
(:func:`bundle_evidence`), each a pyarrow hash aggregation over the bucket's triples, grouped on
integer codes rather than strings. The buckets come from
:mod:`~compsem.builders.booqa.sampling.partitions`, the triples from
:mod:`~compsem.builders.booqa.corpus.extraction`.

An argument pair is unordered: "A visits B" and "B hosts A" are about the same pair.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from compsem.builders.booqa.sampling.partitions import dictionary_codes
from compsem.builders.booqa.sampling.predicate_hyponyms import hyponym_replacements

PAIR = ["window", "a", "b"]
NEGATIVE_TYPE = pa.struct([("predicate", pa.string()), ("frequency", pa.int64())])


def pair_keys(triples: pa.Table, min_rows: int = 1) -> tuple[np.ndarray, pa.Table, int]:
    """(row keys, pair statistics, pairs): an int64 key of (window, argument pair) per row; the
    articles and distinct predicates of each pair with at least ``min_rows`` triples (the others
    cannot star), keyed the same way; and the number of distinct pairs. Grouping runs on integer
    codes, not strings."""
    window = triples["window"].to_numpy().astype(np.int64)
    low = window.min() if len(window) else 0
    a, b = dictionary_codes(triples["a"]), dictionary_codes(triples["b"])
    n_a, n_b = max(len(a.dictionary), 1), max(len(b.dictionary), 1)
    a_code = a.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    b_code = b.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    key = pa.array(((window - low) * n_a + a_code) * n_b + b_code)
    sizes = pa.table({"key": key}).group_by("key").aggregate([("key", "count")])
    candidates = sizes.filter(pc.greater_equal(sizes["key_count"], min_rows))["key"]
    rows = pc.is_in(key, candidates) if min_rows > 1 else pa.array(np.ones(len(key), bool))
    coded = pa.table(
        {
            "key": key,
            "article": dictionary_codes(triples["article"]).indices,
            "predicate": dictionary_codes(triples["predicate"]).indices,
        }
    ).filter(rows)
    stats = coded.group_by("key").aggregate(
        [("article", "count_distinct"), ("predicate", "count_distinct")]
    )
    group = stats["key"].to_numpy()
    pair, b_index = np.divmod(group, n_b)
    window_index, a_index = np.divmod(pair, n_a)
    stats = pa.table(
        {
            "key": group,
            "window": pa.array((window_index + low).astype(np.int32)),
            "a": pc.take(a.dictionary, pa.array(a_index)),
            "b": pc.take(b.dictionary, pa.array(b_index)),
            "articles": stats["article_count_distinct"],
            "predicates": stats["predicate_count_distinct"],
        }
    )
    return key.to_numpy(), stats.sort_by("key"), len(sizes)


def pair_statistics(triples: pa.Table) -> pa.Table:
    """Articles and distinct predicates per (window, argument pair)."""
    stats = pair_keys(triples)[1].drop_columns(["key"])
    return stats.sort_by([("window", "ascending"), ("a", "ascending"), ("b", "ascending")])


def argument_types(triples: pa.Table) -> pa.Table:
    """(window, argument, type): each argument's most frequent entity type in the window."""
    stacked = pa.concat_tables(
        [
            triples.select(["window", role, f"{role}_type"]).rename_columns(
                ["window", "argument", "type"]
            )
            for role in ("subject", "object")
        ]
    )
    stacked = stacked.filter(pc.is_valid(stacked["type"]))
    counts = stacked.group_by(["window", "argument", "type"]).aggregate([("type", "count")])
    counts = counts.sort_by(
        [
            ("window", "ascending"),
            ("argument", "ascending"),
            ("type_count", "descending"),
            ("type", "ascending"),
        ]
    )
    return (
        counts.group_by(["window", "argument"], use_threads=False)
        .aggregate([("type", "first")])
        .rename_columns(["window", "argument", "type"])
    )


def _typed_pairs(stats: pa.Table, types: pa.Table, least: int) -> pa.Table:
    """The pairs of ``stats`` with at least ``least`` arguments that have an entity type in
    their window."""
    typed = np.zeros(len(stats), dtype=np.int64)
    for role in ("a", "b"):
        known = types.select(["window", "argument"]).rename_columns(["window", role])
        known = known.append_column("typed", pa.array(np.ones(len(known), dtype=bool)))
        joined = stats.select(["key", "window", role]).join(known, ["window", role])
        hits = pc.is_in(stats["key"], joined.filter(pc.is_valid(joined["typed"]))["key"])
        typed += hits.to_numpy(zero_copy_only=False)
    return stats.filter(pa.array(typed >= least))


def _with_types(positives: pa.Table, types: pa.Table) -> pa.Table:
    for role in ("subject", "object"):
        renamed = types.rename_columns(["window", role, f"{role}_type"])
        positives = positives.join(renamed, ["window", role], join_type="left outer")
    return positives


def negative_candidates(
    positives: pa.Table, presence: pa.Table, felicitous: pa.Table, word_sense: str
) -> pa.Table:
    """(row, predicate, frequency) for each positive ``row``: its felicitous hyponym
    replacements of which neither the candidate nor a synonym occurs with the pair in the
    window (``presence`` holds every (window, a, b, predicate) of the starring pairs)."""
    distinct = positives.group_by(["predicate", "predicate_tags"]).aggregate([]).to_pylist()
    rows = [
        (item["predicate"], candidate, synonym)
        for item in distinct
        for candidate, synonyms in hyponym_replacements(
            item["predicate"], item["predicate_tags"], word_sense
        )
        for synonym in synonyms
    ]
    schema = pa.schema(
        [("predicate", pa.string()), ("candidate", pa.string()), ("synonym", pa.string())]
    )
    replacements = pa.Table.from_pylist(
        [dict(zip(schema.names, row, strict=True)) for row in rows], schema=schema
    )
    replacements = replacements.join(
        felicitous.rename_columns(["candidate", "frequency"]), "candidate", join_type="inner"
    )
    rows_table = positives.select([*PAIR, "predicate"]).append_column(
        "row", pa.array(np.arange(len(positives), dtype=np.int64))
    )
    candidates = rows_table.join(replacements, "predicate", join_type="inner")
    present = presence.append_column("present", pa.array(np.ones(len(presence), dtype=bool)))
    present = present.rename_columns([*PAIR, "synonym", "present"])
    candidates = candidates.join(present, [*PAIR, "synonym"], join_type="left outer")
    verdict = candidates.group_by(["row", "candidate", "frequency"]).aggregate(
        [("present", "count")]
    )
    absent = verdict.filter(pc.equal(verdict["present_count"], 0))
    return (
        absent.select(["row", "candidate", "frequency"])
        .rename_columns(["row", "predicate", "frequency"])
        .sort_by([("row", "ascending"), ("predicate", "ascending")])
    )


def window_population(
    triples: pa.Table,
    felicitous: pa.Table,
    min_articles: int,
    min_predicates: int,
    word_sense: str = "first",
    typed_arguments: int = 0,
) -> tuple[pa.Table, pa.Table, int]:
    """(population, statistics of the pairs that could star, number of pairs) of one window
    bucket.

    The population has one row per positive: a distinct proposition of a felicitous predicate
    about a starring pair in a window, with its mentions, entity types, frequency and the list of
    its negatives (possibly empty). Only pairs with at least ``typed_arguments`` (0, 1 or 2)
    arguments the NER typed in the window can star (the statistics count only those pairs).
    """
    row_keys, stats, pairs = pair_keys(triples, max(min_articles, min_predicates))
    types = argument_types(triples)
    if typed_arguments:
        stats = _typed_pairs(stats, types, typed_arguments)
    starring = stats.filter(
        pc.and_(
            pc.greater_equal(stats["articles"], min_articles),
            pc.greater_equal(stats["predicates"], min_predicates),
        )
    )
    starred = triples.filter(pc.is_in(pa.array(row_keys), starring["key"]))
    presence = starred.group_by([*PAIR, "predicate"]).aggregate([])
    mentions = starred.join(felicitous, "predicate", join_type="inner")
    keys = ["window", "subject", "predicate", "object", "a", "b"]
    positives = mentions.group_by(keys).aggregate(
        [("article", "count"), ("predicate_tags", "min"), ("frequency", "max")]
    )
    positives = positives.rename_columns([*keys, "mentions", "predicate_tags", "frequency"])
    positives = _with_types(positives, types)
    positives = positives.sort_by([(name, "ascending") for name in keys])
    negatives = negative_candidates(positives, presence, felicitous, word_sense)
    offsets = np.searchsorted(negatives["row"].to_numpy(), np.arange(len(positives) + 1))
    structs = pa.StructArray.from_arrays(
        [negatives["predicate"].combine_chunks(), negatives["frequency"].combine_chunks()],
        fields=list(NEGATIVE_TYPE),
    )
    lists = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), structs)
    columns = [
        "window",
        "subject",
        "predicate",
        "object",
        "a",
        "b",
        "subject_type",
        "object_type",
        "predicate_tags",
        "mentions",
        "frequency",
    ]
    population = positives.select(columns).append_column("negatives", lists)
    return population, stats.drop_columns(["key"]), pairs


def bundle_evidence(triples: pa.Table, bundles: pa.Table, max_evidence: int) -> pa.Table:
    """(bundle_id, evidence): the distinct propositions of the bundle's window and argument pair,
    with their mention counts, leaving out every triple of the sentences the positive was
    extracted from (footnote 8); the most mentioned first, at most ``max_evidence``.

    ``bundles`` has bundle_id, window, a, b, subject, predicate, object (the positive)."""
    own = (
        triples.join(
            bundles.select(["bundle_id", "window", "subject", "predicate", "object"]),
            ["window", "subject", "predicate", "object"],
            join_type="inner",
        )
        .group_by(["bundle_id", "article", "sentence"])
        .aggregate([])
    )
    own = own.append_column("own", pa.array(np.ones(len(own), dtype=bool)))
    pair = triples.select([*PAIR, "article", "sentence", "subject", "predicate", "object"]).join(
        bundles.select(["bundle_id", *PAIR]), PAIR, join_type="inner"
    )
    pair = pair.join(own, ["bundle_id", "article", "sentence"], join_type="left outer")
    pair = pair.filter(pc.is_null(pair["own"]))
    counted = (
        pair.group_by(["bundle_id", "subject", "predicate", "object"])
        .aggregate([("article", "count")])
        .rename_columns(["bundle_id", "subject", "predicate", "object", "mentions"])
    )
    counted = counted.sort_by(
        [
            ("bundle_id", "ascending"),
            ("mentions", "descending"),
            ("subject", "ascending"),
            ("predicate", "ascending"),
            ("object", "ascending"),
        ]
    )
    ids = counted["bundle_id"].to_numpy(zero_copy_only=False)
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]]) if len(ids) else np.array([], int)
    rank = np.arange(len(ids)) - np.repeat(starts, np.diff(np.r_[starts, len(ids)]))
    return counted.filter(pa.array(rank < max_evidence))
