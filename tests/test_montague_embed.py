"""`compsem embed`: the consistency tests on a hand-checked toy embedding, mean-pooled static
vectors, the reports, the shipped reference scores, and every bad model or dataset. The phrase
sets are read from Montague exports, as a user reads them."""

import argparse
import json

import numpy as np
import pytest

from compsem.builders.montague.lexicon import ADJECTIVE_TYPES, TYPE_CODES, load_lexicon
from compsem.builders.montague.report import score_rows, write_report
from compsem.builders.montague.tables import markdown_tables, read_scores_tsv, reference_path
from compsem.cli.embed import add_commands
from compsem.harness.embed.models import Encoder, ModelError, load_encoder
from compsem.harness.embed.report import demo_table
from compsem.harness.embed.run import run_embed
from compsem.publish.export import export_benchmark

TOY_LEXICON = "red\tS-I\tcrimson\nfake\tNS-Pr\tforged\ncar\tnoun\tautomobile\ngun\tnoun\tfirearm\n"
# Hand-set vectors (axes: red, fake, car, gun). "red …" phrases lie between their words, nearer
# the noun; "fake …" phrases are pulled towards "fake" and away from the noun.
TOY_VECTORS = {
    "red": (1, 0, 0, 0),
    "fake": (0, 1, 0, 0),
    "car": (0, 0, 1, 0),
    "gun": (0, 0, 0, 1),
    "red car": (1, 0, 2, 0),  # d to red 0.55, to car 0.11; d(red, car) = 1: intersective
    "red gun": (1, 0, 0, 2),  # d(red car, red gun) = 0.8
    "fake car": (0, 1, -3, 0),  # d to car 1.95 > d(fake, car) = 1; nearer fake (0.68) than car
    "fake gun": (0, 1, 0, -3),  # d(fake car, fake gun) = 0.9 > 0.8
    "red fake car": (1, 1, 1, 0),  # equidistant (0.42) from its words, which are 1 apart
    "red fake gun": (1, 1, 0, 1),
    "fake red car": (1, 3, -1, 0),  # d to car 1.30 > 1
    "fake red gun": (1, 3, 0, -1),
}


def toy_encoder(label="toy", calls=None):
    def encode(strings):
        if calls is not None:
            calls.append(list(strings))
        return np.array([TOY_VECTORS[text] for text in strings], dtype=float)

    return Encoder(label, "static", "mean", "hand-set vectors", encode)


def montague_export(folder, lexicon_text=None):
    """The paper configs of a Montague export, over Appendix A or a lexicon of our own."""
    folder.mkdir(parents=True, exist_ok=True)
    settings = {}
    if lexicon_text is not None:
        (folder / "lexicon.tsv").write_text(lexicon_text)
        settings["lexicon"] = str(folder / "lexicon.tsv")
    export_benchmark("montague", folder / "montague", ["an", "aan", "lexicon"], **settings)
    return folder / "montague"


@pytest.fixture(scope="module")
def toy_export(tmp_path_factory):
    return montague_export(tmp_path_factory.mktemp("toy"), TOY_LEXICON)


@pytest.fixture(scope="module")
def paper_export(tmp_path_factory):
    return montague_export(tmp_path_factory.mktemp("paper"))


def toy_report(toy_export, *labels):
    return run_embed([toy_encoder(label) for label in labels or ("toy",)], toy_export)


def by_type(report, phrase_set, test, model=0):
    result = report["models"][model]["results"][phrase_set][test]["by_type"]
    return {key: (cell["score"], cell["count"]) for key, cell in result.items()}


def test_toy_embedding_gives_the_hand_checked_answer_of_each_test(toy_export):
    calls = []
    report = run_embed([toy_encoder(calls=calls)], toy_export)
    s_i, ns_pr = "subsective_intersective", "privative_non_subsective"
    # Eq. 3: "red car", "red gun" hold; "fake car", "fake gun" do not.
    assert by_type(report, "an", "intersectivity") == {s_i: (1.0, 2), ns_pr: (0.0, 2)}
    # Eq. 7: only the fake phrases are nearer their adjective than their noun.
    assert by_type(report, "an", "non_subsectivity") == {s_i: (0.0, 2), ns_pr: (1.0, 2)}
    # Eq. 5: d(red car, red gun) = 0.8 ≤ d(fake car, fake gun) = 0.9, one noun pair.
    pairs = by_type(report, "an", "pair_intersectivity")
    assert pairs[f"{s_i}, {ns_pr}"] == (1.0, 1) and pairs[f"{ns_pr}, {s_i}"] == (0.0, 1)
    # Eq. 3 on AAN: "red fake …" hold, "fake red …" do not.
    assert by_type(report, "aan", "intersectivity") == {
        f"{s_i}, {ns_pr}": (1.0, 2),
        f"{ns_pr}, {s_i}": (0.0, 2),
    }
    # Every distinct phrase and word was embedded once, in one call.
    assert len(calls) == 1 and sorted(calls[0]) == sorted(TOY_VECTORS)
    assert report["phrase_sets"] == {"an": 4, "aan": 4}


