"""Names that come from outside (a card from the Hub, a command line) and become paths.

A dataset card is written by whoever published it: its config and split names end up in file
names compsem writes, and its ``data_files`` patterns in files compsem reads. Names follow the
rule ``datasets`` applies to config and split names (no path separator, no ``..``, none of the
characters Windows forbids); the files a card names are checked by the one reader of exports
(:mod:`compsem.files.export_reader`); a Hub id is checked with ``huggingface_hub``'s own
validator before any download.
"""

from __future__ import annotations

import re

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
