"""PLANE (Bertolini, Weeds and Weir, COLING 2022): adjective-noun phrase entailment.

One folder holds everything that generates PLANE:

- ``config``: Table 1's label rules, the item features, the split regimes and every build setting;
- ``extraction``, ``hypernyms``, ``items``: adjective-noun pairs from a corpus on datatrove, WordNet
  hypernyms, and the item pool they make;
- ``vocabulary``, ``splits``: the split algorithms and the regimes (GOoD, One-IT, in-distribution);
- ``prompts``: the two-shot prompts of §4;
- ``builder``: the ``datasets`` builder; ``audit``: what each regime promises;
- ``spec``: ``SPEC``, how compsem publishes it (card, harness preset, changelog).
"""

from compsem.builders.plane.builder import Plane
from compsem.builders.plane.config import PlaneConfig
from compsem.builders.plane.spec import SPEC

__all__ = ["SPEC", "Plane", "PlaneConfig"]
