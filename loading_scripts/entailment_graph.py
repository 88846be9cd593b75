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

A node is a predicate in parentheses, its two parts the subject's and the object's semantic
roles (``go.1``: role 1 of *go*; ``go.to.2``: role 2 of *go to*), then ``#`` and its argument
types. In a graph of one type twice (``thing#thing``) each node carries its arguments' order as
``#thing_1#thing_2`` or ``#thing_2#thing_1``: an edge between two nodes of the same order keeps
the arguments in place, one between different orders swaps them.

Two matchings (``matching``; Figure 6 draws a curve for each):

- ``fuzzy`` (the paper's, and the default): a node ``(go.1,go.to.2)#person#location`` is
  grounded to the natural-language predicate ``go to``, its words in order without the
  semantic-role numbers or repeats, whatever the role assignment and argument order; an edge
  between two grounded predicates scores the highest of its nodes'.
- ``exact`` (without fuzzy matching, where the paper's recall "hit a wall at 64.1%"): a node is
  matched only in its own role assignment. Edges are keyed by the nodes' predicates as written,
  ``(go.1,go.to.2)``, and only edges that keep the arguments in place (both nodes with the same
  type suffix) are kept; a natural-language predicate is looked up as :func:`canonical`'s node.

Only the map the matching needs is built, in one pass over the files (graphs can be large).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from compsem.files.bounded_read import UnreadableFile, check_file

# a node's role suffix: the ".1" of "go.1"
_ROLE = re.compile(r"\.\d+$")
MATCHINGS = ("fuzzy", "exact")


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


def canonical(predicate: str) -> str:
    """A natural-language predicate → the entGraph node of an active subject-verb-object
    proposition (exact matching): ``attack`` → ``(attack.1,attack.2)``, ``meet in`` →
    ``(meet.1,meet.in.2)``, ``play game with`` → ``(play.1,play.game.with.2)``.

    The subject is role 1 of the verb (the predicate's first word) and the object role 2 of the
    verb with what follows it (particle, preposition, noun), as entGraph writes the node of a
    verb with its direct or prepositional object (the reader's example ``(go.1,go.to.2)``). Any
    other role assignment of the same words (the reversed ``(attack.2,attack.1)``, a subject in
    another role than 1) is another node, reached only by fuzzy matching. A node given as such
    (``(go.1,go.to.2)#person#location``) is kept as its predicate, ``(go.1,go.to.2)``."""
    predicate = predicate.strip().lower()
    if predicate.startswith("("):
        return node_predicate(predicate)
    words = predicate.replace(".", " ").split()
    if not words:
        return ""
    return f"({words[0]}.1,{'.'.join(words)}.2)"


def node_predicate(node: str) -> str:
    """``(go.1,go.to.2)#person#location`` → ``(go.1,go.to.2)``: the node without its types."""
    return node.split("#", 1)[0].strip().lower()


def _type_order(node: str) -> str:
    """``(go.1,go.to.2)#person#location`` → ``person#location``: its argument types in order."""
    return node.partition("#")[2].strip().lower()


def read_graph_file(
    path: Path, measure: str, matching: str = "fuzzy"
) -> tuple[tuple[str, ...], dict[tuple[str, str], float]]:
    """A file's argument types and its edges ``(premise, hypothesis) → score`` under the
    measure whose heading starts with ``measure`` (case-insensitive): with ``fuzzy`` matching
    keyed by grounded predicates (the highest score of the nodes two predicates ground to); with
    ``exact``, by the nodes' predicates as written, only edges that keep the arguments in place
    (both nodes in the same argument order)."""
    if matching not in MATCHINGS:
        raise ValueError(f"matching must be one of {', '.join(MATCHINGS)}; got {matching!r}")
    exact = matching == "exact"
    edges: dict[tuple[str, str], float] = {}
    types: tuple[str, ...] = ()
    premise, order, in_measure = None, "", False
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
                node, in_measure = line[len("predicate:") :], False
                premise = sys.intern(node_predicate(node) if exact else grounded(node))
                order = _type_order(node)
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
                if exact and _type_order(fields[0]) != order:
                    continue  # the arguments swap: not the hypothesis's own assignment
                node = node_predicate(fields[0]) if exact else grounded(fields[0])
                key = (premise, sys.intern(node))
                edges[key] = max(score, edges.get(key, score))
    return types, edges


def read_graphs(
    folder: str | Path, measure: str = "BInc", matching: str = "fuzzy"
) -> dict[tuple[str, ...], dict]:
    """Every ``*sim.txt`` graph under ``folder``: ``{argument types: {(premise, hypothesis):
    score}}``, types as each file's first line gives them, keyed as ``matching`` (``fuzzy``:
    grounded predicates; ``exact``: the nodes' predicates, ``(go.1,go.to.2)``) needs."""
    folder = Path(folder)
    files = sorted(folder.rglob("*sim.txt")) if folder.is_dir() else []
    if not files:
        raise EntailmentGraphError(
            f"no entailment graph files (*_sim.txt) under {folder}: pass --graph the folder of a "
            "graph in entGraph's text format"
        )
    graphs: dict[tuple[str, ...], dict] = {}
    for path in files:
        types, edges = read_graph_file(path, measure, matching)
        merged = graphs.setdefault(types, {})
        for key, score in edges.items():
            merged[key] = max(score, merged.get(key, score))
    if not any(graphs.values()):
        raise EntailmentGraphError(
            f"the graphs under {folder} hold no edge under a measure named {measure!r}"
            + (" that keeps its arguments in place" if matching == "exact" else "")
            + ": pass --graph-measure one of the headings in the files (e.g. 'BInc sims')"
        )
    return graphs
