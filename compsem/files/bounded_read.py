"""Reading a file a user handed compsem: a regular file, capped in size and nesting, in chunks.

Every file compsem reads from a user's disk (markers, manifests, result and rows files, dataset
cards, lexicons, templates, JSON settings) goes through :func:`read_bytes` and its text, JSON and
JSON-lines forms. Each read

- opens the path with ``O_NONBLOCK`` and checks ``fstat`` on the open descriptor, so a FIFO,
  device or socket is refused at once instead of blocking, and a file swapped after a check is
  the file checked;
- refuses a file larger than the cap of its kind (``CAPS``, declared here once) before reading;
- reads in chunks of ``CHUNK`` bytes, so SIGINT and SIGTERM end the command between two chunks
  (within a second) rather than after the whole file;
- refuses JSON nested deeper than ``MAX_JSON_DEPTH`` before parsing it.

Every refusal is one ``UnreadableFile`` (a ``ValueError``) naming the file, the problem and the
fix; commands turn it into one line and exit 2, or, where they can go on (``compsem report``),
list the file under "Files not read".
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from collections.abc import Iterator
from itertools import accumulate
from pathlib import Path

MIB = 1024 * 1024

# The most compsem reads of each kind of file; a larger one is refused before reading.
CAPS = {
    "marker": 1 * MIB,  # owner files, locks
    "manifest": 64 * MIB,  # .compsem-export.json, .compsem-files.json
    "card": 16 * MIB,  # an export's README.md
    "result": 64 * MIB,  # a result JSON of train, llm, embed ...
    "rows": 2048 * MIB,  # a run's .rows.jsonl, read line by line
    "lexicon": 64 * MIB,  # lexicons and word lists
    "template": 1 * MIB,  # a Jinja prompt template
    "config": 16 * MIB,  # JSON settings and measured records
    "vectors": 16384 * MIB,  # a word2vec/GloVe text file, read line by line
}
MAX_JSON_DEPTH = 64
CHUNK = 1 * MIB

_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}
# The depth check keeps brackets outside strings: escapes go first (so an escaped quote ends no
# string), then every byte but brackets and quotes, then the strings that are left.
_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_NOT_SYNTAX = bytes(byte for byte in range(256) if byte not in b'[]{}"')
_STRING = re.compile(rb'"[^"]*"')


class UnreadableFile(ValueError):
    """A file compsem refuses to read; the message names the file, the problem and the fix."""


class MissingFile(UnreadableFile):
    """The file does not exist (for readers where that is an answer, not an error)."""


class InvalidJSON(UnreadableFile):
    """The file was read, but is not JSON, or nests it deeper than compsem reads."""


def _open(path: Path, kind: str) -> int:
    try:
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except FileNotFoundError:
        raise MissingFile(f"{path} does not exist; pass the {kind} file's path.") from None
    except PermissionError:
        raise UnreadableFile(
            f"{path} cannot be read (permission denied on it or a folder above it): make it "
            "readable (chmod u+r, and u+x on its folders)."
        ) from None
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        if error.errno == errno.ENOTDIR:
            reason = "a part of the path is a file, not a folder"
        raise UnreadableFile(f"{path} cannot be opened ({reason}); pass another file.") from None


def _check_regular(path: Path, descriptor: int, kind: str) -> int:
    """The size of the open file; one UnreadableFile unless it is a regular file under the
    cap of its kind."""
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode):
        what = _KINDS.get(stat.S_IFMT(info.st_mode), "not a regular file")
        raise UnreadableFile(
            f"{path} is {what}, not a regular file; compsem reads a {kind} only from a regular "
            "file: pass one."
        )
    cap = CAPS[kind]
    if info.st_size > cap:
        raise UnreadableFile(
            f"{path} is {info.st_size / MIB:.1f} MiB, above the {cap // MIB} MiB compsem reads "
            f"as a {kind}; pass the file compsem wrote (or split it)."
        )
    return info.st_size


def read_bytes(path: str | os.PathLike, kind: str) -> bytes:
    """The bytes of ``path``, a regular file of at most ``CAPS[kind]`` bytes, read in chunks."""
    path = Path(path)
    descriptor = _open(path, kind)
    try:
        _check_regular(path, descriptor, kind)
        chunks, total = [], 0
        while chunk := os.read(descriptor, CHUNK):
            total += len(chunk)
            if total > CAPS[kind]:  # the file grew while being read
                raise UnreadableFile(
                    f"{path} grew past the {CAPS[kind] // MIB} MiB compsem reads as a {kind} "
                    "while being read; pass a file nothing is writing to."
                )
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise UnreadableFile(f"{path} cannot be read ({os.strerror(error.errno)}).") from None
    finally:
        os.close(descriptor)


def check_file(path: str | os.PathLike, kind: str) -> None:
    """One UnreadableFile unless ``path`` is a regular file compsem may read as a ``kind``
    (opened and checked, not read): for files read later, or by another library."""
    path = Path(path)
    descriptor = _open(path, kind)
    try:
        _check_regular(path, descriptor, kind)
    finally:
        os.close(descriptor)


def decode(data: bytes, path: Path | str) -> str:
    """``data`` as UTF-8 (a byte-order mark dropped); bytes that are not UTF-8 are one
    UnreadableFile naming the line and byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        line = data[: problem.start].count(b"\n") + 1
        raise UnreadableFile(
            f"{path}, line {line}: byte 0x{data[problem.start]:02x} is not UTF-8; save the file "
            "as UTF-8 (most editors offer it under 'Save as' / encoding)."
        ) from None


