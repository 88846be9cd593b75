"""The adjective lexicon: the shipped one, and a user's file with every kind of bad line."""

import pytest

from compsem.resources.lexicon import LexiconError, load_adjective_lexicon, parse_adjective_lexicon
from compsem.resources.wordnet import wordnet


def test_shipped_lexicon_has_300_adjectives_in_three_classes():
    lexicon = load_adjective_lexicon()
    assert len(lexicon) >= 300
    counts = {klass: list(lexicon.classes.values()).count(klass) for klass in "ISO"}
    assert min(counts.values()) >= 30, counts


def test_every_shipped_adjective_is_a_wordnet_adjective():
    wn = wordnet()
    unknown = [
        adjective
        for adjective in load_adjective_lexicon().classes
        if not (wn.synsets(adjective, pos="a") or wn.synsets(adjective, pos="s"))
    ]
    assert unknown == []


def test_user_lexicon_with_header_notes_and_original_class_letters(tmp_path):
    path = tmp_path / "mine.tsv"
    path.write_text("adjective\tclass\tnote\nRed\tI\tcolour\nbig\tN\nfake\tO\tprivative\n")
    assert load_adjective_lexicon(path).classes == {"red": "I", "big": "S", "fake": "O"}


@pytest.mark.parametrize(
    "text, message",
    [
        ("red I colour\n", r"line 1: expected 'adjective<TAB>class\[<TAB>note\]'"),
        ("red\tX\n", r"line 1: unknown class 'X' for 'red'; use one of I .*S .*O"),
        ("red\tI\nred\tS\n", r"line 2: 'red' is listed again \(first on line 1, as I; here as S\)"),
        ("red\tI\nred\tI\n", r"line 2: 'red' is listed again"),
        ("\n# only a comment\n", "lists no adjectives"),
    ],
)
def test_malformed_lexicon_lines_are_named(text, message):
    with pytest.raises(LexiconError, match=message):
        parse_adjective_lexicon(text, "mine.tsv")


def test_a_byte_order_mark_does_not_hide_the_first_adjective(tmp_path):
    path = tmp_path / "excel.tsv"
    path.write_bytes("red\tI\nfake\tO\n".encode("utf-8-sig"))
    assert load_adjective_lexicon(path).classes == {"red": "I", "fake": "O"}
    path.write_bytes("adjective\tclass\nred\tI\n".encode("utf-8-sig"))
    assert load_adjective_lexicon(path).classes == {"red": "I"}


def test_bytes_that_are_not_utf8_name_file_and_line(tmp_path):
    path = tmp_path / "latin1.tsv"
    path.write_bytes("red\tI\ncaf\xe9\tI\n".encode("latin-1"))
    with pytest.raises(LexiconError, match=r"latin1.tsv, line 2: byte 0xe9 is not UTF-8; save"):
        load_adjective_lexicon(path)


def test_missing_lexicon_file(tmp_path):
    with pytest.raises(LexiconError, match="does not exist"):
        load_adjective_lexicon(tmp_path / "nope.tsv")
