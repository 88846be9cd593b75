"""The Montague phrase sets as compsem publishes them: the card and the changelog."""

from __future__ import annotations

from compsem.benchmark.card import template_path
from compsem.benchmark.spec import BenchmarkSpec, PaperResult
from compsem.builders.montague.baselines import BASELINES
from compsem.builders.montague.builder import Montague, MontagueConfig, config_lexicon
from compsem.builders.montague.lexicon import TYPE_CODES, MontagueLexicon, load_lexicon
from compsem.builders.montague.plane_an import AMBIGUOUS_NOTES, PRIVATIVE_NOTES
from compsem.builders.montague.report import EMBEDDING_TESTS
from compsem.builders.montague.tables import reference_results
from compsem.resources.wordnet import wordnet_version

CHANGELOG = {
    "1.1.0": "splits are stored in a representative order: each split is shuffled once, "
    "seeded by the build's seed, the config and the split, and stratified by label and grouping "
    "fields, so any prefix (`--limit N`) holds each label and group close to its share (issue "
    "23); same rows and ids.",
    "1.0.0": "first compsem generation: the AN and AAN phrase sets and the lexicon of Appendix "
    "A, and AN phrases over the PLANE adjective lexicon.",
}
DESCRIPTIONS = {
    ("an", "paper"): "Every adjective-noun phrase over Appendix A (the paper's AN format, Tables "
    "2, 4 and 5).",
    ("aan", "paper"): "Every phrase of two distinct adjectives, in both orders, and a noun over "
    "Appendix A (the paper's AAN format, Tables 3 and 6).",
    ("lexicon", "paper"): "The words of Appendix A with their types and synonyms.",
    ("an", "plane"): "Every adjective-noun phrase over PLANE's adjective lexicon (classes mapped "
    "to the paper's types) and 12 WordNet nouns: a larger vocabulary, independent of Appendix A.",
}


def _lexicon_provenance(lexicon: MontagueLexicon) -> dict:
    counts = lexicon.type_counts()
    adjectives, nouns = len(lexicon.adjectives), len(lexicon.nouns)
    return {
        "source": lexicon.source,
        "fingerprint": lexicon.fingerprint,
        "adjectives": adjectives,
        "nouns": nouns,
        "types": {TYPE_CODES[kind]: count for kind, count in counts.items()},
        "with_synonym": sum(entry.synonym is not None for entry in lexicon.entries),
        "an_phrases": adjectives * nouns,
        "aan_phrases": adjectives * max(adjectives - 1, 0) * nouns,
        "entries": [(e.word, e.type, e.synonym or "") for e in lexicon.entries],
    }


def provenance(config: MontagueConfig) -> dict:
    """The inputs that determine the generated content, and the reference results, for the card."""
    paper = load_lexicon(config.lexicon)
    plane = config_lexicon(
        MontagueConfig(name="plane_an", vocabulary="plane", plane_lexicon=config.plane_lexicon)
    )
    return {
        "version": str(Montague.VERSION),
        "type_codes": TYPE_CODES,
        "paper": _lexicon_provenance(paper),
        "plane": _lexicon_provenance(plane),
        "plane_nouns": [(e.word, e.synonym) for e in plane.nouns],
        "privative_notes": PRIVATIVE_NOTES,
        "ambiguous_notes": AMBIGUOUS_NOTES,
        "wordnet": wordnet_version(),
        "reference": reference_results(paper.fingerprint),
    }


# Table 2: intersectivity of AN phrases (eq. 3) per adjective type, for the paper's two
# CLS-pooled Hub encoders and GloVe (mean-pooled), the models a user can rerun offline or from
# the Hub.
PAPER_TYPES = ("S-I", "S-NI", "NS-Pl", "NS-Pr", "A")
PAPER_RESULTS = tuple(
    PaperResult("Table 2", model, ("an",), "intersectivity", value, group=kind)
    for model, values in (
        ("DPR", (0.86, 0.90, 0.85, 0.89, 0.97)),
        ("LaBSE", (1.0, 1.0, 1.0, 1.0, 1.0)),
        ("GloVe", (1.0, 1.0, 1.0, 1.0, 1.0)),
    )
    for kind, value in zip(PAPER_TYPES, values, strict=True)
)


SPEC = BenchmarkSpec(
    name="montague",
    baselines=BASELINES,
    paper_results=PAPER_RESULTS,
    short_title="Montague consistency of embeddings",
    embedding=EMBEDDING_TESTS,
    title="Montague modifier consistency, the adjective-noun phrases of Appendix A",
    builder=Montague,
    card_template=template_path("montague.md"),
    card_metadata={
        "pretty_name": "Montague modifier consistency: adjective-noun phrases (compsem generation)",
        "language": ["en"],
        "license": "cc-by-4.0",
        "task_categories": ["sentence-similarity", "feature-extraction"],
        "tags": [
            "compositionality",
            "adjective-noun",
            "montague-semantics",
            "embeddings",
            "compsem",
        ],
    },
    describe_config=lambda config: DESCRIPTIONS[config.phrase_set, config.vocabulary],
    provenance=provenance,
    statistics_fields=("type",),
    vocabulary_fields=("noun", "word"),
    audit_input_fields=("id",),  # a phrase's id hashes its words, and the lexicon has no phrase
    changelog=CHANGELOG,
)
