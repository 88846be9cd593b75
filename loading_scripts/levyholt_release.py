"""Reader of the public Levy/Holt predicate-entailment files (Levy and Dagan, 2016; Holt, 2019).

Each split is a text file ``train.txt``, ``dev.txt``, ``test.txt`` (``.tsv`` also accepted),
anywhere under the folder given, one pair a line::

    subject,predicate,object <TAB> subject,predicate,object <TAB> True|False <TAB> EN

As in the reader released with Li et al. (2022) and the files of Schmitt and Schütze (2021), the
first triple is the hypothesis and the second the premise: the label says whether the premise
entails the hypothesis.

The subsets of Li et al. (2022, §2) come from each pair's converse (the same two propositions the
other way round, which the dataset holds in the same split): both directions true is a
paraphrase, both false unrelated, exactly one true a directional pair (``dir_true`` where this
direction holds, ``dir_false`` where only the converse does). ``directional`` is DirTrue ∪
DirFalse, ``symmetric`` Paraphrases ∪ Unrelated, ``full`` every pair (``unpaired`` where the
converse is missing).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

SPLITS = ("train", "dev", "test")
SUBSETS = {
    "full": None,
    "directional": ("dir_true", "dir_false"),
    "symmetric": ("paraphrase", "unrelated"),
}
_LABELS = {"true": 1, "false": 0}


class LevyHoltError(ValueError):
    """The Levy/Holt folder or one of its lines is not in the documented format."""


def _split_file(folder: Path, split: str) -> Path:
    matches = sorted(
        path
        for suffix in (".txt", ".tsv")
        for path in folder.rglob(f"{split}{suffix}")
        if path.is_file()
    )
    if not matches:
        raise LevyHoltError(
            f"No {split}.txt (or {split}.tsv) under {folder}: pass --levyholt the folder of the "
            "Levy/Holt files train.txt, dev.txt and test.txt."
        )
    # The shallowest file wins: the full files, not a copy in a subset's subfolder.
    return min(matches, key=lambda path: (len(path.relative_to(folder).parts), str(path)))


def _triple(text: str, where: str) -> tuple[str, str, str]:
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 3 or not all(parts):
        raise LevyHoltError(
            f"{where}: {text!r} is not 'subject,predicate,object' (three non-empty fields "
            "separated by commas)."
        )
    return parts[0], parts[1], parts[2]


def read_split(path: Path) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}, line {number}"
            fields = line.rstrip("\n").split("\t")
            if len(fields) not in (3, 4):
                raise LevyHoltError(
                    f"{where}: expected 4 tab-separated fields (hypothesis, premise, True/False, "
                    f"language), found {len(fields)}."
                )
            label = _LABELS.get(fields[2].strip().lower())
            if label is None:
                raise LevyHoltError(f"{where}: label {fields[2]!r} is neither True nor False.")
            rows.append(
                {
                    "hypothesis": _triple(fields[0], where),
                    "premise": _triple(fields[1], where),
                    "label": label,
                    "language": fields[3].strip() if len(fields) == 4 else "EN",
                }
            )
    return rows


def _subgroups(rows: list[dict]) -> list[str]:
    label = {(row["premise"], row["hypothesis"]): row["label"] for row in rows}
    names = []
    for row in rows:
        converse = label.get((row["hypothesis"], row["premise"]))
        if converse is None:
            names.append("unpaired")
        elif row["label"] == converse:
            names.append("paraphrase" if row["label"] else "unrelated")
        else:
            names.append("dir_true" if row["label"] else "dir_false")
    return names


def read_levyholt(folder: str | Path) -> dict[str, list[dict]]:
    """Every split's rows, each with its ``subgroup``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise LevyHoltError(f"Levy/Holt folder {folder} does not exist.")
    splits = {}
    for split in SPLITS:
        rows = read_split(_split_file(folder, split))
        for row, subgroup in zip(rows, _subgroups(rows), strict=True):
            row["subgroup"] = subgroup
        splits[split] = rows
    return splits


def sentence(triple: tuple[str, str, str]) -> str:
    return " ".join(triple)


def levyholt_tables(
    folder: str | Path, subset: str, row_id, schema: pa.Schema
) -> dict[str, pa.Table]:
    """The splits of one subset as tables in ``schema``; ``row_id`` makes the ids."""
    keep = SUBSETS[subset]
    tables = {}
    for split, rows in read_levyholt(folder).items():
        rows = [row for row in rows if keep is None or row["subgroup"] in keep]
        tables[split] = pa.Table.from_pylist(
            [
                {
                    "id": row_id("levyholt", *row["premise"], *row["hypothesis"]),
                    "premise": sentence(row["premise"]),
                    "hypothesis": sentence(row["hypothesis"]),
                    "label": row["label"],
                    "subgroup": row["subgroup"],
                    "language": row["language"],
                    "premise_subject": row["premise"][0],
                    "premise_predicate": row["premise"][1],
                    "premise_object": row["premise"][2],
                    "hypothesis_subject": row["hypothesis"][0],
                    "hypothesis_predicate": row["hypothesis"][1],
                    "hypothesis_object": row["hypothesis"][2],
                }
                for row in rows
            ],
            schema=schema,
        )
    return tables
