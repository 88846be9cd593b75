"""BoOQA's entailment-graph baselines (Table 5: BInc, CNCE, EGT2): each hypothesis scored by the
highest score, over its evidence, of the graph's edge from the evidence's predicate to the
hypothesis's, fuzzy matched (Li et al., 2022, footnote 12 and Appendix G) or, for Figure 6's
other curve, exactly: each predicate as the node of an active subject-verb-object proposition
(``meet in`` → ``(meet.1,meet.in.2)``, see :func:`canonical`), only edges between those nodes."""

from __future__ import annotations

import numpy as np

from compsem.loading_scripts.entailment_graph import canonical, grounded

SAME = 1.0  # a predicate entails itself (the authors' reader gives it 0.999, "certain")
MISSING = 0.0  # no edge, no evidence: every such hypothesis ties at the floor


def edges_for(graphs: dict, subject_type: str, object_type: str) -> dict:
    """The graph of the hypothesis's argument types (either order), else every graph merged:
    the back-off where compsem's coarse types name no graph of the folder."""
    for types in ((subject_type, object_type), (object_type, subject_type)):
        if types in graphs:
            return graphs[types]
    return graphs.get(("*",), {})


def merged(graphs: dict) -> dict:
    """``graphs`` with a ``("*",)`` entry: every graph's edges, each at its highest score."""
    everything: dict = {}
    for edges in graphs.values():
        for key, score in edges.items():
            everything[key] = max(score, everything.get(key, score))
    return {**graphs, ("*",): everything}


def node_of(predicate: str, matching: str = "fuzzy") -> str:
    """A proposition's predicate as the graphs read with ``matching`` key it: grounded words
    (``fuzzy``) or the canonical node (``exact``)."""
    return canonical(predicate) if matching == "exact" else grounded(predicate.replace(" ", "."))


def graph_scores(rows, graphs: dict, matching: str = "fuzzy") -> tuple[np.ndarray, np.ndarray]:
    """Each row's score (max over its evidence; ``MISSING`` without evidence or edge) and its
    number of evidence items. ``rows``: dicts with ``predicate``, ``subject_type``,
    ``object_type`` and ``evidence`` (records with a ``predicate``); ``graphs`` as
    :func:`~compsem.loading_scripts.entailment_graph.read_graphs` read them with the same
    ``matching``."""
    graphs = merged(graphs)
    scores, counts = [], []
    for row in rows:
        edges = edges_for(graphs, row.get("subject_type") or "", row.get("object_type") or "")
        hypothesis = node_of(row["predicate"], matching)
        best = MISSING
        evidence = list(row.get("evidence") or ())
        for item in evidence:
            premise = node_of(item["predicate"], matching)
            best = max(
                best, SAME if premise == hypothesis else edges.get((premise, hypothesis), MISSING)
            )
        scores.append(best)
        counts.append(len(evidence))
    return np.asarray(scores, dtype=np.float64), np.asarray(counts, dtype=np.int64)
