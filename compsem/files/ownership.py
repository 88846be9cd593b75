"""What compsem owns: a manifest of every path it wrote, and one writer at a time.

A folder compsem writes as a whole (an export, an embedding report) holds :data:`MARKER`, a
manifest: its ``kind``, a random ``token`` drawn for that write, every file it wrote with its
size and modification time (``files``) and every folder (``folders``). compsem replaces or
removes only paths listed there and unchanged since; a marker without that manifest (copied,
hand-written, damaged) proves nothing, so the folder is treated as the user's.

A folder compsem writes files *into* (a harness ``--out``, ``demo --out``) holds
:data:`FILES_MANIFEST`, the same stamps for each file it wrote there: a file it did not write, or
one changed since, is never overwritten.

Writers take a lock (``fcntl.flock``) on a file beside their target for the whole write, so a
second compsem writing the same place fails at once instead of interleaving.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import secrets
import stat
from contextlib import contextmanager
from pathlib import Path

from compsem.files.bounded_read import InvalidJSON, MissingFile, UnreadableFile, read_json

MARKER = ".compsem-export.json"
FILES_MANIFEST = ".compsem-files.json"
TOKEN = re.compile(r"[0-9a-f]{32}")
MOVE_AWAY = "move them out of the folder or choose another --out"
LOCK_SUFFIX = "compsem-lock"
LOCK_KEY = "compsem_lock"  # what a lock file holds, so that only compsem's are ever removed


class OutputFolderError(ValueError):
    """compsem must not write there (yet): the message says what to do."""


def new_token() -> str:
    return secrets.token_hex(16)


def sibling(target: Path, suffix: str) -> Path:
    """``.NAME.SUFFIX`` beside ``target``, the name shortened (with a digest, so it stays unique)
    where it would pass the file system's 255-byte limit."""
    name = target.name
    if len(f".{name}.{suffix}".encode()) > 200:  # room for mkdtemp's random part
        digest = hashlib.blake2b(name.encode(), digest_size=8).hexdigest()
        name = f"{name.encode()[:100].decode(errors='ignore')}-{digest}"
    return target.with_name(f".{name}.{suffix}")


def stamp(path: Path) -> list[int]:
    status = path.lstat()
    return [status.st_size, status.st_mtime_ns]


def walk(folder: Path) -> tuple[dict[str, list[int]], list[str]]:
    """``(files, folders)`` under ``folder``: regular files with their stamps, and folders, by
    path relative to ``folder`` (symbolic links are neither: compsem never writes one)."""
    files, folders = {}, []
    for root, dirs, names in os.walk(folder):
        base = Path(root)
        for name in sorted(dirs):
            if not (base / name).is_symlink():
                folders.append(str((base / name).relative_to(folder)))
        for name in names:
            path = base / name
            if stat.S_ISREG(path.lstat().st_mode):
                files[str(path.relative_to(folder))] = stamp(path)
    return dict(sorted(files.items())), sorted(folders)


def _safe_relative(path) -> bool:
    return (
        isinstance(path, str)
        and bool(path)
        and not Path(path).is_absolute()
        and ".." not in Path(path).parts
        and "\x00" not in path
    )


def read_manifest(folder: Path, name: str = MARKER) -> dict | None:
    """The manifest ``name`` in ``folder``, None when there is none, or one OutputFolderError
    when it cannot be read or is not one compsem wrote."""
    path = Path(folder) / name
    try:
        data = read_json(path, "manifest")  # a regular file, bounded in size and nesting
    except MissingFile:
        return None
    except InvalidJSON:
        data = None
    except UnreadableFile as error:  # a FIFO, a device, too large, not readable
        raise OutputFolderError(f"{str(error).rstrip('.')}, or choose another --out.") from None
    files = data.get("files") if isinstance(data, dict) else None
    folders = data.get("folders", []) if isinstance(data, dict) else None
    valid = (
        isinstance(files, dict)
        and all(_safe_relative(p) and _is_stamp(s) for p, s in files.items())
        and isinstance(folders, list)
        and all(_safe_relative(p) for p in folders)
        and (name != MARKER or _is_export_marker(data))
    )
    if not valid:
        raise OutputFolderError(
            f"{path} is not a manifest compsem wrote (damaged, hand-edited, copied or from an "
            "older compsem), so compsem cannot tell its files from yours and touches none of "
            f"them: delete {path} and the files you do not need yourself, or choose another --out."
        )
    return data


def _is_stamp(value) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _is_export_marker(data: dict) -> bool:
    return (
        isinstance(data.get("kind"), str)
        and isinstance(data.get("token"), str)
        and TOKEN.fullmatch(data["token"]) is not None
        and isinstance(data.get("configs", []), list)
    )


def foreign_paths(folder: Path, manifest: dict, changed: bool = True) -> list[str]:
    """Paths under ``folder`` that ``manifest`` does not list as written by compsem, or (with
    ``changed``) that changed since; outermost only: a foreign folder's contents are not listed
    again."""
    files, folders = manifest["files"], set(manifest.get("folders", []))
    foreign = []
    for root, dirs, names in os.walk(folder):
        base = Path(root)
        for name in sorted(dirs):
            relative = str((base / name).relative_to(folder))
            if relative not in folders or (base / name).is_symlink():
                foreign.append(relative + "/")
        dirs[:] = [d for d in dirs if str((base / d).relative_to(folder)) in folders]
        for name in sorted(names):
            path = base / name
            relative = str(path.relative_to(folder))
            if relative == MARKER:
                continue
            listed = relative in files and not path.is_symlink()
            if not listed or (changed and files[relative] != stamp(path)):
                foreign.append(relative)
    return sorted(foreign)


