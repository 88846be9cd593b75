"""Entailment-graph baselines (BoOQA Table 5): the reader of entGraph's *_sim.txt files with the
paper's fuzzy matching and without it (exact, Figure 6's other curve), on small graphs written
in that format, and `compsem score --method graph` on a tiny BoOQA export, scored by AUCnorm
both ways (honest and released ties)."""

import json

import pytest

from compsem.harness.probing.graph import graph_scores
from compsem.harness.results.files import read_results
from compsem.harness.results.reproduce import command_line
from compsem.loading_scripts.entailment_graph import (
    EntailmentGraphError,
    canonical,
    grounded,
    read_graphs,
)
from tests.harness_data import compsem, tiny_booqa_export, write_export

# Two measures per predicate, BInc first; role-reversed nodes of one predicate ground together.
GRAPH = """types: thing#thing, num preds: 4
predicate: (visited.1,visited.2)#thing_1#thing_2
num neighbors: 1

BInc sims
(toured.1,toured.2)#thing_1#thing_2 0.3

cos sims
(toured.1,toured.2)#thing_1#thing_2 0.9

predicate: (called.1,called.2)#thing_1#thing_2
num neighbors: 1

BInc sims
(texted.1,texted.2)#thing_1#thing_2 0.2

predicate: (called.2,called.1)#thing_2#thing_1
num neighbors: 1

BInc sims
(texted.2,texted.1)#thing_2#thing_1 0.5

"""
OTHER = """types: person#location, num preds: 1
predicate: (launched.1,launched.2)#person#location
num neighbors: 1

BInc sims
(tested.1,tested.2)#person#location 0.8

"""


@pytest.fixture
def graph(tmp_path):
    folder = tmp_path / "graph"
    folder.mkdir()
    (folder / "thing#thing_sim.txt").write_text(GRAPH)
    (folder / "person#location_sim.txt").write_text(OTHER)
    return folder


# Nodes outside the canonical role assignment (subject = role 1 of the verb): fuzzy matching
# grounds them to "built", "painted", "met", "met in"; exact matching finds none of them. The
# edge met -> toured swaps its arguments (thing_1#thing_2 to thing_2#thing_1): fuzzy only too.
ROLES = """predicate: (built.2,built.1)#thing_2#thing_1
num neighbors: 1

BInc sims
(painted.2,painted.1)#thing_2#thing_1 0.4

predicate: (met.1,met.2)#thing_1#thing_2
num neighbors: 2

BInc sims
(toured.1,toured.2)#thing_2#thing_1 0.7
(played.1,played.in.2)#thing_1#thing_2 0.6

predicate: (met.1,met.in.2)#thing_1#thing_2
num neighbors: 2

BInc sims
(played.1,played.in.2)#thing_1#thing_2 0.25
(played.2,played.in.2)#thing_1#thing_2 0.9

"""


@pytest.fixture
def roles_graph(tmp_path):
    folder = tmp_path / "roles"
    folder.mkdir()
    (folder / "thing#thing_sim.txt").write_text(GRAPH + ROLES)
    (folder / "person#location_sim.txt").write_text(OTHER)
    return folder


def test_grounding_drops_roles_and_repeats():
    assert grounded("(go.1,go.to.2)#person#location") == "go to"
    assert grounded("(texted.2,texted.1)#thing_2#thing_1") == "texted"
    assert grounded("(play.1,play.game.with.2)#person#thing") == "play game with"
    assert grounded("play.game.with") == "play game with"


def test_exact_matching_maps_a_predicate_to_its_active_svo_node():
    """The subject is role 1 of the verb, the object role 2 of the verb with its particle or
    preposition (the node format's (go.1,go.to.2))."""
    assert canonical("attack") == "(attack.1,attack.2)"
    assert canonical("meet in") == "(meet.1,meet.in.2)"
    assert canonical(" Play  game with ") == "(play.1,play.game.with.2)"
    assert canonical("(go.1,go.to.2)#person#location") == "(go.1,go.to.2)"  # a node as it is
    assert canonical("") == ""


