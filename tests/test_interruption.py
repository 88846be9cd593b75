"""A killed or interrupted build leaves no process and no staging folder behind."""

import argparse
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest

from compsem.cli.program import interrupted_outcome
from compsem.files import ownership
from compsem.files.output_folder import atomic_folder, remove_dead_staging
from compsem.harness.results.files import write_text

pytestmark = pytest.mark.slow

SENTENCE = "The former president met a possible candidate near the old wooden bridge.\n"


STARTED: list[subprocess.Popen] = []


@pytest.fixture
def temporary():
    """The builds' TMPDIR: short, as multiprocessing's socket paths must fit in 108 bytes. A
    build a failed test left running is killed with its processes."""
    folder = Path(tempfile.mkdtemp(prefix="ci-", dir="/tmp"))
    yield folder
    while STARTED:
        process = STARTED.pop()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    shutil.rmtree(folder, ignore_errors=True)


def default_stop_signals() -> None:
    for stop in (signal.SIGINT, signal.SIGHUP):
        signal.signal(stop, signal.SIG_DFL)


def start_build(tmp_path, temporary):
    """A PLANE build parsing two text files in two worker processes, and its output path."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("a.txt", "b.txt"):
        (corpus / name).write_text(SENTENCE * 40_000)
    out = tmp_path / "plane"
    env = {**os.environ, "COMPSEM_CACHE": str(tmp_path / "cache"), "TMPDIR": str(temporary)}
    env["PYTHONFAULTHANDLER"] = "1"  # a SIGABRT prints every thread's stack: see stopped
    command = [sys.executable, "-m", "compsem.cli", "build", "plane", "--corpus", str(corpus)]
    command += ["--tasks", "2", "--workers", "2", "--out", str(out)]
    # Its own session, as a terminal's foreground job: Ctrl-C signals the whole process group.
    # A foreground job has Python's Ctrl-C handler and a closed terminal's SIGHUP even where
    # pytest itself runs in the background of a script (which ignores SIGINT) or under nohup
    # (which ignores SIGHUP), and would pass that on to the build, which keeps an ignored signal
    # ignored.
    process = subprocess.Popen(
        command,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_stop_signals,
    )
    STARTED.append(process)
    return process, out


def wait_for_workers(process, count=2, timeout=120) -> list[psutil.Process]:
    """The build's descendants once ``count`` of them parse (use CPU)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = psutil.Process(process.pid).children(recursive=True)
        busy = [child for child in children if cpu_percent(child) > 20]
        if len(busy) >= count:
            return children
        assert process.poll() is None, process.stderr.read()
    pytest.fail("the build's workers never started parsing")


def cpu_percent(child: psutil.Process) -> float:
    try:
        return child.cpu_percent(interval=0.2)
    except psutil.NoSuchProcess:  # a short-lived helper (the fork server's spawn) already ended
        return 0.0


def ignores(process: psutil.Process, stop: signal.Signals, mask: str = "SigIgn") -> bool:
    """Whether ``process`` ignores ``stop`` (Linux: the SigIgn mask of /proc/PID/status; with
    ``mask="SigBlk"``, whether its main thread blocks it)."""
    status = Path(f"/proc/{process.pid}/status").read_text()
    bits = next(line.split()[1] for line in status.splitlines() if line.startswith(mask + ":"))
    return bool(int(bits, 16) >> (stop - 1) & 1)


def stopped(process, timeout=180) -> str:
    """The stopped build's stderr, once it exits; if it does not within ``timeout`` seconds,
    fail with where each of its threads waits (faulthandler's dump on SIGABRT)."""
    try:
        return process.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        _, stderr = process.communicate(timeout=60)
        pytest.fail(f"the build did not exit {timeout} s after the stop:\n{stderr[-20_000:]}")


def assert_all_gone(processes, timeout=20):
    gone, alive = psutil.wait_procs(processes, timeout=timeout)
    assert not alive, f"still running: {[(p.pid, p.cmdline()[:3]) for p in alive]}"


