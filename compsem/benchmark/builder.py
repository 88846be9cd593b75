"""The base of compsem's dataset builders: splits computed as whole Arrow tables."""

from __future__ import annotations

import datasets
import pyarrow as pa

from compsem.benchmark.grouping import in_representative_order, split_seed


class TableBuilder(datasets.ArrowBasedBuilder):
    """A ``datasets`` builder whose splits come whole from :meth:`splits` as Arrow tables.

    Subclasses define ``_info`` (with explicit ``Features``) and ``splits``; the tables are
    written in the features' column order and types, ``_BATCH_ROWS`` rows at a time, each split
    in a representative order (:mod:`compsem.benchmark.grouping`) seeded by the config's ``seed``, its name
    and the split's, so that any prefix of a split holds each label and group in its share.
    Splits named in ``ORDERED_SPLITS`` keep the order generation gave them, which is part of
    their design (SETI's ``few_shot``, whose prefixes are the k-shot sets)."""

    _BATCH_ROWS = 100_000
    ORDERED_SPLITS: frozenset[str] = frozenset()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # datasets sets a build's keyword arguments on a copy of the config it has already
        # made, so the config's own checks (its __post_init__) never saw them: run them again
        # here, before any work, so a bad setting is one clear error.
        self.config.__post_init__()

    def splits(self) -> dict[str, pa.Table]:
        raise NotImplementedError

    def _split_generators(self, dl_manager):
        return [
            datasets.SplitGenerator(name=name, gen_kwargs={"table": table, "split": name})
            for name, table in self.splits().items()
        ]

    def _generate_tables(self, table: pa.Table, split: str):
        features = self.info.features
        table = table.select(list(features)).cast(features.arrow_schema)
        if split not in self.ORDERED_SPLITS:
            seed = split_seed(getattr(self.config, "seed", 0), self.config.name, split)
            table = in_representative_order(table, seed)
        for batch, start in enumerate(range(0, max(len(table), 1), self._BATCH_ROWS)):
            yield datasets.builder.Key(0, batch), table.slice(start, self._BATCH_ROWS)