def test_exact_matching_keeps_only_nodes_in_their_own_role_assignment(roles_graph):
    fuzzy = read_graphs(roles_graph)[("thing", "thing")]
    exact = read_graphs(roles_graph, matching="exact")[("thing", "thing")]
    assert fuzzy[("called", "texted")] == 0.5 and fuzzy[("built", "painted")] == 0.4
    assert fuzzy[("met", "toured")] == 0.7 and fuzzy[("met in", "played in")] == 0.9
    assert exact == {
        ("(visited.1,visited.2)", "(toured.1,toured.2)"): 0.3,
        ("(called.1,called.2)", "(texted.1,texted.2)"): 0.2,  # not (called.2,called.1)'s 0.5
        ("(called.2,called.1)", "(texted.2,texted.1)"): 0.5,  # kept, but no predicate's node
        ("(built.2,built.1)", "(painted.2,painted.1)"): 0.4,
        ("(met.1,met.2)", "(played.1,played.in.2)"): 0.6,  # met -> toured swaps: not kept
        ("(met.1,met.in.2)", "(played.1,played.in.2)"): 0.25,
        ("(met.1,met.in.2)", "(played.2,played.in.2)"): 0.9,
    }
    rows = [
        {"predicate": predicate, "subject_type": "thing", "object_type": "thing",
         "evidence": [{"predicate": premise}]}
        for premise, predicate in (
            ("visited", "toured"), ("called", "texted"), ("built", "painted"),
            ("met", "toured"), ("met in", "played in"), ("met", "played in"), ("sold", "sold"),
        )
    ]  # fmt: skip
    graphs = read_graphs(roles_graph, matching="exact")
    assert graph_scores(rows, graphs, "exact")[0].tolist() == [
        0.3, 0.2, 0.0, 0.0, 0.25, 0.6, 1.0
    ]  # fmt: skip
    assert graph_scores(rows, read_graphs(roles_graph))[0].tolist() == [
        0.3, 0.5, 0.4, 0.7, 0.9, 0.6, 1.0
    ]  # fmt: skip


def test_the_reader_keeps_one_measure_and_the_highest_score_of_fuzzy_matches(graph):
    graphs = read_graphs(graph)
    assert graphs[("thing", "thing")] == {("visited", "toured"): 0.3, ("called", "texted"): 0.5}
    assert read_graphs(graph, "cos")[("thing", "thing")] == {("visited", "toured"): 0.9}
    assert graphs[("person", "location")] == {("launched", "tested"): 0.8}


def test_a_hypothesis_takes_its_type_pairs_graph_else_every_graph(graph):
    graphs = read_graphs(graph)
    rows = [
        {"predicate": "toured", "subject_type": "thing", "object_type": "thing",
         "evidence": [{"predicate": "visited"}, {"predicate": "met"}]},
        {"predicate": "tested", "subject_type": "thing", "object_type": "thing",
         "evidence": [{"predicate": "launched"}]},  # no such edge in thing#thing: 0
        {"predicate": "tested", "subject_type": "company", "object_type": "city",
         "evidence": [{"predicate": "launched"}]},  # no company#city graph: every graph
        {"predicate": "sold", "subject_type": "thing", "object_type": "thing",
         "evidence": [{"predicate": "sold"}]},  # the same predicate
        {"predicate": "sold", "subject_type": "thing", "object_type": "thing", "evidence": []},
    ]  # fmt: skip
    scores, counts = graph_scores(rows, graphs)
    assert scores.tolist() == [0.3, 0.0, 0.8, 1.0, 0.0]
    assert counts.tolist() == [2, 1, 1, 1, 0]


def test_bad_graph_folders_get_one_clear_error(tmp_path):
    with pytest.raises(EntailmentGraphError, match="no entailment graph files"):
        read_graphs(tmp_path)
    (tmp_path / "x_sim.txt").write_text("predicate: (a.1,a.2)\n")
    with pytest.raises(EntailmentGraphError, match="line 1: expected 'types:"):
        read_graphs(tmp_path)
    (tmp_path / "x_sim.txt").write_text(GRAPH)
    with pytest.raises(EntailmentGraphError, match="no edge under a measure named 'Weeds'"):
        read_graphs(tmp_path, "Weeds")


@pytest.mark.slow
def test_score_with_a_graph_ranks_by_its_edges_and_reports_both_aucnorms(graph, tmp_path):
    """Positives state their own predicate in the evidence (1.0) but the unevidenced one (0);
    negatives get toured 0.3, texted 0.5 and 0 elsewhere. Sorted: six positives at 1, a
    negative at 0.5, one at 0.3, then one positive and five negatives tied at 0; ξ = 1/2. The
    curve is (0, 1), (6/7, 1), (6/7, 6/7), (6/7, 3/4), (1, 1/2): AUCnorm 25/28 both ways."""
    booqa = tiny_booqa_export(tmp_path / "booqa")
    assert (
        compsem("score --config en --method graph", dataset=booqa, graph=graph, out=tmp_path / "g")
        == 0
    )
    (result,) = read_results([tmp_path / "g"])
    assert result["settings"]["method"] == "graph" and result["settings"]["graph_measure"] == "BInc"
    assert result["settings"]["graph_matching"] == "fuzzy"  # the default, the paper's
    rows = [
        json.loads(line)
        for line in next((tmp_path / "g").glob("*.rows.jsonl")).read_text().splitlines()
    ]
    by_id = {row["id"]: row["score"] for row in rows}
    assert by_id["0-0"] == 0.3 and by_id["4-0"] == 0.5 and by_id["0-1"] == 1.0
    assert by_id["none-1"] == 0.0 and sum(score == 0.0 for score in by_id.values()) == 6
    assert result["scores"]["aucnorm"] == pytest.approx(25 / 28)
    assert result["scores"]["released"]["aucnorm"] == pytest.approx(25 / 28)
    assert f"--graph {graph}" in command_line(result)


