"""Where compsem writes: the checks that keep a user's data safe, and atomic replacement.

compsem deletes and overwrites only what compsem wrote. A folder it replaces as a whole (a
benchmark export, an embedding report) carries a manifest, :data:`MARKER`, listing every file and
folder it wrote (:mod:`compsem.files.ownership`). ``--out`` must be a new path, an empty folder or such
a folder. Anything else (a file, the working directory or one of its parents, the home folder, a
folder without a valid manifest) is refused before any work, ``--force`` included; so is a
folder that also holds paths the manifest does not list, unless ``--force``, which replaces
compsem's paths and moves the others, untouched, into the new folder; a file the manifest lists
that changed since is the user's, and is refused, ``--force`` included. ``--force`` also lets one
compsem folder replace another of a different kind, or an export lose configs it held.

Replacement is atomic and has one writer at a time: a lock beside the target is held from the
checks to the final rename; the new contents are written to a hidden sibling staging folder
(``.NAME.partial-PID-XXXX``, marked with its owner) that replaces the target only once complete,
so an interrupted build leaves the previous folder intact. ``--out`` is resolved once and the
swap finishes or rolls back (:mod:`compsem.files.replace`). Staging folders and locks whose
owning process is gone (killed runs) are removed by the next command that writes, wherever they
are (:mod:`compsem.files.writers`).
"""

from __future__ import annotations

import argparse
import errno
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from compsem.files.ownership import (
    MARKER,
    MOVE_AWAY,
    OutputFolderError,
    describe,
    file_in_the_way,
    foreign_paths,
    new_token,
    note_written,
    read_manifest,
    remove_stale_locks,
    sibling,
    walk,
    write_manifest,
    writer_lock,
)
from compsem.files.replace import (
    check_parent,
    inside_compsem_folder,
    open_parent,
    remove_retired,
    remove_retired_beside,
    resolved_out,
    swap,
)
from compsem.files.writers import register, sweep, unregister
from compsem.pipeline.process_guard import OWNER_FILE, claim_folder, remove_if_abandoned
from compsem.pipeline.stop_signals import interrupted

__all__ = ["MARKER", "OutputFolderError", "atomic_folder", "check_output_folder", "read_marker"]


NAME_MAX = 255  # the longest file name Linux's and macOS's file systems take, in bytes