def test_mean_pooled_static_vectors_are_intersective_on_every_an_phrase(paper_export):
    report = run_embed(["glove"], paper_export, phrase_sets=["an"])
    result = report["models"][0]["results"]["an"]["intersectivity"]
    assert result["score"] == 1.0 and result["count"] == 732
    assert {cell["score"] for cell in result["by_type"].values()} == {1.0}
    # The other tests are not satisfied by construction.
    assert 0 < report["models"][0]["results"]["an"]["non_subsectivity"]["score"] < 1


def test_several_models_give_one_table_with_a_row_each(toy_export, tmp_path):
    report = toy_report(toy_export, "first", "second")
    tables = markdown_tables(score_rows(report))
    table2 = tables.split("## Table 2")[1].split("##")[0]
    assert "| first | 1.00 | – | – | 0.00 | – |" in table2
    assert "| second | 1.00 | – | – | 0.00 | – |" in table2
    files = write_report(report, tmp_path / "out", "compsem embed --model toy --out DIR")
    names = sorted(path.name for path in files)
    assert names == [
        "heatmap_aan_intersectivity.png",
        "heatmap_an_pair_intersectivity.png",
        "results.json",
        "results.rows.jsonl",
        "scores.tsv",
        "tables.md",
    ]
    for name in names[:2]:
        assert (tmp_path / "out" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert [model["label"] for model in saved["models"]] == ["first", "second"]
    comments, rows = read_scores_tsv((tmp_path / "out" / "scores.tsv").read_text())
    assert rows == score_rows(report) and comments["command"].startswith("compsem embed")
    for number in (2, 3, 4, 5, 6, 7):
        assert f"## Table {number}:" in (tmp_path / "out" / "tables.md").read_text()
    assert "rows" not in saved and "cases" not in saved["models"][0]


def test_each_phrase_outcome_is_written_per_row_and_recomputes_the_scores(toy_export, tmp_path):
    report = toy_report(toy_export, "first")
    write_report(report, tmp_path / "out", "compsem embed --model toy --out DIR")
    lines = (tmp_path / "out" / "results.rows.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    results = report["models"][0]["results"]
    for phrase_set, tests in (
        ("an", ("intersectivity", "non_subsectivity")),
        ("aan", ("intersectivity",)),
    ):
        mine = [row for row in rows if row["phrase_set"] == phrase_set]
        assert len(mine) == report["phrase_sets"][phrase_set]
        for test in tests:
            holds = [row[test] for row in mine]
            assert np.mean(holds) == pytest.approx(results[phrase_set][test]["score"])


def test_the_cli_writes_the_report(paper_export, tmp_path, capsys):
    parser = argparse.ArgumentParser(prog="compsem")
    add_commands(parser.add_subparsers(dest="command", required=True))
    out = tmp_path / "glove"
    arguments = ["--model", "GloVe=glove", "--phrase-sets", "an", "--out", str(out)]
    args = parser.parse_args(["embed", "--dataset", str(paper_export), *arguments])
    assert args.handler(args) == 0
    assert "| GloVe | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 |" in capsys.readouterr().out
    command = json.loads((out / "results.json").read_text())["command"]
    assert command == (
        f"compsem embed --dataset {paper_export} --model GloVe=glove --phrase-sets an --out DIR"
    )
    assert not (out / "heatmap_aan_intersectivity.png").exists()  # no AAN run, no AAN heatmap


def test_shipped_reference_scores_are_reproduced_and_shown_by_the_demo(paper_export):
    comments, rows = read_scores_tsv(reference_path().read_text())
    assert comments["lexicon_fingerprint"] == load_lexicon().fingerprint
    reference = {
        (r["model"], r["phrase_set"], r["test"], r["types"]): (r["score"], r["count"]) for r in rows
    }
    assert {key[:2] for key in reference} == {
        ("all-MiniLM-L6-v2", "an"),
        ("all-MiniLM-L6-v2", "aan"),
        ("GloVe 6B 50d", "an"),
        ("GloVe 6B 50d", "aan"),
    }
    glove_report = run_embed(["glove"], paper_export, phrase_sets=["an"])
    # The export's words give the fingerprint the builder gives its lexicon.
    assert glove_report["lexicon"]["fingerprint"] == comments["lexicon_fingerprint"]
    glove = score_rows(glove_report)
    for row in glove:
        score, count = reference[row["model"], "an", row["test"], row["types"]]
        assert row["count"] == count and row["score"] == pytest.approx(score, abs=1e-9)
    # The demo's MiniLM table shows the reference scores (two decimals; a near-tie may flip
    # with other batches, so allow one rounding step).
    lines = demo_table(paper_export).splitlines()
    header = [cell.strip() for cell in lines[0].strip("|").split("|")][1:]
    assert header == [TYPE_CODES[kind] for kind in ADJECTIVE_TYPES]
    keys = {
        "intersectivity": lambda kind: kind,
        "pair_intersectivity": lambda kind: f"subsective_intersective, {kind}",
        "non_subsectivity": lambda kind: kind,
    }
    for line, (test, key) in zip(lines[2:5], keys.items(), strict=True):
        shown = [float(cell) for cell in line.strip("|").split("|")[1:]]
        for kind, value in zip(ADJECTIVE_TYPES, shown, strict=True):
            score = reference["all-MiniLM-L6-v2", "an", test, key(kind)][0]
            assert value == pytest.approx(score, abs=0.011), (test, kind)


# --- bad input ---------------------------------------------------------------------------------


def test_an_unknown_model_path_is_named_and_nothing_is_written(paper_export, tmp_path):
    parser = argparse.ArgumentParser(prog="compsem")
    add_commands(parser.add_subparsers(dest="command", required=True))
    model, out = str(tmp_path / "no" / "model"), str(tmp_path / "out")
    args = parser.parse_args(
        ["embed", "--dataset", str(paper_export), "--model", model, "--out", out]
    )
    with pytest.raises(ModelError, match="unknown model path .*no such file or folder"):
        args.handler(args)
    assert not (tmp_path / "out").exists()


def test_a_phrase_whose_word_has_no_vector_is_named(tmp_path):
    export = montague_export(tmp_path, "zqxjvwk\tS-I\nfake\tNS-Pr\ndog\tnoun\n")
    with pytest.raises(ModelError, match=r"no vector for 1 word\(s\): 'zqxjvwk' \(in 'zqxjvwk"):
        run_embed(["glove"], export, phrase_sets=["an"])


def test_a_folder_that_is_no_montague_export_is_named(tmp_path):
    (tmp_path / "other").mkdir()
    with pytest.raises(ValueError, match="holds no dataset files: pass an export folder"):
        run_embed(["glove"], tmp_path / "other", phrase_sets=["an"])
    with pytest.raises(ValueError, match="no folder .*pass an export folder that exists"):
        run_embed(["glove"], "./no/such/export", phrase_sets=["an"])


def test_a_phrase_set_the_vocabulary_lacks_is_refused(paper_export):
    with pytest.raises(ValueError, match=r"no phrase set \['aan'\] in the plane vocabulary"):
        run_embed(["glove"], paper_export, vocabulary="plane", phrase_sets=["aan"])


@pytest.mark.parametrize(
    ("spec", "pooling", "message"),
    [
        ("glove", "cls", "static word vectors have no CLS token"),
        ("missing.vec", None, "word-vector file missing.vec does not exist"),
        ("glove", "max", "unknown pooling 'max'"),
    ],
)
def test_bad_model_specs_get_one_clear_error(spec, pooling, message):
    with pytest.raises(ModelError, match=message):
        load_encoder(spec, pooling)


def test_a_folder_that_is_no_model_and_a_malformed_vector_file_are_named(tmp_path):
    with pytest.raises(ModelError, match="is not a model folder"):
        load_encoder(str(tmp_path))
    vectors = tmp_path / "vectors.txt"
    vectors.write_text("red 0.1 0.2\ndog 0.3\n")
    with pytest.raises(ModelError, match="line 2: 1 values where earlier lines have 2"):
        load_encoder(str(vectors))


def test_two_models_with_one_label_are_refused(toy_export):
    with pytest.raises(ModelError, match="name them apart as LABEL=MODEL"):
        run_embed([toy_encoder("same"), toy_encoder("same")], toy_export)


def test_a_word_vector_file_is_mean_pooled(tmp_path):
    vectors = tmp_path / "vectors.txt"
    vectors.write_text("2 2\nred 1 0\ncar 0 1\n")
    encoder = load_encoder(f"mine={vectors}")
    assert (encoder.label, encoder.kind, encoder.pooling) == ("mine", "static", "mean")
    np.testing.assert_allclose(encoder.encode(["Red car", "red"]), [[0.5, 0.5], [1.0, 0.0]])


def test_mean_pooling_a_transformer_reproduces_sentence_transformers_and_cls_differs():
    phrases = ["fake gun", "red car", "alleged criminal"]
    own = load_encoder("minilm").encode(phrases)
    mean, cls = (load_encoder("minilm", pooling).encode(phrases) for pooling in ("mean", "cls"))

    def cosine(a, b):
        return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)

    np.testing.assert_allclose(cosine(own, mean), 1.0, atol=1e-5)  # MiniLM pools by the mean
    assert (cosine(own, cls) < 0.9).all()


def test_an_unknown_hub_name_offline_is_named():
    with pytest.raises(ModelError, match="unknown model 'no-such-model-xyz'.*offline"):
        load_encoder("no-such-model-xyz")


def test_models_that_would_share_a_row_are_refused_before_any_is_embedded(toy_export):
    """Two models of one row label were refused only after every model had embedded every
    phrase set (minutes on AAN's 43,920 phrases): now a spec given twice is refused before the
    data are read, and a model whose label an earlier one has before it embeds anything."""
    with pytest.raises(ModelError, match="--model glove is given twice"):
        run_embed(["glove", "glove"], "./no/such/export")
    calls = []
    with pytest.raises(ModelError, match="two models share a row label \\('toy'\\)"):
        run_embed([toy_encoder(), toy_encoder(calls=calls)], toy_export)
    assert calls == []
