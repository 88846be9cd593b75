"""SETI's building blocks: inflection, the verb and sentence lexicons, WordNet relations, the
parser check and the Boolean rules of Table 3, with every bad-input path."""

import pytest

from compsem.builders.seti.compose import InferenceType, ci, embed, nat, ver
from compsem.builders.seti.lexicon import (
    SetiLexiconError,
    load_embedding_verbs,
    load_sentence_lexicon,
    relation,
)
from compsem.builders.seti.sentences import Clause, clause_frame, parses_as
from compsem.resources.spacy_pipeline import load_pipeline
from compsem.resources.wordnet import wordnet
from compsem.text.inflection import past_participle, present_participle, third_person_singular

# Appendix A, Table 6, with the third person singular each must take.
PAPER_VERIDICAL = {
    "realize": "realizes", "acknowledge": "acknowledges", "remember": "remembers",
    "note": "notes", "find": "finds", "notice": "notices", "learn": "learns", "see": "sees",
    "reveal": "reveals", "discover": "discovers", "understand": "understands", "know": "knows",
    "admit": "admits", "recognize": "recognizes", "observe": "observes",
}  # fmt: skip
PAPER_NON_VERIDICAL = {
    "feel": "feels", "claim": "claims", "doubt": "doubts", "hope": "hopes",
    "predict": "predicts", "imply": "implies", "suspect": "suspects", "wish": "wishes",
    "think": "thinks", "believe": "believes", "hear": "hears", "expect": "expects",
    "estimate": "estimates", "assume": "assumes", "argue": "argues",
}  # fmt: skip


def test_shipped_verbs_are_the_papers_fifteen_and_fifteen():
    verbs = load_embedding_verbs()
    assert set(verbs.of_class("veridical")) == set(PAPER_VERIDICAL)
    assert set(verbs.of_class("non_veridical")) == set(PAPER_NON_VERIDICAL)


def test_embedding_verbs_are_inflected_in_the_premise():
    for verb, form in {**PAPER_VERIDICAL, **PAPER_NON_VERIDICAL}.items():
        assert third_person_singular(verb) == form
    assert embed(["wish", "imply"], ["A man is eating a pizza", "An owl is sleeping"]) == [
        "Someone wishes that a man is eating a pizza",
        "Someone implies that an owl is sleeping",
    ]


def test_lexicon_verb_forms_are_the_ones_wordnet_knows():
    """WordNet's morphology (with its irregular-form exception lists) must map every participle
    the generator writes back to its lemma."""
    lexicon = load_sentence_lexicon()
    for verb in lexicon.verbs:
        for form in (present_participle(verb.word), past_participle(verb.word)):
            assert verb.word in wordnet()._morphy(form, "v"), form
    assert [present_participle(v) for v in ("run", "slice", "open", "see", "lie", "admit")] == [
        "running", "slicing", "opening", "seeing", "lying", "admitting",
    ]  # fmt: skip
    assert [past_participle(v) for v in ("drive", "chop", "carry", "peel", "bite")] == [
        "driven", "chopped", "carried", "peeled", "bitten",
    ]  # fmt: skip


def test_inflection_rejects_what_is_not_a_verb_lemma():
    with pytest.raises(ValueError, match="one lowercase English verb lemma"):
        present_participle("Eat it")


