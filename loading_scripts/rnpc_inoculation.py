"""Reader of the original RNPC release's inoculation splits (Lyu et al., 2022, §6): per task a
folder (``SPTE/``, ``MPTE/``, ``EPC/``) of tab-separated files ``train_10.tsv`` …
``train_200.tsv``, ``train.tsv`` and ``test.tsv``, with the header ``index, sentence1,
sentence2, label, combo, source NP`` (MPTE's ``sentence1`` holds both premises).

Labels are integers: 2 = entailment (SPTE, MPTE) or more plausible (EPC), 1 = equally plausible
(EPC only), 0 = non-entailment or less plausible. They are mapped to compsem's label names as
the release's task CSVs map their string labels (``rnpc_release``): entailment 1 and
non-entailment 0 of ``["non_entailment", "entailment"]``; less, equally and more likely 0, 1
and 2 of ``["less_plausible", "equally_plausible", "more_plausible"]``.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from compsem.loading_scripts.rnpc_release import ReleaseError, listed_categories, release_item

TASK_FOLDERS = {"spte": "SPTE", "mpte": "MPTE", "epc": "EPC"}
COLUMNS = ("index", "sentence1", "sentence2", "label", "combo", "source NP")
# the release's integer label -> compsem's ClassLabel index, per task
LABELS = {"spte": {0: 0, 2: 1}, "mpte": {0: 0, 2: 1}, "epc": {0: 0, 1: 1, 2: 2}}
_TRAIN = re.compile(r"train_(\d+)\.tsv$")


def inoculation_files(folder: Path, task: str) -> dict[str, Path]:
    """``{split: file}``: ``train_N`` for each ``train_N.tsv`` (by N), ``train`` and ``test``;
    one error naming what is missing."""
    where = Path(folder) / TASK_FOLDERS[task]
    if not where.is_dir():
        raise ReleaseError(
            f"{where} does not exist: --inoculation takes the folder holding the release's "
            "SPTE/, MPTE/ and EPC/ inoculation folders."
        )
    sized = sorted(
        ((int(m.group(1)), path) for path in where.iterdir() if (m := _TRAIN.match(path.name))),
    )
    files = {f"train_{size}": path for size, path in sized}
    for name in ("train", "test"):
        if not (where / f"{name}.tsv").is_file():
            raise ReleaseError(f"{where} lacks {name}.tsv: the inoculation folder is incomplete.")
        files[name] = where / f"{name}.tsv"
    return files


def _label(task: str, value: str, where: str) -> int:
    try:
        return LABELS[task][int(value)]
    except (ValueError, KeyError):
        known = ", ".join(map(str, LABELS[task]))
        raise ReleaseError(
            f"{where}: label {value!r} is not one of {known} for {task.upper()}."
        ) from None


def read_inoculation_file(path: Path, task: str, listed: dict) -> list[dict]:
    """The rows of one inoculation file, as dicts of the task's feature names."""
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        header = {(name or "").strip(): name for name in reader.fieldnames or []}
        missing = [column for column in COLUMNS if column not in header]
        if missing:
            raise ReleaseError(
                f"{path} lacks the column {missing[0]!r}: its header must be "
                f"{', '.join(COLUMNS)} (tab-separated)."
            )
        rows = []
        for number, raw in enumerate(reader, start=2):
            row = {column: (raw[header[column]] or "").strip() for column in COLUMNS}
            where = f"{path}, line {number}"
            first, second = row["sentence1"], row["sentence2"]
            identifier = ("rnpc-inoculation", task, row["source NP"], first, second)
            fields = (row["combo"], row["source NP"], first, second)
            label = _label(task, row["label"], where)
            rows.append(release_item(task, fields, label, identifier, listed, where))
    if not rows:
        raise ReleaseError(f"{path} holds no items.")
    return rows


def nested_order(splits: dict[str, list[dict]]) -> list[dict]:
    """train.tsv's rows with each ``train_N`` set first where the sets are nested (train_10 in
    train_25 …), so that a prefix of N rows is the release's own train_N; in file order
    otherwise."""
    sized = sorted((int(name.split("_")[1]), rows) for name, rows in splits.items()
                   if name.startswith("train_"))  # fmt: skip
    ids = [{row["id"] for row in rows} for _, rows in sized]
    train = splits["train"]
    every = {row["id"] for row in train}
    if not all(a <= b for a, b in zip(ids, ids[1:], strict=False)) or (ids and ids[-1] - every):
        return train
    rank = {}
    for position, members in enumerate(ids):
        for identifier in members:
            rank.setdefault(identifier, position)
    order = sorted(range(len(train)), key=lambda i: (rank.get(train[i]["id"], len(ids)), i))
    return [train[i] for i in order]


def read_inoculation(folder: str | Path | None, task: str) -> dict[str, list[dict]]:
    """Every inoculation split of one task: ``train_N`` as released, ``train`` (train.tsv,
    nested sets first), ``test``."""
    if folder is None:
        raise ReleaseError(
            f"Config inoculation_{task} reads the RNPC release's inoculation splits: pass their "
            "folder with --inoculation DIR."
        )
    listed = listed_categories(Path(folder))
    files = inoculation_files(Path(folder), task)
    splits = {name: read_inoculation_file(path, task, listed) for name, path in files.items()}
    splits["train"] = nested_order(splits)
    return splits