def output_path(text: str) -> Path:
    """An ``--out`` argument: refuses an empty string, which ``Path`` would read as ``.``."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; name a new folder, e.g. --out hub/plane")
    longest = max((len(os.fsencode(part)) for part in Path(text).parts), default=0)
    if longest > NAME_MAX:
        raise argparse.ArgumentTypeError(
            f"holds a name of {longest} bytes, longer than the {NAME_MAX} a file name may have; "
            "choose a shorter name"
        )
    return Path(text)


def results_folder(text: str) -> Path:
    """An ``--out`` argument for result files written into a folder (nothing is replaced)."""
    path = output_path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(
            f"{path} is a file; results are written into a folder: name a new or existing folder"
        )
    return path


def read_marker(folder: Path) -> dict | None:
    """What wrote ``folder`` (its manifest), or None when compsem did not write it or its marker
    is not a valid manifest (:func:`compsem.files.ownership.read_manifest` says why)."""
    try:
        return read_manifest(Path(folder))
    except OutputFolderError:
        return None


def protected_reason(out: Path) -> str | None:
    """Why ``out`` may never be replaced, whatever it holds, or None."""
    here, home = Path.cwd().resolve(), Path.home().resolve()
    if out == here:
        return "is the working directory"
    if out in here.parents:
        return "holds the working directory"
    if out == home or out in home.parents:
        return "is your home folder or holds it"
    return None


@dataclass(frozen=True)
class Wording:
    """How a refusal names the folder and what it tells the user to do: an ``--out`` by default.
    A folder compsem places itself (a saved model inside ``--out``, the offline model's cache
    folder) is named by its path, with its own way out."""

    name: str | None = None  # None: "--out OUT"
    fix: str = "choose a new folder for --out"  # what to do instead of writing there
    away: str = MOVE_AWAY  # what to do with paths in it that compsem may not replace
    force: str = "pass --force"  # how to replace it anyway, keeping paths compsem did not write


OUT = Wording()


def check_output_folder(
    out: Path,
    kind: str,
    *,
    force: bool = False,
    configs: list[str] | None = None,
    wording: Wording = OUT,
    other_kinds: bool = True,
) -> tuple[dict | None, list[str]]:
    """Refuse ``out`` unless it is a new path, an empty folder or a compsem folder of ``kind``
    holding only what its manifest lists (``force``: and other paths, which are kept).

    ``configs``: the configs about to be written; replacing an export that holds others is
    refused unless ``force`` (the user asked for a subset, not to lose the rest).
    ``other_kinds``: whether ``force`` replaces a compsem folder of another kind (False for a
    folder that only ever holds one thing, as the offline model's). Returns the manifest of the
    folder to replace (None if there is none) and the paths it does not list.
    """
    out = resolved_out(out)
    name, fix = wording.name or f"--out {out}", wording.fix
    reason = protected_reason(out.resolve())
    if reason:
        raise OutputFolderError(f"{name} {reason}; compsem never replaces it: {fix}.")
    holder = inside_compsem_folder(out)
    if holder is not None:
        raise OutputFolderError(
            f"{name} lies inside {holder}, a folder compsem wrote as a whole (it holds "
            f"{MARKER}); writing there would change that folder: {fix} outside it."
        )
    where = file_in_the_way(out, itself=False)
    if where:
        raise OutputFolderError(f"{name} {where}; {fix}.")
    if out.is_symlink():
        raise OutputFolderError(f"{name} is a symbolic link; compsem never replaces one: {fix}.")
    if not out.exists():
        return None, []
    if not out.is_dir():
        raise OutputFolderError(f"{name} is a file, not a folder; {fix}.")
    if not any(out.iterdir()):
        return None, []
    if not (out / MARKER).exists():
        raise OutputFolderError(
            f"{name} is a folder compsem did not write (it has no {MARKER}); compsem replaces "
            f"only its own output, so {fix} or empty that folder yourself (compsem 0.1.0's "
            "exports and the models older versions converted have none either: delete such a "
            "folder yourself)."
        )
    marker = read_manifest(out)
    if marker["kind"] != kind and not (force and other_kinds):
        replace = f"{wording.force} to replace it, or " if other_kinds else ""
        raise OutputFolderError(
            f"{name} holds another kind of compsem output ({marker['kind']}), not the {kind} "
            f"this writes; {replace}{fix}."
        )
    dropped = sorted(set(map(str, marker.get("configs", []))) - set(configs or []))
    if configs is not None and dropped and not force:
        raise OutputFolderError(
            f"{name} holds configs {', '.join(dropped)} of {kind} that this build would "
            f"drop; build them too (omit --config to build all), pass --force to replace the "
            "export with only the configs named, or choose another --out."
        )
    foreign = foreign_paths(out, marker)
    changed = [path for path in foreign if path in marker["files"]]
    if changed:  # the manifest lists them, so the new folder would write them again
        raise OutputFolderError(
            f"{name} holds {describe(changed)}, which compsem wrote and you changed since; "
            f"compsem never replaces a changed file, --force included: {wording.away}."
        )
    if foreign and not force:
        raise OutputFolderError(
            f"{name} holds paths compsem did not write: {describe(foreign)}; compsem replaces "
            f"only what its manifest lists: {wording.away}, or {wording.force} to replace "
            "compsem's files and keep these in the new folder."
        )
    return marker, foreign


def remove_dead_staging(out: Path) -> None:
    """Remove the staging and retired folders beside ``out`` (of any target in that parent)
    left by processes that no longer run: only folders carrying compsem's owner token, or a
    manifest compsem signed. The registry's, wherever they are, go too
    (:func:`compsem.files.writers.sweep`)."""
    for path in Path(out).parent.glob(".*.partial-*"):
        remove_if_abandoned(path)
    for path in Path(out).parent.glob(".*.old-*-*"):
        remove_retired_beside(path)
    remove_stale_locks(Path(out).parent)
    sweep(retired=remove_retired, again=True)


def set_mode(folder: Path, like: Path | None) -> None:
    """``mkdtemp`` creates 0700 folders: keep the mode of the folder replaced, or give a new one
    the permissions the umask allows."""
    if like is not None and like.is_dir():
        os.chmod(folder, stat.S_IMODE(like.stat().st_mode))
        return
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(folder, 0o777 & ~umask)


def _disk_full(error: BaseException) -> bool:
    while error is not None:
        if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        error = error.__cause__ or error.__context__
    return False


@contextmanager
def atomic_folder(
    out: Path,
    marker: dict,
    *,
    force: bool = False,
    configs: list[str] | None = None,
    wording: Wording = OUT,
    other_kinds: bool = True,
):
    """Yield a fresh sibling folder; on success it replaces ``out`` with ``marker`` (completed
    with the manifest of what was written and a token, signed for ``out``) in it, on failure
    (or Ctrl-C) it vanishes and ``out`` is left as it was. The checks of
    :func:`check_output_folder` (with ``wording`` and ``other_kinds``) run again under the writer
    lock, before the block. ``out`` is resolved once (:func:`compsem.files.replace.resolved_out`)
    and everything else derives from that path."""
    out = resolved_out(out)
    checks = {"force": force, "configs": configs, "wording": wording, "other_kinds": other_kinds}
    check_output_folder(out, marker["kind"], **checks)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        parent = open_parent(out)
    except OSError as error:
        raise OutputFolderError(
            f"Cannot write to {out.parent} ({error.strerror}); choose an --out folder you can "
            "write to."
        ) from None
    try:
        with writer_lock(out):
            check_parent(out, parent)
            previous, foreign = check_output_folder(out, marker["kind"], **checks)
            remove_dead_staging(out)
            marker["token"] = new_token()
            with _staging(out, marker["token"]) as staging:
                yield staging
                (staging / OWNER_FILE).unlink()
                marker["files"], marker["folders"] = walk(staging)
                write_manifest(staging, marker, governs=out)
                set_mode(staging, out)
                if interrupted():  # a Ctrl-C that Python swallowed must not let the build finish
                    raise KeyboardInterrupt
                swap(out, staging, previous, foreign, parent)
                note_written(out)
    finally:
        os.close(parent)


@contextmanager
def _staging(out: Path, token: str):
    """A hidden staging folder beside ``out``, claimed (owner file) and registered for
    :func:`compsem.files.writers.sweep`; removed when the block ends, a full disk one error."""
    try:
        staging = Path(
            tempfile.mkdtemp(prefix=sibling(out, f"partial-{os.getpid()}-").name, dir=out.parent)
        )
        claim_folder(staging, token)
    except OSError as error:
        raise OutputFolderError(
            f"Cannot write to {out.parent} ({error.strerror}); choose an --out folder you "
            "can write to."
        ) from None
    entry = register("staging", staging)
    try:
        yield staging
    except Exception as error:
        if _disk_full(error):
            raise OutputFolderError(
                f"The disk holding {out.parent} is full; free some space or choose an --out "
                f"on another disk. {out} is as it was."
            ) from None
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        unregister(entry)
