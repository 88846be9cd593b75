"""The base of compsem's dataset builders: splits computed as whole Arrow tables."""

from __future__ import annotations

import datasets
import pyarrow as pa


class TableBuilder(datasets.ArrowBasedBuilder):
    """A ``datasets`` builder whose splits come whole from :meth:`splits` as Arrow tables.

    Subclasses define ``_info`` (with explicit ``Features``) and ``splits``; the tables are
    written in the features' column order and types, ``_BATCH_ROWS`` rows at a time."""

    _BATCH_ROWS = 100_000

    def splits(self) -> dict[str, pa.Table]:
        raise NotImplementedError

    def _split_generators(self, dl_manager):
        return [
            datasets.SplitGenerator(name=name, gen_kwargs={"table": table})
            for name, table in self.splits().items()
        ]

    def _generate_tables(self, table: pa.Table):
        features = self.info.features
        table = table.select(list(features)).cast(features.arrow_schema)
        for batch, start in enumerate(range(0, max(len(table), 1), self._BATCH_ROWS)):
            yield datasets.builder.Key(0, batch), table.slice(start, self._BATCH_ROWS)
