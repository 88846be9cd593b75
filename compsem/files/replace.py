"""The final step of an atomic replacement: it finishes, or it rolls back.

Every step works on the target's path resolved once (:func:`resolved_out`) and renames through
one descriptor of its parent folder, checked to still be the folder that path names, so that a
path spelled through the target itself (``hub/plane/../plane``), a symbolic link among its
parents, or a parent moved meanwhile cannot strand the new folder or lose the old one.

Before the old folder is renamed aside, every path its manifest lists is checked to be
removable (its folder writable, neither it nor that folder immutable or append-only); if one is
not, nothing moves and the error names it. If a rename fails all the same, the ones done are
undone: the old folder is back under its name and the new one goes with the staging folder.
"""

from __future__ import annotations

import fcntl
import os
import struct
import sys
from pathlib import Path

from compsem.files.ownership import (
    MARKER,
    MOVE_AWAY,
    OutputFolderError,
    describe,
    foreign_paths,
    read_manifest,
    remove_listed,
    sibling,
)
from compsem.files.writers import register, unregister
from compsem.pipeline.process_guard import process_alive

AGAIN = "it was left as it is: build again once nothing else writes there."
FS_IOC_GETFLAGS = 0x80086601 if struct.calcsize("l") == 8 else 0x80046601  # <linux/fs.h>
PINNED = 0x10 | 0x20  # FS_IMMUTABLE_FL | FS_APPEND_FL: not even root may unlink


def resolved_out(out: Path) -> Path:
    """``out`` with its parent folder resolved (symbolic links, ``..``): the one path every
    check, lock and staging folder derives from. The last name is kept, so that a symbolic link
    given as ``--out`` is still seen (and refused) as one."""
    out = Path(out).absolute()
    if out.name in ("", ".", ".."):
        return out.resolve()
    return out.parent.resolve() / out.name


def inside_compsem_folder(out: Path) -> Path | None:
    """The folder above ``out`` that compsem wrote as a whole (it holds a marker), if any."""
    for parent in out.parents:
        if os.path.lexists(parent / MARKER):
            return parent
    return None


def open_parent(out: Path) -> int:
    return os.open(out.parent, os.O_RDONLY | os.O_DIRECTORY)


def check_parent(out: Path, parent: int) -> None:
    """The folder ``parent`` was opened on is still the one ``out.parent`` names."""
    try:
        same = os.path.samestat(os.fstat(parent), os.stat(out.parent))
    except OSError:
        same = False
    if not same or out.parent.resolve() != out.parent:
        raise OutputFolderError(f"{out.parent} was moved or replaced during the build; {AGAIN}")


def _pinned(path: Path) -> bool:
    """Whether ``path`` is immutable or append-only (Linux file attributes; False elsewhere)."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        flags = fcntl.ioctl(handle, FS_IOC_GETFLAGS, bytes(8))
        return bool(int.from_bytes(flags[:4], sys.byteorder) & PINNED)
    except OSError:
        return False
    finally:
        os.close(handle)


def removal_blockers(folder: Path, manifest: dict) -> list[str]:
    """The paths of ``folder`` listed in ``manifest`` that could not be removed."""
    blocked = []
    for relative in [*manifest["files"], *manifest.get("folders", []), MARKER]:
        path = folder / relative
        if not os.path.lexists(path):
            continue
        holder = path.parent
        writable = os.access(holder, os.W_OK | os.X_OK)
        if not writable or _pinned(path) or _pinned(holder):
            blocked.append(relative)
    return blocked


def swap(out: Path, staging: Path, previous: dict | None, foreign: list[str], parent: int) -> None:
    """Rename ``staging`` to ``out`` (both in the folder ``parent``); the paths of ``out`` its
    manifest ``previous`` does not list (``foreign``) move into the new folder, and only the
    listed ones are removed. Every failure before the old folder's removal is rolled back."""
    check_parent(out, parent)
    rename = _renamer(parent)
    if previous is None:  # a new path or an empty folder, which rename replaces
        if out.is_dir() and any(out.iterdir()):
            raise OutputFolderError(f"{out} was filled by something else during the build; {AGAIN}")
        rename(staging.name, out.name)
        return
    appeared = sorted(set(foreign_paths(out, previous)) - set(foreign))
    if appeared:  # checked again: the build took a while
        raise OutputFolderError(f"{describe(appeared)} changed in {out} during the build; {AGAIN}")
    clashes = [path for path in foreign if os.path.lexists(staging / path.rstrip("/"))]
    if clashes:
        raise OutputFolderError(
            f"{out} holds {describe(clashes)}, which compsem did not write (or changed since) "
            f"and the new export writes too; {MOVE_AWAY}. {out} is as it was."
        )
    blocked = removal_blockers(out, previous)
    if blocked:
        raise OutputFolderError(
            f"{out} holds {describe(blocked)}, which compsem wrote but cannot remove (its folder "
            "is read-only, or it is immutable); make them removable (chmod u+w on the folder "
            f"holding them, chattr -i) or choose another --out. {out} is as it was."
        )
    retired = sibling(out, f"old-{os.getpid()}-{previous['token']}")
    entry = register("retired", retired, target=str(out))
    moved: list[Path] = []
    rename(out.name, retired.name)
    try:
        rename(staging.name, out.name)
        try:
            for path in foreign:
                target = out / path.rstrip("/")
                target.parent.mkdir(parents=True, exist_ok=True)
                move(retired / path.rstrip("/"), target)
                moved.append(Path(path.rstrip("/")))
        except BaseException:
            for path in reversed(moved):
                move(out / path, retired / path)
            rename(out.name, staging.name)
            raise
    except BaseException as error:
        rename(retired.name, out.name)
        unregister(entry)
        if isinstance(error, OSError):
            raise OutputFolderError(
                f"Cannot put the new folder in place at {out} ({error.strerror}); {out} is as "
                "it was: check that folder's permissions, or choose another --out."
            ) from None
        raise
    kept = remove_listed(retired, previous)
    if kept:
        raise OutputFolderError(
            f"{out} holds the new export, but {describe(kept)} of the previous one could not be "
            f"removed (changed permissions during the build?); they are in {retired}: check "
            "and remove that folder yourself."
        )
    unregister(entry)


def move(source: Path, target: Path) -> None:
    """Move a path the old folder held but its manifest does not list into the new one."""
    os.rename(source, target)


def _renamer(parent: int):
    def rename(source: str, target: str) -> None:
        os.replace(source, target, src_dir_fd=parent, dst_dir_fd=parent)

    return rename


def remove_retired(path: Path, target: Path) -> None:
    """Remove ``path``, the folder ``target`` a killed run renamed aside before its new one took
    the place: only when its manifest is compsem's for ``target``, its token is in its name, the
    run is gone and it holds only what the manifest lists."""
    pid, _, token = path.name.rpartition(".old-")[2].partition("-")
    try:
        manifest = read_manifest(path, governs=target)
    except (OutputFolderError, OSError):
        return
    if (
        manifest is None
        or manifest["token"] != token
        or sibling(target, f"old-{pid}-{token}") != path
        or not pid.isdigit()
        or process_alive(int(pid))
        or foreign_paths(path, manifest)
    ):
        return
    remove_listed(path, manifest)


def remove_retired_beside(path: Path) -> None:
    """:func:`remove_retired` for a ``.NAME.old-PID-TOKEN`` folder found beside its target."""
    name = path.name[1:].rpartition(".old-")[0]
    if name:
        remove_retired(path, path.with_name(name))
