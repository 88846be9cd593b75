"""Content fingerprints and the Parquet cache of expensive shared steps (parses, WordNet walks)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


def fingerprint(*parts) -> str:
    """A short stable hash of JSON-serialisable parts."""
    payload = json.dumps(parts, sort_keys=True, default=str).encode()
    return hashlib.sha256(payload).hexdigest()[:16]


def file_fingerprint(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """``$COMPSEM_CACHE``, else ``$XDG_CACHE_HOME/compsem``, else ``~/.cache/compsem``."""
    if "COMPSEM_CACHE" in os.environ:
        return Path(os.environ["COMPSEM_CACHE"])
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "compsem"


def cache_path(step: str, key: str) -> Path:
    """Where :func:`cached_table` keeps a step's table of this key."""
    return cache_root() / step / f"{key}.parquet"


def cached_table(step: str, key: str, compute: Callable[[], pa.Table]) -> pa.Table:
    """Read ``<cache>/<step>/<key>.parquet``, or compute it once and write it atomically."""
    path = cache_path(step, key)
    if path.is_file():
        return pq.read_table(path)
    table = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial")
    pq.write_table(table, partial)
    os.replace(partial, path)
    return table


def row_id(*fields) -> str:
    """A stable row id: a hash of the fields that define the row."""
    return hashlib.blake2b("\x1f".join(map(str, fields)).encode(), digest_size=8).hexdigest()
