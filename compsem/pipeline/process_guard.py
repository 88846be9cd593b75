"""Worker processes die with the command that started them, a stopped command cleans up, and
scratch folders are removed only once their owner is surely gone.

datatrove's local executor runs tasks in a ``multiprocess`` pool whose workers are children of a
fork server, next to a manager process forked from the command. When the command is killed
(SIGKILL, an out-of-memory kill) none of them is told: each worker would go on parsing, holding
its spaCy pipeline, under PID 1. Linux's parent-death signal closes that gap: a process that sets
it is killed by the kernel when its parent dies. The manager sets it towards the command, the
fork server too, and each worker towards the fork server (:func:`guard_forked_children`).

SIGTERM (``kill``, ``timeout``, ``docker stop``, Slurm) and SIGHUP (a closed terminal) stop a
command as Ctrl-C does (:func:`compsem.pipeline.stop_signals.note_interrupts`): every clean-up
runs, and it exits with 128 + the signal's number. Sent to the whole job, they reach the pool's
processes too, which take them only where that cannot hang the command's clean-up
(:func:`guard_fork_server`).
"""

from __future__ import annotations

import atexit
import ctypes
import importlib
import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path

import multiprocess
import multiprocess.pool

from compsem.files.bounded_read import read_json

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
    server's lifeline itself, so neither dies of the other unless the server was started with
    :func:`guard_forked_children`'s preload. Else, multiprocess gives each worker a sentinel of
    its logical parent (the command) that closes when the command dies; a daemon thread waits on
    it (once the worker's main thread lets go of the GIL).
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


COMMAND_PID = "COMPSEM_COMMAND_PID"
FORK_SERVER_GUARD = "compsem.pipeline.fork_server_guard"


def guarded_map(function: Callable, jobs: Sequence, workers: int) -> Iterator:
    """``function`` of each of ``jobs``, in their order, on up to ``workers`` processes of the
    fork server (in this process when one is enough). The workers die with the command, as
    datatrove's do (:func:`guard_forked_children`), and leaving the iteration early (Ctrl-C, a
    stop signal, an error) kills them (:func:`_end_workers`). ``function`` must be importable by
    name (a module's top level)."""
    workers = min(workers, len(jobs))
    if workers <= 1:
        yield from map(function, jobs)
        return
    guard_forked_children()
    with multiprocess.get_context("forkserver").Pool(workers) as pool:  # exit: pool.terminate()
        try:
            yield from pool.imap(partial(_in_worker, function), jobs)
        except BaseException:
            _end_workers(pool)
            raise


def _end_workers(pool) -> None:
    """Kill ``pool``'s workers and do what ``terminate`` would wait for a dead worker to do.

    A worker waiting for a task holds the task queue's read lock (in ``inqueue.get()``). A
    SIGTERM sent to the whole job (``timeout``, Slurm) can end it so, and then no process can
    release that lock: ``terminate`` takes it before it drains the queue
    (``Pool._help_stuff_finish``) and waited for ever (cut short by the command's 30 s stop
    deadline). So the pool stops replacing workers, all of them are killed and reaped, the task
    queue is drained raw while the pool's thread that feeds it ends (a killed worker may have
    read half a task), and the lock, which only workers take, is freed for ``terminate``.
    """
    for thread in (pool._worker_handler, pool._task_handler):
        thread._state = multiprocess.pool.TERMINATE  # as terminate does first
    pool._change_notifier.put(None)  # wakes the worker handler, which then starts no more
    pool._worker_handler.join(timeout=10)
    for worker in list(pool._pool):
        worker.kill()  # SIGKILL; nothing if it already ended
    for worker in list(pool._pool):
        worker.join(timeout=10)
    if any(worker.exitcode is None for worker in pool._pool):
        return  # one outlived SIGKILL (not yet reaped): its lock may be its own
    reader, ends = pool._inqueue._reader, time.monotonic() + 10
    while pool._task_handler.is_alive() and time.monotonic() < ends:
        if reader.poll(0.05):  # the feeding thread may wait on a full pipe
            os.read(reader.fileno(), 1 << 16)
    lock = pool._inqueue._rlock
    lock.acquire(block=False)  # taken if free, else still held by a dead worker: held now,
    lock.release()  # and free for terminate


def _in_worker(function: Callable, job):
    exit_with_command()
    return function(job)


def guard_forked_children() -> None:
    """Every process this one forks from now on dies with it (the pool's manager process), and
    so does a fork server it starts from now on, with the workers that server forks.

    The fork server learns that the command is gone when a pipe closes, but each worker it
    forks holds a copy of that pipe's end: while a worker lives the server never exits, and a
    worker's own watch (:func:`exit_with_command`) starts only once its task runs and needs the
    GIL, which a worker holds for tens of seconds while it imports and loads spaCy. So the
    server imports :mod:`compsem.pipeline.fork_server_guard` first (``multiprocess``'s preload), which
    has the kernel kill it when the command dies and kill each worker when the server dies.
    (The kernel's signal follows the thread that started a process: pools start from the main
    thread.)
    """
    command = os.getpid()
    if command not in _guarded:  # os.register_at_fork cannot unregister: register once
        _guarded.add(command)
        os.register_at_fork(after_in_child=lambda: die_with_parent(command))
    os.environ[COMMAND_PID] = str(command)
    _resource_tracker_ignores_sighup()
    for server in _fork_servers():
        preload = list(getattr(server, "_preload_modules", ["__main__"]))
        if FORK_SERVER_GUARD not in preload:
            server.set_forkserver_preload([FORK_SERVER_GUARD, *preload])


def _fork_servers() -> list:
    """The fork servers of ``multiprocess`` and ``multiprocessing`` (a preload applies to one
    started later)."""
    servers = []
    for name in ("multiprocess.forkserver", "multiprocessing.forkserver"):
        try:
            server = getattr(importlib.import_module(name), "_forkserver", None)
        except ImportError:  # no fork server on this platform
            continue
        if server is not None and hasattr(server, "set_forkserver_preload"):
            servers.append(server)
    return servers


def _resource_tracker_ignores_sighup() -> None:
    """Have the resource tracker the command starts from now on survive SIGHUP, as it survives
    SIGINT and SIGTERM: it starts with the signals it ignores blocked, and unblocks only SIGINT
    and SIGTERM. Killed by a closed terminal's SIGHUP, it would be started again, without its
    records, while the command cleans up, and print errors."""
    for name in ("multiprocess.resource_tracker", "multiprocessing.resource_tracker"):
        try:
            tracker = importlib.import_module(name)
        except ImportError:
            continue
        ignored = getattr(tracker, "_IGNORED_SIGNALS", None)
        if (
            isinstance(ignored, tuple)
            and hasattr(signal, "SIGHUP")
            and signal.SIGHUP not in ignored
        ):
            tracker._IGNORED_SIGNALS = (*ignored, signal.SIGHUP)


def guard_fork_server() -> None:
    """In a fork server the command started (:func:`guard_forked_children`): die with the
    command, have every process this server forks die with it, and have those workers ignore
    Ctrl-C and a closed terminal's SIGHUP. Anywhere else: nothing.

    Ctrl-C signals every process of the terminal's foreground job, but only the command stops
    on it: leaving the pool, it terminates the workers (SIGTERM), then shuts the pool's manager
    down. A worker that took the SIGINT too would raise KeyboardInterrupt mid-task and, in
    datatrove's clean-up, call that manager as it shuts down, printing the failed call's
    traceback beside the command's one line. The server hands its children the SIGINT handler
    it had before its main loop (which ignores SIGINT itself) and this preload runs first.

    A closed terminal's SIGHUP, too, reaches the whole job: the server and its workers ignore
    it as they do Ctrl-C. SIGTERM is the pool's own way to end its workers, so a worker takes
    it, but the server blocks it (blocked, not ignored: a worker, which unblocks it as soon as
    it is forked, loses none sent meanwhile). Were the server killed by a SIGTERM sent to the
    whole job (``timeout``, Slurm), the pool would ask it for replacement workers as it dies,
    and the pool's thread that asks would die of the refused connection without ending the
    others: the command, leaving the pool, would wait for ever. A worker that such a SIGTERM
    ends while it waits for work leaves the pool's task-queue lock held, which
    :func:`guarded_map` frees once it has killed the workers. The server dies with the command.
    """
    command = os.environ.get(COMMAND_PID, "")
    if not command.isdigit() or int(command) != os.getppid():
        return
    die_with_parent(int(command))
    server = os.getpid()

    def in_worker() -> None:
        die_with_parent(server)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

    os.register_at_fork(after_in_child=in_worker)
    for stop in (signal.SIGINT, signal.SIGHUP):
        signal.signal(stop, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})


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
    _private.append(folder)
    atexit.register(remove_private_tempdir)
    return folder


