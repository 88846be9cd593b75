"""The original RNPC release: task CSVs into our schema, and the int/sub/pri lexicon as input."""

import pytest
from datasets import load_dataset

from compsem.builders.rnpc.generation import modifier_lexicon_from
from compsem.loading_scripts.rnpc_release import ReleaseError, parse_np, read_original_task
from compsem.publish.export import export_benchmark
from compsem.resources.lexicon import LexiconError
from tests.conftest import read_config

SPTE = """id,combo,source NP,premise,hypothesis,label
1,sub-int,the second green ball,This is the second green ball.,This is the second ball.,non-entailment
2,sub-int,the second green ball,This is the second green ball.,This is a green ball.,entailment
3,pri-int,a former American diplomat,He is a former American diplomat.,He is a former diplomat.,entailment
"""
MPTE = """id,combo,source NP,premise,hypothesis,label
1,sub-int,a skillful American surgeon,He is a skillful American surgeon. He is a father.,He is an American father.,entailment
2,sub-int,a skillful American surgeon,He is a skillful American surgeon. He is a father.,He is a skillful father.,non-entailment
"""
EPC = """id,combo,source NP,first_event,second_event,label
1,pri-int,a fake black gun,A gun fires bullets.,A fake black gun fires bullets.,less_likely
2,int-int,a red loaded gun,A gun fires bullets.,A red loaded gun fires bullets.,more_likely [check]
3,int-int,a red old car,A car carries passengers.,A red old car carries passengers.,equally_likely
"""


@pytest.fixture
def release(tmp_path):
    folder = tmp_path / "Recursive-NPs" / "data" / "RNPC" / "tasks"
    folder.mkdir(parents=True)
    for name, text in (("SPTE.csv", SPTE), ("MPTE.csv", MPTE), ("EPC.csv", EPC)):
        (folder / name).write_text(text)
    return tmp_path / "Recursive-NPs"


def test_original_configs_load_in_our_schema(release, tmp_path):
    out = tmp_path / "rnpc"
    configs = ["original_spte", "original_mpte", "original_epc"]
    export_benchmark("rnpc", out, configs, original_release=str(release))
    # Exported in a representative order: rows are found by content, not position.
    spte = read_config(out, "original_spte")["test"].sort_values("hypothesis")
    assert list(spte.label) == [1, 1, 0]  # a former diplomat, a green ball, the second ball
    first = spte.iloc[2]
    assert (first.det, first.modifier1, first.modifier2, first.noun) == (
        "the",
        "second",
        "green",
        "ball",
    )
    assert (first.m1_category, first.m2_category, first.combo, first.rule) == (
        "subsective",
        "intersective",
        "sub-int",
        "original",
    )
    assert spte.id.is_unique
    mpte = read_config(out, "original_mpte")["test"].sort_values("hypothesis")
    assert list(mpte.label) == [0, 1]  # a skillful father, an American father
    epc = load_dataset(str(out), "original_epc")["test"].sort("event2")
    assert epc["label"] == [0, 2, 1]  # the release's "[check]" note is dropped
    assert epc.features["label"].names[2] == "more_plausible"
    assert epc[0]["event2"] == "A fake black gun fires bullets."
    assert "published RNPC" in (out / "README.md").read_text()


def test_source_nps_split_into_determiner_modifiers_and_noun():
    assert parse_np("Quebecor's second big printing acquisition") == {
        "det": "Quebecor's",
        "modifier1": "second",
        "modifier2": "big",
        "noun": "printing acquisition",
    }
    assert parse_np("boring old news")["det"] == "" and parse_np("old news")["noun"] is None


def test_modifiers_are_the_first_neighbours_listed_in_the_combos_categories():
    """Issue 25: NPs with a third modifier or a possessive after the article were read as
    M1 = the first word (M1 'arrogant', M2 'former', N 'young genius'); the lexicon's categories
    now say which two neighbours the combo is about, with a noun after them."""
    listed = {
        "arrogant": {"intersective"},
        "former": {"privative"},
        "young": {"subsective"},
        "first": {"subsective"},
        "so-called": {"privative"},
        "greenfield": {"intersective"},
    }
    assert parse_np("an arrogant former young genius", ("privative", "subsective"), listed) == {
        "det": "an arrogant",
        "modifier1": "former",
        "modifier2": "young",
        "noun": "genius",
    }
    city = parse_np(
        "the city's first so-called greenfield plant", ("subsective", "privative"), listed
    )
    assert (city["det"], city["modifier1"], city["noun"]) == (
        "the city's",
        "first",
        "greenfield plant",
    )
    # no two neighbours listed so: the first two words, as before
    assert (
        parse_np("a young arrogant genius", ("privative", "subsective"), listed)["modifier1"]
        == "young"
    )


