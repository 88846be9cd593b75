"""Reader of typed entailment graphs in the text format of Hosseini et al. (2018)'s ``entGraph``
(the graphs BoOQA's Table 5 evaluates: BInc, CNCE, EGT2), with the fuzzy matching of Li et al.
(2022, footnote 12 and Appendix G).

A graph folder holds one file per pair of argument types, ``<type1>#<type2>_sim.txt`` (any name
ending in ``sim.txt``)::

    types: person#location, num preds: 2
    predicate: (go.1,go.to.2)#person#location
    num neighbors: 1

    BInc sims
    (visit.1,visit.2)#person#location 0.42

    cos sims
    (visit.1,visit.2)#person#location 0.61

Each ``predicate:`` block lists, under each measure's heading (a line ending in ``sim`` or
``sims``), the predicates it entails with their scores. This reader follows the BoOQA authors'
reader (``evaluation/graph.py`` of Teddy-Li/BoOQA, adapted from Hosseini's ``entGraph_eval``).

Fuzzy matching: a node ``(go.1,go.to.2)#person#location`` is grounded to the natural-language
predicate ``go to``, its words in order without the semantic-role numbers or repeats, whatever
the role assignment; an edge between two grounded predicates scores the highest of its nodes'.
"""

from __future__ import annotations

import re
from pathlib import Path

from compsem.files.bounded_read import UnreadableFile, check_file

# a node's role suffix: the ".1" of "go.1"
_ROLE = re.compile(r"\.\d+$")


class EntailmentGraphError(ValueError):
    """The graph folder or one of its files is not in the documented format."""


def grounded(node: str) -> str:
    """``(go.1,go.to.2)#person#location`` → ``go to``: the predicate's words in order, without
    role numbers and repeats (fuzzy matching, footnote 12)."""
    predicate = node.split("#", 1)[0].strip()
    if predicate.startswith("(") and predicate.endswith(")"):
        predicate = predicate[1:-1]
    words: list[str] = []
    for part in predicate.split(","):
        for word in _ROLE.sub("", part.strip()).split("."):
            word = word.strip().lower()
            if word and not word.isdigit() and word not in words:
                words.append(word)
    return " ".join(words)


def read_graph_file(
    path: Path, measure: str
) -> tuple[tuple[str, ...], dict[tuple[str, str], float]]:
    """A file's argument types and its edges ``(premise, hypothesis) → score`` under the
    measure whose heading starts with ``measure`` (case-insensitive), grounded and fuzzy
    matched (the highest score of the nodes two predicates ground to)."""
    edges: dict[tuple[str, str], float] = {}
    types: tuple[str, ...] = ()
    premise, in_measure = None, False
    try:  # a regular file (a FIFO would block), within the cap of a large text resource
        check_file(path, "vectors")
    except UnreadableFile as error:
        raise EntailmentGraphError(str(error)) from None
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.replace("` ", "").strip()
            if number == 1:
                if not line.startswith("types:"):
                    raise EntailmentGraphError(
                        f"{path}, line 1: expected 'types: TYPE1#TYPE2, num preds: N', found "
                        f"{line[:60]!r}; pass --graph a folder of entGraph *_sim.txt files"
                    )
                types = tuple(line[len("types:") :].split(",")[0].strip().split("#"))
            elif not line or line.startswith("num neighbors"):
                continue
            elif line.startswith("predicate:"):
                premise, in_measure = grounded(line[len("predicate:") :]), False
            elif line.lower().endswith(("sims", "sim")):  # a measure's heading
                in_measure = line.lower().startswith(measure.lower())
            elif in_measure and premise is not None:
                fields = line.rsplit(" ", 1)
                try:
                    score = float(fields[1])
                except (IndexError, ValueError):
                    raise EntailmentGraphError(
                        f"{path}, line {number}: expected 'PREDICATE SCORE', found {line[:60]!r}"
                    ) from None
                key = (premise, grounded(fields[0]))
                edges[key] = max(score, edges.get(key, score))
    return types, edges


def read_graphs(folder: str | Path, measure: str = "BInc") -> dict[tuple[str, ...], dict]:
    """Every ``*sim.txt`` graph under ``folder``: ``{argument types: {(premise, hypothesis):
    score}}``, types as each file's first line gives them."""
    folder = Path(folder)
    files = sorted(folder.rglob("*sim.txt")) if folder.is_dir() else []
    if not files:
        raise EntailmentGraphError(
            f"no entailment graph files (*_sim.txt) under {folder}: pass --graph the folder of a "
            "graph in entGraph's text format"
        )
    graphs: dict[tuple[str, ...], dict] = {}
    for path in files:
        types, edges = read_graph_file(path, measure)
        merged = graphs.setdefault(types, {})
        for key, score in edges.items():
            merged[key] = max(score, merged.get(key, score))
    if not any(graphs.values()):
        raise EntailmentGraphError(
            f"the graphs under {folder} hold no edge under a measure named {measure!r}: pass "
            "--graph-measure one of the headings in the files (e.g. 'BInc sims')"
        )
    return graphs
