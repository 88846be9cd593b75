"""Reader of the original PLANE release (Bertolini et al., 2022) into compsem's PLANE schema.

The release's supervised splits are pickled row lists ``[text, label, class, adj, noun, hyper, …]``
with classes I, N (subsective) and O, in files ``OOV_Train_i.pkl`` / ``OOV_test_i.pkl`` (GOoD)
and ``IT3_OoV_Train_i.pkl`` / ``IT3_OoV_test_i.pkl`` (One-IT), anywhere under the folder.
Pickles can run code when loaded: point this only at the release you downloaded yourself.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from compsem.files.fingerprint import row_id

_FILES = {
    "original_goood": {"train": "OOV_Train_{i}.pkl", "test": "OOV_test_{i}.pkl"},
    "original_one_it": {"train": "IT3_OoV_Train_{i}.pkl", "test": "IT3_OoV_test_{i}.pkl"},
}
_CLASSES = {"I": "I", "N": "S", "S": "S", "O": "O"}
_TRUE = {"1", "true", "entailment", "yes"}
_FALSE = {"0", "false", "non_entailment", "non-entailment", "no"}


class ReleaseError(ValueError):
    """The release folder or one of its rows is not in the documented format."""


def read_original_split(folder: str | Path | None, regime: str, index: int) -> dict[str, list]:
    """The train and test rows of one original split as PLANE item records (every item field
    but ``hypernym_distance``, which the builder measures in WordNet)."""
    if folder is None:
        raise ReleaseError(
            f"Config {regime}_split_{index} reads the original PLANE release: pass its folder "
            "with --original-release DIR."
        )
    return {
        split: _records(_load_rows(_find(Path(folder), name.format(i=index))))
        for split, name in _FILES[regime].items()
    }


def _find(folder: Path, name: str) -> Path:
    matches = sorted(folder.rglob(name))
    if not matches:
        raise ReleaseError(
            f"{name} is not under {folder}; point --original-release at the "
            "release's supervised_learning folder."
        )
    return matches[0]


class PlainDataUnpickler(pickle.Unpickler):
    """Reads pickles of plain data only: lists, tuples, dicts, strings, numbers.

    A pickle names the functions and classes that rebuild its objects, and ``pickle.load`` calls
    them, so a crafted "release" from a mirror would run code on load. Plain data needs no
    function at all; this unpickler refuses every lookup instead of performing it.
    """

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"it asks to load {module}.{name}")


MAX_BYTES = 256 * 2**20  # the release's largest pickle is a few MB
_FIELD_TYPES = (str, int, float, bool, type(None))


def _load_rows(path: Path) -> list[tuple[Path, int, list]]:
    """The rows of one pickle: a list of rows, each a list of at least six plain values (text,
    label, class, adjective, noun, hypernym, …), checked before anything is formatted, as a
    pickle of shared nested lists would blow up into gigabytes when printed."""
    if path.stat().st_size > MAX_BYTES:
        raise ReleaseError(
            f"{path} is {path.stat().st_size:,} bytes, far more than a PLANE release file "
            f"(at most {MAX_BYTES:,}); point --original-release at the release's own files."
        )
    with open(path, "rb") as handle:
        try:
            data = PlainDataUnpickler(handle).load()
        except pickle.UnpicklingError as error:
            raise ReleaseError(
                f"{path} is not a pickle of plain rows ({str(error)[:200]}); compsem reads only lists, "
                "tuples, strings and numbers from a release, so that loading it cannot run code. "
                "Use the release's original files, or re-save the rows as a plain list of lists."
            ) from None
        except (EOFError, ValueError, TypeError, IndexError, KeyError, RecursionError) as error:
            raise ReleaseError(
                f"{path} is not a readable pickle ({type(error).__name__}); use the release's "
                "original files."
            ) from None
    if not isinstance(data, list | tuple):
        raise ReleaseError(f"{path} holds a {type(data).__name__}, not a list of rows.")
    for number, row in enumerate(data):
        if not isinstance(row, list | tuple) or len(row) < 6:
            shape = f"{len(row)} fields" if isinstance(row, list | tuple) else type(row).__name__
            raise ReleaseError(
                f"{path.name}, row {number}: expected [text, label, class, adj, noun, hyper, …], "
                f"got a {shape}; use the release's original files."
            )
        flat = next((value for value in row if not isinstance(value, _FIELD_TYPES)), None)
        if flat is not None:
            raise ReleaseError(
                f"{path.name}, row {number}: a field is a {type(flat).__name__}, not a string or "
                "number; the release's rows hold plain values: use its original files."
            )
    return [(path, number, list(row)) for number, row in enumerate(data)]


def _label(value, where: str) -> int:
    text = str(value).strip().lower()
    if text in _TRUE:
        return 1
    if text in _FALSE:
        return 0
    raise ReleaseError(f"{where}: label {text[:40]!r} is neither entailment nor non-entailment.")


def _inference_type(text: str, adjective: str, noun: str, hypernym: str, where: str) -> int:
    """IT from the sentence: 'A red car is a car' (1), '… a vehicle' (2), '… a red vehicle' (3)."""
    _, separator, hypothesis = text.lower().rstrip(". ").partition(" is ")
    hypothesis = hypothesis.removeprefix("an ").removeprefix("a ")
    for it, expected in ((1, noun), (3, f"{adjective} {hypernym}"), (2, hypernym)):
        if separator and hypothesis == expected.lower():
            return it
    raise ReleaseError(
        f"{where}: cannot tell the inference type of {text[:120]!r} from adjective "
        f"{adjective[:40]!r}, noun {noun[:40]!r} and hypernym {hypernym[:40]!r}."
    )


def _records(rows: list[tuple[Path, int, list]]) -> list[dict]:
    records = []
    for path, number, row in rows:
        where = f"{path.name}, row {number}"
        text, label, klass, adjective, noun, hypernym = (row[0], row[1], *map(str, row[2:6]))
        if klass not in _CLASSES:
            raise ReleaseError(
                f"{where}: unknown adjective class {klass[:40]!r} (expected I, N or O)."
            )
        it = _inference_type(str(text), adjective, noun, hypernym, where)
        hypothesis = {1: noun, 2: hypernym, 3: f"{adjective} {hypernym}"}[it]
        records.append(
            {
                "id": row_id("plane-original", adjective, noun, hypernym, it),
                "premise": f"{adjective} {noun}",
                "hypothesis": hypothesis,
                "sentence": str(text),
                "label": _label(label, where),
                "adjective": adjective,
                "noun": noun,
                "hypernym": hypernym,
                "adjective_class": _CLASSES[klass],
                "inference_type": it,
                "phrase_count": None,
                "pmi": None,
            }
        )
    return records
