"""Reader of the SICK release (Marelli et al., 2014): its sentence pairs and binary labels.

``SICK.txt`` is tab-separated with a header naming at least ``sentence_A``, ``sentence_B`` and
``entailment_label`` (ENTAILMENT, NEUTRAL or CONTRADICTION; the latter two are non-entailment,
footnote 3 of the SETI paper). SETI's builder picks its natural-inference pairs from these rows
(``compsem.builders.seti.sick_pairs``).
"""

from __future__ import annotations

import csv
from pathlib import Path

from compsem.files.fingerprint import file_fingerprint

REQUIRED_COLUMNS = ("sentence_A", "sentence_B", "entailment_label")
LABELS = {"ENTAILMENT": 1, "NEUTRAL": 0, "CONTRADICTION": 0}


class SickFormatError(ValueError):
    """The SICK file is missing, lacks a required column, or has a row it cannot read."""


def _existing(path: str | Path) -> Path:
    path = Path(path)
    if not path.is_file():
        raise SickFormatError(f"SICK file {path} does not exist; pass the release's SICK.txt.")
    return path


def sick_fingerprint(path: str | Path) -> str:
    return file_fingerprint(_existing(path))


def read_sick(path: str | Path) -> list[dict]:
    """The rows of ``SICK.txt`` as dicts with ``sentence_A``, ``sentence_B`` and ``label``."""
    path = _existing(path)
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        missing = [name for name in REQUIRED_COLUMNS if name not in (reader.fieldnames or [])]
        if missing:
            raise SickFormatError(
                f"{path.name} lacks the column(s) {', '.join(missing)}; SICK.txt is tab-separated "
                f"with a header row naming {', '.join(REQUIRED_COLUMNS)} (found: "
                f"{', '.join(reader.fieldnames or []) or 'no header'})."
            )
        rows = []
        for number, row in enumerate(reader, start=2):
            label = (row["entailment_label"] or "").strip().upper()
            if label not in LABELS:
                raise SickFormatError(
                    f"{path.name}, line {number}: entailment_label {row['entailment_label']!r} "
                    f"is not one of {', '.join(LABELS)}."
                )
            sentences = [
                (row[name] or "").strip().rstrip(".").strip() for name in REQUIRED_COLUMNS[:2]
            ]
            if not all(sentences):
                raise SickFormatError(f"{path.name}, line {number}: a sentence is empty.")
            rows.append(
                {"sentence_A": sentences[0], "sentence_B": sentences[1], "label": LABELS[label]}
            )
    return rows
