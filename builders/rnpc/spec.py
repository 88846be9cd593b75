"""RNPC as compsem publishes it: the card, the harness preset and the changelog."""

from __future__ import annotations

from collections import Counter

import pyarrow as pa

from compsem.benchmark.card import WORDNET_LICENSE, template_path
from compsem.benchmark.presets import Preset
from compsem.benchmark.spec import BenchmarkSpec
from compsem.builders.rnpc.audit import AUDIT_CHECKS
from compsem.builders.rnpc.builder import Rnpc
from compsem.builders.rnpc.changelog import CHANGELOG
from compsem.builders.rnpc.config import (
    INOCULATION_CONFIGS,
    LEARNING_CURVE_SIZES,
    ORIGINAL_CONFIGS,
    RnpcConfig,
)
from compsem.builders.rnpc.evaluation.baselines import BASELINES
from compsem.builders.rnpc.evaluation.harm_detection import HARM_DETECTION
from compsem.builders.rnpc.evaluation.llm_prompts import LLM_PROMPTS, SANITY_PAIRS
from compsem.builders.rnpc.evaluation.paper_results import PAPER_RESULTS
from compsem.builders.rnpc.evaluation.probes import MODIFIER_PROBES
from compsem.builders.rnpc.generation import generation_key, load_inputs, task_splits
from compsem.builders.rnpc.labels.agreement import export_files, rule_agreement
from compsem.builders.rnpc.labels.catalogue import RULES
from compsem.builders.rnpc.shortcut_balance import SINGLE_SHARE, SPTE_SINGLE_SHARE
from compsem.builders.rnpc.tasks import ABSTRACT_WEIGHTS, TASKS
from compsem.resources.modifiers import CATEGORIES

REGIME_DESCRIPTIONS = {
    "split": "Learning-curve split (§6): train ({train} items; its prefixes of "
    + ", ".join(map(str, LEARNING_CURVE_SIZES))
    + " are the learning-curve subsets), then validation and test, drawn from the other side of "
    "the modifier split: no modifier of train occurs in the same position (M1 or M2) in "
    "validation or test, and validation shares no row with test.",
    "challenge": "Challenge set (§5): every generated item as one test split, for models never "
    "trained on the task; beside it train ({challenge_train} items) and validation "
    "({challenge_validation}) generated from phrases (M1, M2, N) test never holds, nor "
    "validation's train, for training on generated rows before a zero-shot use (§8).",
    "original": "The published RNPC items, read from the original CSVs.",
    "inoculation": "The release's §6 inoculation splits, read as released: train_N for each "
    "train size, train (train.tsv, each nested train_N first, so its prefixes are the "
    "learning-curve sets) and test.",
}


PRESET = Preset(
    name="rnpc",
    signature=frozenset({"combo"}),
    input_form="pair",
    epochs=3.0,
    batch_size=16,
    learning_rate=1e-5,
    max_length=128,
    shots=(0, 10, 25, 50, 75, 100, 125, 150, 175, 200),
    curve_epochs=3.0,
    note="RNPC §6 and Appendix C: 10 to 200 examples (prefixes of train); batch, learning "
    "rate, epochs and length from the paper's search ranges (16, 1e-5, 3, 128)",
)


def describe_config(config: RnpcConfig) -> str:
    return f"{config.task.upper()}. " + REGIME_DESCRIPTIONS[config.regime].format(
        train=config.train_size,
        challenge_train=config.challenge_train_size,
        challenge_validation=config.challenge_validation_size,
    )


