"""BoOQA's building blocks as specifications: relation triples from a parse (App. D), hyponym
replacements of predicate spans, and the sampling of bundles, windows and frequency buckets."""

import numpy as np
import pyarrow as pa
import pytest

from compsem.builders.booqa.audit import bundles_whole, no_shared_proposition, time_spans_disjoint
from compsem.builders.booqa.corpus.relations import realise, relation_triples
from compsem.builders.booqa.sampling.bundles import (
    bucket_labels,
    frequency_bucket,
    sample_bundles,
    time_split,
)
from compsem.builders.booqa.sampling.predicate_hyponyms import hyponym_replacements, span_pos
from compsem.pipeline.runner import spacy_pipeline


@pytest.fixture(scope="module")
def triples_of():
    nlp = spacy_pipeline()

    def parse(text: str) -> set[tuple[str, str, str]]:
        return {(t["subject"], t["predicate"], t["object"]) for t in relation_triples(nlp(text))}

    return parse


def test_predicates_keep_particles_prepositions_and_discontinuous_parts(triples_of):
    assert ("Calder Motors", "take over", "Brightwater Batteries") in triples_of(
        "Calder Motors took over Brightwater Batteries on Monday."
    )
    played = triples_of("Federer played a practice game with Nadal before the final.")
    assert ("Federer", "play practice game with", "Nadal") in played
    assert ("Elena Varga", "criticise over", "harbour project") in triples_of(
        "Elena Varga criticised Tomas Brandt over the delayed harbour project."
    )


def test_passives_with_an_agent_become_active_and_negated_verbs_give_nothing(triples_of):
    assert triples_of("Apple was acquired by Microsoft last year.") == {
        ("Microsoft", "acquire", "Apple")
    }
    assert triples_of("The senator did not visit Paris.") == set()


def test_arguments_are_head_phrases_without_dates(triples_of):
    found = triples_of("The United States imposed new sanctions on Iran on Monday.")
    assert ("United States", "impose sanction on", "Iran") in found
    assert not any("Monday" in (s, o) for s, _, o in found)
    assert ("Obama", "be president of", "United States") in triples_of(
        "Obama is president of the United States."
    )


def test_hypotheses_are_present_tense_clauses():
    assert realise("Federer", "play game with", "Nadal") == "Federer plays game with Nadal"
    assert realise("Obama", "be president of", "Iran") == "Obama is president of Iran"
    assert realise("Port Ellis", "rout", "Calder City") == "Port Ellis routs Calder City"


def test_hyponym_replacements_cover_verb_and_noun_spans_with_their_synonyms():
    candidates = dict(hyponym_replacements("criticise", "V"))
    assert {"denounce", "blame", "rebuke", "censure"} <= set(candidates)
    assert "scold" in candidates["rebuke"] and "rebuke" in candidates["rebuke"]
    assert "criticise" not in candidates
    signed = dict(hyponym_replacements("sign agreement with", "VNP"))
    assert signed["sign deal with"] == ("sign bargain with", "sign deal with")
    assert all(candidate.endswith(" with") for candidate in signed)  # prepositions stay


def test_only_verb_and_noun_spans_are_looked_up():
    assert span_pos("V") == span_pos("VRP") == "v"
    assert span_pos("NN") == "n"
    assert span_pos("P") is span_pos("VN") is span_pos("A") is None
    with pytest.raises(ValueError, match="words but tags"):
        hyponym_replacements("play game with", "VN")


def test_frequency_buckets_follow_the_boundaries():
    boundaries = (60, 100, 300)
    assert frequency_bucket([30, 60, 99, 100, 5000], boundaries).tolist() == [0, 1, 1, 2, 3]
    assert bucket_labels(boundaries) == ["<60", "60-99", "100-299", "300+"]


def population(rng, windows, per_window, negatives=3):
    window = np.repeat(np.arange(len(windows)), per_window)
    frequency = rng.integers(30, 400, len(window))
    negative = [rng.integers(30, 400, rng.integers(0, negatives + 1)) for _ in window]
    return window, frequency, negative


def test_bundles_stay_whole_and_take_at_most_two_negatives():
    rng = np.random.default_rng(0)
    window, frequency, negative = population(rng, [10, 10], 200)
    bundles = sample_bundles(window, frequency, negative, {0: 10, 1: 10}, 150, (100, 200), rng)
    assert len(bundles) == 150
    assert len({b.positive for b in bundles}) == 150
    for bundle in bundles:
        assert 1 <= len(bundle.negatives) <= 2
        assert len(set(bundle.negatives)) == len(bundle.negatives)
        assert all(0 <= i < len(negative[bundle.positive]) for i in bundle.negatives)


