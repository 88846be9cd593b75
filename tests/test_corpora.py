"""Corpus readers: every supported source, in order, and malformed input named precisely."""

import json
import threading
from itertools import islice

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.loading_scripts.corpora import (
    WORDNET_DATA_FILES,
    gloss_texts,
    open_corpus,
    wordnet_glosses,
)
from compsem.pipeline.corpus_readers import JsonlLinesReader, ParquetFileReader
from compsem.pipeline.runner import CorpusError, exclusive
from compsem.resources.wordnet import wordnet

TEXTS = ["A red car stopped.", "The old man smiled.", "A fake gun was found."]


def test_text_jsonl_parquet_and_folder_read_the_same_documents(tmp_path):
    (tmp_path / "a.txt").write_text("\n".join(TEXTS) + "\n\n")
    (tmp_path / "b.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in TEXTS))
    pq.write_table(pa.table({"text": TEXTS}), tmp_path / "c.parquet")
    for name in ("a.txt", "b.jsonl", "c.parquet"):
        assert list(open_corpus(tmp_path / name).documents()) == TEXTS
    assert list(open_corpus(tmp_path).documents()) == TEXTS * 3


def test_saved_datasets_folder_is_a_corpus(tmp_path):
    from datasets import Dataset

    Dataset.from_dict({"body": TEXTS}).save_to_disk(str(tmp_path / "saved"))
    corpus = open_corpus(tmp_path / "saved", text_column="body")
    assert list(corpus.documents()) == TEXTS


def test_fingerprint_follows_content(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("one\n")
    first = open_corpus(path).fingerprint
    path.write_text("two\n")
    assert open_corpus(path).fingerprint != first


def test_wordnet_glosses_are_definitions_and_examples():
    first = list(zip(range(4), wordnet_glosses(), strict=False))
    assert all(isinstance(text, str) and text for _, text in first)


def test_glosses_read_from_the_data_files_are_nltks():
    """The data files read directly give what NLTK's synsets give: the same stream at its start,
    and the same definition and examples for every 25th synset of each file (all 117,659 take
    NLTK too long to check here)."""
    reader = wordnet()
    expected = (
        text
        for synset in reader.all_synsets()
        for text in (synset.definition(), *synset.examples())
    )
    assert list(islice(wordnet_glosses(), 3_000)) == list(islice(expected, 3_000))
    checked = 0
    for part in WORDNET_DATA_FILES:
        lines = reader.abspath(f"data.{part}").open().read().decode("utf8").splitlines()
        for line in [line for line in lines if not line[:1].isspace()][::25]:
            offset, _, pos = line.split()[:3]
            synset = reader.synset_from_pos_and_offset(pos, int(offset))
            assert list(gloss_texts(line)) == [synset.definition(), *synset.examples()], line
            checked += 1
    assert checked > 4_000


def test_malformed_jsonl_line_is_named(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "fine"}\n{not json}\n')
    with pytest.raises(CorpusError, match=r"bad.jsonl, line 2: not valid JSON"):
        list(open_corpus(path).documents())


def test_missing_text_field_names_the_record_and_suggests_the_flag(tmp_path):
    pq.write_table(pa.table({"body": TEXTS}), tmp_path / "c.parquet")
    (tmp_path / "d.jsonl").write_text('{"text": "fine"}\n{"body": "elsewhere"}\n')
    for name, where in (("c.parquet", "row 0"), ("d.jsonl", "line 2")):
        with pytest.raises(
            CorpusError, match=rf"{name}, {where}: no text field 'text'.*--text-column"
        ):
            list(open_corpus(tmp_path / name).documents())


def test_unreadable_spec_lists_what_is_accepted(tmp_path):
    (tmp_path / "table.csv").write_text("text\nA red car.\n")
    with pytest.raises(CorpusError, match="give 'wordnet_glosses'"):
        open_corpus(tmp_path / "table.csv")
    with pytest.raises(CorpusError, match="missing.txt' not found: no such file or folder"):
        open_corpus(tmp_path / "missing.txt")


def test_a_second_build_of_the_same_corpus_waits_for_the_first(tmp_path):
    """Two builds sharing a cache folder take turns, so neither reads a half-written shard."""
    lock = tmp_path / "key.lock"
    entered = threading.Event()

    def second_build():
        with exclusive(lock):
            entered.set()

    with exclusive(lock):
        waiter = threading.Thread(target=second_build)
        waiter.start()
        assert not entered.wait(0.5)
    assert entered.wait(10)
    waiter.join()


def test_the_first_task_s_document_bar_has_a_total(tmp_path, capsys):
    (tmp_path / "a.jsonl").write_text('{"text": "one"}\n\n{"text": "two"}\n{"text": "three"}\n')
    pq.write_table(pa.table({"text": ["four", "five"]}), tmp_path / "b.parquet")
    for reader, name in ((JsonlLinesReader, "a.jsonl"), (ParquetFileReader, "b.parquet")):
        paths = tmp_path / f"{name}.paths"
        paths.write_text(name + "\n")
        texts = [
            doc.text
            for doc in reader(str(tmp_path), paths_file=str(paths), doc_progress=True).run()
        ]
        bar = capsys.readouterr().err
        assert f"{len(texts)}/{len(texts)}" in bar, bar
        # the other tasks draw no bar
        list(
            reader(str(tmp_path), paths_file=str(paths), doc_progress=True).run(
                rank=1, world_size=2
            )
        )
        assert "Document progress" not in capsys.readouterr().err
