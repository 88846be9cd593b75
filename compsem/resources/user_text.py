"""Reading a user's text file (a lexicon, a word list) with errors that name the file and line."""

from __future__ import annotations

import re
from pathlib import Path

from compsem.files.bounded_read import UnreadableFile, decode, read_bytes

# Control characters a word can never hold (tab, line feed and carriage return separate fields
# and lines): a NUL or an escape written into an export would corrupt every file that names it.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def read_user_text(path: str | Path, error: type[Exception]) -> str:
    """The text of ``path`` as UTF-8, read bounded (a regular file under the lexicon cap, see
    :mod:`compsem.files.bounded_read`); a byte-order mark (as Excel and Notepad write) is
    dropped, so it cannot glue itself to the first word. Bytes that are not UTF-8, or a control
    character (a NUL byte, an escape), raise ``error`` naming the file, line and character."""
    path = Path(path)
    try:
        text = decode(read_bytes(path, "lexicon"), path)
    except UnreadableFile as problem:
        raise error(str(problem)) from None
    control = _CONTROL.search(text)
    if control:
        line = text.count("\n", 0, control.start()) + 1
        word = text[text.rfind("\n", 0, control.start()) + 1 : control.start()].split("\t")[-1]
        raise error(
            f"{path}, line {line}: the control character {control.group()!r} follows "
            f"{word[-40:]!r}; a word cannot hold one: remove it from the file."
        )
    return text


def require_file(path: Path, error: type[Exception], fix: str) -> None:
    """Raise ``error`` (naming ``path`` and ``fix``) unless ``path`` is a regular file; a
    device such as /dev/zero or a folder is not "missing", so the message says which it is."""
    if not path.exists():
        raise error(f"{path} does not exist; {fix}.")
    if not path.is_file():
        raise error(f"{path} is not a regular file (a folder or a device); {fix}.")
