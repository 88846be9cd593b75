"""Worker processes die with the command that started them.

datatrove's local executor runs tasks in a ``multiprocess`` pool whose workers are children of a
fork server, next to a manager process forked from the command. When the command is killed
(SIGKILL, a closed terminal, an out-of-memory kill) none of them is told: each worker would go on
parsing, holding its spaCy pipeline, under PID 1. Linux's parent-death signal closes that gap:
a process that sets it is killed when its parent dies. The fork server exits by itself once the
command is gone (its pipe closes), which then kills the workers that set the signal.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path

import multiprocess

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent: int | None = None) -> None:
    """Have the kernel SIGKILL this process when its parent dies (Linux; elsewhere a no-op).

    ``parent``: the pid the parent had; if it is already gone (it died between the fork and
    this call), exit at once.
    """
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def exit_with_command() -> None:
    """In a pool worker: exit as soon as the command that started it is gone.

    A worker started by the fork server is the server's child, not the command's, and holds the
    server's lifeline itself, so neither dies of the other: the parent-death signal never fires.
    multiprocess gives each worker a sentinel of its logical parent (the command) that closes
    when the command dies; a daemon thread waits on it.
    """
    parent = multiprocess.parent_process()
    if parent is None or _watching:
        return
    _watching.append(parent.pid)

    def watch() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=watch, name="compsem-exit-with-command", daemon=True).start()


_watching: list[int] = []


_guarded: set[int] = set()


def guard_forked_children() -> None:
    """Every process this one forks from now on dies with it (the pool's manager process)."""
    command = os.getpid()
    if command not in _guarded:  # os.register_at_fork cannot unregister: register once
        _guarded.add(command)
        os.register_at_fork(after_in_child=lambda: die_with_parent(command))


def private_tempdir() -> Path:
    """Point this process's (and its children's) temporary files at ``<tmp>/compsem-PID-*``.

    multiprocessing's ``pymp-*`` folders, datasets' scratch files and the like are removed by the
    code that made them, unless the process is killed. Kept under one folder made by this
    process, they go with it at exit, and the next command removes the folders that carry
    compsem's token (:func:`claim_folder`) of processes that no longer run; a folder merely
    named like one is left alone.
    """
    base = Path(tempfile.gettempdir())
    for folder in base.glob("compsem-*-*"):
        remove_if_abandoned(folder)
    folder = Path(tempfile.mkdtemp(prefix=f"compsem-{os.getpid()}-", dir=base))
    claim_folder(folder)
    tempfile.tempdir = str(folder)
    os.environ["TMPDIR"] = str(folder)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


OWNER_FILE = ".compsem-owner.json"


def claim_folder(folder: Path, token: str = "") -> None:
    """Mark a scratch folder this process just made as its own: :data:`OWNER_FILE` holds the
    pid, the folder's name (it must still match) and a token."""
    owner = {"pid": os.getpid(), "name": folder.name, "token": token}
    (folder / OWNER_FILE).write_text(json.dumps(owner))


def remove_if_abandoned(folder: Path) -> bool:
    """Remove ``folder`` if it carries :data:`OWNER_FILE` for its own name, written by a process
    that no longer runs; anything else is left alone."""
    try:
        owner = json.loads((folder / OWNER_FILE).read_text())
        pid, name = owner["pid"], owner["name"]
    except (OSError, ValueError, TypeError, KeyError):
        return False
    if folder.is_symlink() or name != folder.name or not isinstance(pid, int) or pid <= 0:
        return False
    if process_alive(pid):
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True


_interrupted: list[bool] = []


def note_interrupts() -> None:
    """Remember every Ctrl-C, even one Python swallows (raised inside a ``__del__`` during
    garbage collection it is only printed as "Exception ignored"), so that a writer can check
    :func:`interrupted` before its final rename."""

    def handler(signum, frame):
        _interrupted.append(True)
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, handler)


def interrupted() -> bool:
    return bool(_interrupted)


def process_alive(pid: int) -> bool:
    """Whether a process with this pid runs (someone else's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
