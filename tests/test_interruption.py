"""A killed or interrupted build leaves no process and no staging folder behind."""

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from compsem.output_folder import remove_dead_staging

pytestmark = pytest.mark.slow

SENTENCE = "The former president met a possible candidate near the old wooden bridge.\n"


def start_build(tmp_path):
    """A PLANE build parsing two text files in two worker processes, and its output path."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("a.txt", "b.txt"):
        (corpus / name).write_text(SENTENCE * 40_000)
    out = tmp_path / "plane"
    env = {**os.environ, "COMPSEM_CACHE": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "compsem.cli", "build", "plane", "--corpus", str(corpus)]
    command += ["--tasks", "2", "--workers", "2", "--out", str(out)]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    return process, out


def wait_for_workers(process, count=2, timeout=120) -> list[psutil.Process]:
    """The build's descendants once ``count`` of them parse (use CPU)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = psutil.Process(process.pid).children(recursive=True)
        busy = [child for child in children if child.cpu_percent(interval=0.2) > 20]
        if len(busy) >= count:
            return children
        assert process.poll() is None, process.stderr.read()
    pytest.fail("the build's workers never started parsing")


def assert_all_gone(processes, timeout=20):
    gone, alive = psutil.wait_procs(processes, timeout=timeout)
    assert not alive, f"still running: {[(p.pid, p.cmdline()[:3]) for p in alive]}"


def test_sigkill_leaves_no_worker_and_the_next_run_no_staging(tmp_path):
    process, out = start_build(tmp_path)
    descendants = wait_for_workers(process)
    assert any(tmp_path.glob(".plane.partial-*"))
    process.kill()
    process.wait()
    assert_all_gone(descendants)
    remove_dead_staging(out)  # what the next run into that parent does first
    assert not any(tmp_path.glob(".plane.*"))


def test_ctrl_c_prints_one_line_and_exits_130(tmp_path):
    process, out = start_build(tmp_path)
    descendants = wait_for_workers(process)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "Traceback" not in stderr
    last = stderr.strip().splitlines()[-1]
    assert last == f"compsem build: stopped; nothing was written to {out}."
    assert_all_gone(descendants)
    assert not out.exists() and not any(tmp_path.glob(".plane.*"))
