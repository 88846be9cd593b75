"""Mapping an off-the-shelf model's labels onto a benchmark's by the model's own ``id2label``.

Each model label goes to one of ours and our probability is the sum of its model labels' (RNPC
§5: "we map the model prediction to one of our classes by summing probability scores"). So a
3-way NLI model scores entailment against neutral + contradiction, and an ADEPT-style 5-way
plausibility model maps onto EPC's three classes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

# Model label (normalised) → the benchmark label it counts for, for each label family.
KNOWN = {
    # binary entailment (PLANE, RNPC SPTE/MPTE, SETI)
    "entailment": "entailment",
    "entailed": "entailment",
    "entails": "entailment",
    "neutral": "non_entailment",
    "contradiction": "non_entailment",
    "not_entailment": "non_entailment",
    "non_entailment": "non_entailment",
    # ADEPT (Emami et al., 2021), the EPC mapping of RNPC §5
    "impossible": "less_plausible",
    "less_likely": "less_plausible",
    "equally_likely": "equally_plausible",
    "more_likely": "more_plausible",
    "necessarily_true": "more_plausible",
}
# BoOQA labels truth: an entailed hypothesis is true.
ALIASES = {"true": "entailment", "false": "non_entailment"}


def normalise(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", str(name).strip().lower())


def parse_overrides(pairs: Sequence[str] | None) -> dict[str, str]:
    """``MODEL_LABEL=OUR_LABEL`` strings (``--label-map``) as a dict."""
    overrides = {}
    for pair in pairs or ():
        model_label, sep, ours = pair.partition("=")
        if not sep or not model_label or not ours:
            raise ValueError(f"--label-map takes MODEL_LABEL=OUR_LABEL, got {pair!r}")
        overrides[normalise(model_label)] = normalise(ours)
    return overrides


def label_mapping(
    id2label: Mapping[int, str],
    label_names: Sequence[str],
    overrides: Mapping[str, str] | None = None,
) -> np.ndarray:
    """A 0/1 matrix [model label, our label]: our probabilities are ``model_probs @ matrix``."""
    ours = [normalise(name) for name in label_names]
    # Our names as the family's canonical names (true → entailment), to look KNOWN up.
    canonical = {ALIASES.get(name, name): index for index, name in enumerate(ours)}
    by_name = {name: index for index, name in enumerate(ours)}
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides.values()) - set(ours))
    if unknown:
        raise ValueError(
            f"--label-map names {', '.join(unknown)}, not labels of this config ({', '.join(ours)})"
        )
    n_model = len(id2label)
    matrix = np.zeros((n_model, len(ours)), dtype=np.float64)
    unmapped = []
    for index in range(n_model):
        name = normalise(id2label[index])
        if name in overrides:
            target = by_name[overrides[name]]
        elif name in by_name:
            target = by_name[name]
        elif KNOWN.get(name) in canonical:
            target = canonical[KNOWN[name]]
        else:
            unmapped.append(id2label[index])
            continue
        matrix[index, target] = 1.0
    labels = ", ".join(f"{i}={id2label[i]}" for i in range(n_model))
    if unmapped:
        raise ValueError(
            f"cannot map the model's label(s) {', '.join(map(repr, unmapped))} (its id2label: "
            f"{labels}) onto this config's labels ({', '.join(ours)}); if the model is an NLI "
            "model with generic names, pass --label-map, e.g. LABEL_0=entailment"
        )
    missing = [ours[j] for j in range(len(ours)) if not matrix[:, j].any()]
    if missing:
        raise ValueError(
            f"no label of the model (id2label: {labels}) maps to {', '.join(missing)}: this model "
            "does not predict the config's classes; pass --label-map or pick a model for this task"
        )
    return matrix
