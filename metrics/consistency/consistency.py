"""Montague consistency tests of adjective-noun phrase embeddings (Carvalho et al., §3.3-3.5)."""

import os
from collections.abc import Callable, Mapping, Sequence

import datasets
import evaluate
import numpy as np

_DESCRIPTION = """\
Three metamorphic tests of how an embedding model composes adjective-noun phrases (Carvalho et
al., §3.3-3.5), with d the cosine distance. Each score is the share of cases where the relation
holds, overall and per adjective type (or type pair):

- intersectivity (eq. 3): a phrase p = t1 … th is closer to each of its words than any two of its
  words are to each other: d(p, ti) ≤ d(tj, tk) for every i and every j < k. Reported per
  adjective type (AN) or tuple of types (AAN).
- pair_intersectivity (eq. 5): for adjectives a1 ≠ a2 and nouns n1 ≠ n2 whose four AN phrases are
  all given, d(a1 n1, a1 n2) ≤ d(a2 n1, a2 n2). Reported per (type of a1, type of a2); as
  both orders of each pair are tested, the overall score is 0.5 barring ties.
- non_subsectivity (eq. 7): an AN phrase is at least as close to its adjective as to its noun:
  d(an, a) ≤ d(an, n). Reported per adjective type.

An exact tie (the two sides of a relation equal) does not count as the relation holding: the
paper scores the truth of ≤, but a model that maps every string to one vector would then pass
every test (score 1.0). With ties failing, such a model scores 0, below the chance level of
random vectors (about 1/3 for AN intersectivity, 1/2 for the other two). The number of tied
cases is reported as `ties`, with a `note` when they are most cases.

Every distinct string (phrase or word) is embedded once, by a lookup in `embeddings` or by `model`.
"""

_KWARGS_DESCRIPTION = """
Args:
    phrases (`list` of `str`): the phrases as the model sees them, e.g. "fake gun".
    words (`list` of `list` of `str`): each phrase's words, adjectives first and the head noun
        last, e.g. ["fake", "gun"]. At least two words a phrase.
    types (`list` of `list` of `str`): one type per word, e.g. ["privative", "noun"]. Results are
        grouped by the types of the adjectives (all words but the last); the noun's type is kept
        for symmetry and not used.
    embeddings (`Mapping[str, vector]`, optional): a vector for every phrase and every word.
    model (optional, instead of `embeddings`): a sentence-transformers model name or folder, an
        object with an `encode(list_of_str)` method, or a callable mapping a list of strings to
        an array of shape (len(strings), dim).
    tests (`list` of `str`, optional): which of "intersectivity", "pair_intersectivity" and
        "non_subsectivity" to run (default: all three).
    batch_size (`int`, defaults to 256): batch size when `model` is a sentence-transformers model.
    return_cases (`bool`, defaults to `False`): also return, for intersectivity and
        non-subsectivity, whether each phrase's case holds (`cases`, a list of bool in phrase
        order; non-subsectivity's covers the AN phrases only). Pair intersectivity's cases are
        quadruples of phrases and are not returned.

Returns:
    For each test run, a dict with `score` (share of cases that hold, in [0, 1]; None without
    cases), `count` (cases tested) and `by_type` (the same two per type key: the adjective type,
    or types joined by ", " for AAN phrases and adjective pairs); with `return_cases`, `cases`.
    Where some cases are exact ties (which do not hold), also `ties` (how many), and where
    they are most cases a `note` saying the embeddings barely tell the strings apart.

Examples:
    >>> consistency = evaluate.load("consistency")
    >>> vectors = {"red": [1.0, 0.0], "fake": [0.0, 1.0], "car": [1.0, 1.0], "gun": [1.0, 0.2],
    ...            "red car": [1.0, 0.5], "fake car": [0.2, 1.0],
    ...            "red gun": [1.0, 0.1], "fake gun": [1.0, 0.6]}
    >>> results = consistency.compute(
    ...     phrases=["red car", "fake car", "red gun", "fake gun"],
    ...     words=[["red", "car"], ["fake", "car"], ["red", "gun"], ["fake", "gun"]],
    ...     types=[["intersective", "noun"], ["privative", "noun"]] * 2,
    ...     embeddings=vectors,
    ... )
    >>> results["intersectivity"]["score"], results["non_subsectivity"]["by_type"]["privative"]
    (1.0, {'score': 0.5, 'count': 2})
    >>> results["pair_intersectivity"]["by_type"]["intersective, privative"]
    {'score': 1.0, 'count': 1}
"""

