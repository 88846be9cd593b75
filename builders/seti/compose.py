"""SETI's inference types and the pool of every row they can make (§3.1, Tables 2 and 3).

From natural-inference pairs s → s′ and the embedding verbs, the pool holds

- PI_ver: ``Someone <verb>s that s`` → s for every premise s of a lexical pair and every verb
  (entailment exactly for veridical verbs);
- PI_nat: the pairs themselves (kind ``lex`` or ``stru``);
- CI: ``Someone <verb>s that s`` → s′ for every pair and verb, labelled by Table 3's Boolean
  rules: veridical ∧ entailed → entailment (①), anything else non-entailment (②–④).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from compsem.builders.seti.lexicon import VERB_CLASSES, EmbeddingVerbs
from compsem.files.fingerprint import row_id
from compsem.text.inflection import third_person_singular

NAT_TYPES = ("lex", "stru")
NAT_LABEL_NAMES = ("non_entailment", "entailment")
SIDES = ("train", "test", "few_shot")
UNUSED = -1
# Table 3's composition rules ① … ④, as the ``rule`` column writes them.
RULES = ("T∧T→T", "T∧F→F", "F∧T→F", "F∧F→F")


@dataclass(frozen=True)
class InferenceType:
    """One inference type of the paper's equations, e.g. f_v(s) →lex+ s′ (``ci``, veridical,
    lex, 1) or s ↛stru s′ (``stru``, None, stru, 0)."""

    kind: str  # ver | lex | stru | ci
    verb_class: str | None = None
    nat_type: str | None = None
    nat_label: int | None = None

    def __post_init__(self):
        if self.verb_class is not None and self.verb_class not in VERB_CLASSES:
            raise ValueError(
                f"Unknown verb class {self.verb_class!r}; use one of {', '.join(VERB_CLASSES)}."
            )

    @property
    def veridical(self) -> bool:
        return self.verb_class == "veridical"

    @property
    def label(self) -> int:
        """Table 3: a composition entails iff both its primitives do."""
        if self.kind == "ver":
            return int(self.veridical)
        if self.kind == "ci":
            return int(self.veridical and bool(self.nat_label))
        return int(self.nat_label)

    @property
    def rule(self) -> str:
        """Table 3's Boolean rule for a composition (①–④ as T∧T→T … F∧F→F); for a primitive,
        whether it holds (T) or not (F)."""
        truth = "TF"[1 - self.label]
        if self.kind != "ci":
            return truth
        return f"{'TF'[not self.veridical]}∧{'TF'[not self.nat_label]}→{truth}"

    @property
    def notation(self) -> str:
        """The paper's notation: f_v(s) → s, s ↛lex s′, f_nv(s) →stru+ s′ …"""
        verb = "f_v(s)" if self.veridical else "f_nv(s)"
        if self.kind == "ver":
            return f"{verb} {'→' if self.label else '↛'} s"
        if self.kind == "ci":
            return f"{verb} →{self.nat_type}{'+' if self.nat_label else '-'} s′"
        return f"s {'→' if self.label else '↛'}{self.nat_type} s′"


def ver(verb_class: str) -> InferenceType:
    return InferenceType("ver", verb_class=verb_class)


def nat(nat_type: str, label: int) -> InferenceType:
    return InferenceType(nat_type, nat_type=nat_type, nat_label=label)


def ci(verb_class: str, nat_type: str, label: int) -> InferenceType:
    return InferenceType("ci", verb_class=verb_class, nat_type=nat_type, nat_label=label)


ALL_TYPES = (
    *(ver(klass) for klass in VERB_CLASSES),
    *(nat(kind, label) for kind in NAT_TYPES for label in (1, 0)),
    *(ci(klass, kind, label) for klass in VERB_CLASSES for kind in NAT_TYPES for label in (1, 0)),
)
TYPE_CODES = {inference_type: code for code, inference_type in enumerate(ALL_TYPES)}


