"""The Montague phrase sets: Appendix A, the paper's phrase counts, the PLANE vocabulary, the
hub-ready export and every bad lexicon."""

from collections import Counter
from itertools import permutations

import pytest
from datasets import ClassLabel, load_dataset

from compsem.benchmark.card import card_problems
from compsem.builders.montague.builder import (
    FEATURES,
    LEXICON_LABELS,
    TYPE_PAIRS,
    lexicon_table,
    phrase_table,
)
from compsem.builders.montague.lexicon import (
    ADJECTIVE_TYPES,
    NOUN,
    MontagueLexiconError,
    load_lexicon,
    parse_lexicon,
)
from compsem.builders.montague.plane_an import CONCRETE_LEXNAMES, type_of
from compsem.publish.export import export_benchmark
from compsem.resources.lexicon import load_adjective_lexicon
from tests.conftest import read_config
from tests.row_order import unrepresentative_prefixes

PAPER_CONFIGS = ["an", "aan", "lexicon"]


@pytest.fixture(scope="module")
def montague_export(tmp_path_factory):
    """Every config, exported once for the module."""
    out = tmp_path_factory.mktemp("exports") / "montague"
    export_benchmark("montague", out)
    return out


def test_appendix_a_has_the_papers_types_and_a_synonym_for_every_word():
    lexicon = load_lexicon()
    counts = Counter(entry.type for entry in lexicon.adjectives)
    # Table 1 counts each adjective with its synonym: 22, 12, 54, 28 and 6.
    assert [2 * counts[kind] for kind in ADJECTIVE_TYPES] == [22, 12, 54, 28, 6]
    assert len(lexicon.nouns) == 12
    assert all(entry.synonym for entry in lexicon.entries)
    assert lexicon.adjectives[0].word == "wild" and lexicon.nouns[-1].synonym == "declaration"


def test_phrase_counts_are_the_papers():
    lexicon = load_lexicon()
    an, aan = phrase_table(lexicon, 1), phrase_table(lexicon, 2)
    assert (len(an), len(aan)) == (732, 43_920)
    assert len(an) + len(aan) == 44_652  # §4.1.2


def test_every_aan_is_an_ordered_pair_of_distinct_adjectives_with_a_noun_once():
    lexicon = load_lexicon()
    rows = phrase_table(lexicon, 2).to_pylist()
    adjectives = [entry.word for entry in lexicon.adjectives]
    nouns = [entry.word for entry in lexicon.nouns]
    expected = Counter((a1, a2, n) for a1, a2 in permutations(adjectives, 2) for n in nouns)
    assert Counter(tuple(row["words"]) for row in rows) == expected
    assert len({row["id"] for row in rows}) == len(rows)


@pytest.mark.parametrize("adjectives_per_phrase", [1, 2])
def test_phrase_fields_agree_with_the_lexicon(adjectives_per_phrase):
    lexicon = load_lexicon()
    entry = {e.word: e for e in lexicon.entries}
    names = ADJECTIVE_TYPES if adjectives_per_phrase == 1 else TYPE_PAIRS
    for row in phrase_table(lexicon, adjectives_per_phrase).to_pylist():
        words = row["words"]
        assert row["phrase"] == " ".join(words)
        assert row["adjectives"] == words[:-1] and row["noun"] == words[-1]
        assert entry[row["noun"]].type == NOUN
        assert row["adjective_types"] == [entry[a].type for a in row["adjectives"]]
        assert row["synonyms"] == [entry[w].synonym for w in words]
        assert names[row["label"]] == ", ".join(row["adjective_types"])


def test_generation_is_deterministic():
    lexicon = load_lexicon()
    assert phrase_table(lexicon, 2).equals(phrase_table(load_lexicon(), 2))
    assert lexicon_table(lexicon).equals(lexicon_table(load_lexicon()))


@pytest.mark.parametrize(
    ("plane_class", "note", "expected"),
    [
        ("I", "colour", "subsective_intersective"),
        ("S", "skill", "subsective_non_intersective"),
        ("S", "size", "ambiguous"),
        ("S", "age", "ambiguous"),
        ("O", "privative", "privative_non_subsective"),
        ("O", "fictional", "privative_non_subsective"),
        ("O", "epistemic", "plain_non_subsective"),
        ("O", "temporal", "plain_non_subsective"),
    ],
)
def test_plane_classes_map_to_the_papers_types(plane_class, note, expected):
    assert type_of(plane_class, note) == expected


@pytest.mark.slow
def test_plane_an_covers_the_plane_lexicon_with_twelve_independent_nouns(montague_export):
    from compsem.resources.lexicon import default_lexicon_path
    from compsem.resources.wordnet import wordnet

    frame = read_config(montague_export, "plane_an")["test"]
    plane = load_adjective_lexicon()
    nouns = sorted(set(frame.noun))
    assert len(frame) == len(plane) * 12 and len(nouns) == 12
    # Every adjective's type is its PLANE class and note, mapped.
    lines = default_lexicon_path().read_text().splitlines()[1:]
    mapped = {a: type_of(c, note) for a, c, note in (line.split("\t") for line in lines)}
    assert dict(zip(frame.adjectives.str[0], frame.adjective_types.str[0], strict=True)) == mapped
    assert set(mapped.values()) == set(ADJECTIVE_TYPES)
    assert {mapped[a] for a in ("old", "small", "big")} == {"ambiguous"}  # as in the paper
    # The nouns are independent of Appendix A and of the adjectives.
    paper = {w.lower() for e in load_lexicon().entries for w in (e.word, e.synonym)}
    assert not (set(nouns) | set(frame.synonyms.str[-1])) & (paper | set(plane.classes))
    # Each noun and its synonym share their first noun sense; half the nouns are concrete.
    wn = wordnet()
    first = {noun: wn.synsets(noun, "n")[0] for noun in nouns}
    for noun, synonym in set(zip(frame.noun, frame.synonyms.str[-1], strict=True)):
        assert wn.synsets(synonym, "n")[0] == first[noun]
    assert sum(s.lexname() in CONCRETE_LEXNAMES for s in first.values()) == 6


