"""WordNet 3.0 through NLTK.

Lookup order: NLTK's own ``wordnet`` data wherever ``nltk.data.path`` finds it; otherwise the
Debian dict files (``wordnet-base``, plus ``wordnet-sense-index`` for the ``index.sense`` that
NLTK's reader opens), which :func:`install_debian_wordnet` (run by the setup, never at import
time) copies into ``<prefix>/share/nltk_data/corpora/wordnet`` together with the ``lexnames``
file Debian lacks. Anything else is one :class:`WordNetMissingError`.
"""

from __future__ import annotations

import filecmp
import functools
import os
import shutil
import sys
import tempfile
from pathlib import Path

from compsem.files.ownership import (
    FILES_MANIFEST,
    OutputFolderError,
    claim_file,
    describe,
    file_in_the_way,
    read_manifest,
    stamp,
)

DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")
APT_PACKAGES = ("wordnet-base", "wordnet-sense-index")
APT_COMMAND = "apt-get install -y --no-install-recommends " + " ".join(APT_PACKAGES)
FIX_COMMAND = f"{APT_COMMAND} && compsem setup-wordnet   (or: python -m nltk.downloader wordnet)"
_REQUIRED_FILES = ("data.noun", "index.noun", "index.sense")

# WordNet's 45 lexicographer files, in the order of their numbers. NLTK's reader needs them as
# `lexnames` ("NN<TAB>name<TAB>syntactic category"); Debian's package does not ship that file.
_LEXNAMES = (
    ["adj.all", "adj.pert", "adv.all", "noun.Tops"]
    + [
        f"noun.{name}"
        for name in (
            "act animal artifact attribute body cognition communication event feeling food group "
            "location motive object person phenomenon plant possession process quantity relation "
            "shape state substance time"
        ).split()
    ]
    + [
        f"verb.{name}"
        for name in (
            "body change cognition communication competition consumption contact creation emotion "
            "motion perception possession social stative weather"
        ).split()
    ]
    + ["adj.ppl"]
)
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


class WordNetMissingError(RuntimeError):
    """WordNet 3.0 is neither in NLTK's data path nor installed from Debian's files."""


def lexnames_text() -> str:
    return "".join(
        f"{number:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n"
        for number, name in enumerate(_LEXNAMES)
    )


def default_install_dir() -> Path:
    return Path(sys.prefix) / "share" / "nltk_data" / "corpora" / "wordnet"


def install_debian_wordnet(source: Path = DEBIAN_WORDNET_DIR, target: Path | None = None) -> Path:
    """Copy Debian's WordNet dict files where NLTK looks, and write the missing ``lexnames``.

    ``target`` may hold other files (NLTK's own data, the user's): compsem writes a file there
    only where there is none of that name or where it wrote that file before and it is
    unchanged since (its list, :data:`~compsem.files.ownership.FILES_MANIFEST`); a file that already
    holds exactly what would be written is left as it is (an install of an older compsem). Any
    other file of the same name is refused, all of them named in one error, before any file is
    written.
    """
    source, target = Path(source), Path(target or default_install_dir())
    missing = [name for name in _REQUIRED_FILES if not (source / name).is_file()]
    if missing:
        raise WordNetMissingError(
            f"WordNet dict files {', '.join(missing)} are missing from {source}. Install them "
            f"with `{APT_COMMAND}`, or pass the folder that holds them."
        )
    _check_target(target)
    with tempfile.TemporaryDirectory() as scratch:
        lexnames = Path(scratch) / "lexnames"
        lexnames.write_text(lexnames_text())
        files = {
            path.name: path
            for path in sorted(source.iterdir())
            if path.is_file() and not path.name.startswith(".")  # not a compsem list or lock
        }
        files["lexnames"] = lexnames
        manifest = read_manifest(target, FILES_MANIFEST) if target.is_dir() else None
        recorded = (manifest or {"files": {}})["files"]
        to_write, refused = [], []
        for name, path in files.items():
            there = target / name
            if os.path.lexists(there) and _same_bytes(path, there):
                continue
            if os.path.lexists(there) and (
                there.is_symlink() or recorded.get(name) != stamp(there)
            ):
                refused.append(name)
            else:
                to_write.append(name)
        if refused:
            raise OutputFolderError(
                f"{target} holds {describe(refused)}, which compsem did not write (or which "
                "changed since) and which differ from the WordNet files it would write there; "
                "compsem never overwrites such a file: move them away, or pass another folder "
                "as --target."
            )
        for name in to_write:
            claim_file(
                target / name, lambda partial, path=files[name]: shutil.copyfile(path, partial)
            )
    return target


def _check_target(target: Path) -> None:
    """One clear error for a ``target`` that cannot be a folder of WordNet's files."""
    where = file_in_the_way(target)
    if where:
        raise OutputFolderError(
            f"{target} {where}, not a folder; pass a folder for WordNet's dict files as "
            "--target (a new one, or one that holds them)."
        )
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFolderError(
            f"cannot create {target} ({error.strerror}); pass a folder you can write to as "
            "--target."
        ) from None


def _same_bytes(a: Path, b: Path) -> bool:
    try:
        return filecmp.cmp(a, b, shallow=False)
    except OSError:  # a folder, a broken link, unreadable: not the same file
        return False


@functools.cache
def wordnet():
    """The loaded NLTK WordNet reader (``nltk.corpus.wordnet``'s, less a sense map: see
    :func:`_reader_class`); raises :class:`WordNetMissingError` when absent."""
    from nltk.corpus.reader import CorpusReader  # NLTK takes seconds to import: on first use
    from nltk.corpus.util import LazyCorpusLoader  # NLTK takes seconds to import: on first use

    wn = LazyCorpusLoader(  # as nltk.corpus defines `wordnet`, with the multilingual data
        "wordnet",
        _reader_class(),
        LazyCorpusLoader("omw-1.4", CorpusReader, r".*/wn-data-.*\.tab", encoding="utf8"),
    )
    try:
        wn.ensure_loaded()
    except LookupError as error:
        raise WordNetMissingError(
            f"WordNet 3.0 was not found in NLTK's data path. Fix: {FIX_COMMAND}"
        ) from error
    return wn


def _reader_class():
    """NLTK's WordNet reader, without the map from the sense keys of WordNet 3.0 to those of the
    loaded WordNet that it builds on every load: 2.5 of its 3.7 s, spent even when the loaded
    WordNet is 3.0, where the map is the identity. Only the multilingual lookups read it, and
    they take ``None`` to mean the identity."""
    from nltk.corpus.reader.wordnet import WordNetCorpusReader  # NLTK: seconds to import

    class WordNet30Reader(WordNetCorpusReader):
        def map_wn(self, version="wordnet"):
            return None if self.get_version() == "3.0" else super().map_wn(version)

    return WordNet30Reader


def wordnet_version() -> str:
    return wordnet().get_version()
