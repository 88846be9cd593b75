"""What the harness reads from a config's own features: inputs, labels and grouping fields.

No benchmark has its own code path. A split whose features hold ``sentence`` is a single-sequence
task (PLANE's form); ``premise``/``hypothesis`` or ``event1``/``event2`` a pair task (NLI, EPC);
``hypothesis`` alone a hypothesis-only task (BoOQA ``h_only``); ``prompt`` a masked-LM prompt
(PLANE ``two_shot``); ``evidence`` a BoOQA entry. Labels come from the ``ClassLabel``.
"""

from __future__ import annotations

from dataclasses import dataclass

import datasets

from compsem.benchmark.grouping import GROUP_FIELDS

PAIR_COLUMNS = (("premise", "hypothesis"), ("event1", "event2"))
INPUT_FORMS = ("auto", "single", "pair")
# The label that counts as positive (entailment / true) for scores over one class.
POSITIVE_LABELS = ("entailment", "true", "more_plausible")


@dataclass(frozen=True)
class Schema:
    """How a config's rows become model inputs and scores.

    Attributes:
        inputs: one text column (single sequence) or two (a pair, in model order).
        label_names: the ``ClassLabel`` names, index = label id.
        group_fields: the grouping fields present, in ``GROUP_FIELDS`` order.
        pair: the pair columns where the split has them (zero-shot NLI needs a pair).
        evidence: the evidence column of a BoOQA-style split, else None.
        prompt: the prompt column of a masked-LM split, else None.
    """

    inputs: tuple[str, ...]
    label_names: tuple[str, ...]
    group_fields: tuple[str, ...]
    pair: tuple[str, str] | None = None
    evidence: str | None = None
    prompt: str | None = None

    @property
    def positive_label(self) -> int | None:
        """Index of the positive class of a binary task (entailment, true), else None."""
        if len(self.label_names) != 2:
            return None
        for index, name in enumerate(self.label_names):
            if name in POSITIVE_LABELS:
                return index
        return 1


def infer_schema(features: datasets.Features, input_form: str = "auto") -> Schema:
    """The schema of a split from its features; ``input_form`` forces single or pair input."""
    if input_form not in INPUT_FORMS:
        raise ValueError(f"input form must be one of {INPUT_FORMS}, got {input_form!r}")
    label = features.get("label")
    if not isinstance(label, datasets.ClassLabel):
        raise ValueError(
            "the config has no ClassLabel 'label' column (features: "
            f"{', '.join(features)}); the harness needs labelled splits with ClassLabel names"
        )
    pair = next((cols for cols in PAIR_COLUMNS if all(c in features for c in cols)), None)
    single = next((c for c in ("sentence", "prompt", "text") if c in features), None)
    if single is None and pair is None and "hypothesis" in features:
        single = "hypothesis"  # hypothesis-only (BoOQA h_only, Appendix E.1)
    if input_form == "pair" and pair is None:
        raise ValueError(
            "--input pair needs premise/hypothesis or event1/event2 columns; this config has "
            f"{', '.join(features)}"
        )
    if input_form == "single" and single is None:
        raise ValueError(
            f"--input single needs a sentence column; this config has {', '.join(features)}"
        )
    if input_form == "pair" or (input_form == "auto" and single is None):
        inputs = pair
    else:
        inputs = (single,)
    if inputs is None:
        raise ValueError(
            "cannot tell the model input: the config has none of sentence, premise/hypothesis, "
            f"event1/event2 or hypothesis (features: {', '.join(features)})"
        )
    return Schema(
        inputs=tuple(inputs),
        label_names=tuple(label.names),
        group_fields=tuple(name for name in GROUP_FIELDS if name in features),
        pair=pair,
        evidence="evidence" if "evidence" in features else None,
        prompt="prompt" if "prompt" in features else None,
    )