@pytest.mark.slow
def test_score_without_fuzzy_matching_reads_only_canonical_nodes(roles_graph, tmp_path):
    """Figure 6's other curve: with --graph-matching exact the negative "toured" keeps 0.3
    (visited -> toured; met -> toured swaps its arguments), "texted" gets (called.1,called.2)'s
    0.2, not (called.2,called.1)'s 0.5, and "painted" nothing ((built.2,built.1) is no active
    SVO node), where fuzzy matching gives 0.7, 0.5 and 0.4. The ranking keeps its shape: six
    positives at 1, negatives at 0.3 and 0.2, a tie at 0: AUCnorm 25/28. The setting is
    recorded, so a report keeps the two curves apart, and an unknown matching is a usage error."""
    booqa = tiny_booqa_export(tmp_path / "booqa")
    command = "score --config en --method graph --graph-matching exact"
    assert compsem(command, dataset=booqa, graph=roles_graph, out=tmp_path / "g") == 0
    (result,) = read_results([tmp_path / "g"])
    assert result["settings"]["graph_matching"] == "exact"
    assert "--graph-matching exact" in command_line(result)
    rows = [
        json.loads(line)
        for line in next((tmp_path / "g").glob("*.rows.jsonl")).read_text().splitlines()
    ]
    by_id = {row["id"]: row["score"] for row in rows}
    assert (by_id["0-0"], by_id["4-0"], by_id["2-0"], by_id["0-1"]) == (0.3, 0.2, 0.0, 1.0)
    assert result["scores"]["aucnorm"] == pytest.approx(25 / 28)
    assert next((tmp_path / "g").glob("*-pr-curve.json")).exists()
    with pytest.raises(SystemExit) as usage:
        compsem("score --config en --method graph --graph-matching loose", dataset=booqa)
    assert usage.value.code == 2


@pytest.mark.slow
def test_a_levyholt_pair_is_scored_by_the_edge_from_its_premise_to_its_hypothesis(graph, tmp_path):
    """Li et al. Table 17: entailment graphs on Levy/Holt pairs. A pair's premise is its
    hypothesis's one piece of evidence; Levy/Holt names no argument types, so every graph's
    edges count (launched -> tested is in person#location only)."""
    import datasets

    from compsem.builders.booqa.config import LEVYHOLT_FEATURES

    pairs = [  # premise predicate, hypothesis predicate, entailment?, expected score
        ("visited", "toured", 1, 0.3),
        ("called", "texted", 0, 0.5),
        ("launched", "tested", 1, 0.8),
        ("sold", "sold", 1, 1.0),  # the same predicate
        ("met", "toured", 0, 0.0),  # no edge
        ("texted", "called", 0, 0.0),  # the converse of an edge is no edge
    ]
    rows = [
        {
            "id": f"p{i}", "premise": f"A {p} B.", "hypothesis": f"A {h} B.", "label": label,
            "subgroup": "dir", "language": "en", "premise_subject": "A",
            "premise_predicate": p, "premise_object": "B", "hypothesis_subject": "A",
            "hypothesis_predicate": h, "hypothesis_object": "B",
        }
        for i, (p, h, label, _) in enumerate(pairs)
    ]  # fmt: skip
    test = datasets.Dataset.from_list(rows, features=LEVYHOLT_FEATURES)
    export = write_export(tmp_path / "booqa", {"levyholt_dir": {"test": test}})
    command = "score --config levyholt_dir --method graph"
    assert compsem(command, dataset=export, graph=graph, out=tmp_path / "g") == 0
    (result,) = read_results([tmp_path / "g"])
    scored = [
        json.loads(line)
        for line in next((tmp_path / "g").glob("*.rows.jsonl")).read_text().splitlines()
    ]
    assert [row["score"] for row in scored] == [expected for *_, expected in pairs]
    assert all(row["evidence"] == 1 for row in scored)
    # ranked: 1.0+, 0.8+, 0.5-, 0.3+, then two negatives at 0: precision 1, 1, 2/3, 3/4
    assert {"aucnorm", "auc_50", "released"} <= set(result["scores"])
    assert result["scores"]["baseline_precision"] == pytest.approx(0.5)


def test_method_graph_and_graph_go_together(tmp_path, graph):
    from compsem.harness.probing.score import run_score

    with pytest.raises(ValueError, match="--method graph needs --graph DIR"):
        run_score(str(tmp_path), "en", tmp_path / "out", method="graph")
    with pytest.raises(ValueError, match="--method graph needs --graph DIR"):
        run_score(str(tmp_path), "en", tmp_path / "out", method="cosine", graph=str(graph))
    with pytest.raises(ValueError, match="--graph-matching is for --method graph"):
        run_score(str(tmp_path), "en", tmp_path / "out", method="cosine", graph_matching="exact")
