"""What compsem owns: a signed manifest of every path it wrote.

A folder compsem writes as a whole (an export, an embedding report) holds :data:`MARKER`, a
manifest: its ``kind``, a random ``token`` drawn for that write, every file it wrote with its
size and modification time (``files``) and every folder (``folders``). compsem replaces or
removes only paths listed there and unchanged since.

A folder compsem writes files *into* (a harness ``--out``, ``demo --out``) holds
:data:`FILES_MANIFEST`, the same stamps for each file it wrote there: a file it did not write, or
one changed since, is never overwritten.

Every manifest is signed for the folder it governs (:mod:`compsem.files.signing`): one that does
not verify (hand-written, edited, copied from another folder or machine, signed with another
user's key, or written unsigned by an older compsem) is "not written by compsem here", and
compsem deletes and overwrites none of the paths it lists. Writers hold a lock
(:mod:`compsem.files.writers`).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
from pathlib import Path

from compsem.files.bounded_read import InvalidJSON, MissingFile, UnreadableFile, read_json
from compsem.files.signing import sign, verdict
from compsem.files.writers import (
    MOVE_AWAY,
    OutputFolderError,
    remove_stale_locks,
    sibling,
    writer_lock,
)

__all__ = ["MOVE_AWAY", "OutputFolderError", "remove_stale_locks", "sibling", "writer_lock"]

MARKER = ".compsem-export.json"
FILES_MANIFEST = ".compsem-files.json"
TOKEN = re.compile(r"[0-9a-f]{32}")


def new_token() -> str:
    return secrets.token_hex(16)


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


def read_manifest(folder: Path, name: str = MARKER, governs: Path | None = None) -> dict | None:
    """The manifest ``name`` in ``folder``, None when there is none, or one OutputFolderError
    when it cannot be read or compsem here did not write it for ``governs`` (default:
    ``folder``; a retired export's manifest governs the folder it was)."""
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
    why = verdict(data, governs or folder) if valid else "invalid"
    if why:
        raise OutputFolderError(not_ours(path, why))
    return data


def not_ours(path: Path, why: str) -> str:
    """The one line for a manifest compsem here did not write (``why``: "invalid", "unsigned"
    or "forged", as :func:`compsem.files.signing.verdict` says)."""
    what = {
        "invalid": "is not a manifest compsem wrote (damaged or hand-written)",
        "unsigned": "is unsigned (written by an older compsem, or by hand)",
        "forged": "does not carry compsem's signature for this folder (edited, copied from "
        "another folder or machine, or signed with another user's key)",
    }[why]
    folder = path.parent
    return (
        f"{path} {what}, so it was not written by compsem here and compsem deletes and "
        f"overwrites none of the paths it lists: choose another --out, or check {folder} and "
        f"remove it (or {path.name}) yourself."
    )


def write_manifest(folder: Path, manifest: dict, name: str = MARKER, governs=None) -> None:
    """Write ``manifest`` as ``folder``/``name``, signed for ``governs`` (default: ``folder``)."""
    write_json_atomically(Path(folder) / name, sign(manifest, governs or folder))


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


def remove_listed(folder: Path, manifest: dict) -> list[str]:
    """Remove the files ``manifest`` lists that are unchanged since, the (then empty) folders it
    lists, its marker, and ``folder`` itself if nothing else is left in it. Returns the listed
    files that could not be removed (a read-only folder, an immutable file)."""
    kept = []
    for relative, recorded in manifest["files"].items():
        path = folder / relative
        if path.is_file() and not path.is_symlink() and stamp(path) == recorded:
            try:
                path.unlink()
            except OSError:
                kept.append(relative)
    for relative in sorted(manifest.get("folders", []), key=len, reverse=True):
        try:
            (folder / relative).rmdir()
        except OSError:  # absent, or holds something compsem did not write
            pass
    if not kept:
        (folder / MARKER).unlink(missing_ok=True)
    try:
        folder.rmdir()
    except OSError:
        pass
    return kept


def restamp(folder: Path, relative: str) -> None:
    """Record in ``folder``'s manifest that compsem itself just rewrote ``relative`` (the card's
    audit section), so that the file still counts as compsem's."""
    manifest = read_manifest(folder)
    manifest["files"][relative] = stamp(Path(folder) / relative)
    write_manifest(folder, manifest)


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
        write_manifest(folder, manifest, FILES_MANIFEST)
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
        write_manifest(path.parent, manifest, FILES_MANIFEST)


def write_json_atomically(path: Path, payload: dict) -> None:
    partial = sibling(path, f"{os.getpid()}.partial")
    try:
        partial.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
