"""`compsem embed`'s options beyond the three tests: the phrase-pair test with each adjective's
synonym (Carvalho et al. §4.1.1), CLS against mean pooling in one run, and instruction prefixes
and remote code for models such as NV-Embed-v2 and Stella (which cannot be loaded here: offline,
and several GB; the prefix is checked on MiniLM, remote code on what reaches transformers)."""

import numpy as np
import pytest

from compsem.builders.montague.lexicon import load_lexicon
from compsem.builders.montague.report import tables
from compsem.harness.embed.models import (
    SIMILAR_TEXT,
    Encoder,
    declared_prefix,
    load_encoder,
)
from compsem.harness.embed.report import command_line
from compsem.harness.embed.run import run_embed
from compsem.publish.export import export_benchmark

LEXICON = "red\tS-I\tcrimson\nfake\tNS-Pr\tforged\ncar\tnoun\tautomobile\ngun\tnoun\tfirearm\n"
VECTORS = {  # a synonym lies where its adjective does
    "red": (1, 0, 0, 0),
    "fake": (0, 1, 0, 0),
    "car": (0, 0, 1, 0),
    "gun": (0, 0, 0, 1),
    "red car": (1, 0, 2, 0),
    "red gun": (1, 0, 0, 2),  # d(red car, red gun) = 0.8
    "fake car": (0, 1, -3, 0),
    "fake gun": (0, 1, 0, -3),  # d(fake car, fake gun) = 0.9
}
VECTORS |= {k.replace("red", "crimson"): v for k, v in VECTORS.items() if "red" in k}
VECTORS |= {k.replace("fake", "forged"): v for k, v in VECTORS.items() if "fake" in k}
SI, PR = "subsective_intersective", "privative_non_subsective"


def export(folder, lexicon=None):
    settings = {}
    if lexicon:
        (folder / "lexicon.tsv").write_text(lexicon)
        settings["lexicon"] = str(folder / "lexicon.tsv")
    export_benchmark("montague", folder / "montague", ["an", "lexicon"], **settings)
    return folder / "montague"


@pytest.fixture(scope="module")
def paper_export(tmp_path_factory):
    return export(tmp_path_factory.mktemp("paper"))


@pytest.fixture(scope="module")
def toy_export(tmp_path_factory):
    return export(tmp_path_factory.mktemp("toy"), LEXICON)


def vectors(strings):
    return np.array([VECTORS[text] for text in strings], dtype=float)


def test_the_pair_test_with_synonyms_adds_each_synonym_as_an_adjective_of_its_type(toy_export):
    toy = Encoder("toy", "static", "mean", "hand-set", vectors)
    report = run_embed([toy], toy_export, phrase_sets=["an", "an_synonyms"])
    assert report["phrase_sets"] == {"an": 4, "an_synonyms": 8}
    cells = report["models"][0]["results"]["an_synonyms"]["pair_intersectivity"]["by_type"]
    # a1 ∈ {red, crimson}, a2 ∈ {fake, forged}, one noun pair: 4 cases, 0.8 < 0.9 in each
    assert cells[f"{SI}, {PR}"] == {"score": 1.0, "count": 4}
    assert cells[f"{PR}, {SI}"] == {"score": 0.0, "count": 4}
    assert cells[f"{SI}, {SI}"]["count"] == 2  # red against crimson: equal distances, a tie
    without = report["models"][0]["results"]["an"]["pair_intersectivity"]["by_type"]
    assert without[f"{SI}, {PR}"] == {"score": 1.0, "count": 1}
    assert "with each adjective's synonym" in tables(report, "##")


def test_glove_runs_the_synonym_pair_test_over_appendix_as_122_adjectives(paper_export):
    lexicon = load_lexicon()
    words = {w for e in lexicon.adjectives for w in (e.word, e.synonym)}
    report = run_embed(["glove"], paper_export, phrase_sets=["an_synonyms"])
    assert report["phrase_sets"]["an_synonyms"] == len(words) * len(lexicon.nouns)
    result = report["models"][0]["results"]["an_synonyms"]["pair_intersectivity"]
    pairs = len(lexicon.nouns) * (len(lexicon.nouns) - 1) // 2
    assert result["count"] == len(words) * (len(words) - 1) * pairs
    assert 0 < result["score"] < 1


def test_cls_and_mean_pooling_are_compared_in_one_run_with_glove_beside(toy_export):
    report = run_embed(["minilm", "glove"], toy_export, phrase_sets=["an"], pooling=["cls", "mean"])
    labels = [m["label"] for m in report["models"]]
    assert labels == ["all-MiniLM-L6-v2 (cls)", "all-MiniLM-L6-v2 (mean)", "GloVe 6B 50d (mean)"]
    assert [m["pooling"] for m in report["models"]] == ["cls", "mean", "mean"]
    cls, mean, glove = (m["results"]["an"]["intersectivity"] for m in report["models"])
    assert glove["score"] == 1.0  # a mean of two words lies between them
    assert mean["count"] == cls["count"] == 4
    line = command_line(toy_export, ["minilm", "glove"], ["cls", "mean"])
    assert "--pooling cls mean" in line


def test_a_prefix_is_put_before_every_string_a_transformer_embeds():
    plain = load_encoder("minilm").encode(["red car", "car"])
    prefixed = load_encoder("minilm", prefix="query: ")
    assert prefixed.prefix == "query: " and prefixed.describe()["prefix"] == "query: "
    assert np.allclose(prefixed.encode(["car"]), load_encoder("minilm").encode(["query: car"]))
    assert not np.allclose(prefixed.encode(["red car", "car"]), plain)
    assert load_encoder("glove", prefix="query: ").prefix == ""  # static vectors take none


def test_nv_embed_and_stella_declare_their_similarity_instruction():
    assert declared_prefix("nvidia/NV-Embed-v2") == SIMILAR_TEXT
    assert declared_prefix("dunzhang/stella_en_1.5B_v5") == SIMILAR_TEXT
    assert declared_prefix("sentence-transformers/all-MiniLM-L6-v2") == ""


def test_trust_remote_code_reaches_transformers(monkeypatch):
    import transformers

    seen = []

    def refuse(source, **kwargs):
        seen.append(kwargs.get("trust_remote_code"))
        raise OSError("stop")  # what matters is what it was asked

    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", refuse)
    encoder_path = load_encoder.__module__  # the offline MiniLM folder, as a plain transformer
    with pytest.raises(OSError, match="stop"):
        load_encoder("minilm", pooling="mean", trust_remote_code=True)
    assert seen == [True] and encoder_path


def test_a_given_encoder_runs_once_whatever_the_poolings(toy_export):
    toy = Encoder("toy", "static", "mean", "hand-set", vectors)
    report = run_embed([toy], toy_export, phrase_sets=["an"], pooling=["cls", "mean"])
    assert [m["label"] for m in report["models"]] == ["toy"]


def test_cls_alone_on_static_vectors_is_refused_in_one_line(toy_export):
    from compsem.harness.embed.models import ModelError

    with pytest.raises(ModelError, match="no CLS token"):
        run_embed(["glove"], toy_export, phrase_sets=["an"], pooling=["cls"])