def rule_examples(config: RnpcConfig) -> dict[str, dict]:
    """For every rule: its task, label and condition, and the first generated item that follows
    it with the rule's count over the task's items (absent for a task these inputs cannot
    generate, e.g. EPC from a lexicon without event effects)."""
    examples = {}
    for task in TASKS:
        key = dict(generation_key(config)) | {"task": task}
        try:
            rows = pa.concat_tables(task_splits(tuple(key.items())).values()).to_pylist()
        except ValueError:
            rows = []
        first, counts = {}, Counter(row["rule"] for row in rows)
        for row in rows:
            first.setdefault(row["rule"], row)
        for rule_id, rule in RULES.items():
            if rule.task != task:
                continue
            examples[rule_id] = {
                "task": task,
                "label": rule.label,
                "condition": rule.condition,
                "example": rule.example,
            }
            if (row := first.get(rule_id)) is not None:
                fields = ("event1", "event2") if task == "epc" else ("premise", "hypothesis")
                examples[rule_id] |= {
                    "first": row[fields[0]],
                    "second": row[fields[1]],
                    "count": counts[rule_id],
                }
    return examples


def provenance(config: RnpcConfig) -> dict:
    """The inputs that determine the generated content, for the card."""
    _, about = load_inputs(config.lexicon, config.nouns, config.events, config.cooccurrence)
    return {
        "version": str(Rnpc.VERSION),
        "seed": config.seed,
        "size": config.size,
        "train_size": config.train_size,
        "validation_size": config.validation_size,
        "challenge_train_size": config.challenge_train_size,
        "challenge_validation_size": config.challenge_validation_size,
        "train_modifier_share": config.train_modifier_share,
        "learning_curve_sizes": list(LEARNING_CURVE_SIZES),
        "categories": list(CATEGORIES),
        "rules": rule_examples(config),
        "mpte_single_share": SINGLE_SHARE,
        "spte_single_share": SPTE_SINGLE_SHARE,
        # of SPTE's and EPC's draws, the share about abstract nouns (tasks.ABSTRACT_WEIGHTS)
        "abstract_draw_share": {
            task: weights[1] / sum(weights) for task, weights in ABSTRACT_WEIGHTS.items()
        },
        "original_release": config.original_release,
        "inoculation": config.inoculation,
        # the rules against the release's human labels, when the build reads a release
        "rule_agreement": rule_agreement(config.original_release)
        if config.original_release
        else None,
        **about,
    }


SPEC = BenchmarkSpec(
    name="rnpc",
    baselines=BASELINES,
    short_title="RNPC: recursive noun phrases",
    title="RNPC, recursive noun phrases (SPTE, MPTE, EPC), generated by compositional rules",
    builder=Rnpc,
    card_template=template_path("rnpc.md"),
    card_metadata={
        "pretty_name": "RNPC: Recursive Noun Phrase Challenge (compsem generation)",
        "language": ["en"],
        **WORDNET_LICENSE,
        "task_categories": ["text-classification"],
        "task_ids": ["natural-language-inference"],
        "tags": [
            "compositionality",
            "entailment",
            "noun-phrases",
            "plausibility",
            "wordnet",
            "compsem",
        ],
    },
    describe_config=describe_config,
    provenance=provenance,
    preset=PRESET,
    optional_configs={
        "original_release": [config.name for config in ORIGINAL_CONFIGS],
        "inoculation": [config.name for config in INOCULATION_CONFIGS],
    },
    statistics_fields=(
        "combo",
        "rule",
        "m1_category",
        "m2_category",
        "hypothesis_type",
        "hypothesis_modifier",
        "second_noun_relation",
        "supersense",
    ),
    vocabulary_fields=("modifier1", "modifier2", "noun"),
    likelihood_sanity=SANITY_PAIRS,
    audit_checks=AUDIT_CHECKS,
    # EPC's event without either noun phrase: what a model could tell from E alone
    audit_hypothesis_fields=("hypothesis", "event"),
    changelog=CHANGELOG,
    export_files=export_files,
    llm_prompts=LLM_PROMPTS,
    # every premise and hypothesis (event) of a task is made from one source NP
    cluster_fields=("np",),
    harm_detection=HARM_DETECTION,
    paper_results=PAPER_RESULTS,
    modifier_probes=MODIFIER_PROBES,
    # §6: a curve on the release's human rows is drawn beside the generated task's
    curve_panels={config.name: config.task for config in INOCULATION_CONFIGS},
)
