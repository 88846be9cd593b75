"""Names that come from outside (a card from the Hub, a command line) and become paths.

A dataset card is written by whoever published it: its config and split names end up in file
names compsem writes, and its ``data_files`` patterns in files compsem reads. Names follow the
rule ``datasets`` applies to config and split names (no path separator, no ``..``, none of the
characters Windows forbids); every file a card names must lie inside its own folder; a Hub id
is checked with ``huggingface_hub``'s own validator before any download.
"""

from __future__ import annotations

import re
from pathlib import Path

from huggingface_hub.utils import HFValidationError, validate_repo_id

# datasets.builder.INVALID_WINDOWS_CHARACTERS_IN_PATH, plus the separators and control characters.
_FORBIDDEN = re.compile(r'[<>:/\\|?*"\x00-\x1f]')


def check_name(name, what: str, source: str) -> str:
    """``name`` itself when it is a safe config or split name, else one ValueError."""
    if (
        not isinstance(name, str)
        or not name.strip()
        or _FORBIDDEN.search(name)
        or ".." in name
        or name.startswith(".")
        or len(name) > 200
    ):
        shown = repr(name)[:80]
        raise ValueError(
            f"{source} names a {what} {shown}, which cannot be a {what} name (empty, too long, a "
            "path separator, '..', a leading '.' or a control character); fix the card or use "
            "a dataset whose card compsem wrote."
        )
    return name


def card_files(folder: Path, pattern, source: str) -> list[Path]:
    """The files matching a card's ``data_files`` pattern, every one inside ``folder``."""
    folder = Path(folder).resolve()
    if (
        not isinstance(pattern, str)
        or not pattern.strip()
        or Path(pattern).is_absolute()
        or ".." in Path(pattern).parts
    ):
        raise ValueError(
            f"{source} lists the data files {repr(pattern)[:80]}, which is not a path inside "
            f"{folder}; a card may name only files of its own folder: rebuild the export."
        )
    paths = sorted(folder.glob(pattern))
    outside = [path for path in paths if not path.resolve().is_relative_to(folder)]
    if outside:
        raise ValueError(
            f"{source}: {outside[0]} (matched by {pattern!r}) lies outside {folder} through a "
            "link; a card may name only files of its own folder: rebuild the export."
        )
    return [path for path in paths if path.is_file()]


def check_repo_id(repo_id: str, what: str = "Hub id") -> str:
    """``repo_id`` when ``huggingface_hub`` accepts it as a repo id, else one ValueError."""
    try:
        validate_repo_id(repo_id)
    except HFValidationError:
        raise ValueError(
            f"{repr(repo_id)[:80]} is not a valid {what}: use NAME or ORG/NAME (letters, digits, "
            "'-', '_', '.'), or the path of a local folder."
        ) from None
    return repo_id
