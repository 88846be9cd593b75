"""PLANE's prompts: the two-shot prompts of §4 (two labelled premises and one masked hypothesis,
under each template of Table 2 and verbaliser of Table 3), the zero-shot prompts of Appendix B.1
(the masked hypothesis alone, read through Table 7's conversion table) and the two-shot items as
plain ⟨c1, c2⟩ pairs for NLI models (§5, Table 5). All three draw the same triplets."""

from __future__ import annotations

from itertools import product

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from compsem.builders.plane.config import ENTAILS, INFERENCE_TYPES, LABEL_NAMES
from compsem.files.fingerprint import row_id
from compsem.resources.lexicon import ADJECTIVE_CLASSES
from compsem.text.articles import with_article

# §4, Tables 2 and 3: two labelled premises and one masked hypothesis.
TEMPLATES = {
    "internal": "{c1} is a {verbaliser} example of {c2}.",
    "external": "{c1} is a type of {c2}:{verbaliser}.",
}
VERBALISERS = {
    "GP": ("poor", "good"),
    "TF": ("false", "true"),
    "PN": ("negative", "positive"),
}
# Appendix B.1, Table 7: the conversion table V of the zero-shot experiment, (✗, ✓) pairs; a
# prediction is positive when it is any ✓ word, negative when it is any ✗ word.
CONVERSION_TABLE = (
    ("poor", "good"),
    ("false", "true"),
    ("negative", "positive"),
    ("bad", "great"),
    ("impossible", "possible"),
    ("implausible", "plausible"),
    ("unacceptable", "acceptable"),
    ("weak", "strong"),
)
MASK = "{mask}"
PROMPT_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "prompt": datasets.Value("string"),
        "label": datasets.ClassLabel(names=LABEL_NAMES),
        "target": datasets.Value("string"),
        "negative_word": datasets.Value("string"),
        "positive_word": datasets.Value("string"),
        "template": datasets.Value("string"),
        "verbaliser": datasets.Value("string"),
        "premise_inference_types": datasets.Value("string"),
        "inference_type": datasets.Value("int8"),
        "adjective": datasets.Value("string"),
        "noun": datasets.Value("string"),
        "hypernym": datasets.Value("string"),
        "adjective_class": datasets.Value("string"),
    }
)


ZERO_SHOT_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "prompt": datasets.Value("string"),
        "label": datasets.ClassLabel(names=LABEL_NAMES),
        "negative_words": datasets.Sequence(datasets.Value("string")),
        "positive_words": datasets.Sequence(datasets.Value("string")),
        "template": datasets.Value("string"),
        "verbaliser": datasets.Value("string"),
        "inference_type": datasets.Value("int8"),
        "adjective": datasets.Value("string"),
        "noun": datasets.Value("string"),
        "hypernym": datasets.Value("string"),
        "adjective_class": datasets.Value("string"),
    }
)


def sampled_triplets(pool: pa.Table, triplets_per_class: int, rng: np.random.Generator) -> list:
    """§4's ⟨A, N, h(N)⟩ triplets (each an IT2 row of the pool), ``triplets_per_class`` per
    adjective class, drawn with ``rng``."""
    triplets = pool.filter(pc.equal(pool["inference_type"], 2))
    chosen = []
    for klass in ADJECTIVE_CLASSES:
        members = np.flatnonzero(
            pc.equal(triplets["adjective_class"], klass).to_numpy(zero_copy_only=False)
        )
        picked = rng.choice(members, size=min(triplets_per_class, len(members)), replace=False)
        chosen.extend(triplets.take(np.sort(picked)).to_pylist())
    return chosen


def two_shot_prompts(pool: pa.Table, triplets_per_class: int, rng: np.random.Generator) -> pa.Table:
    """§4: for sampled ⟨A, N, h(N)⟩ triplets, every hypothesis IT with the other two ITs as
    labelled premises in both orders, under each template (Table 2) and verbaliser (Table 3)."""
    triplets = sampled_triplets(pool, triplets_per_class, rng)
    rows = [row for triplet in triplets for row in _prompts_for(triplet)]
    return pa.Table.from_pylist(rows, schema=PROMPT_FEATURES.arrow_schema)


