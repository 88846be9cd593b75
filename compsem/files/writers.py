"""One writer at a time, and what a killed writer left removed wherever it is.

Writers take a lock (``fcntl.flock``) on a file beside their target for the whole write, so a
second compsem writing the same place fails at once instead of interleaving.

Each lock and each staging or retired folder a command makes is also entered in a registry in
compsem's cache (``<cache>/writers/``): one signed entry (:mod:`compsem.files.signing`) naming the
path and the process (pid, start time, host, boot, PID namespace), removed when the command is
done with it. A SIGKILL leaves the entry behind, so the first command that writes afterwards
(:func:`sweep`, from :func:`writer_lock`) removes that process's staging folder and lock wherever
they are, once the process surely no longer runs: only paths a valid entry names, and each only
if it still carries compsem's own mark (the staging folder's owner file, the lock's contents).
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from compsem.files.bounded_read import read_json
from compsem.files.fingerprint import cache_root
from compsem.files.signing import sign, verdict
from compsem.pipeline.process_guard import (
    is_this_process,
    owner_gone,
    remove_claimed,
    remove_if_abandoned,
    this_process,
)

MOVE_AWAY = "move them out of the folder or choose another --out"
LOCK_SUFFIX = "compsem-lock"
LOCK_KEY = "compsem_lock"  # what a lock file holds, so that only compsem's are ever removed
REGISTRY = "writers"


class OutputFolderError(ValueError):
    """compsem must not write there (yet): the message says what to do."""


def sibling(target: Path, suffix: str) -> Path:
    """``.NAME.SUFFIX`` beside ``target``, the name shortened (with a digest, so it stays unique)
    where it would pass the file system's 255-byte limit."""
    name = target.name
    if len(f".{name}.{suffix}".encode()) > 200:  # room for mkdtemp's random part
        digest = hashlib.blake2b(name.encode(), digest_size=8).hexdigest()
        name = f"{name.encode()[:100].decode(errors='ignore')}-{digest}"
    return target.with_name(f".{name}.{suffix}")


def registry_folder() -> Path:
    return cache_root().absolute() / REGISTRY


def register(kind: str, path: Path, **details) -> Path | None:
    """Enter ``path`` (a ``kind``: "lock", "staging" or "retired") in the registry as this
    process's; returns the entry, for :func:`unregister`. Best effort: without a writable cache
    the entry is skipped (the clean-up beside each target still runs)."""
    folder = registry_folder()
    entry = {"kind": kind, "path": str(path), **details, **this_process()}
    name = folder / f"{os.getpid()}-{secrets.token_hex(8)}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        name.write_text(json.dumps(sign(entry, folder)))
    except OSError:
        return None
    return name


def unregister(entry: Path | None) -> None:
    if entry is not None:
        with suppress(OSError):
            entry.unlink()


_swept: list[bool] = []


def registered(pids: str) -> Iterator[tuple[Path, dict]]:
    """The registry's entries of the processes ``pids`` (a glob: ``"*"``, or one pid) that
    compsem signed, each with the file that holds it."""
    folder = registry_folder()
    try:
        names = sorted(folder.glob(f"{pids}-*.json"))
    except OSError:
        return
    for name in names:
        try:
            entry = read_json(name, "marker")  # a FIFO planted there never blocks a command
        except (OSError, ValueError):
            continue
        if isinstance(entry, dict) and not verdict(entry, folder):
            yield name, entry


def sweep(retired: Callable[[Path, Path], None] | None = None, again: bool = False) -> None:
    """Remove the staging folders and locks (and, given ``retired``, the retired folders: it
    removes one, given the folder and the target it was) that the registry lists for processes
    that no longer run. Once per process unless ``again``."""
    if _swept and not again:
        return
    _swept.append(True)
    for name, entry in registered("*"):
        if not owner_gone(entry):
            continue  # its process may still run
        path, kind = Path(str(entry.get("path"))), entry.get("kind")
        with suppress(OSError):
            if kind == "staging":
                remove_if_abandoned(path)
            elif kind == "lock":
                remove_stale_lock(path)
            elif kind == "retired" and retired is not None:
                retired(path, Path(str(entry.get("target"))))
            elif kind == "retired":
                continue  # left for a command that replaces folders
            unregister(name)


def release_registered() -> None:
    """Remove the staging folders and locks the registry lists for this process, and their
    entries: what a command that must exit without its clean-up leaves (see
    :func:`compsem.pipeline.stop_signals.note_interrupts`). Each only if it still carries this
    process's mark (the staging folder's owner file, the lock's contents)."""
    for name, entry in registered(str(os.getpid())):
        if not is_this_process(entry):
            continue  # an earlier process with this pid: the sweep's to judge
        path = Path(str(entry.get("path")))
        with suppress(OSError, ValueError):
            if entry.get("kind") == "staging":
                remove_claimed(path, is_this_process)
            elif entry.get("kind") == "lock" and _lock_of_this_process(path):
                path.unlink()
            unregister(name)


