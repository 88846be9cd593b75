"""Fine-tuning on CPU keeps freed memory in the process, and gives glibc its settings back."""

import pytest

from compsem.harness.models import cpu_allocator


class RecordingLibc:
    def __init__(self):
        self.calls = []

    def mallopt(self, parameter, value):
        self.calls.append(("mallopt", parameter, value))
        return 1

    def malloc_trim(self, pad):
        self.calls.append(("malloc_trim", pad))
        return 1


def test_large_blocks_come_from_the_heap_inside_and_defaults_return_after(monkeypatch):
    libc = RecordingLibc()
    monkeypatch.setattr(cpu_allocator, "_glibc", lambda: libc)
    with cpu_allocator.freed_memory_kept():
        assert libc.calls == [
            ("mallopt", cpu_allocator.M_MMAP_MAX, 0),
            ("mallopt", cpu_allocator.M_TRIM_THRESHOLD, cpu_allocator.NEVER_TRIM),
        ]
    assert libc.calls[2:] == [
        ("mallopt", cpu_allocator.M_TRIM_THRESHOLD, 128 * 1024),
        ("mallopt", cpu_allocator.M_MMAP_MAX, 65536),
        ("malloc_trim", 0),
    ]


def test_defaults_return_when_training_fails(monkeypatch):
    libc = RecordingLibc()
    monkeypatch.setattr(cpu_allocator, "_glibc", lambda: libc)
    with pytest.raises(RuntimeError), cpu_allocator.freed_memory_kept():
        raise RuntimeError("out of memory")
    assert libc.calls[-1] == ("malloc_trim", 0)


def test_without_glibc_nothing_is_called(monkeypatch):
    monkeypatch.setattr(cpu_allocator, "_glibc", lambda: None)
    with cpu_allocator.freed_memory_kept():
        pass


def test_on_glibc_a_block_above_every_mmap_threshold_is_served_and_freed_inside():
    import torch

    assert cpu_allocator._glibc() is not None
    with cpu_allocator.freed_memory_kept():
        block = torch.ones(16 * 1024 * 1024)  # 64 MB: above every mmap threshold
        del block
        block = torch.ones(16 * 1024 * 1024)
    assert float(block.sum()) == 16 * 1024 * 1024
