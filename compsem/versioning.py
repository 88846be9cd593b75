"""Content fingerprints of generated data, and the golden file that ties them to ``VERSION``.

A fingerprint is computed from the rows and features, never from Parquet bytes: it changes when
a value, a row, its order, a column or a label name changes, and stays put when only the Parquet
writer's encoding does. Floats enter rounded to 10 significant digits, so last-bit differences
between CPUs' maths libraries do not count as content changes.

Each benchmark's golden file (``tests/golden/<name>.json``) records its ``VERSION`` and the
fingerprint of every default config. ``tests/test_publish_versioning.py`` rebuilds the benchmark
and fails when content changed but the version did not. After a deliberate change, bump
``VERSION`` (semantic: patch for fixes, minor for new rows or configs, major for changed labels
or splits), add a ``CHANGELOG`` entry, and regenerate the golden file from the repository root::

    python -m compsem.versioning update plane            # builds the default configs
    python -m compsem.versioning update plane --export hub/plane   # or reads an existing build
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

GOLDEN_DIR = Path("tests") / "golden"
REGENERATE = "python -m compsem.versioning update {name}"
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
    import datasets

    return datasets.Features.from_arrow_schema(schema).to_dict()


def read_split_tables(folder: Path, config: str) -> dict[str, pa.Table]:
    """Each split of an exported config as one Arrow table, from its Parquet shards in order."""
    shards: dict[str, list[Path]] = {}
    for path in sorted((Path(folder) / config).glob("*.parquet")):
        shards.setdefault(path.name.split("-")[0], []).append(path)
    return {
        split: pa.concat_tables(pq.read_table(p) for p in paths) for split, paths in shards.items()
    }


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


def golden_path(name: str, golden_dir: Path = GOLDEN_DIR) -> Path:
    return Path(golden_dir) / f"{name}.json"


def golden_record(name: str, folder: Path) -> dict:
    """What a golden file holds for the default build of benchmark ``name`` exported to ``folder``."""
    from compsem.export import benchmark_module

    module = benchmark_module(name)
    configs = module.default_config_names({})
    return {
        "benchmark": name,
        "version": str(module.BUILDER.VERSION),
        "regenerate": REGENERATE.format(name=name),
        "configs": export_fingerprints(folder, configs),
    }


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


def golden_problems(current: dict, golden: dict) -> list[str]:
    """Why ``current`` (a :func:`golden_record`) does not match the stored ``golden`` record;
    each message says what to do."""
    name, version, stored_version = current["benchmark"], current["version"], golden["version"]
    command = REGENERATE.format(name=name)
    changed = []
    for config in sorted(set(current["configs"]) | set(golden["configs"])):
        now, before = current["configs"].get(config), golden["configs"].get(config)
        if now is None or before is None:
            changed.append(f"{config} ({'added' if before is None else 'removed'})")
        elif now["fingerprint"] != before["fingerprint"]:
            splits = [
                f"{split} {before['splits'].get(split, {}).get('rows', 0)}→"
                f"{now['splits'].get(split, {}).get('rows', 0)} rows"
                for split in sorted(set(now["splits"]) | set(before["splits"]))
                if before["splits"].get(split, {}).get("fingerprint")
                != now["splits"].get(split, {}).get("fingerprint")
            ]
            changed.append(f"{config} ({', '.join(splits) or 'fingerprint differs'})")
    if changed and version == stored_version:
        return [
            f"The generated content of {name} changed ({'; '.join(changed)}) but its VERSION is "
            f"still {version}. If the change is intended, bump VERSION in builders/{name}/ (its builder) "
            f"(semantic versioning), add a CHANGELOG entry, then regenerate the golden file with "
            f"`{command}` and commit it. If it is not intended, find what changed the output."
        ]
    if version != stored_version:
        direction = "forward" if _version_key(version) > _version_key(stored_version) else "BACK"
        return [
            f"VERSION of {name} moved {direction} from {stored_version} to {version} but "
            f"tests/golden/{name}.json was not regenerated: run `{command}` and commit it."
            + ("" if direction == "forward" else " Versions must only increase.")
        ]
    return []


def write_golden(name: str, folder: Path | None = None, golden_dir: Path = GOLDEN_DIR) -> Path:
    """Write the golden file of ``name`` from an export folder, or from a fresh default build."""
    from compsem.export import export_benchmark

    path = golden_path(name, golden_dir)
    if folder is not None:
        record = golden_record(name, Path(folder))
    else:
        with tempfile.TemporaryDirectory() as scratch:
            export_benchmark(name, Path(scratch) / name)
            record = golden_record(name, Path(scratch) / name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m compsem.versioning",
        description="Regenerate a benchmark's golden fingerprint file after bumping its VERSION.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    update = commands.add_parser("update", help="write tests/golden/NAME.json")
    update.add_argument("name", help="benchmark name, e.g. plane")
    update.add_argument(
        "--export", type=Path, help="read this default build instead of building one"
    )
    update.add_argument(
        "--golden-dir", type=Path, default=GOLDEN_DIR, help="where golden files live"
    )
    args = parser.parse_args(argv)
    path = write_golden(args.name, args.export, args.golden_dir)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
