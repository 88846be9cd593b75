"""The hint ``compsem baselines`` and ``compsem demo`` print before long CPU runs on a busy
machine, and its silence where it has nothing to say."""

import os

import pytest

from compsem.cli.demo import check_baseline_targets
from compsem.harness.models import device


@pytest.fixture
def machine(monkeypatch):
    """Pretend to be a machine with ``cores`` cores at a 1-minute load average of ``load``."""

    def set_machine(cores: int, load: float, omp: str | None = None):
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)))
        monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
        if omp is None:
            monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
        else:
            monkeypatch.setenv("OMP_NUM_THREADS", omp)

    return set_machine


def test_a_busy_machine_gets_the_one_thread_hint(machine):
    machine(cores=2, load=3.4)
    hint = device.busy_cpu_hint()
    assert "load average 3.4 on 2 cores" in hint and "OMP_NUM_THREADS=1" in hint


@pytest.mark.parametrize(
    "cores, load, omp",
    [(2, 0.4, None), (1, 5.0, None), (2, 3.4, "2"), (16, 0.9, None)],
    ids=["quiet", "one core", "threads chosen", "below one core's load"],
)
def test_no_hint_where_the_default_is_right_or_chosen(machine, cores, load, omp):
    machine(cores=cores, load=load, omp=omp)
    assert device.busy_cpu_hint() is None


def test_the_baselines_preflight_prints_the_hint(machine, tmp_path, capsys):
    machine(cores=2, load=3.4)
    check_baseline_targets([], tmp_path / "exports", [], tmp_path / "runs", quick=True)
    assert "OMP_NUM_THREADS=1" in capsys.readouterr().err