def read_text(path: str | os.PathLike, kind: str) -> str:
    """The UTF-8 text of ``path`` (see :func:`read_bytes`)."""
    return decode(read_bytes(path, kind), path)


def check_json_depth(data: bytes, source: str) -> None:
    """One UnreadableFile when the JSON in ``data`` nests deeper than ``MAX_JSON_DEPTH``."""
    if data.count(b"[") + data.count(b"{") <= MAX_JSON_DEPTH:
        return
    brackets = _STRING.sub(b"", _ESCAPE.sub(b"", data).translate(None, _NOT_SYNTAX))
    steps = (1 if byte in b"[{" else -1 for byte in brackets)
    if max(accumulate(steps, initial=0)) > MAX_JSON_DEPTH:
        raise InvalidJSON(
            f"{source} nests JSON deeper than {MAX_JSON_DEPTH} levels, which no file compsem "
            "writes does; pass the file compsem wrote."
        )


def parse_json(data: bytes, source: str):
    """The JSON value of ``data`` after the depth check; invalid JSON is one UnreadableFile."""
    check_json_depth(data, source)
    try:
        return json.loads(data)  # bytes: json detects UTF-8 (a byte-order mark too)
    except UnicodeDecodeError:
        decode(data, source)  # names the line and byte
        raise
    except json.JSONDecodeError as error:
        raise InvalidJSON(
            f"{source} is not valid JSON ({error.msg}: line {error.lineno} column {error.colno}; "
            "truncated?); pass the file compsem wrote, or write it again."
        ) from None
    except RecursionError:
        raise InvalidJSON(
            f"{source} nests JSON too deeply to read; pass the file compsem wrote."
        ) from None


def read_json(path: str | os.PathLike, kind: str):
    """The JSON value in ``path`` (see :func:`read_bytes` and :func:`check_json_depth`)."""
    return parse_json(read_bytes(path, kind), str(path))


def read_json_lines(path: str | os.PathLike, kind: str = "rows") -> Iterator:
    """Each non-empty line of the JSON-lines file ``path`` as a value, read in chunks; a line
    longer than a result file may be is refused."""
    path = Path(path)
    descriptor = _open(path, kind)
    try:
        _check_regular(path, descriptor, kind)
        pending, number = b"", 0
        while True:
            chunk = os.read(descriptor, CHUNK)
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop() if chunk else b""
            if len(pending) > CAPS["result"]:
                raise UnreadableFile(f"{path}, line {number + 1} is too long to be a row.")
            for line in lines:
                number += 1
                if not line.strip():
                    continue
                if line.count(b"[") + line.count(b"{") <= MAX_JSON_DEPTH:
                    try:  # the common case, without the depth check's work
                        yield json.loads(line)
                        continue
                    except ValueError:
                        pass  # parse_json below names the problem
                yield parse_json(line, f"{path}, line {number}")
            if not chunk:
                return
    finally:
        os.close(descriptor)
