"""BoOQA (Li, Hosseini, Weber and Steedman, Findings of EMNLP 2022): Boolean open QA over dated
news, for directional predicate entailment.

One folder holds everything that generates BoOQA:

- ``relations``, ``extraction``: relation triples from the parse, extracted on datatrove;
  ``partitions``, ``propositions``: the triples shuffled into bounded buckets and aggregated
  out of core into positives, negatives and evidence; ``predicate_hyponyms``: WordNet hyponym replacements;
- ``population``, ``bundles``, ``splits``: positives with their negatives, bundles sampled by
  window and frequency bucket, and the ``en`` and ``h_only`` splits;
- ``config``: features, threshold presets and every build setting; ``builder``: the ``datasets``
  builder; ``audit``: what each config promises;
- ``spec``: ``SPEC``, how compsem publishes it (card, harness preset, changelog).
"""

from compsem.builders.booqa.builder import Booqa
from compsem.builders.booqa.config import BooqaConfig
from compsem.builders.booqa.spec import SPEC

__all__ = ["SPEC", "Booqa", "BooqaConfig"]
