"""Where a model runs and in which precision: bf16 on GPUs that have it, fp16 on other GPUs,
fp32 on CPU. Chosen automatically, overridable with ``--device`` and ``--precision``."""

from __future__ import annotations

import os
from dataclasses import dataclass

DEVICES = ("auto", "cpu", "cuda", "mps")
PRECISIONS = ("auto", "fp32", "bf16", "fp16")


def add_device_arguments(parser) -> None:
    """``--device`` and ``--precision``, as every command that runs a model takes them."""
    parser.add_argument(
        "--device", choices=DEVICES, default="auto", help="auto: cuda, else mps, else cpu"
    )
    parser.add_argument(
        "--precision",
        choices=PRECISIONS,
        default="auto",
        help="auto: bf16 on GPUs that have it, fp16 on other GPUs, fp32 on CPU",
    )


@dataclass(frozen=True)
class Placement:
    """A device (``cpu``, ``cuda``, ``mps``) and a precision (``fp32``, ``bf16``, ``fp16``)."""

    device: str
    precision: str

    @property
    def dtype(self):
        import torch  # torch takes seconds to import: only commands that run a model pay for it

        return {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[
            self.precision
        ]

    def describe(self) -> str:
        if self.device == "cuda":
            import torch  # torch takes seconds to import: only commands that run a model pay for it

            return f"{torch.cuda.get_device_name(0)} ({self.precision})"
        return f"{self.device} ({self.precision})"


def _available(device: str) -> bool:
    import torch  # here, so `compsem --help` does not pay for it

    if device == "cuda":
        return torch.cuda.is_available()
    if device == "mps":
        return torch.backends.mps.is_available()
    return True


def resolve(device: str = "auto", precision: str = "auto") -> Placement:
    """The placement for the requested device and precision; raises if one is unavailable."""
    if device not in DEVICES:
        raise ValueError(f"unknown device {device!r}; choose one of {', '.join(DEVICES)}")
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision {precision!r}; choose one of {', '.join(PRECISIONS)}")
    if device == "auto":
        device = next(d for d in ("cuda", "mps", "cpu") if _available(d))
    elif not _available(device):
        raise RuntimeError(
            f"--device {device} was requested but torch sees no {device.upper()} device; "
            "use --device auto or cpu"
        )
    import torch  # torch takes seconds to import: only commands that run a model pay for it

    if precision == "auto":
        if device == "cuda":
            precision = "bf16" if torch.cuda.is_bf16_supported() else "fp16"
        else:
            precision = "fp32"
    if device == "cpu" and precision == "fp16":
        raise ValueError("fp16 is not supported on CPU; use --precision fp32 or bf16")
    if device == "cuda" and precision == "bf16" and not torch.cuda.is_bf16_supported():
        raise RuntimeError(f"{torch.cuda.get_device_name(0)} has no bf16; use --precision fp16")
    return Placement(device, precision)


def out_of_memory(
    model: str, placement: Placement, batch_size: int, max_length: int
) -> RuntimeError:
    """The message for a model that does not fit."""
    return RuntimeError(
        f"{model} does not fit in {placement.describe()} memory at batch size {batch_size} and "
        f"max length {max_length}: lower --batch-size or --max-length, pick a smaller model, or "
        "run on a device with more memory"
    )


def busy_cpu_hint() -> str | None:
    """A hint for a long CPU job started while other jobs keep the machine busy, where the user
    left PyTorch its default of one thread per core. Each parallel step then waits for the
    thread whose core another job holds: on a 2-core machine a MiniLM training step took 2-4 s
    with two threads beside other jobs, against 0.08 s idle and 0.16 s with one thread beside
    the same jobs (README, Reference baselines). On a quiet machine two threads are faster, so
    the hint leaves the choice to the user. None when OMP_NUM_THREADS is set, on one core, or
    below one core's load."""
    if os.environ.get("OMP_NUM_THREADS") or not hasattr(os, "getloadavg"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0]
    if not cores or cores == 1 or load < 1:
        return None
    return (
        f"The CPU is busy (load average {load:.1f} on {cores} cores) and PyTorch will run "
        f"{cores} threads, which stall while other jobs hold a core. If those jobs keep running, "
        "stop this one and rerun it with OMP_NUM_THREADS=1 in front: many times faster then. "
        "On a quiet machine the default is faster."
    )