_CITATION = """\
@inproceedings{carvalho-etal-2025-montague,
    title = "{M}ontague semantics and modifier consistency measurement in neural language models",
    author = "Carvalho, Danilo S. and Manino, Edoardo and Rozanova, Julia and Cordeiro, Lucas and Freitas, Andr{\\'e}",
    booktitle = "Proceedings of the 31st International Conference on Computational Linguistics",
    year = "2025",
    publisher = "Association for Computational Linguistics",
    note = "arXiv:2212.04310",
}
"""

TESTS = ("intersectivity", "pair_intersectivity", "non_subsectivity")
_CHUNK = 4096  # phrases per block, so gathered word vectors stay small


def _is_numeric(vector) -> bool:
    try:
        np.asarray(vector, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return True


def _is_list(value) -> bool:
    """A sequence of items (list, tuple, array), not a str or a scalar."""
    return not isinstance(value, (str, bytes, Mapping)) and hasattr(value, "__len__")


def check_phrases(phrases, words, types) -> None:
    """Raise one ValueError naming the first malformed phrase and how to fix it."""
    for name, value in (("phrases", phrases), ("words", words), ("types", types)):
        if not _is_list(value):
            raise ValueError(
                f"{name} is {value!r:.60}: pass phrases (a list of str), words (a list of word "
                "lists) and types (a list of type lists), one entry per phrase, e.g. "
                'phrases=["fake gun"], words=[["fake", "gun"]], types=[["privative", "noun"]]'
            )
    if not (len(phrases) == len(words) == len(types)):
        raise ValueError(
            f"phrases, words and types differ in length ({len(phrases)}, {len(words)}, "
            f"{len(types)}): give one list of words and one list of types per phrase"
        )
    if len(phrases) == 0:
        raise ValueError("no phrases given: pass at least one adjective-noun phrase")
    for index, (phrase, tokens, kinds) in enumerate(zip(phrases, words, types, strict=True)):
        if not isinstance(phrase, str) or not phrase:
            raise ValueError(f"phrase {index} is {phrase!r}: every phrase must be a non-empty str")
        if not _is_list(tokens) or len(tokens) < 2:
            raise ValueError(
                f"phrase {index} ({phrase!r}) has words {tokens!r}: give a list of at least two "
                'words, adjectives first and the noun last, e.g. ["fake", "gun"]'
            )
        if not _is_list(kinds) or len(kinds) != len(tokens):
            raise ValueError(
                f"phrase {index} ({phrase!r}) has {len(tokens)} words but types {kinds!r}: give "
                'one type per word, e.g. ["privative", "noun"]'
            )
        for value in (*tokens, *kinds):
            if not isinstance(value, str) or not value:
                raise ValueError(
                    f"phrase {index} ({phrase!r}) has word or type {value!r}: every word and "
                    "type must be a non-empty str"
                )


def _encode(strings: list, model, batch_size: int) -> np.ndarray:
    if isinstance(model, (str, os.PathLike)):
        # sentence-transformers is optional here, and takes seconds to import.
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(str(model))
    if hasattr(model, "encode"):
        return model.encode(
            strings,
            batch_size=batch_size,
            convert_to_numpy=True,
            show_progress_bar=len(strings) > 10 * batch_size,
        )
    if callable(model):
        return model(strings)
    raise ValueError(
        f"model must be a sentence-transformers name or folder, an object with encode() or a "
        f"callable; got {type(model).__name__}"
    )


def embed(
    strings: list,
    embeddings: Mapping | None = None,
    model: str | os.PathLike | Callable | None = None,
    batch_size: int = 256,
) -> np.ndarray:
    """Unit vectors (float64) for `strings`, looked up in `embeddings` or computed by `model`."""
    if (embeddings is None) == (model is None):
        raise ValueError(
            "pass exactly one of embeddings= (a mapping from every phrase and word to a vector) "
            "or model= (a sentence-transformers name or folder, or a callable)"
        )
    if embeddings is not None:
        missing = [text for text in strings if text not in embeddings]
        if missing:
            raise ValueError(
                f"embeddings lack {len(missing)} of the {len(strings)} phrases and words, e.g. "
                f"{missing[:5]}: add a vector for each (words too, not only phrases) or pass "
                "model= instead"
            )
        try:
            rows = [np.asarray(embeddings[text], dtype=np.float64) for text in strings]
        except (TypeError, ValueError):
            text = next(t for t in strings if not _is_numeric(embeddings[t]))
            raise ValueError(
                f"the embedding of {text!r} is {embeddings[text]!r:.60}, not a vector of numbers: "
                "give every phrase and word a list or array of floats"
            ) from None
        try:
            vectors = np.stack(rows)
        except ValueError:
            sizes = sorted({np.shape(embeddings[text]) for text in strings})
            raise ValueError(
                f"embeddings have differing shapes {sizes[:5]}: give every string a vector of "
                "the same dimension"
            ) from None
    else:
        vectors = np.asarray(_encode(strings, model, batch_size), dtype=np.float64)
        if vectors.shape[:1] != (len(strings),):
            raise ValueError(
                f"model returned shape {vectors.shape} for {len(strings)} strings: it must "
                "return one vector per string, an array of shape (len(strings), dim)"
            )
    if vectors.ndim != 2:
        raise ValueError(
            f"embeddings must be flat vectors; got an array of shape {vectors.shape[1:]} per "
            "string: pool them into one vector per phrase and word"
        )
    if not np.isfinite(vectors).all():
        bad = strings[int(np.flatnonzero(~np.isfinite(vectors).all(axis=1))[0])]
        raise ValueError(f"the embedding of {bad!r} has NaN or infinite values: fix or drop it")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    if (norms == 0).any():
        bad = strings[int(np.flatnonzero(norms[:, 0] == 0)[0])]
        raise ValueError(
            f"the embedding of {bad!r} is all zeros, so its cosine distance is undefined: give "
            "it a non-zero vector (for static vectors, drop out-of-vocabulary words)"
        )
    return vectors / norms


def _tally(
    keys: list, holds: np.ndarray, ties: np.ndarray, counts: np.ndarray | None = None
) -> dict:
    """Share of cases that hold, overall and per key; `counts` defaults to one case per key.
    `ties`: per key, how many cases tie exactly (and so do not hold); reported when any do,
    with a note when they are most cases."""
    counts = np.ones(len(keys), dtype=np.int64) if counts is None else counts
    total, held, tied = int(counts.sum()), int(holds.sum()), int(ties.sum())
    by_type = {}
    names, inverse = np.unique(np.asarray(keys, dtype=object), return_inverse=True)
    group_counts = np.bincount(inverse, weights=counts, minlength=len(names))
    group_holds = np.bincount(inverse, weights=holds, minlength=len(names))
    for name, count, hold in zip(names, group_counts, group_holds, strict=True):
        if count:
            by_type[str(name)] = {"score": float(hold / count), "count": int(count)}
    result = {"score": held / total if total else None, "count": total, "by_type": by_type}
    if tied:
        result["ties"] = tied
    if tied > total / 2:
        result["note"] = (
            f"{tied} of {total} cases are exact distance ties, which do not count as holding: "
            "the embeddings barely tell the strings apart (a collapsed or constant model?)"
        )
    return result


def _distance_rows(unit: np.ndarray, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Cosine distances between rows unit[left] and unit[right], elementwise, in blocks."""
    out = np.empty(left.shape, dtype=np.float64)
    flat_out, flat_left, flat_right = out.reshape(-1), left.reshape(-1), right.reshape(-1)
    for start in range(0, len(flat_left), _CHUNK * 4):
        block = slice(start, start + _CHUNK * 4)
        dots = np.einsum("ij,ij->i", unit[flat_left[block]], unit[flat_right[block]])
        flat_out[block] = 1.0 - dots
    return out


def intersectivity_holds(unit: np.ndarray, phrase_rows, word_rows) -> tuple[np.ndarray, np.ndarray]:
    """Whether eq. 3 holds for each phrase, max_i d(p, t_i) ≤ min_{j<k} d(t_j, t_k), with an exact
    tie not holding (see the module description); and whether the two sides tie."""
    holds = np.zeros(len(phrase_rows), dtype=bool)
    ties = np.zeros(len(phrase_rows), dtype=bool)
    lengths = np.array([len(rows) for rows in word_rows])
    for length in np.unique(lengths):
        members = np.flatnonzero(lengths == length)
        words = np.array([word_rows[i] for i in members], dtype=np.int64)  # (m, h)
        phrases = np.repeat(phrase_rows[members][:, None], length, axis=1)
        to_words = _distance_rows(unit, phrases, words).max(axis=1)
        j, k = np.triu_indices(length, 1)
        between_words = _distance_rows(unit, words[:, j], words[:, k]).min(axis=1)
        holds[members] = to_words < between_words
        ties[members] = to_words == between_words
    return holds, ties


def non_subsectivity_holds(
    unit: np.ndarray, phrase_rows, adjective_rows, noun_rows
) -> tuple[np.ndarray, np.ndarray]:
    """Whether eq. 7 holds for each AN phrase, d(an, a) ≤ d(an, n), with an exact tie not
    holding; and whether the two sides tie."""
    to_adjective = _distance_rows(unit, phrase_rows, adjective_rows)
    to_noun = _distance_rows(unit, phrase_rows, noun_rows)
    return to_adjective < to_noun, to_adjective == to_noun


def pair_intersectivity(unit: np.ndarray, phrase_rows, adjectives, nouns, adjective_types) -> dict:
    """Eq. 5 for every ordered a1 ≠ a2 and unordered n1 ≠ n2 whose four AN phrases exist."""
    adjective_names, a_index = np.unique(np.asarray(adjectives, dtype=object), return_inverse=True)
    noun_names, n_index = np.unique(np.asarray(nouns, dtype=object), return_inverse=True)
    type_of = {}
    for adjective, kind in zip(adjectives, adjective_types, strict=True):
        if type_of.setdefault(adjective, kind) != kind:
            raise ValueError(
                f"adjective {adjective!r} has types {type_of[adjective]!r} and {kind!r} in "
                "different AN phrases: give each adjective one type (e.g. 'ambiguous')"
            )
    n_adj, n_noun = len(adjective_names), len(noun_names)
    table = np.full((n_adj, n_noun), -1, dtype=np.int64)  # row of phrase "a n", -1 if absent
    table[a_index, n_index] = phrase_rows
    first, second = np.triu_indices(n_noun, 1)
    # distance[a, q] = d(a n1, a n2) for noun pair q, NaN where a phrase is missing.
    left, right = table[:, first], table[:, second]
    present = (left >= 0) & (right >= 0)
    distance = np.full(left.shape, np.nan)
    distance[present] = _distance_rows(unit, left[present], right[present])
    kinds, type_index = np.unique(
        np.asarray([type_of[name] for name in adjective_names], dtype=object), return_inverse=True
    )
    held = np.zeros((len(kinds), len(kinds)), dtype=np.int64)
    tested, tied = np.zeros_like(held), np.zeros_like(held)
    step = max(1, 20_000_000 // max(1, n_adj * len(first)))
    for start in range(0, n_adj, step):
        block = slice(start, start + step)
        a1 = distance[block][:, None, :]  # (b, 1, q) against every a2: (1, A, q)
        valid = present[block][:, None, :] & present[None, :, :]
        hold = ((a1 < distance[None, :, :]) & valid).sum(axis=2)
        tie = ((a1 == distance[None, :, :]) & valid).sum(axis=2)
        valid = valid.sum(axis=2)
        rows = np.arange(start, min(start + step, n_adj))
        for counts in (valid, hold, tie):
            counts[np.arange(len(rows)), rows] = 0  # a1 ≠ a2
        pairs = (type_index[rows][:, None], type_index[None, :])
        np.add.at(held, pairs, hold)
        np.add.at(tested, pairs, valid)
        np.add.at(tied, pairs, tie)
    keys = [f"{k1}, {k2}" for k1 in kinds for k2 in kinds]
    return _tally(keys, held.reshape(-1), tied.reshape(-1), tested.reshape(-1))


def consistency_scores(
    phrases: Sequence[str],
    words: Sequence[Sequence[str]],
    types: Sequence[Sequence[str]],
    embeddings: Mapping | None = None,
    model=None,
    tests: Sequence[str] = TESTS,
    batch_size: int = 256,
    return_cases: bool = False,
) -> dict:
    """Run the consistency tests (see the module description) and return their scores."""
    if isinstance(tests, str):  # a bare name: set("intersectivity") would list its letters
        tests = [tests]
    if not _is_list(tests):
        raise ValueError(
            f"tests is {tests!r:.60}: pass a list of test names from {list(TESTS)}, or leave it "
            "out to run all three"
        )
    unknown = sorted(set(tests) - set(TESTS))
    if unknown or not tests:
        raise ValueError(f"unknown tests {unknown or list(tests)}: choose from {list(TESTS)}")
    check_phrases(phrases, words, types)
    strings = sorted({*phrases, *(word for tokens in words for word in tokens)})
    unit = embed(strings, embeddings, model, batch_size)
    row = {text: index for index, text in enumerate(strings)}
    phrase_rows = np.array([row[text] for text in phrases], dtype=np.int64)
    word_rows = [[row[word] for word in tokens] for tokens in words]
    results = {}
    if "intersectivity" in tests:
        keys = [", ".join(kinds[:-1]) for kinds in types]
        holds, ties = intersectivity_holds(unit, phrase_rows, word_rows)
        results["intersectivity"] = _tally(keys, holds, ties)
        if return_cases:
            results["intersectivity"]["cases"] = holds.tolist()
    an = [index for index, tokens in enumerate(words) if len(tokens) == 2]
    adjective_rows = np.array([word_rows[i][0] for i in an], dtype=np.int64)
    noun_rows = np.array([word_rows[i][1] for i in an], dtype=np.int64)
    adjective_types = [types[i][0] for i in an]
    if "pair_intersectivity" in tests:
        adjectives, nouns = [words[i][0] for i in an], [words[i][1] for i in an]
        results["pair_intersectivity"] = pair_intersectivity(
            unit, phrase_rows[an], adjectives, nouns, adjective_types
        )
    if "non_subsectivity" in tests:
        holds, ties = non_subsectivity_holds(unit, phrase_rows[an], adjective_rows, noun_rows)
        results["non_subsectivity"] = _tally(adjective_types, holds, ties)
        if return_cases:
            results["non_subsectivity"]["cases"] = holds.tolist()
    return results


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Consistency(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "phrases": datasets.Value("string"),
                    "words": datasets.Sequence(datasets.Value("string")),
                    "types": datasets.Sequence(datasets.Value("string")),
                }
            ),
            reference_urls=["https://github.com/dscarvalho/modifiers_consistency"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the consistency scores."""
        names = ("phrases", "words", "types")
        inputs = [kwargs.get(name) for name in names]
        missing = [name for name, value in zip(names, inputs, strict=True) if value is None]
        if 0 < len(missing) < len(names):
            raise ValueError(
                f"compute() got {', '.join(n for n in names if n not in missing)} but no "
                f"{' or '.join(missing)}: pass phrases, words and types together (one entry "
                "each per phrase), or all three through add_batch()"
            )
        if missing and self.writer is None:
            raise ValueError(
                "no phrases given: pass phrases, words and types to compute(), or add them "
                "with add_batch() first"
            )
        if self.num_process == 1 and self.writer is None and all(x is not None for x in inputs):
            # Nothing stored yet: skip evaluate's row-by-row Arrow round trip.
            return self._compute(**kwargs)
        return super().compute(predictions=predictions, references=references, **kwargs)

    def _compute(self, phrases, words, types, **kwargs):
        return consistency_scores(phrases, words, types, **kwargs)
