"""Reader of SherLIiC (Schmitt and Schütze, 2019), the typed event-focused lexical-inference
benchmark that BoOQA's Table 6 tests generalisation against (Li et al., 2022, Appendix B).

The folder holds SherLIiC's ``dev.csv`` and ``test.csv`` as released, and, when the user has it,
the ``train.csv`` of Schmitt and Schütze's (2021) split of them (their experiments train on it),
anywhere under the folder. Each file is comma-separated with one header row and 22 columns,
read by position as the authors' readers do::

    id, premise type, premise relation, hypothesis type, hypothesis relation,
    premise argleft, premise middle, premise argright, premise end,
    hypothesis argleft, hypothesis middle, hypothesis argright, hypothesis end,
    is premise reversed, is hypothesis reversed, examples A, examples B,
    gold label (yes/no), relevance score, significance score, ESR score, disagreements

A relation's arguments are typed placeholders (``A[location]``); as Schmitt and Schütze's
pattern models do, each is replaced by the first of its example entities (``examples A`` /
``examples B``, " / "-separated), the two swapped where the relation is reversed, so both
propositions read as sentences about the same two entities. The proposition's object is the
right argument followed by the relation's end (a possessive or a trailing particle).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pyarrow as pa

from compsem.files.bounded_read import UnreadableFile, check_file
from compsem.loading_scripts.levyholt_release import shallowest_file

SPLITS = ("train", "dev", "test")
REQUIRED = ("dev", "test")  # as released; train is Schmitt and Schütze's split
COLUMNS = 22
_LABELS = {"yes": 1, "no": 0}


class SherLIiCError(ValueError):
    """The SherLIiC folder or one of its rows is not in the documented format."""


def _example(examples: str, where: str, column: str) -> str:
    first = examples.split(" / ")[0].strip()
    if not first:
        raise SherLIiCError(
            f"{where}: {column} is empty; SherLIiC rows name example entities as 'X / Y / Z'."
        )
    return first


def _proposition(left, middle, right, end, reversed_, example_a, example_b):
    """(subject, predicate, object): the typed placeholders replaced by example entities."""
    subject, object_ = (example_b, example_a) if reversed_ else (example_a, example_b)
    return subject, " ".join(middle.split()), f"{object_}{end}".strip()


def read_split(path: Path) -> list[dict]:
    try:  # a regular file within the cap of a word list (a FIFO would block)
        check_file(path, "lexicon")
    except UnreadableFile as error:
        raise SherLIiCError(str(error)) from None
    rows = []
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader, None)  # the header
        for number, fields in enumerate(reader, start=2):
            if not fields:
                continue
            where = f"{path}, line {number}"
            if len(fields) != COLUMNS:
                raise SherLIiCError(
                    f"{where}: expected {COLUMNS} comma-separated columns (SherLIiC's dev.csv / "
                    f"test.csv format), found {len(fields)}."
                )
            label = _LABELS.get(fields[17].strip().lower())
            if label is None:
                raise SherLIiCError(f"{where}: gold label {fields[17]!r} is neither yes nor no.")
            example_a = _example(fields[15], where, "examples A")
            example_b = _example(fields[16], where, "examples B")
            flags = [fields[13].strip() == "True", fields[14].strip() == "True"]
            rows.append(
                {
                    "source_id": fields[0].strip(),
                    "premise": _proposition(*fields[5:9], flags[0], example_a, example_b),
                    "hypothesis": _proposition(*fields[9:13], flags[1], example_a, example_b),
                    "label": label,
                }
            )
    return rows


def read_sherliic(folder: str | Path) -> dict[str, list[dict]]:
    """Each split's rows (``train`` only where the folder has one)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise SherLIiCError(f"SherLIiC folder {folder} does not exist.")
    files = {split: shallowest_file(folder, (f"{split}.csv",)) for split in SPLITS}
    missing = [split for split in REQUIRED if files[split] is None]
    if missing:
        raise SherLIiCError(
            f"No {' or '.join(f'{s}.csv' for s in missing)} under {folder}: pass --sherliic the "
            "folder of SherLIiC's dev.csv and test.csv (and train.csv of Schmitt and Schütze's "
            "split, to train on it)."
        )
    return {split: read_split(path) for split, path in files.items() if path is not None}


def sherliic_tables(folder: str | Path, row_id, schema: pa.Schema) -> dict[str, pa.Table]:
    """The splits as tables in ``schema`` (Levy/Holt's columns; ``row_id`` makes the ids)."""
    tables = {}
    for split, rows in read_sherliic(folder).items():
        tables[split] = pa.Table.from_pylist(
            [
                {
                    "id": row_id("sherliic", row["source_id"], *row["premise"]),
                    "premise": " ".join(row["premise"]),
                    "hypothesis": " ".join(row["hypothesis"]),
                    "label": row["label"],
                    "subgroup": None,  # SherLIiC has no converses, so no sub-groups
                    "language": "EN",
                    **{
                        f"{side}_{part}": row[side][index]
                        for side in ("premise", "hypothesis")
                        for index, part in enumerate(("subject", "predicate", "object"))
                    },
                }
                for row in rows
            ],
            schema=schema,
        )
    return tables