def test_windows_are_sampled_in_proportion_to_their_articles():
    rng = np.random.default_rng(1)
    window, frequency, negative = population(rng, [300, 100], 2000)
    bundles = sample_bundles(window, frequency, negative, {0: 300, 1: 100}, 400, (1000,), rng)
    drawn = np.bincount(window[[b.positive for b in bundles]], minlength=2)
    assert 2.5 < drawn[0] / drawn[1] < 3.6


def test_negatives_are_drawn_per_frequency_bucket_like_the_positives():
    rng = np.random.default_rng(2)
    n = 3000
    window = np.zeros(n, dtype=int)
    frequency = rng.choice([50, 150], n, p=[0.7, 0.3])  # positives: 70% low, 30% high
    negative = [rng.choice([50, 150], 4, p=[0.2, 0.8]) for _ in range(n)]  # mostly high
    bundles = sample_bundles(window, frequency, negative, {0: 1}, 500, (100,), rng)
    chosen = np.concatenate([negative[b.positive][list(b.negatives)] for b in bundles])
    low = np.mean(chosen < 100)
    assert abs(low - 0.7) < 0.05  # matches the positives' share, not the candidates' 20%


def test_time_split_is_chronological_and_disjoint():
    windows = np.arange(10, 20)
    first = time_split(windows, np.full(10, 5), 0.5)
    assert windows[first].max() < windows[~first].min()
    assert first.sum() == 5
    assert time_split(np.array([3, 4]), np.array([100, 1]), 0.5).tolist() == [True, False]
    with pytest.raises(ValueError, match="two windows"):
        time_split(np.array([3]), np.array([1]), 0.5)


def entries(rows: list[tuple]) -> pa.Table:
    names = ("id", "bundle_id", "label", "subject", "predicate", "object")
    names += ("window_start", "window_end")
    return pa.Table.from_pylist([dict(zip(names, row, strict=True)) for row in rows])


def test_the_audit_checks_catch_broken_promises():
    first, second = ("2020-01-01", "2020-01-03"), ("2020-01-04", "2020-01-06")
    dev = entries(
        [("p1", "p1", 1, "A", "beat", "B", *first), ("n1", "p1", 0, "A", "rout", "B", *first)]
    )
    test = entries(
        [("p2", "p2", 1, "A", "beat", "B", *second), ("n2", "p2", 0, "A", "rout", "B", *second)]
    )
    assert time_spans_disjoint({"dev": dev, "test": test}).passed
    assert not time_spans_disjoint({"dev": test, "test": dev}).passed
    assert bundles_whole({"dev": dev, "test": test}).passed
    assert not bundles_whole({"dev": dev.slice(0, 1), "test": test}).passed  # a lone positive
    assert not bundles_whole({"dev": dev, "test": dev.slice(1, 1)}).passed  # split across
    assert not no_shared_proposition({"train": dev, "test": test}).passed
    assert no_shared_proposition({"train": dev.slice(0, 1), "test": test.slice(1, 1)}).passed


def test_only_pairs_with_enough_named_entities_can_star():
    from compsem.builders.booqa.sampling.propositions import _typed_pairs

    stats = pa.table(
        {
            "key": [1, 2, 3],
            "window": [0, 0, 1],
            "a": ["Fed", "Fed", "Fed"],
            "b": ["IMF", "rate", "IMF"],
        }
    )
    types = pa.table({"window": [0, 0], "argument": ["Fed", "IMF"], "type": ["ORG", "ORG"]})
    assert _typed_pairs(stats, types, 2)["key"].to_pylist() == [1]
    assert _typed_pairs(stats, types, 1)["key"].to_pylist() == [1, 2]  # window 1 knows no type


def test_a_dev_of_few_bundles_still_gives_dev2_a_bundle():
    # The tiny preset on Reuters gives dev two bundles of two rows: train filled first and
    # left dev2 empty, which datasets cannot load ("dev2" corresponds to no data).
    import numpy as np
    import pyarrow as pa

    from compsem.builders.booqa.splits import _carve

    dev = pa.table({"bundle_id": ["a", "a", "b", "b"], "row": [0, 1, 2, 3]})
    carved = _carve(dev, (24, 8), np.random.default_rng(0))
    assert (len(carved["train"]), len(carved["dev2"])) == (2, 2)