def test_sigkill_leaves_no_worker_and_the_next_run_no_staging(tmp_path, temporary):
    process, out = start_build(tmp_path, temporary)
    descendants = wait_for_workers(process)
    assert any(tmp_path.glob(".plane.partial-*"))
    process.kill()
    process.wait()
    assert_all_gone(descendants)
    remove_dead_staging(out)  # what the next run into that parent does first
    assert not any(tmp_path.glob(".plane.*"))
    # multiprocessing's pymp-* folder sat in the killed command's own temporary folder, which
    # the next command removes.
    assert list(temporary.glob(f"compsem-{process.pid}-*/pymp-*"))
    next_command = "from compsem.pipeline.process_guard import private_tempdir; private_tempdir()"
    subprocess.run(
        [sys.executable, "-c", next_command],
        env={**os.environ, "TMPDIR": str(temporary)},
        check=True,
    )
    assert not list(temporary.iterdir())


def test_ctrl_c_prints_one_line_and_exits_130(tmp_path, temporary):
    process, out = start_build(tmp_path, temporary)
    descendants = wait_for_workers(process)
    # The command alone acts on Ctrl-C; a worker it stops would otherwise print a traceback.
    workers = [child for child in descendants if child.ppid() != process.pid]  # the server's
    assert len(workers) == 2 and all(ignores(worker, signal.SIGINT) for worker in workers)
    os.killpg(process.pid, signal.SIGINT)
    stderr = stopped(process)
    assert process.returncode == 130
    assert "Traceback" not in stderr
    last = stderr.strip().splitlines()[-1]
    assert last == f"compsem build: stopped; nothing was written to {out}."
    assert_all_gone(descendants)
    assert not out.exists() and not any(tmp_path.glob(".plane.*"))


@pytest.mark.parametrize(
    "stop, to_group, status",
    [
        (signal.SIGTERM, False, 143),  # kill, docker stop: the command alone
        (signal.SIGTERM, True, 143),  # timeout, Slurm: all its processes
        (signal.SIGHUP, True, 129),  # a closed terminal: its whole foreground job
    ],
    ids=["sigterm", "sigterm-group", "sighup-group"],
)
def test_sigterm_and_sighup_clean_up_as_ctrl_c_does(tmp_path, temporary, stop, to_group, status):
    process, out = start_build(tmp_path, temporary)
    descendants = wait_for_workers(process)
    assert list(temporary.glob(f"compsem-{process.pid}-*"))
    # The pool's processes ignore a closed terminal's SIGHUP as they do Ctrl-C; the fork server
    # blocks SIGTERM (the pool would ask a dying server for workers), its workers take it.
    workers = [child for child in descendants if child.ppid() != process.pid]
    servers = {psutil.Process(worker.ppid()) for worker in workers}
    assert len(servers) == 1 and ignores(*servers, signal.SIGTERM, "SigBlk")
    assert all(ignores(each, signal.SIGHUP) for each in (*servers, *workers))
    assert not any(
        ignores(worker, signal.SIGTERM, mask) for worker in workers for mask in ("SigBlk", "SigIgn")
    )
    if to_group:
        os.killpg(process.pid, stop)
    else:
        os.kill(process.pid, stop)
    stderr = stopped(process)
    assert process.returncode == status, stderr
    assert "Traceback" not in stderr
    last = stderr.strip().splitlines()[-1]
    assert last == f"compsem build: stopped by {stop.name}; nothing was written to {out}."
    assert_all_gone(descendants)
    # no staging folder, no lock, no temporary folder: nothing waits for a later run (torch
    # makes its compile cache, torchinductor_USER, in TMPDIR when it is imported)
    assert not out.exists() and not any(tmp_path.glob(".plane.*"))
    left = [p.name for p in temporary.iterdir() if not p.name.startswith("torchinductor_")]
    assert not left