@pytest.mark.slow
def test_load_dataset_reads_every_config_offline_with_class_labels(montague_export):
    sizes = {"an": 732, "aan": 43_920, "lexicon": 73, "plane_an": 5_664}
    for config, rows in sizes.items():
        dataset = load_dataset(str(montague_export), config)
        (split,) = dataset
        assert dataset[split].num_rows == rows
        assert dataset[split].features == FEATURES[{"plane_an": "an"}.get(config, config)]
        on_disk = read_config(montague_export, config)[split]
        assert dataset[split]["id"] == list(on_disk.id)
    an = load_dataset(str(montague_export), "an")["test"]
    assert an.features["label"] == ClassLabel(names=list(ADJECTIVE_TYPES))
    wild_student = next(row for row in an if row["words"] == ["wild", "student"])
    assert wild_student["synonyms"] == ["feral", "learner"]
    lexicon = load_dataset(str(montague_export), "lexicon")["train"]
    assert lexicon.features["label"].names == list(LEXICON_LABELS)


@pytest.mark.slow
def test_card_passes_the_hub_rules_and_shows_the_reference_results(montague_export):
    text = (montague_export / "README.md").read_text()
    assert card_problems(text) == []
    assert "carvalho-etal-2025-montague" in text and "61 × 60 × 12 = 43,920" in text
    assert "| all-MiniLM-L6-v2 |" in text and "| GloVe 6B 50d |" in text
    assert "compsem embed --dataset compsem/montague --model minilm --model glove --out DIR" in text
    assert "| occurence | noun | happening |" in text  # Appendix A, rendered from the TSV


@pytest.mark.slow
def test_same_inputs_give_identical_bytes(montague_export, tmp_path):
    export_benchmark("montague", tmp_path / "again", PAPER_CONFIGS)
    for config in PAPER_CONFIGS:
        for path in sorted((tmp_path / "again" / config).iterdir()):
            assert path.read_bytes() == (montague_export / config / path.name).read_bytes()


@pytest.mark.slow
def test_a_users_lexicon_replaces_appendix_a_and_drops_the_reference_results(tmp_path):
    path = tmp_path / "mine.tsv"
    path.write_text("word\ttype\tsynonym\nred\tS-I\tcrimson\nfake\tNS-Pr\tforged\n"
                    "old\tA\taged\ncar\tnoun\tautomobile\ngun\tnoun\tfirearm\n")  # fmt: skip
    export_benchmark("montague", tmp_path / "out", PAPER_CONFIGS, lexicon=str(path))
    sizes = {
        c: len(read_config(tmp_path / "out", c)[s])
        for c, s in zip(PAPER_CONFIGS, ["test", "test", "train"], strict=True)
    }
    assert sizes == {"an": 3 * 2, "aan": 3 * 2 * 2, "lexicon": 5}
    text = (tmp_path / "out" / "README.md").read_text()
    assert card_problems(text) == []
    assert "| all-MiniLM-L6-v2 |" not in text and "reference scores do not" in text
    assert "3 × 2 × 2 = 12" in text


# --- bad input ---------------------------------------------------------------------------------


def lexicon_file(tmp_path, text):
    path = tmp_path / "lexicon.tsv"
    path.write_text(text)
    return path


def test_an_empty_lexicon_fails_clearly_and_nothing_is_written(tmp_path):
    path = lexicon_file(tmp_path, "word\ttype\tsynonym\n")
    with pytest.raises(MontagueLexiconError, match="lists no adjectives"):
        export_benchmark("montague", tmp_path / "out", ["an"], lexicon=str(path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lexicon.tsv"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("red\tS-I\tcrimson\n", "lists no nouns"),
        ("red\tS-I\tcrimson\ndog\tnoun\tcanine\nred\tA\taged\n", r"line 3: 'red' is listed twice"),
        ("red\tcolourful\tcrimson\ndog\tnoun\n", r"line 1: unknown type 'colourful' for 'red'"),
        ("red car\tS-I\n", "is not one word"),
        ("red S-I crimson\n", r"expected 'word<TAB>type\[<TAB>synonym\]'"),
    ],
)
def test_a_malformed_lexicon_names_the_line_and_the_fix(text, message):
    with pytest.raises(MontagueLexiconError, match=message):
        parse_lexicon(text, "lexicon.tsv")


def test_aan_needs_two_adjectives():
    lexicon = parse_lexicon("fake\tNS-Pr\nmeal\tnoun\n", "one.tsv")
    assert len(phrase_table(lexicon, 1)) == 1
    with pytest.raises(MontagueLexiconError, match="need at least 2"):
        phrase_table(lexicon, 2)


def test_a_missing_lexicon_file_is_named(tmp_path):
    with pytest.raises(MontagueLexiconError, match="does not exist"):
        load_lexicon(tmp_path / "nope.tsv")


@pytest.mark.slow
def test_every_prefix_of_every_split_is_representative(montague_export):
    """Splits are stored shuffled, stratified: the first 100 rows of each hold every label and
    grouping field within 10 points of its share (so `--limit 100` scores a fair sample)."""
    assert unrepresentative_prefixes(montague_export) == {}