def file_in_the_way(path: Path, itself: bool = True) -> str | None:
    """Why no folder can be made at ``path``: it "is a file" (only with ``itself``) or "lies
    inside F, which is a file"; None when no file is in the way."""
    path = Path(path)
    for candidate in (path, *path.parents) if itself else path.parents:
        if candidate.exists() and not candidate.is_dir():
            return "is a file" if candidate == path else f"lies inside {candidate}, which is a file"
    return None


def describe(paths: list[str], limit: int = 5) -> str:
    shown = ", ".join(paths[:limit])
    return shown + (f" and {len(paths) - limit} more" if len(paths) > limit else "")


def remove_listed(folder: Path, manifest: dict) -> None:
    """Remove the files ``manifest`` lists that are unchanged since, the (then empty) folders it
    lists, its marker, and ``folder`` itself if nothing else is left in it."""
    for relative, recorded in manifest["files"].items():
        path = folder / relative
        if path.is_file() and not path.is_symlink() and stamp(path) == recorded:
            path.unlink()
    for relative in sorted(manifest.get("folders", []), key=len, reverse=True):
        try:
            (folder / relative).rmdir()
        except OSError:  # absent, or holds something compsem did not write
            pass
    (folder / MARKER).unlink(missing_ok=True)
    try:
        folder.rmdir()
    except OSError:
        pass


def restamp(folder: Path, relative: str) -> None:
    """Record in ``folder``'s manifest that compsem itself just rewrote ``relative`` (the card's
    audit section), so that the file still counts as compsem's."""
    manifest = read_manifest(folder)
    manifest["files"][relative] = stamp(Path(folder) / relative)
    write_json_atomically(Path(folder) / MARKER, manifest)


@contextmanager
def writer_lock(target: Path, wait: bool = False):
    """Hold an exclusive lock on ``.NAME.compsem-lock`` beside ``target`` for the block; a second writer
    fails at once (``wait``: waits its turn, as for a shared cache that the first fills). The lock
    file is removed when released. A file at that name that is not a lock compsem wrote (a
    symbolic link, a folder, a file with other contents) is never opened for writing, emptied or
    removed: it is one error."""
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
    try:
        yield
    finally:
        if _still_at(handle, lock):
            lock.unlink(missing_ok=True)
        os.close(handle)


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
        try:
            handle = os.open(path, os.O_RDWR | os.O_NOFOLLOW)
        except OSError:
            continue
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


def claim_file(path: Path, write) -> Path:
    """Write the file ``path`` with ``write(partial_path)`` unless a file compsem did not write
    (or one changed since) is there, and record it in the folder's :data:`FILES_MANIFEST`."""
    path = Path(path)
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFolderError(
            f"Cannot create {folder} ({error.strerror}); choose an --out folder you can write to."
        ) from None
    with writer_lock(folder / FILES_MANIFEST):
        manifest = read_manifest(folder, FILES_MANIFEST) or {"files": {}}
        _refuse_foreign(path, manifest)
        partial = sibling(path, f"{os.getpid()}.partial")
        try:
            write(partial)
            if os.path.lexists(path):
                os.chmod(partial, stat.S_IMODE(path.stat().st_mode))
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
        manifest["files"][path.name] = stamp(path)
        write_json_atomically(folder / FILES_MANIFEST, manifest)
    note_written(path)
    return path


_written: list[Path] = []  # what this command wrote, for the message of a stopped one


def note_written(path: Path) -> None:
    """Record that this command wrote ``path`` whole (a file, or a folder's final rename)."""
    _written.append(Path(path).absolute())


def written_by_this_run() -> list[Path]:
    return list(_written)


def check_claimable(path: Path) -> None:
    """The error :func:`claim_file` would raise for ``path``, raised now: a command that writes
    a file at the end of long work checks first."""
    path = Path(path)
    manifest = read_manifest(path.parent, FILES_MANIFEST) if path.parent.is_dir() else None
    _refuse_foreign(path, manifest or {"files": {}})


def _refuse_foreign(path: Path, manifest: dict) -> None:
    recorded = manifest["files"].get(path.name)
    if os.path.lexists(path) and (path.is_symlink() or recorded != stamp(path)):
        raise OutputFolderError(
            f"{path} exists and compsem did not write it (or it changed since); compsem never "
            f"overwrites such a file: move it away or choose another --out."
        )


def identity(path: Path) -> tuple[int, int]:
    """Which file ``path`` is (device and inode), whatever its contents."""
    status = Path(path).lstat()
    return status.st_dev, status.st_ino


def record_file(path: Path, claimed: tuple[int, int]) -> None:
    """Record the current stamp of ``path``, a file compsem claimed (``claimed``: its
    :func:`identity` then) and then appended to (a log), so that it still counts as compsem's.
    A file put in its place meanwhile is not compsem's: it is not recorded, so it is never
    overwritten."""
    path = Path(path)
    with writer_lock(path.parent / FILES_MANIFEST):
        try:
            if identity(path) != claimed:
                return
        except FileNotFoundError:
            return
        manifest = read_manifest(path.parent, FILES_MANIFEST) or {"files": {}}
        manifest["files"][path.name] = stamp(path)
        write_json_atomically(path.parent / FILES_MANIFEST, manifest)


def write_json_atomically(path: Path, payload: dict) -> None:
    partial = sibling(path, f"{os.getpid()}.partial")
    try:
        partial.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
