"""What every command needs of its surroundings, checked before any work: a working directory
that still exists, and cache folders (``COMPSEM_CACHE``, ``HF_HOME`` and the like) that are
folders compsem can write into.

Without these checks the first file operation that meets the problem fails with the raw error
text of the operating system ("[Errno 2] No such file or directory"), or worse, a misleading
one (a cache that is a file reads as "WordNet was not found"). Each problem is one
``EnvironmentProblem`` (a ``ValueError``) naming the variable or folder and the fix.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

# Cache folders compsem or the Hugging Face libraries write into, when the user sets them.
CACHE_VARIABLES = (
    "COMPSEM_CACHE",
    "XDG_CACHE_HOME",
    "HF_HOME",
    "HF_DATASETS_CACHE",
    "HF_HUB_CACHE",
    "HF_EVALUATE_CACHE",
)


class EnvironmentProblem(ValueError):
    """The working directory or a cache variable cannot be used; the message says the fix."""


def check_working_directory() -> Path:
    """The working directory, or one EnvironmentProblem when it was deleted or cannot be read."""
    try:
        return Path(os.getcwd())
    except FileNotFoundError:
        raise EnvironmentProblem(
            "the working directory no longer exists (deleted or moved while the shell was in "
            "it): cd into an existing folder and run the command again."
        ) from None
    except PermissionError:
        raise EnvironmentProblem(
            "the working directory cannot be read (a folder above it lacks the x permission): "
            "cd into a folder you can use, or chmod u+x the folders above it."
        ) from None


def check_cache_folder(variable: str, value: str) -> None:
    """One EnvironmentProblem unless ``value`` is a folder compsem can write into, or a path
    compsem can create as one (its nearest existing folder writable)."""
    fix = f"point {variable} at a folder you can write to, or unset it"
    if not value.strip():
        raise EnvironmentProblem(f"{variable} is set but empty: {fix}.")
    if "\x00" in value:
        raise EnvironmentProblem(f"{variable} holds a NUL byte: {fix}.")
    path = Path(value).expanduser()
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        where = "is" if existing == path else f"lies under {existing}, which is"
        raise EnvironmentProblem(f"{variable}={value} {where} a file, not a folder: {fix}.")
    if not os.access(existing, os.W_OK | os.X_OK):
        where = "" if existing == path else f" (its folder {existing})"
        raise EnvironmentProblem(
            f"{variable}={value}{where} is not writable by you: chmod u+wx it, or {fix}."
        )
    try:  # access() answers yes for root everywhere: /proc or a read-only mount say no only now
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError as error:
        raise EnvironmentProblem(
            f"{variable}={value} cannot be written ({error.strerror}): {fix}."
        ) from None


def check_environment() -> None:
    """Every check above, for the variables that are set."""
    check_working_directory()
    for variable in CACHE_VARIABLES:
        if variable in os.environ:
            check_cache_folder(variable, os.environ[variable])


def describe_os_error(error: OSError) -> str:
    """One line for an error of the operating system that reached a command: the path, the
    problem in words and the fix, rather than ``[Errno 13] Permission denied: '...'``."""
    path = error.filename if error.filename is not None else "a file"
    reason = error.strerror or str(error)
    if isinstance(error, PermissionError):
        return (
            f"{path}: permission denied (on it, or a folder above it lacks the x permission): "
            "give yourself access (chmod u+rwx on its folders) or use another path."
        )
    if isinstance(error, FileNotFoundError):
        return f"{path}: no such file or folder ({reason}): check the path and run again."
    if isinstance(error, NotADirectoryError):
        return f"{path}: a part of the path is a file, not a folder: use another path."
    if error.errno == errno.ENAMETOOLONG:
        return f"{path}: a name in the path is too long for the file system: choose a shorter one."
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"{path}: the disk is full (or your quota is spent): free space and run again."
    if error.filename is None:
        return str(error)
    return f"{path}: {reason}; check the path (or free space) and run again."