# A command as compsem's main() runs one, whose guarded_map has two workers: one sleeps in its
# job, the other, done with its own, waits for another in inqueue.get(), holding the task
# queue's read lock. Past the stop deadline it says "cut short" and exits.
IDLE_POOL_COMMAND = """
import os, sys, time
from compsem.cli.program import end_at_once
from compsem.pipeline.process_guard import guarded_map, private_tempdir
from compsem.pipeline.stop_signals import clean_up_done, note_interrupts, stop_status

def cut_short():
    os.write(2, b"cut short\\n")
    os._exit(stop_status())

private_tempdir()
note_interrupts(cut_short=cut_short)
try:
    results = guarded_map(time.sleep, [0, 600], 2)
    next(results)
    print("one worker idle", flush=True)
    next(results)
except KeyboardInterrupt:
    pass
clean_up_done()
print("stopped", file=sys.stderr, flush=True)
end_at_once(stop_status())
"""


def test_a_job_wide_sigterm_meeting_an_idle_pool_worker_ends_the_command_at_once(temporary):
    """A SIGTERM sent to the whole job ends the pool's idle worker while it holds the task
    queue's read lock, which ``Pool.terminate`` then waited for: the command ran until its 30 s
    stop deadline cut it short. Now it kills its workers and frees that lock: the command ends
    in about 0.1 s and every process it started with it; 10 s leaves room for a loaded machine
    and still tells the two apart."""
    process = subprocess.Popen(
        [sys.executable, "-c", IDLE_POOL_COMMAND],
        env={**os.environ, "TMPDIR": str(temporary)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_stop_signals,
    )
    STARTED.append(process)
    ready, _, _ = select.select([process.stdout], [], [], 180)
    assert ready and process.stdout.readline() == "one worker idle\n", process.stderr.read()
    time.sleep(1)  # the worker that returned its result goes back to inqueue.get()
    descendants = psutil.Process(process.pid).children(recursive=True)
    assert len([child for child in descendants if child.ppid() != process.pid]) == 2
    started = time.monotonic()
    os.killpg(process.pid, signal.SIGTERM)
    stderr = stopped(process, timeout=60)
    took = time.monotonic() - started
    assert process.returncode == 143, stderr
    assert stderr.strip().splitlines() == ["stopped"]  # not cut short, no traceback or warning
    assert took < 10, f"the command ended {took:.1f} s after SIGTERM"
    assert_all_gone(descendants, timeout=10)
    assert not [p for p in temporary.iterdir() if not p.name.startswith("torchinductor_")]


def as_an_earlier_run(monkeypatch) -> None:
    """What this process wrote so far counts as an earlier run's."""
    monkeypatch.setattr(ownership, "_written", [])


def outcome(out: Path) -> str:
    return interrupted_outcome(argparse.Namespace(out=out))


def test_the_stop_message_names_what_this_run_wrote_and_only_that(tmp_path, monkeypatch):
    out = tmp_path / "runs"
    assert outcome(out) == f"nothing was written to {out}."
    write_text(out / "old.json", "{}")
    as_an_earlier_run(monkeypatch)
    assert outcome(out) == f"nothing was written to {out}."
    write_text(out / "train-a-seed1.json", "{}")
    write_text(out / "plots" / "a.svg", "<svg/>")
    with atomic_folder(out / "model-seed1", {"kind": "fine-tuned model"}) as staging:
        (staging / "config.json").write_text("{}")
    (out / "notes.txt").write_text("the user's, not compsem's")
    assert outcome(out) == (
        f"the files it wrote to {out} before the stop are complete and kept: model-seed1/, "
        "plots/a.svg, train-a-seed1.json."
    )


def test_the_stop_message_of_an_export_says_whether_it_was_replaced(tmp_path, monkeypatch):
    out = tmp_path / "export"
    with atomic_folder(out, {"kind": "montague export"}) as staging:
        (staging / "README.md").write_text("card")
    assert outcome(out) == f"{out} was written whole before the stop."
    as_an_earlier_run(monkeypatch)
    assert outcome(out) == f"the previous contents of {out} are intact."
