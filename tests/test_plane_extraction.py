"""PLANE's adjective-noun extraction on datatrove: sharding, resuming, counting, bad input.

The counts must not depend on how many tasks parsed the corpus, must equal a plain spaCy pass
over the same text, and must survive a run that stopped part-way.
"""

import json
from collections import Counter
from itertools import islice
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.builders.plane.config import PlaneConfig
from compsem.builders.plane.corpus import extraction
from compsem.builders.plane.corpus.extraction import (
    AN_SHARD_SCHEMA,
    DISABLED,
    OCCURRENCE_SCHEMA,
    adjective_forms,
    amod_arcs,
    amod_pairs,
    an_extraction_pipeline,
    an_pair_table,
    count_an_shards,
    pipeline_lemmatizer,
)
from compsem.builders.plane.corpus.source_yield import whole_source_yield
from compsem.builders.plane.items.pool import build_item_pool
from compsem.loading_scripts.corpora import GLOSS_PARTS, open_corpus, wordnet_glosses
from compsem.pipeline.runner import CorpusError, run_locally, shard_files, spacy_pipeline
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL

GLOSSES = list(islice(wordnet_glosses(), 20_000, 21_200))  # past the first synsets' jargon


@pytest.fixture(scope="module")
def four_files(tmp_path_factory) -> Path:
    """1,200 WordNet glosses dealt round-robin into four JSONL files (tasks share out files)."""
    folder = tmp_path_factory.mktemp("glosses")
    for index in range(4):
        rows = GLOSSES[index::4]
        (folder / f"part-{index}.jsonl").write_text(
            "".join(json.dumps({"text": t}) + "\n" for t in rows)
        )
    return folder


def extract(corpus: Path, work: Path, tasks: int, workers: int = 1) -> Path:
    run_locally(an_extraction_pipeline(open_corpus(corpus), work), work / "logs", tasks, workers)
    return work / "shards"


@pytest.fixture(scope="module")
def one_task(four_files, tmp_path_factory) -> Path:
    return extract(four_files, tmp_path_factory.mktemp("one-task"), tasks=1)


def test_counts_equal_a_plain_spacy_pass_over_the_same_text(one_task):
    # the whole pipeline, its lemmatizer run on every token: the extraction lemmatizes only the
    # words of its arcs, and must give their lemmas as the lemmatizer's own step does
    nlp = spacy_pipeline(DEFAULT_SPACY_MODEL, ("ner",))
    assert "lemmatizer" in nlp.pipe_names and "lemmatizer" in DISABLED
    expected = Counter(pair for doc in nlp.pipe(GLOSSES) for pair in amod_pairs(doc, None))
    counted = count_an_shards(shard_files(one_task))
    assert counted.equals(an_pair_table(expected))
    assert len(counted) > 300 and pq.read_schema(shard_files(one_task)[0]).metadata[
        b"compsem.parser"
    ].startswith(b"en_")


def test_four_tasks_give_the_counts_of_one_task(four_files, one_task, tmp_path):
    four = extract(four_files, tmp_path / "work", tasks=4, workers=2)
    assert len(shard_files(four)) == 4 and len(shard_files(one_task)) == 1
    assert count_an_shards(shard_files(four)).equals(count_an_shards(shard_files(one_task)))
    documents = sum(pq.ParquetFile(p).metadata.num_rows for p in shard_files(four))
    assert documents == len(GLOSSES)


def test_a_stopped_run_resumes_only_its_unfinished_tasks(four_files, one_task, tmp_path):
    work = tmp_path / "work"
    shards = extract(four_files, work, tasks=4)
    # Rank 2 stopped before completing: no completion mark, no finished shard.
    (work / "logs" / "completions" / "00002").unlink()
    (lost,) = [path for path in shard_files(shards) if path.stem.endswith("00002")]
    lost.unlink()
    kept = {path: path.stat().st_mtime_ns for path in shard_files(shards)}
    extract(four_files, work, tasks=4)
    assert all(path.stat().st_mtime_ns == mtime for path, mtime in kept.items())
    assert lost.is_file()
    assert count_an_shards(shard_files(shards)).equals(count_an_shards(shard_files(one_task)))


def test_counting_folds_partial_counts_into_the_same_totals(one_task, monkeypatch):
    whole = count_an_shards(shard_files(one_task))
    monkeypatch.setattr(extraction, "FOLD_ROWS", 10)
    assert count_an_shards(shard_files(one_task)).equals(whole)


def test_a_build_from_extracted_shards_equals_the_build_from_the_corpus(four_files, one_task):
    from_corpus = build_item_pool(PlaneConfig(name="c", corpus=str(four_files)))
    from_shards = build_item_pool(PlaneConfig(name="s", extracted=str(one_task)))
    assert len(from_corpus) > 100 and from_shards.equals(from_corpus)


