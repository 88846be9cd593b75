"""SETI's generation: natural-inference pairs (generated or from SICK), the composition pool
every config of an export shares, and each setting's splits."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from compsem.builders.seti.compose import Pool, composition_pool
from compsem.builders.seti.config import PIPELINE_REVISION, SETTINGS, SetiConfig
from compsem.builders.seti.lexicon import load_embedding_verbs, load_sentence_lexicon
from compsem.builders.seti.sentences import check_sentence_capacity, generate_natural_pairs
from compsem.builders.seti.sick_pairs import sick_natural_pairs
from compsem.builders.seti.splits import SetiSplitError, as_tables, in_distribution, setting_splits
from compsem.files.fingerprint import cached_table, fingerprint
from compsem.loading_scripts.sick_release import sick_fingerprint
from compsem.resources.spacy_pipeline import load_pipeline, pipeline_id
from compsem.resources.wordnet import wordnet_version


def natural_pairs(config: SetiConfig) -> tuple[str, pa.Table, pa.Table | None]:
    """(cache key, PI_nat pairs, generated sentences or None for SICK), cached by inputs."""
    if not config.sick:  # before the parser loads: a size it cannot make is refused at once
        check_sentence_capacity(load_sentence_lexicon(config.lexicon), config.sentences)
    nlp = load_pipeline(config.spacy_model)
    if config.sick:
        key = fingerprint(
            "seti-sick",
            sick_fingerprint(config.sick),
            pipeline_id(nlp),
            wordnet_version(),
            PIPELINE_REVISION,
        )
        pairs = cached_table("seti_sick_pairs", key, lambda: sick_natural_pairs(config.sick, nlp))
        return key, pairs, None
    lexicon = load_sentence_lexicon(config.lexicon)
    key = fingerprint(
        "seti-generated",
        lexicon.fingerprint,
        config.sentences,
        config.passive_share,
        config.seed,
        pipeline_id(nlp),
        wordnet_version(),
        PIPELINE_REVISION,
    )
    generated = {}

    def generate(part: int) -> pa.Table:
        if not generated:
            generated["tables"] = generate_natural_pairs(
                lexicon, config.sentences, config.passive_share, config.seed, nlp
            )
        return generated["tables"][part]

    pairs = cached_table("seti_pairs", key, lambda: generate(0))
    sentences = cached_table("seti_sentences", key, lambda: generate(1))
    return key, pairs, sentences


# The pool of the last inputs built: every config of one export shares it.
_POOLS: dict[tuple, Pool] = {}


def composition_rows(config: SetiConfig) -> Pool:
    key, pairs, _ = natural_pairs(config)
    if len(pairs) == 0:
        raise SetiSplitError(
            "No natural-inference pairs: the SICK file has no lexical or active/passive pairs "
            "with a WordNet relation. Pass the full SICK.txt, or generate sentences instead."
        )
    verbs = load_embedding_verbs(config.verbs)
    pool_key = (key, verbs.fingerprint, config.side_shares, config.seed)
    if pool_key not in _POOLS:
        _POOLS.clear()
        rng = np.random.default_rng([config.seed, 0])
        _POOLS[pool_key] = composition_pool(pairs, verbs, config.side_shares, rng)
    return _POOLS[pool_key]


def seti_splits(config: SetiConfig) -> dict[str, pa.Table]:
    """The splits of one config as Arrow tables in FEATURES order."""
    load_embedding_verbs(config.verbs)  # fail on a bad verb file before any parsing
    pool = composition_rows(config)
    setting = SETTINGS[config.setting]
    index = list(SETTINGS).index(config.setting)
    rng = np.random.default_rng([config.seed, 1, index])
    splits = setting_splits(pool, setting, config.validation_fraction, config.few_shot_size, rng)
    if config.in_distribution:
        splits = in_distribution(splits, np.random.default_rng([config.seed, 2, index]))
    return as_tables(pool, splits, setting.name)
