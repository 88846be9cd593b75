"""Where compsem writes: the checks that keep a user's data safe, and atomic replacement.

compsem deletes only what compsem wrote. Every folder it replaces as a whole (a benchmark export,
an embedding report) carries a marker file, :data:`MARKER`, naming what wrote it; ``--out`` must
be a new path, an empty folder or such a folder. Anything else (a file, the working directory or
one of its parents, the home folder, a folder without the marker) is refused before any work,
``--force`` included: ``--force`` only lets one compsem folder replace another of a different
kind, or an export lose configs it held.

Replacement is atomic: the new contents are written to a hidden sibling staging folder named
after the writing process (``.NAME.partial-PID-XXXX``) that replaces the target only once
complete, so an interrupted build leaves the previous folder intact. Staging folders of
processes that are gone (killed runs) are removed by the next run into the same parent.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from compsem.process_guard import process_alive

MARKER = ".compsem-export.json"


class OutputFolderError(ValueError):
    """``--out`` names something compsem must not replace: the message says what to do."""


def output_path(text: str) -> Path:
    """An ``--out`` argument: refuses an empty string, which ``Path`` would read as ``.``."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; name a new folder, e.g. --out hub/plane")
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
    """What wrote ``folder`` (its :data:`MARKER`), or None when compsem did not write it."""
    try:
        return json.loads((Path(folder) / MARKER).read_text())
    except (OSError, ValueError):
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


def check_output_folder(
    out: Path, kind: str, *, force: bool = False, configs: list[str] | None = None
) -> None:
    """Refuse ``out`` unless it is a new path, an empty folder or a compsem folder of ``kind``.

    ``configs``: the configs about to be written; replacing an export that holds others is
    refused unless ``force`` (the user asked for a subset, not to lose the rest).
    """
    out = Path(out).resolve()
    fix = "choose a new folder for --out"
    reason = protected_reason(out)
    if reason:
        raise OutputFolderError(f"--out {out} {reason}; compsem never replaces it: {fix}.")
    blocking = next((p for p in out.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise OutputFolderError(f"--out {out} lies inside {blocking}, which is a file; {fix}.")
    if not out.exists():
        return
    if not out.is_dir():
        raise OutputFolderError(f"--out {out} is a file, not a folder; {fix}.")
    if not any(out.iterdir()):
        return
    marker = read_marker(out)
    if marker is None:
        raise OutputFolderError(
            f"--out {out} is a folder compsem did not write (it has no {MARKER}); compsem "
            f"replaces only its own output, so {fix} or empty that folder yourself (an export "
            "written by compsem 0.1.0 has no marker either: delete it yourself)."
        )
    if marker.get("kind") != kind and not force:
        raise OutputFolderError(
            f"--out {out} holds a compsem {marker.get('kind')}, not a {kind}; pass --force to "
            f"replace it, or {fix}."
        )
    dropped = sorted(set(marker.get("configs", [])) - set(configs or []))
    if configs is not None and dropped and not force:
        raise OutputFolderError(
            f"--out {out} holds configs {', '.join(dropped)} of {kind} that this build would "
            f"drop; build them too (omit --config to build all), pass --force to replace the "
            "export with only the configs named, or choose another --out."
        )


def remove_dead_staging(out: Path) -> None:
    """Remove the staging folders of ``out`` left by processes that no longer run."""
    pattern = re.compile(rf"\.{re.escape(out.name)}\.(?:partial|old)-(\d+)(?:-.*)?")
    for path in out.parent.glob(f".{out.name}.*"):
        match = pattern.fullmatch(path.name)
        if match and path.is_dir() and not process_alive(int(match.group(1))):
            shutil.rmtree(path, ignore_errors=True)


def readable_by_others(folder: Path) -> None:
    """``mkdtemp`` creates 0700 folders; give the export the permissions the umask allows."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(folder, 0o777 & ~umask)


@contextmanager
def atomic_folder(out: Path, marker: dict):
    """Yield a fresh sibling folder; on success it replaces ``out`` with ``marker`` written in
    it, on failure (or Ctrl-C) it vanishes and ``out`` is left as it was."""
    out = Path(out).resolve()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        remove_dead_staging(out)
        staging = Path(
            tempfile.mkdtemp(prefix=f".{out.name}.partial-{os.getpid()}-", dir=out.parent)
        )
    except OSError as error:
        raise OutputFolderError(
            f"Cannot write to {out.parent} ({error.strerror}); choose an --out folder you can "
            "write to."
        ) from None
    try:
        yield staging
        (staging / MARKER).write_text(json.dumps(marker, indent=2, sort_keys=True) + "\n")
        readable_by_others(staging)
        if out.exists():
            retired = out.with_name(f".{out.name}.old-{os.getpid()}")
            os.replace(out, retired)
            os.replace(staging, out)
            shutil.rmtree(retired)
        else:
            os.replace(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
