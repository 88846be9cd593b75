"""Reader of the public Levy/Holt predicate-entailment files (Levy and Dagan, 2016; Holt, 2019).

Each split is a text file ``train.txt``, ``dev.txt``, ``test.txt`` (``.tsv`` also accepted),
anywhere under the folder given, one pair a line::

    subject,predicate,object <TAB> subject,predicate,object <TAB> True|False <TAB> EN

As in the reader released with Li et al. (2022) and the files of Schmitt and Schütze (2021), the
first triple is the hypothesis and the second the premise: the label says whether the premise
entails the hypothesis.

The subsets of Li et al. (2022, §2) come from each pair's converse (the same two propositions the
other way round): both directions true is a paraphrase, both false unrelated, exactly one true a
directional pair (``dir_true`` where this direction holds, ``dir_false`` where only the converse
does). A pair whose converse sits in another split is moved, with its converse, into one of the
two splits, chosen at random (seeded) for each such pair, as footnote 3 does to avoid leakage.

The subsets are ``full`` (every pair; ``unpaired`` where the converse is missing) and the mesh
of Fig. 1, each pair of the four sub-groups: ``directional`` (DirTrue ∪ DirFalse), ``symmetric``
(Paraphrases ∪ Unrelated), ``para_dirtrue``, ``para_dirfalse``, ``dirtrue_unrelated`` and
``dirfalse_unrelated``. In a subset of two sub-groups the more paraphrastic one is labelled 1
and the other 0 (§3, footnote 4): the original labels where one sub-group is entailed and the
other not, relabelled where both are (Paraphrases 1, DirTrue 0) or neither is (DirFalse 1,
Unrelated 0). A hypothesis-only subset (Fig. 2) replaces every premise with "true", as the
authors' ``*_hypo_only`` files do (``true,,``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa

SPLITS = ("train", "dev", "test")
# The sub-groups from the most paraphrastic to the least (footnote 4's order).
SUBGROUPS = ("paraphrase", "dir_true", "dir_false", "unrelated")
SUBSETS = {
    "full": None,
    "directional": ("dir_true", "dir_false"),
    "symmetric": ("paraphrase", "unrelated"),
    "para_dirtrue": ("paraphrase", "dir_true"),
    "para_dirfalse": ("paraphrase", "dir_false"),
    "dirtrue_unrelated": ("dir_true", "unrelated"),
    "dirfalse_unrelated": ("dir_false", "unrelated"),
}
HYPOTHESIS_ONLY_PREMISE = ("true", "", "")  # the authors' hypothesis-only files: "true,,"
_LABELS = {"true": 1, "false": 0}


class LevyHoltError(ValueError):
    """The Levy/Holt folder or one of its lines is not in the documented format."""


def shallowest_file(folder: Path, names: tuple[str, ...]) -> Path | None:
    """The file named one of ``names`` anywhere under ``folder``, the shallowest first (the
    release's own file, not a copy in a subset's subfolder); None where there is none."""
    matches = [path for name in names for path in folder.rglob(name) if path.is_file()]
    return min(
        matches, key=lambda path: (len(path.relative_to(folder).parts), str(path)), default=None
    )


def _split_file(folder: Path, split: str) -> Path:
    found = shallowest_file(folder, (f"{split}.txt", f"{split}.tsv"))
    if found is None:
        raise LevyHoltError(
            f"No {split}.txt (or {split}.tsv) under {folder}: pass --levyholt the folder of the "
            "Levy/Holt files train.txt, dev.txt and test.txt."
        )
    return found


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


def _pair(row: dict) -> tuple:
    """A pair and its converse, the same key for both."""
    return tuple(sorted([(row["premise"], row["hypothesis"]), (row["hypothesis"], row["premise"])]))


def reunite_converses(splits: dict[str, list[dict]], seed: int) -> dict[str, list[dict]]:
    """Footnote 3: a pair whose converse is in another split goes, with its converse, into one
    of the two splits, chosen at random for that pair (seeded by ``seed`` and the pair, so the
    choice does not depend on the other pairs). Rows keep the files' order."""
    where = {}
    for split, rows in splits.items():
        for row in rows:
            where.setdefault((row["premise"], row["hypothesis"]), split)
    destination = {}
    for split, rows in splits.items():
        for row in rows:
            converse = where.get((row["hypothesis"], row["premise"]))
            if converse is None or converse == split:
                continue
            pair = _pair(row)
            if pair not in destination:
                choices = sorted({split, converse}, key=SPLITS.index)
                destination[pair] = random.Random(f"{seed}|{pair}").choice(choices)
    moved = {name: [] for name in splits}
    for split, rows in splits.items():
        for row in rows:
            moved[destination.get(_pair(row), split)].append(row)
    return moved


def read_levyholt(folder: str | Path, seed: int = 0) -> dict[str, list[dict]]:
    """Every split's rows, converses reunited in one split (footnote 3), each with its
    ``subgroup``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise LevyHoltError(f"Levy/Holt folder {folder} does not exist.")
    splits = {split: read_split(_split_file(folder, split)) for split in SPLITS}
    splits = reunite_converses(splits, seed)
    for rows in splits.values():
        for row, subgroup in zip(rows, _subgroups(rows), strict=True):
            row["subgroup"] = subgroup
    return splits


def sentence(triple: tuple[str, str, str]) -> str:
    return " ".join(triple)


def levyholt_tables(
    folder: str | Path,
    subset: str,
    row_id,
    schema: pa.Schema,
    seed: int = 0,
    hypothesis_only: bool = False,
) -> dict[str, pa.Table]:
    """The splits of one subset as tables in ``schema``; ``row_id`` makes the ids. Labels are
    relabelled in a subset of two sub-groups (see the module description); with
    ``hypothesis_only`` every premise is "true"."""
    keep = SUBSETS[subset]
    tables = {}
    for split, rows in read_levyholt(folder, seed).items():
        rows = [row for row in rows if keep is None or row["subgroup"] in keep]
        tables[split] = pa.Table.from_pylist(
            [
                {
                    "id": row_id("levyholt", *row["premise"], *row["hypothesis"]),
                    "premise": sentence(premise).strip(),
                    "hypothesis": sentence(row["hypothesis"]),
                    "label": row["label"] if keep is None else int(row["subgroup"] == keep[0]),
                    "subgroup": row["subgroup"],
                    "language": row["language"],
                    "premise_subject": premise[0],
                    "premise_predicate": premise[1],
                    "premise_object": premise[2],
                    "hypothesis_subject": row["hypothesis"][0],
                    "hypothesis_predicate": row["hypothesis"][1],
                    "hypothesis_object": row["hypothesis"][2],
                }
                for row in rows
                for premise in [HYPOTHESIS_ONLY_PREMISE if hypothesis_only else row["premise"]]
            ],
            schema=schema,
        )
    return tables