def test_wordnet_glosses_are_read_in_order_from_their_cached_parts(tmp_path):
    corpus = open_corpus("wordnet_glosses")
    assert list(islice(corpus.documents(), 50)) == list(islice(wordnet_glosses(), 50))
    (reader,) = corpus.readers(tmp_path)
    assert len(reader.data_folder.list_files()) == GLOSS_PARTS


def test_unfinished_or_foreign_shards_are_refused_with_the_fix(four_files, tmp_path):
    work = tmp_path / "work"
    shards = extract(four_files, work, tasks=2)
    (work / "logs" / "completions" / "00001").unlink()
    with pytest.raises(CorpusError, match=r"not finished: 1 of 2 tasks \(ranks \[1\]\).*again"):
        build_item_pool(PlaneConfig(name="x", extracted=str(shards)))
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    pq.write_table(pa.table({"text": ["a red car"]}), foreign / "000.parquet")
    with pytest.raises(CorpusError, match="not a shard of compsem's PLANE extraction pipeline"):
        build_item_pool(PlaneConfig(name="x", extracted=str(foreign)))
    empty = tmp_path / "empty"
    empty.mkdir()
    pq.write_table(AN_SHARD_SCHEMA.empty_table(), empty / "000.parquet")
    with pytest.raises(CorpusError, match="holds no documents"):
        build_item_pool(PlaneConfig(name="x", extracted=str(empty)))
    with pytest.raises(ValueError, match="either a corpus or an extracted shards folder"):
        build_item_pool(PlaneConfig(name="x", corpus=str(four_files), extracted=str(shards)))


def test_arcs_keep_the_written_forms_of_their_words():
    nlp, lemmatizer = spacy_pipeline(DEFAULT_SPACY_MODEL, DISABLED), pipeline_lemmatizer()
    text = "Ferns need shade. An Australian fern grew by the former mills."
    arcs = list(amod_arcs(nlp(text), lemmatizer))
    assert ("australian", "fern", "Australian", "fern") in arcs
    assert ("former", "mill", "former", "mills") in arcs
    # Sentence-initial capitals say nothing of how the adjective is written.
    arcs = amod_arcs(nlp("Former mills closed."), lemmatizer)
    (initial,) = [arc for arc in arcs if arc[0] == "former"]
    assert initial[2] is None


def test_an_adjective_is_written_in_its_most_frequent_form():
    rows = [
        ("australian", "fern", "Australian", "fern", 3),
        ("australian", "fern", "australian", "ferns", 1),
        ("australian", "fern", None, "fern", 9),  # sentence-initial: not counted
        ("former", "mill", "former", "mill", 2),
        ("former", "mill", "Former", "mill", 1),
    ]
    names = OCCURRENCE_SCHEMA.names
    table = pa.Table.from_pylist(
        [dict(zip(names, r, strict=True)) for r in rows], OCCURRENCE_SCHEMA
    )
    assert adjective_forms(table) == {"australian": "Australian"}


def test_proper_adjectives_keep_their_capital_in_the_text_fields(tmp_path):
    corpus = tmp_path / "ferns.txt"
    corpus.write_text(
        "The botanists found an Australian fern near the river.\n"
        "Australian ferns grow in shade, and a Canadian fern grows in the cold.\n"
    )
    pool = build_item_pool(PlaneConfig(name="f", corpus=str(corpus))).to_pylist()
    (it1,) = [r for r in pool if r["adjective"] == "australian" and r["inference_type"] == 1]
    assert (
        it1["sentence"] == "An Australian fern is a fern." and it1["premise"] == "Australian fern"
    )
    it3 = [r for r in pool if r["adjective"] == "australian" and r["inference_type"] == 3]
    assert it3 and all(r["hypothesis"].startswith("Australian ") for r in it3)
    assert all(r["adjective"].islower() for r in pool)


@pytest.mark.slow
def test_the_yield_table_counts_each_sources_intensional_phrases(tmp_path):
    news, speech = tmp_path / "news.txt", tmp_path / "speech.txt"
    news.write_text("The former minister met a possible buyer.\nA fake gun was found.\n")
    speech.write_text("The former minister spoke of a potential crisis.\n")
    out = whole_source_yield([str(news), str(speech)], tasks=1, workers=1, out=tmp_path / "y.json")
    report = json.loads(out.read_text())
    rows = {Path(row["source"]).name: row for row in report["sources"]}
    assert rows["news.txt"]["documents"] == 2 and rows["news.txt"]["words"] == 12
    # former minister is in both sources; possible buyer and fake gun, potential crisis are not.
    assert rows["news.txt"]["intensional_phrases"] == 3
    assert rows["news.txt"]["intensional_phrases_only_here"] == 2
    assert rows["speech.txt"]["intensional_phrases_only_here"] == 1
    assert report["together"]["intensional_phrases"] == 4
