"""Small hub-ready exports for the harness tests, written in seconds with the real components.

PLANE items come from the builder's own ``item_pool`` (Table 1 labels) over a few hand-picked
adjective-noun phrases and real WordNet hypernyms, then through ``compsem.publish.export``'s Parquet and
card writers, so ``load_dataset(folder, config)`` reads them exactly as it reads a full build.
The split is by noun (no noun of test in train), not the GOoD algorithm: the harness only needs
the schema, and a balanced GOoD split needs the whole gloss corpus (minutes).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import torch
from datasets.info import DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard, DatasetCardData

from compsem.builders.booqa.config import EN_FEATURES
from compsem.builders.plane.config import ITEM_FEATURES
from compsem.builders.plane.corpus.extraction import an_pair_table
from compsem.builders.plane.items.hypernyms import hypernym_table
from compsem.builders.plane.items.pool import item_pool
from compsem.builders.plane.prompts import PROMPT_FEATURES, two_shot_prompts
from compsem.cli.harness import add_commands
from compsem.harness.models.loading import default_model
from compsem.publish.export import write_parquet_shards

ADJECTIVES = {
    "american": "I",
    "french": "I",
    "red": "I",
    "wooden": "I",
    "big": "S",
    "small": "S",
    "good": "S",
    "skilled": "S",
    "fake": "O",
    "former": "O",
    "alleged": "O",
    "counterfeit": "O",
}
NOUNS = ("gun", "dog", "car", "doctor", "house", "cat", "teacher", "chair", "knife", "horse")
TEST_NOUNS = ("cat", "knife")
VALIDATION_NOUNS = ("horse",)


def plane_pool() -> pa.Table:
    """Every PLANE item of the hand-picked phrases, labelled by the builder's Table 1."""
    from collections import Counter

    pairs = an_pair_table(Counter({(a, n): 1 for a in ADJECTIVES for n in NOUNS}))
    return item_pool(pairs, ADJECTIVES, hypernym_table(NOUNS, 3))


def _dataset(table: pa.Table, features: datasets.Features) -> datasets.Dataset:
    return datasets.Dataset(
        table.cast(features.arrow_schema), info=datasets.DatasetInfo(features=features)
    )


def write_export(out: Path, configs: dict[str, dict[str, datasets.Dataset]]) -> Path:
    """Write ``{config: {split: Dataset}}`` as Parquet shards (export's writer) and a card whose
    YAML declares the configs and their features, as ``compsem build`` does."""
    infos = {}
    for name, splits in configs.items():
        (out / name).mkdir(parents=True, exist_ok=True)
        for split, dataset in splits.items():
            write_parquet_shards(dataset, out / name, split)
        infos[name] = datasets.DatasetInfo(features=next(iter(splits.values())).features)
    data = DatasetCardData(pretty_name="harness test export")
    MetadataConfigs(
        {
            name: {"data_files": [{"split": s, "path": f"{name}/{s}-*.parquet"} for s in splits]}
            for name, splits in configs.items()
        }
    ).to_dataset_card_data(data)
    DatasetInfosDict(infos).to_dataset_card_data(data)
    DatasetCard(f"---\n{data.to_yaml()}\n---\n# Test export\n").save(out / "README.md")
    return out


def tiny_plane_export(out: Path) -> Path:
    """``goood_split_1`` (split by noun), ``one_it_split_1`` (IT3 only) and ``two_shot``."""
    pool = plane_pool()
    nouns = pool["noun"]
    test = pc.is_in(nouns, pa.array(TEST_NOUNS))
    validation = pc.is_in(nouns, pa.array(VALIDATION_NOUNS))
    train = pc.invert(pc.or_(test, validation))

    def splits(table: pa.Table) -> dict[str, datasets.Dataset]:
        return {
            split: _dataset(table.filter(mask), ITEM_FEATURES)
            for split, mask in (
                ("train", train),
                ("validation", validation),
                ("test", test),
            )
        }

    it3 = pc.equal(pool["inference_type"], 3)
    prompts = two_shot_prompts(pool, 2, np.random.default_rng(0))
    return write_export(
        out,
        {
            "goood_split_1": splits(pool),
            "one_it_split_1": {
                split: _dataset(pool.filter(pc.and_(mask, it3)), ITEM_FEATURES)
                for split, mask in (("train", train), ("validation", validation), ("test", test))
            },
            "two_shot": {"test": _dataset(prompts, PROMPT_FEATURES)},
        },
    )