def test_wordnet_relations_of_the_lexical_rules():
    lexicon = load_sentence_lexicon()
    sense = {entry.word: entry.sense for entry in (*lexicon.nouns, *lexicon.verbs)}
    assert relation(sense["boy"], sense["person"]) == "hypernym"
    # the example: a boy is a kid (WordNet itself puts boy only under male)
    assert relation(sense["boy"], sense["kid"]) == "hypernym"
    assert relation(sense["girl"], sense["boy"]) == "antonym"
    assert relation(sense["kid"], sense["child"]) == "synonym"
    assert relation(sense["woman"], sense["man"]) == "antonym"
    assert relation(sense["dog"], sense["cat"]) == "co_hyponym"
    assert relation(sense["slice"], sense["cut"]) == "hypernym"
    assert relation(sense["push"], sense["pull"]) == "antonym"
    assert relation(sense["person"], sense["boy"]) is None  # a hyponym is not used
    assert relation(sense["pizza"], sense["guitar"]) is None


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def test_parser_check_accepts_the_intended_structure_only(nlp):
    active = Clause("man", "eat", "pizza")
    passive = active.replace(voice="passive")
    assert passive.text() == "A pizza is being eaten by a man"
    assert clause_frame(nlp(active.text())) == ("man", "eating", "eat", "pizza", "active")
    assert parses_as(clause_frame(nlp(passive.text())), passive)
    assert not parses_as(clause_frame(nlp(active.text())), passive)
    assert not parses_as(clause_frame(nlp(active.text())), Clause("man", "eat", "apple"))
    assert clause_frame(nlp("Pizza and a man")) is None


@pytest.mark.parametrize("verb_class", ["veridical", "non_veridical"])
@pytest.mark.parametrize("nat_type", ["lex", "stru"])
@pytest.mark.parametrize("nat_label", [1, 0])
def test_table_3_boolean_rules(verb_class, nat_type, nat_label):
    composition = ci(verb_class, nat_type, nat_label)
    veridical = verb_class == "veridical"
    assert composition.label == int(veridical and nat_label == 1)
    number = 2 * (not veridical) + (not nat_label)
    assert composition.rule == ("T∧T→T", "T∧F→F", "F∧T→F", "F∧F→F")[number]
    assert ver(verb_class).label == int(veridical)
    assert nat(nat_type, nat_label).label == nat_label


def test_unknown_verb_class_in_an_inference_type_is_named():
    with pytest.raises(ValueError, match="Unknown verb class 'factive'"):
        InferenceType("ci", verb_class="factive", nat_type="lex", nat_label=1)


def test_unknown_verb_class_in_a_verb_file_is_named(tmp_path):
    path = tmp_path / "verbs.tsv"
    path.write_text("verb\tclass\nrealize\tveridical\nhope\tfactive\n")
    with pytest.raises(SetiLexiconError, match=r"line 3: unknown verb class 'factive'.*veridical"):
        load_embedding_verbs(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("realize\tveridical\n", "no non_veridical verbs"),
        ("realize veridical\n", "expected 'verb<TAB>class'"),
        ("realize\tveridical\nrealize\tnon_veridical\n", "listed as veridical and non_veridical"),
    ],
)
def test_malformed_verb_files_say_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "verbs.tsv"
    path.write_text(text)
    with pytest.raises(SetiLexiconError, match=message):
        load_embedding_verbs(path)


def test_missing_verb_file_is_named(tmp_path):
    with pytest.raises(SetiLexiconError, match="does not exist"):
        load_embedding_verbs(tmp_path / "none.tsv")


@pytest.mark.parametrize(
    "line, message",
    [
        ("pizza\tn\tpizza.n.99", "not a WordNet 3.0 synset"),
        ("pizza\tn\tdog.n.01", "not a lemma of dog.n.01"),
        ("pizza\tn\tpizza.n.01\tdish.n.99", "not a WordNet 3.0 synset"),
        ("eat\tv\teat.v.01\t\ttransitive\tnoun.person", "object classes"),
        ("eat\tv\teat.v.01\t\ttransitive\tnoun.person\tnoun.snacks", "unknown WordNet supersense"),
    ],
)
def test_malformed_sentence_lexicons_name_the_line(tmp_path, line, message):
    path = tmp_path / "lexicon.tsv"
    path.write_text(f"man\tn\tman.n.01\nrun\tv\trun.v.01\t\tintransitive\tnoun.person\n{line}\n")
    with pytest.raises(SetiLexiconError, match=rf"line 3: .*{message}"):
        load_sentence_lexicon(path)


def test_build_help_documents_the_seti_inputs():
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "compsem.cli", "build", "seti", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    for flag in ("--out", "--config", "--sick", "--verbs", "--lexicon", "--sentences", "--seed"):
        assert flag in result.stdout
