"""PLANE's two-shot prompts (§4): two labelled premises and one masked hypothesis, under each
template of Table 2 and verbaliser of Table 3."""

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


def two_shot_prompts(pool: pa.Table, triplets_per_class: int, rng: np.random.Generator) -> pa.Table:
    """§4: for sampled ⟨A, N, h(N)⟩ triplets, every hypothesis IT with the other two ITs as
    labelled premises in both orders, under each template (Table 2) and verbaliser (Table 3)."""
    triplets = pool.filter(pc.equal(pool["inference_type"], 2))
    rows = []
    for klass in ADJECTIVE_CLASSES:
        members = np.flatnonzero(
            pc.equal(triplets["adjective_class"], klass).to_numpy(zero_copy_only=False)
        )
        chosen = np.sort(
            rng.choice(members, size=min(triplets_per_class, len(members)), replace=False)
        )
        for triplet in triplets.take(chosen).to_pylist():
            rows.extend(_prompts_for(triplet))
    return pa.Table.from_pylist(rows, schema=PROMPT_FEATURES.arrow_schema)


def _prompt_line(template: str, c1: str, c2: str, verbaliser: str) -> str:
    """One premise or hypothesis of Table 2; the internal template puts an article before c2."""
    c2 = with_article(c2) if template == "internal" else c2
    return TEMPLATES[template].format(c1=c1, c2=c2, verbaliser=verbaliser)


def _prompts_for(triplet: dict) -> list[dict]:
    adjective, noun, hypernym = triplet["adjective"], triplet["noun"], triplet["hypernym"]
    klass = triplet["adjective_class"]
    written = triplet["premise"].split(" ", 1)[0]  # the adjective as the corpus writes it
    c1 = with_article(triplet["premise"], capitalise=True)
    c2 = {1: noun, 2: hypernym, 3: f"{written} {hypernym}"}
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