def test_release_errors_name_the_problem(release, tmp_path):
    with pytest.raises(ReleaseError, match="pass its folder with --original-release"):
        read_original_task(None, "spte")
    with pytest.raises(ReleaseError, match="SPTE.csv is not under"):
        read_original_task(tmp_path / "empty", "spte")
    tasks = release / "data" / "RNPC" / "tasks"
    (tasks / "SPTE.csv").write_text(SPTE.replace("non-entailment", "maybe"))
    with pytest.raises(ReleaseError, match="SPTE.csv, line 2: label 'maybe' is not entailment"):
        read_original_task(release, "spte")
    (tasks / "SPTE.csv").write_text(SPTE.replace("sub-int", "sub-xyz", 1))
    with pytest.raises(ReleaseError, match="line 2: combo 'sub-xyz' is not like 'pri-sub'"):
        read_original_task(release, "spte")
    (tasks / "EPC.csv").write_text(EPC.replace("second_event", "event_two"))
    with pytest.raises(ReleaseError, match="EPC.csv lacks column\\(s\\) second_event"):
        read_original_task(release, "epc")
    out = tmp_path / "out"
    with pytest.raises(ReleaseError):
        export_benchmark("rnpc", out, ["original_spte"], original_release=str(release))
    assert not out.exists()


INT = "Attribute,Modifier\ncolor,red\ncolor,green\nnationality,American\nnationality,Swedish\nmaking,wooden\nweather,sunny\nshape,round\nsmell,fragrant\n"
SUB = "Attribute,Modifier\nsize,big\nsize,small\nordinal,second\nexpertise,skillful\nexpertise,beginner\nage,young\nquality,good\nsize,grand\n"
PRI = "Attribute,Modifier\ntime,former\nauthenticity,fake\nmaking,wooden\nmaking,stone\npossibility,potential\nauthenticity,phony\nauthenticity,mock\n"


def write_lexicon(folder, pri: str = PRI):
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (("int.csv", INT), ("sub.csv", SUB), ("pri.csv", pri)):
        (folder / name).write_text(text)
    return folder


def test_the_original_lexicon_is_read_with_shipped_or_derived_attributes(tmp_path):
    lexicon = modifier_lexicon_from(write_lexicon(tmp_path / "modifier_lexicon"))
    entries = {m.text: m for m in lexicon.modifiers}
    assert entries["red"].attribute == "colour"  # the shipped entry, same category
    assert (entries["second"].category, entries["second"].kind) == ("subsective", "relative")
    assert entries["beginner"].kind == "stage" and entries["skillful"].kind == "role"
    assert entries["stone"].category == "privative"
    assert "wooden" not in entries  # int.csv and pri.csv both list it
    assert "sunny" not in entries  # weather fits none of our nouns
    assert any(
        reason.startswith("wooden: listed as intersective and privative")
        for reason in lexicon.dropped
    )
    assert any(reason.startswith("sunny:") for reason in lexicon.dropped)
    assert entries["round"].attribute == "shape"
    fragrant = lexicon.attributes[entries["fragrant"].attribute]  # not in the shipped lexicon
    assert fragrant.name == "rnpc_int_smell" and set(fragrant.applies_to) == {"food", "plant"}
    assert entries["grand"].kind == "relative"
    mock = lexicon.attributes[entries["mock"].attribute]
    assert (entries["mock"].category, mock.effect) == ("privative", "less")


def test_rnpc_built_from_the_original_lexicon(tmp_path):
    folder = write_lexicon(tmp_path / "modifier_lexicon")
    out = tmp_path / "rnpc"
    export_benchmark(
        "rnpc",
        out,
        ["spte_challenge"],
        lexicon=str(folder),
        size=800,
        validation_size=100,
        train_modifier_share=0.5,
    )
    frame = read_config(out, "spte_challenge")["test"]
    assert len(frame) == 800 and frame.label.mean() == 0.5
    assert set(frame.modifier1) | set(frame.modifier2) <= {
        m.text for m in modifier_lexicon_from(folder).modifiers
    }
    card = (out / "README.md").read_text()
    assert "RNPC lexicon (modifier_lexicon)" in card and "Left out of this lexicon" in card


def test_original_lexicon_without_privatives_or_with_unknown_attributes(tmp_path):
    with pytest.raises(LexiconError, match="has no privative modifier"):
        modifier_lexicon_from(write_lexicon(tmp_path / "a", pri="Attribute,Modifier\n"))
    with pytest.raises(LexiconError, match="pri.csv, line 2: RNPC attribute 'vibe' is unknown"):
        modifier_lexicon_from(write_lexicon(tmp_path / "b", pri="Attribute,Modifier\nvibe,meh\n"))
    (tmp_path / "c").mkdir()
    with pytest.raises(LexiconError, match="int.csv is not under"):
        modifier_lexicon_from(tmp_path / "c")
