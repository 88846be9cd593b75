"""Keep freed memory inside the process while a model trains on CPU.

glibc serves each allocation above its mmap threshold (32 MB at most) from fresh pages and hands
them back to the kernel when the block is freed. A fine-tune frees and allocates its largest
gradients again on every step (MiniLM's word-embedding gradient is 47 MB), so every step faults
those pages in anew: 13-20 ms of a 105 ms MiniLM step on a 2-core machine. Taking them from the
heap, and not trimming the heap while training, keeps the pages; afterwards glibc's settings
come back and the heap is trimmed. This is what PyTorch's CPU performance guide gets from
preloading jemalloc or tcmalloc, without a preload. The arithmetic is unchanged; on a C library
other than glibc nothing is done.
"""

from __future__ import annotations

import ctypes
import sys
from contextlib import contextmanager

# mallopt parameters and glibc's defaults (malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_MAX = -4
GLIBC_DEFAULTS = {M_TRIM_THRESHOLD: 128 * 1024, M_MMAP_MAX: 65536}
NEVER_TRIM = 2**31 - 1  # mallopt takes an int


def _glibc():
    """The process's glibc, or None on another C library."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None)
    needed = ("gnu_get_libc_version", "mallopt", "malloc_trim")
    return libc if all(hasattr(libc, name) for name in needed) else None


@contextmanager
def freed_memory_kept():
    """While inside, large blocks come from the heap and the heap is never trimmed."""
    libc = _glibc()
    if libc is None:
        yield
        return
    libc.mallopt(M_MMAP_MAX, 0)
    libc.mallopt(M_TRIM_THRESHOLD, NEVER_TRIM)
    try:
        yield
    finally:
        for parameter, value in GLIBC_DEFAULTS.items():
            libc.mallopt(parameter, value)
        libc.malloc_trim(0)
