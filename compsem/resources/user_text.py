"""Reading a user's text file (a lexicon, a word list) with errors that name the file and line."""

from __future__ import annotations

from pathlib import Path


def read_user_text(path: str | Path, error: type[Exception]) -> str:
    """The text of ``path`` as UTF-8; a byte-order mark (as Excel and Notepad write) is dropped,
    so it cannot glue itself to the first word. Bytes that are not UTF-8 raise ``error`` naming
    the file, line and byte."""
    path = Path(path)
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        line = data[: problem.start].count(b"\n") + 1
        raise error(
            f"{path}, line {line}: byte 0x{data[problem.start]:02x} is not UTF-8; save the file "
            "as UTF-8 (most editors offer it under 'Save as' / encoding)."
        ) from None


def require_file(path: Path, error: type[Exception], fix: str) -> None:
    """Raise ``error`` (naming ``path`` and ``fix``) unless ``path`` is a regular file; a
    device such as /dev/zero or a folder is not "missing", so the message says which it is."""
    if not path.exists():
        raise error(f"{path} does not exist; {fix}.")
    if not path.is_file():
        raise error(f"{path} is not a regular file (a folder or a device); {fix}.")