def embed(verbs: list[str], sentences: list[str]) -> list[str]:
    """``Someone <verb>s that <s>`` with s's first word lowercased (unless it is "I" or an
    acronym)."""
    forms = {verb: third_person_singular(verb) for verb in set(verbs)}
    return [
        f"Someone {forms[verb]} that {_lower_first(sentence)}"
        for verb, sentence in zip(verbs, sentences, strict=True)
    ]


def _lower_first(sentence: str) -> str:
    first = sentence.split(" ", 1)[0]
    if first == "I" or (len(first) > 1 and first.isupper()):
        return sentence
    return sentence[:1].lower() + sentence[1:]


def sentence_sides(pairs: pa.Table, shares: tuple[float, ...], rng: np.random.Generator):
    """A side (train, test, few-shot) for every natural pair such that no sentence, as s or s′,
    lies on two sides (§3.2's non-trivial settings). Premises are dealt to sides at random by
    ``shares``; a pair takes its premise's side, and is unused (-1) when its s′ already lies on
    another side. Returns (pair sides, {sentence id: side})."""
    s_ids, s_prime_ids = pairs["s_id"].to_pylist(), pairs["s_prime_id"].to_pylist()
    premises = list(dict.fromkeys(s_ids))
    side = dict(
        zip(premises, rng.choice(len(shares), size=len(premises), p=shares).tolist(), strict=True)
    )
    pair_side = np.empty(len(s_ids), dtype=np.int8)
    for index, (s, s_prime) in enumerate(zip(s_ids, s_prime_ids, strict=True)):
        claimed = side.setdefault(s_prime, side[s])
        pair_side[index] = side[s] if claimed == side[s] else UNUSED
    return pair_side, side


@dataclass(frozen=True)
class Pool:
    """Every row of every inference type, with integer codes the splits work on."""

    table: pa.Table  # the output columns, less ``setting``
    type_code: np.ndarray  # index into ALL_TYPES
    pair: np.ndarray  # index of the natural pair, -1 for PI_ver rows
    sentence: np.ndarray  # index of s
    side: np.ndarray  # index into SIDES, -1: unused in non-trivial settings
    rule: np.ndarray  # index of the natural rule, -1 for PI_ver rows

    def take(self, rows: np.ndarray) -> pa.Table:
        return self.table.take(pa.array(np.asarray(rows, dtype=np.int64)))


def composition_pool(pairs: pa.Table, verbs: EmbeddingVerbs, shares, rng) -> Pool:
    """The PI_ver, PI_nat and CI rows of ``pairs`` and ``verbs``, in a fixed order."""
    pair_side, sentence_side = sentence_sides(pairs, shares, rng)
    verb_names = sorted(verbs.classes)
    verb_class = [verbs.classes[verb] for verb in verb_names]
    s = pairs["s"].to_pylist()
    s_id = pairs["s_id"].to_pylist()
    sentence_index = {sid: index for index, sid in enumerate(dict.fromkeys(s_id))}
    rule_index = pc.index_in(pairs["nat_rule"], pc.unique(pairs["nat_rule"])).to_numpy()
    lexical = pc.equal(pairs["nat_type"], "lex").to_numpy(zero_copy_only=False)
    # PI_ver over the premises of lexical pairs: the sentences compositions with lex embed.
    premises = list(dict.fromkeys(np.array(s_id, dtype=object)[lexical].tolist()))
    premise_text = dict(zip(s_id, s, strict=True))
    n_pairs, n_verbs = len(pairs), len(verb_names)

    parts = []
    # PI_ver
    v = np.tile(np.arange(n_verbs), len(premises))
    p = np.repeat(np.arange(len(premises)), n_verbs)
    texts = [premise_text[premises[i]] for i in p.tolist()]
    parts.append(
        {
            "premise": embed([verb_names[i] for i in v.tolist()], texts),
            "hypothesis": texts,
            "kind": ["ver"] * len(v),
            "verb": [verb_names[i] for i in v.tolist()],
            "verb_class": [verb_class[i] for i in v.tolist()],
            "nat_type": [None] * len(v),
            "nat_label": [None] * len(v),
            "pair": np.full(len(v), UNUSED),
            "s_id": [premises[i] for i in p.tolist()],
            "side": np.array([sentence_side[premises[i]] for i in p.tolist()], dtype=np.int8),
        }
    )
    # PI_nat
    parts.append(
        {
            "premise": s,
            "hypothesis": pairs["s_prime"].to_pylist(),
            "kind": pairs["nat_type"].to_pylist(),
            "verb": [None] * n_pairs,
            "verb_class": [None] * n_pairs,
            "nat_type": pairs["nat_type"].to_pylist(),
            "nat_label": pairs["nat_label"].to_pylist(),
            "pair": np.arange(n_pairs),
            "s_id": s_id,
            "side": pair_side,
        }
    )
    # CI
    v = np.tile(np.arange(n_verbs), n_pairs)
    q = np.repeat(np.arange(n_pairs), n_verbs)
    parts.append(
        {
            "premise": embed([verb_names[i] for i in v.tolist()], [s[i] for i in q.tolist()]),
            "hypothesis": pairs["s_prime"].take(pa.array(q)).to_pylist(),
            "kind": ["ci"] * len(v),
            "verb": [verb_names[i] for i in v.tolist()],
            "verb_class": [verb_class[i] for i in v.tolist()],
            "nat_type": pairs["nat_type"].take(pa.array(q)).to_pylist(),
            "nat_label": pairs["nat_label"].take(pa.array(q)).to_pylist(),
            "pair": q,
            "s_id": [s_id[i] for i in q.tolist()],
            "side": pair_side[q],
        }
    )
    return _assemble(parts, pairs, rule_index, sentence_index, row_id)


