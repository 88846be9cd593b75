"""WordNet through NLTK and the spaCy pipeline: found, or one clear error with the fix."""

import subprocess
import sys

import pytest

from compsem.cli import main
from compsem.resources.spacy_pipeline import SpacyModelMissingError, load_pipeline
from compsem.resources.wordnet import (
    WordNetMissingError,
    install_debian_wordnet,
    lexnames_text,
    wordnet,
)
from compsem.text.articles import copular_sentence, indefinite_article


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


def debian_dict(folder):
    """A stand-in for Debian's dict folder: the files setup-wordnet needs and one more."""
    folder.mkdir()
    for name in ("data.noun", "index.noun", "index.sense", "verb.exc"):
        (folder / name).write_text(f"WordNet's {name}\n")
    return folder


def test_setup_wordnet_never_overwrites_a_file_it_did_not_write(tmp_path, capsys):
    source = debian_dict(tmp_path / "dict")
    target = tmp_path / "wn_user"
    target.mkdir()
    (target / "lexnames").write_text("mine")
    (target / "data.noun").write_text("mine")
    (target / "README").write_text("my notes")
    argv = ["setup-wordnet", "--source", str(source), "--target", str(target)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "data.noun, lexnames, which compsem did not write" in err and "--target" in err
    # refused before any file is written
    assert sorted(p.name for p in target.iterdir()) == ["README", "data.noun", "lexnames"]
    assert (target / "lexnames").read_text() == (target / "data.noun").read_text() == "mine"
    (target / "lexnames").unlink()
    (target / "data.noun").unlink()
    assert main(argv) == 0
    assert (target / "lexnames").read_text() == lexnames_text()
    assert (target / "data.noun").read_text() == "WordNet's data.noun\n"
    assert (target / "README").read_text() == "my notes"
    # compsem's own files are rewritten when the source changes, unless changed since
    (source / "data.noun").write_text("WordNet's data.noun, patched\n")
    assert main(argv) == 0
    assert (target / "data.noun").read_text() == "WordNet's data.noun, patched\n"
    (target / "verb.exc").write_text("edited")
    assert main(argv) == 2 and "verb.exc, which compsem did not write" in capsys.readouterr().err
    assert (target / "verb.exc").read_text() == "edited"


def test_setup_wordnet_keeps_an_identical_install_and_refuses_a_file_target(tmp_path, capsys):
    source = debian_dict(tmp_path / "dict")
    old = tmp_path / "old-install"  # what an older compsem wrote: no list of its files
    old.mkdir()
    for path in source.iterdir():
        (old / path.name).write_bytes(path.read_bytes())
    (old / "lexnames").write_text(lexnames_text())
    before = {path.name: path.stat().st_mtime_ns for path in old.iterdir()}
    assert install_debian_wordnet(source=source, target=old) == old
    assert {path.name: path.stat().st_mtime_ns for path in old.iterdir()} == before
    (tmp_path / "notes.txt").write_text("mine")
    for target in (tmp_path / "notes.txt", tmp_path / "notes.txt" / "wordnet"):
        argv = ["setup-wordnet", "--source", str(source), "--target", str(target)]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "which is a file" in err or "notes.txt is a file" in err
        assert "Errno" not in err and "--target" in err
    assert (tmp_path / "notes.txt").read_text() == "mine"