def zero_shot_prompts(
    pool: pa.Table, triplets_per_class: int, rng: np.random.Generator
) -> pa.Table:
    """Appendix B.1: the two-shot triplets' masked hypotheses alone, every IT under each
    template of Table 2, answered through Table 7's conversion table (no premises, so no
    verbaliser is shown to the model)."""
    negatives = [negative for negative, _ in CONVERSION_TABLE]
    positives = [positive for _, positive in CONVERSION_TABLE]
    rows = []
    for triplet in sampled_triplets(pool, triplets_per_class, rng):
        c1, c2 = _components(triplet)
        klass = triplet["adjective_class"]
        for template, it in product(TEMPLATES, INFERENCE_TYPES):
            triple = (triplet["adjective"], triplet["noun"], triplet["hypernym"])
            rows.append(
                {
                    "id": row_id("plane-zero-shot", *triple, it, template),
                    "prompt": _prompt_line(template, c1, c2[it], MASK),
                    "label": int(ENTAILS[klass][it - 1]),
                    "negative_words": negatives,
                    "positive_words": positives,
                    "template": template,
                    "verbaliser": "V",
                    "inference_type": it,
                    "adjective": triplet["adjective"],
                    "noun": triplet["noun"],
                    "hypernym": triplet["hypernym"],
                    "adjective_class": klass,
                }
            )
    return pa.Table.from_pylist(rows, schema=ZERO_SHOT_FEATURES.arrow_schema)


def two_shot_pairs(pool: pa.Table, triplets_per_class: int, rng: np.random.Generator) -> pa.Table:
    """§5 (Table 5): the items behind the two-shot prompts as the pool holds them, one row per
    ⟨c1, c2, label⟩ (IT1, IT2 and IT3 of each triplet; an IT1 item two triplets share once), for
    NLI models to classify ``premise`` ⇒ ``hypothesis``."""
    wanted = set()
    for triplet in sampled_triplets(pool, triplets_per_class, rng):
        an = (triplet["adjective"], triplet["noun"])
        wanted |= {(*an, None, 1), (*an, triplet["hypernym"], 2), (*an, triplet["hypernym"], 3)}
    keys = zip(
        *(pool[c].to_pylist() for c in ("adjective", "noun", "hypernym", "inference_type")),
        strict=True,
    )
    rows = [
        index
        for index, (a, n, h, it) in enumerate(keys)
        if (a, n, h if it != 1 else None, it) in wanted
    ]
    return pool.take(rows)


def _components(triplet: dict) -> tuple[str, dict[int, str]]:
    """c1 (the phrase as the corpus writes it, with its article) and c2 of each IT (Table 1)."""
    written = triplet["premise"].split(" ", 1)[0]  # the adjective as the corpus writes it
    c1 = with_article(triplet["premise"], capitalise=True)
    hypernym = triplet["hypernym"]
    return c1, {1: triplet["noun"], 2: hypernym, 3: f"{written} {hypernym}"}


def _prompt_line(template: str, c1: str, c2: str, verbaliser: str) -> str:
    """One premise or hypothesis of Table 2; the internal template puts an article before c2."""
    c2 = with_article(c2) if template == "internal" else c2
    return TEMPLATES[template].format(c1=c1, c2=c2, verbaliser=verbaliser)


def _prompts_for(triplet: dict) -> list[dict]:
    adjective, noun, hypernym = triplet["adjective"], triplet["noun"], triplet["hypernym"]
    klass = triplet["adjective_class"]
    c1, c2 = _components(triplet)
    rows = []
    for template, (verbaliser, words), it in product(
        TEMPLATES, VERBALISERS.items(), INFERENCE_TYPES
    ):
        others = [other for other in INFERENCE_TYPES if other != it]
        label = int(ENTAILS[klass][it - 1])
        for order in (others, others[::-1]):
            premises = [
                _prompt_line(template, c1, c2[p], words[ENTAILS[klass][p - 1]]) for p in order
            ]
            order_text = ",".join(map(str, order))
            rows.append(
                {
                    "id": row_id(
                        "plane-two-shot",
                        adjective,
                        noun,
                        hypernym,
                        it,
                        order_text,
                        template,
                        verbaliser,
                    ),
                    "prompt": " ".join([*premises, _prompt_line(template, c1, c2[it], MASK)]),
                    "label": label,
                    "target": words[label],
                    "negative_word": words[0],
                    "positive_word": words[1],
                    "template": template,
                    "verbaliser": verbaliser,
                    "premise_inference_types": order_text,
                    "inference_type": it,
                    "adjective": adjective,
                    "noun": noun,
                    "hypernym": hypernym,
                    "adjective_class": klass,
                }
            )
    return rows