def _assemble(parts, pairs, rule_index, sentence_index, row_id) -> Pool:
    column = {name: [value for part in parts for value in part[name]] for name in parts[0]}
    pair = np.concatenate([np.asarray(part["pair"]) for part in parts]).astype(np.int64)
    types = [
        InferenceType(kind, verb_class, nat_type if kind != "ver" else None, label)
        for kind, verb_class, nat_type, label in zip(
            column["kind"],
            column["verb_class"],
            column["nat_type"],
            column["nat_label"],
            strict=True,
        )
    ]
    codes = np.array([TYPE_CODES[t] for t in types], dtype=np.int64)
    take = np.maximum(pair, 0)
    has_pair = pair >= 0

    def from_pairs(name):
        values = pairs[name].to_pylist()
        return [
            values[i] if ok else None
            for i, ok in zip(take.tolist(), has_pair.tolist(), strict=True)
        ]

    nat_labels = column["nat_label"]
    table = pa.table(
        {
            "id": [
                row_id("seti", kind, premise, hypothesis)
                for kind, premise, hypothesis in zip(
                    column["kind"], column["premise"], column["hypothesis"], strict=True
                )
            ],
            "premise": column["premise"],
            "hypothesis": column["hypothesis"],
            "label": pa.array([t.label for t in types], pa.int64()),
            "kind": column["kind"],
            "inference_type": [t.notation for t in types],
            "rule": [t.rule for t in types],
            "verb": pa.array(column["verb"], pa.string()),
            "verb_class": pa.array(column["verb_class"], pa.string()),
            "nat_type": pa.array(column["nat_type"], pa.string()),
            "nat_label": pa.array(
                [None if label is None else NAT_LABEL_NAMES[label] for label in nat_labels],
                pa.string(),
            ),
            "nat_relation": pa.array(from_pairs("nat_relation"), pa.string()),
            "nat_rule": pa.array(from_pairs("nat_rule"), pa.string()),
            "s_id": column["s_id"],
            "s_prime_id": pa.array(from_pairs("s_prime_id"), pa.string()),
        }
    )
    if len(pc.unique(table["id"])) != len(table):
        raise ValueError("SETI pool rows are not unique; natural pairs must be deduplicated.")
    return Pool(
        table=table,
        type_code=codes,
        pair=pair,
        sentence=np.array([sentence_index[sid] for sid in column["s_id"]], dtype=np.int64),
        side=np.concatenate([np.asarray(part["side"]) for part in parts]).astype(np.int8),
        rule=np.where(has_pair, rule_index[take], UNUSED),
    )