def _lock_of_this_process(path: Path) -> bool:
    """Whether ``path`` is a lock file this process wrote (it holds it: the file is not locked
    again, only read, without blocking on whatever else may have been put there)."""
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        content = os.pread(handle, 201, 0) if stat.S_ISREG(os.fstat(handle).st_mode) else b""
        return json.loads(content or b"null") == {LOCK_KEY: os.getpid()}
    finally:
        os.close(handle)


@contextmanager
def writer_lock(target: Path, wait: bool = False):
    """Hold an exclusive lock on ``.NAME.compsem-lock`` beside ``target`` for the block; a second writer
    fails at once (``wait``: waits its turn, as for a shared cache that the first fills). The lock
    file is removed when released. A file at that name that is not a lock compsem wrote (a
    symbolic link, a folder, a file with other contents) is never opened for writing, emptied or
    removed: it is one error."""
    sweep()
    target = Path(target)
    lock = sibling(target, LOCK_SUFFIX)
    while True:
        handle = _open_lock(lock, target)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(handle)
            if error.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            raise OutputFolderError(
                f"another compsem process is writing {target} (it holds {lock}); wait for it to "
                "finish, or choose another --out."
            ) from None
        if _still_at(handle, lock):  # the holder before us may have removed it meanwhile
            break
        os.close(handle)
    if not _holds_a_lock(handle):
        os.close(handle)
        raise OutputFolderError(_not_a_lock(lock, target))
    os.ftruncate(handle, 0)
    os.pwrite(handle, json.dumps({LOCK_KEY: os.getpid()}).encode(), 0)
    entry = None
    try:  # registering signs the entry: a bad signing key must not leave the lock behind
        entry = register("lock", lock.absolute())
        yield
    finally:
        if _still_at(handle, lock):
            lock.unlink(missing_ok=True)
        os.close(handle)
        unregister(entry)


def _not_a_lock(lock: Path, target: Path) -> str:
    return (
        f"{lock} exists and is not a lock compsem wrote; compsem takes its lock for {target} "
        f"there and never touches a file it did not write: {MOVE_AWAY}."
    )


def _open_lock(lock: Path, target: Path) -> int:
    """A descriptor of the lock file: created if absent, else opened without following a
    symbolic link."""
    flags = os.O_RDWR | os.O_NOFOLLOW
    while True:
        try:
            return os.open(lock, flags | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            pass
        except OSError as error:
            raise OutputFolderError(
                f"Cannot write beside {target} ({error.strerror}); choose an --out folder you "
                "can write to."
            ) from None
        try:
            handle = os.open(lock, flags)
        except FileNotFoundError:
            continue  # its holder removed it between our two opens
        except OSError:  # a symbolic link (ELOOP), a folder (EISDIR), unreadable
            raise OutputFolderError(_not_a_lock(lock, target)) from None
        if stat.S_ISREG(os.fstat(handle).st_mode):
            return handle
        os.close(handle)
        raise OutputFolderError(_not_a_lock(lock, target))


def _still_at(handle: int, lock: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(handle), os.lstat(lock))
    except FileNotFoundError:
        return False


def _holds_a_lock(handle: int) -> bool:
    """Whether the locked file is empty (just created, or left by a run killed before writing
    it) or holds what compsem writes there."""
    content = os.pread(handle, 201, 0)
    if not content:
        return True
    try:
        data = json.loads(content)
    except ValueError:
        return False
    return isinstance(data, dict) and set(data) == {LOCK_KEY}


def remove_stale_locks(folder: Path) -> None:
    """Remove the lock files in ``folder`` that compsem wrote (they say so) and no process
    holds: those of killed runs. A lock file someone holds, or any other file, is left alone."""
    for path in Path(folder).glob(f".*.{LOCK_SUFFIX}"):
        remove_stale_lock(path)


def remove_stale_lock(path: Path) -> None:
    """Remove the lock file ``path`` if compsem wrote it (it says so) and no process holds it."""
    try:
        handle = os.open(path, os.O_RDWR | os.O_NOFOLLOW)
    except OSError:
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        content = json.loads(os.pread(handle, 200, 0) or b"null")
        if isinstance(content, dict) and LOCK_KEY in content:
            if os.path.samestat(os.fstat(handle), os.stat(path)):
                path.unlink()
    except (OSError, ValueError):
        pass  # held by a running writer, gone meanwhile, or not compsem's
    finally:
        os.close(handle)
