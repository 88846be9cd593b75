"""The cache of model calls behind ``compsem llm``: an interrupted run resumes where it stopped
and a repeated run makes no model call.

One append-only JSONL file per (model revision, back end) under ``<compsem cache>/llm_calls/``;
each line is ``{"key": …, "value": …}``, the key a hash of the back end's settings and the exact
rendered model input. A line is written whole with one ``write`` call and flushed as each batch
finishes, so a killed run loses at most the batch in flight; a torn last line is skipped on
reading. The model's revision is its Hub commit when the folder records one, else a content
fingerprint of the folder's files (memoised by size and modification time, so a second run does
not hash the weights again).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from compsem.files.fingerprint import cache_root, file_fingerprint, fingerprint

CALLS = "llm_calls"


def _memo_path() -> Path:
    return cache_root() / CALLS / "folder_fingerprints.json"


def folder_revision(folder: Path) -> str:
    """A content fingerprint of a local model folder: every file's name and SHA-256, memoised
    by (path, size, modification time) so unchanged weights are hashed once."""
    files = sorted(p for p in Path(folder).rglob("*") if p.is_file())
    memo_file = _memo_path()
    try:
        memo = json.loads(memo_file.read_text())
    except (OSError, ValueError):
        memo = {}
    parts, changed = [], False
    for path in files:
        stat = path.stat()
        key = f"{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}"
        if key not in memo:
            memo[key], changed = file_fingerprint(path), True
        parts.append((path.relative_to(folder).as_posix(), memo[key]))
    if changed:
        memo_file.parent.mkdir(parents=True, exist_ok=True)
        partial = memo_file.with_suffix(f".{os.getpid()}.partial")
        partial.write_text(json.dumps(memo))
        os.replace(partial, memo_file)
    return "content:" + fingerprint(parts)


def model_revision(model: str) -> str:
    """The Hub commit of a model (a local folder's ``.cache/huggingface`` metadata or the Hub
    cache's snapshot name), else a content fingerprint of its folder, else the name itself
    (an endpoint's model, which the server alone knows)."""
    folder = Path(model)
    if folder.is_dir():
        if folder.parent.name == "snapshots":  # a Hub cache snapshot is named by its commit
            return "hub:" + folder.name
        return folder_revision(folder)
    return "name:" + model


class CallCache:
    """Model outputs by key, read once and appended to as results arrive."""

    def __init__(self, revision: str, backend: str, enabled: bool = True) -> None:
        self.path = cache_root() / CALLS / f"{fingerprint(revision, backend)}.jsonl"
        self.enabled = enabled
        self.entries: dict[str, object] = {}
        if enabled and self.path.is_file():
            with open(self.path, encoding="utf-8") as handle:
                for line in handle:
                    try:
                        entry = json.loads(line)
                        self.entries[entry["key"]] = entry["value"]
                    except (ValueError, KeyError, TypeError):
                        continue  # a line torn by an interrupted run: that call is made again

    @staticmethod
    def key(settings: dict, model_input) -> str:
        return fingerprint(settings, model_input)

    def get(self, key: str):
        return self.entries.get(key) if self.enabled else None

    def put_many(self, items: dict[str, object]) -> None:
        """Store these outputs and append them to the file, one whole line per call."""
        if not self.enabled or not items:
            return
        self.entries.update(items)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps({"key": k, "value": v}) + "\n" for k, v in items.items())
        with open(self.path, "a+b") as handle:
            if handle.tell() and (handle.seek(-1, os.SEEK_END), handle.read(1))[1] != b"\n":
                text = "\n" + text  # end the line an interrupted run tore, so this one parses
            handle.write(text.encode())
            handle.flush()
            os.fsync(handle.fileno())