_private: list[Path] = []


def remove_private_tempdir() -> None:
    """Remove this process's temporary folder (:func:`private_tempdir`): at exit, or by a
    command that must exit at once."""
    while _private:
        shutil.rmtree(_private.pop(), ignore_errors=True)


OWNER_FILE = ".compsem-owner.json"


def _pid_namespace() -> int | None:
    """The inode of this process's PID namespace: pids mean the same process only within one."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return None


def _boot_id() -> str | None:
    """This boot of this kernel (Linux): start times count clock ticks since it."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip() or None
    except OSError:
        return None


def _start_time(pid: int) -> int | None:
    """When process ``pid`` started, in clock ticks since boot (field 22 of ``/proc/PID/stat``),
    or None where that cannot be read (no such process, no ``/proc``)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return int(stat[stat.rindex(")") + 2 :].split()[19])  # the name in (…) may hold spaces
    except (OSError, ValueError, IndexError):
        return None


def _this_machine() -> dict:
    """Where a pid is meaningful: this host, this boot and this PID namespace."""
    return {"host": socket.gethostname(), "boot": _boot_id(), "pidns": _pid_namespace()}


def claim_folder(folder: Path, token: str = "") -> None:
    """Mark a scratch folder this process just made as its own: :data:`OWNER_FILE` holds the
    pid, the folder's name (it must still match) and a token, and what makes the pid this
    process's: the host, the boot and the PID namespace it runs in, and its start time.

    The folder is scratch: everything in it is written by the owning run (its workers,
    datatrove, datasets), and nothing records file by file what that was, as no record survives
    a SIGKILL. So once the owner is gone compsem cannot tell a file the run wrote from one put
    there afterwards (the time the run ended is unknown), and removes the folder whole: a file
    a user puts into compsem's hidden ``.NAME.partial-PID-XXXX`` or ``compsem-PID-XXXX`` folder,
    made private (0700) to its owner, goes with it. Every other folder is left alone.
    """
    owner = {"name": folder.name, "token": token, **this_process()}
    (folder / OWNER_FILE).write_text(json.dumps(owner))


def this_process() -> dict:
    """What names this process for :func:`owner_gone`: its pid and start time, and the host,
    boot and PID namespace in which they mean it."""
    pid = os.getpid()
    return {"pid": pid, "start": _start_time(pid), **_this_machine()}


def remove_if_abandoned(folder: Path) -> bool:
    """Remove ``folder`` if it carries :data:`OWNER_FILE` for its own name, written by a process
    that no longer runs; anything else is left alone (see :func:`claim_folder`).

    A pid names a process only on one host, in one PID namespace, in one boot: a folder claimed
    by a process on another host (a shared or network file system) or in another container is
    never removed, since whether its owner still runs cannot be known; one claimed on this host
    before a reboot is, as no process outlives a reboot. Otherwise the owner is gone when its
    pid runs no process, or one that started at another time (the pid was reused). An owner
    file of an older compsem (pid, name and token only) is judged by its pid alone."""
    return remove_claimed(folder, owner_gone)


def remove_claimed(folder: Path, whose: Callable[[dict], bool]) -> bool:
    """Remove ``folder`` if it carries :data:`OWNER_FILE` for its own name, written by a process
    ``whose`` accepts (:func:`owner_gone`, :func:`is_this_process`); anything else is left
    alone."""
    try:
        owner = read_json(folder / OWNER_FILE, "marker")  # never blocks on a FIFO
        name = owner["name"]
    except (OSError, ValueError, TypeError, KeyError):
        return False
    if folder.is_symlink() or name != folder.name or not whose(owner):
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True


def is_this_process(owner) -> bool:
    """Whether ``owner`` (:func:`this_process`'s fields) names this very process."""
    return isinstance(owner, dict) and all(
        owner.get(key) == value for key, value in this_process().items()
    )


def owner_gone(owner) -> bool:
    """Whether the process ``owner`` names (:func:`this_process`'s fields) surely no longer
    runs: False where that cannot be known (another host or PID namespace, no valid pid)."""
    pid = owner.get("pid") if isinstance(owner, dict) else None
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return False
    here = _this_machine()
    if owner.get("host", here["host"]) != here["host"]:
        return False
    if owner.get("boot", here["boot"]) != here["boot"]:  # this host rebooted: its owner is gone
        return True
    if owner.get("pidns", here["pidns"]) != here["pidns"]:
        return False
    start = owner.get("start")
    return not owner_runs(
        pid, start if isinstance(start, int) and not isinstance(start, bool) else None
    )


def owner_runs(pid: int, start: int | None = None) -> bool:
    """Whether the process ``pid`` (of this machine) that started at ``start`` (clock ticks
    since boot; None: any) still runs."""
    if not process_alive(pid):
        return False
    if start is None:
        return True
    now = _start_time(pid)
    return now is None or now == start


def process_alive(pid: int) -> bool:
    """Whether a process with this pid runs (someone else's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