# Bundles of one true proposition (stated in its window's evidence) and a hyponym negative.
BOOQA_BUNDLES = [
    ("Obama visited Paris", "Obama toured Paris", ["Obama visited Paris", "Obama met Macron"]),
    ("Apple sold iPhones", "Apple leased iPhones", ["Apple sold iPhones", "Apple hired staff"]),
    ("Ford built trucks", "Ford painted trucks", ["Ford built trucks", "Ford closed a plant"]),
    ("Messi scored a goal", "Messi headed a goal", ["Messi scored a goal", "Messi left Spain"]),
    ("Merkel called Putin", "Merkel texted Putin", ["Merkel called Putin", "Merkel met Macron"]),
    ("Nasa launched a rocket", "Nasa tested a rocket", ["Nasa launched a rocket"]),
]
BOOQA_NO_EVIDENCE = ("Tesla recalled cars", "Tesla repainted cars")


def _proposition(text: str) -> dict:
    subject, predicate, obj = text.split(" ", 2)
    return {"subject": subject, "predicate": predicate, "object": obj}


def _entry(key: str, text: str, label: int, bundle: str, evidence: list[str]) -> dict:
    return {
        "id": key,
        "hypothesis": text,
        "label": label,
        **_proposition(text),
        "subject_type": "thing",
        "object_type": "thing",
        "window": 0,
        "window_start": "2020-01-01",
        "window_end": "2020-01-03",
        "bundle_id": bundle,
        "frequency": 100,
        "frequency_bucket": "100-300",
        "evidence": [{**_proposition(e), "text": e, "mentions": 1} for e in evidence],
    }


def tiny_booqa_export(out: Path) -> Path:
    """An ``en`` config in the BoOQA builder's features; one hypothesis bundle has no evidence."""
    rows = [
        _entry(f"{bundle}-{label}", text, label, str(bundle), evidence)
        for bundle, (positive, negative, evidence) in enumerate(BOOQA_BUNDLES)
        for text, label in ((positive, 1), (negative, 0))
    ]
    rows += [
        _entry(f"none-{label}", text, label, "none", [])
        for text, label in zip(BOOQA_NO_EVIDENCE, (1, 0), strict=True)
    ]
    test = datasets.Dataset.from_list(rows, features=EN_FEATURES)
    return write_export(out, {"en": {"dev": test, "test": test}})


def minilm_with_head(folder: Path, labels: list[str]) -> Path:
    """The offline MiniLM with a fresh classification head over ``labels``, saved to ``folder``
    (as off-the-shelf NLI or plausibility models name their labels; the head is random)."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(0)
    model = AutoModelForSequenceClassification.from_pretrained(
        default_model(), num_labels=len(labels), id2label=dict(enumerate(labels))
    )
    model.save_pretrained(folder)
    AutoTokenizer.from_pretrained(default_model()).save_pretrained(folder)
    return folder


def compsem(command_line: str, *paths, **options) -> int:
    """Parse and run a harness command as ``compsem`` does: the words of ``command_line``, then
    the paths, then ``--name value`` for each option (``model_x`` → ``--model-x``)."""
    argv = [*command_line.split(), *map(str, paths)]
    for name, value in options.items():
        argv += [f"--{name.replace('_', '-')}", str(value)]
    parser = argparse.ArgumentParser(prog="compsem")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)
