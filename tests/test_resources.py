"""WordNet through NLTK and the spaCy pipeline: found, or one clear error with the fix."""

import subprocess
import sys

import pytest

from compsem.resources.spacy_pipeline import SpacyModelMissingError, load_pipeline
from compsem.resources.wordnet import (
    WordNetMissingError,
    install_debian_wordnet,
    lexnames_text,
    wordnet,
)
from compsem.text import copular_sentence, indefinite_article


def test_wordnet_is_version_3_0():
    wn = wordnet()
    assert wn.get_version() == "3.0"
    assert wn.synsets("gun", "n")[0].hypernyms()[0].name() == "weapon.n.01"


def test_lexnames_has_the_45_lexicographer_files():
    lines = [line.split("\t") for line in lexnames_text().splitlines()]
    assert len(lines) == 45
    assert lines[0] == ["00", "adj.all", "3"] and lines[18] == ["18", "noun.person", "1"]
    assert lines[44] == ["44", "adj.ppl", "3"]


def test_debian_install_needs_the_dict_files(tmp_path):
    with pytest.raises(WordNetMissingError, match="index.sense.*apt-get install"):
        install_debian_wordnet(source=tmp_path, target=tmp_path / "out")


def test_missing_wordnet_is_one_clear_error():
    script = (
        "import nltk; nltk.data.path[:] = []\n"
        "from compsem.resources.wordnet import wordnet\n"
        "wordnet()\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode != 0
    assert "WordNetMissingError: WordNet 3.0 was not found" in result.stderr
    assert "apt-get install -y --no-install-recommends wordnet-base" in result.stderr


def test_spacy_pipeline_parses_and_a_missing_one_says_how_to_install():
    doc = load_pipeline()("A fake gun was found.")
    assert [t.dep_ for t in doc if t.text == "fake"] == ["amod"]
    with pytest.raises(SpacyModelMissingError, match="python -m spacy download en_core_web_zz"):
        load_pipeline("en_core_web_zz")


@pytest.mark.parametrize(
    "phrase, article",
    [
        ("fake gun", "a"),
        ("old car", "an"),
        ("hour", "an"),
        ("unicorn", "a"),
        ("european", "a"),
        ("Ukrainian ship", "a"),
        ("Australian fern", "an"),
    ],
)
def test_indefinite_article_by_sound(phrase, article):
    assert indefinite_article(phrase) == article


def test_copular_sentence():
    assert copular_sentence("intelligent elephant", "animal") == (
        "An intelligent elephant is an animal."
    )
