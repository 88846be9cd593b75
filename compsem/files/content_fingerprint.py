"""Content fingerprints of generated data, computed from rows and features, never from Parquet
bytes: a fingerprint changes when a value, a row, its order, a column or a label name changes,
and stays put when only the Parquet writer's encoding does. Floats enter rounded to 10
significant digits, so last-bit differences between CPUs' maths libraries do not count as
content changes. Cards record them per split and config; golden files pin them to a version
(``compsem/publish/versioning.py``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

_NULL = "\x00"
_SEPARATOR = "\x1f"


def _canonical_strings(column: pa.ChunkedArray | pa.Array) -> list[str] | pa.Array:
    """One canonical string per value, independent of chunking and Parquet encoding."""
    column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    kind = column.type
    if pa.types.is_dictionary(kind):
        column, kind = column.dictionary_decode(), kind.value_type
    if pa.types.is_floating(kind):
        values = column.to_numpy(zero_copy_only=False).astype(np.float64)
        text = np.char.mod("%.10g", values).astype(object)
        text[~pc.is_valid(column).to_numpy(zero_copy_only=False)] = _NULL
        return pa.array(text, pa.string())
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return pc.fill_null(column.cast(pa.string()), _NULL)
    if pa.types.is_integer(kind) or pa.types.is_boolean(kind):
        return pc.fill_null(column.cast(pa.string()), _NULL)
    return pa.array(
        [
            _NULL if value is None else json.dumps(value, sort_keys=True)
            for value in column.to_pylist()
        ],
        pa.string(),
    )


def _join(strings: pa.Array) -> bytes:
    if len(strings) == 0:
        return b""
    as_list = pa.ListArray.from_arrays(pa.array([0, len(strings)], pa.int32()), strings)
    return pc.binary_join(as_list, _SEPARATOR)[0].as_py().encode("utf-8")


def table_fingerprint(table: pa.Table, features: dict | None = None) -> str:
    """A fingerprint of one split: its features (label names included) and every value in order."""
    digest = hashlib.sha256()
    digest.update(json.dumps(features or {}, sort_keys=True, default=str).encode())
    digest.update(f"rows={table.num_rows}".encode())
    for name in table.column_names:
        digest.update(f"\x1e{name}\x1e".encode())
        digest.update(_join(_canonical_strings(table[name])))
    return digest.hexdigest()[:16]


def dataset_fingerprint(dataset) -> str:
    """:func:`table_fingerprint` of a ``datasets.Dataset`` (what the export writes)."""
    return table_fingerprint(dataset.data.table, dataset.features.to_dict())


def config_fingerprint(split_fingerprints: dict[str, str]) -> str:
    """One fingerprint for a config from its splits' fingerprints."""
    payload = "".join(
        f"{split}={split_fingerprints[split]};" for split in sorted(split_fingerprints)
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _parquet_features(schema: pa.Schema) -> dict:
    return datasets.Features.from_arrow_schema(schema).to_dict()


def read_split_tables(folder: Path, config: str) -> dict[str, pa.Table]:
    """Each split of an exported config as one Arrow table, from its Parquet shards in order."""
    shards: dict[str, list[Path]] = {}
    for path in sorted((Path(folder) / config).glob("*.parquet")):
        shards.setdefault(path.name.split("-")[0], []).append(path)
    return {
        split: pa.concat_tables(read_parquet(p) for p in paths) for split, paths in shards.items()
    }


class UnreadableParquetError(ValueError):
    """An export's Parquet file is damaged: the message names it and what to do."""


def read_parquet(path: Path) -> pa.Table:
    """One Parquet file of an export; a truncated or corrupt one is named, not a thrift error."""
    try:
        return pq.read_table(path)
    except (pa.ArrowException, OSError) as error:
        raise UnreadableParquetError(
            f"{path} is not a readable Parquet file ({error}); rebuild the export (compsem build), "
            "or download it again."
        ) from None


def export_fingerprints(folder: Path, configs: list[str] | None = None) -> dict[str, dict]:
    """``{config: {"fingerprint", "splits": {split: {"rows", "fingerprint"}}}}`` of an export,
    computed from the rows of its Parquet files."""
    folder = Path(folder)
    names = configs or sorted(path.name for path in folder.iterdir() if path.is_dir())
    result = {}
    for name in names:
        splits = {}
        for split, table in read_split_tables(folder, name).items():
            features = _parquet_features(table.schema)
            splits[split] = {
                "rows": table.num_rows,
                "fingerprint": table_fingerprint(table, features),
            }
        if not splits:
            continue
        result[name] = {
            "fingerprint": config_fingerprint({s: v["fingerprint"] for s, v in splits.items()}),
            "splits": splits,
        }
    return result
