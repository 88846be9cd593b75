"""SETI (Fu and Frank, Findings of ACL 2023): systematicity of textual inference.

One folder holds everything that generates SETI:

- ``lexicon``, ``sentences``: the source-sentence lexicon and generated sentences with their
  natural inferences; ``sick_pairs``: the same pairs taken from SICK;
- ``compose``: primitive and composed inferences labelled by Table 3's Boolean rules;
- ``splits``, ``config``: the seven task settings, their splits and every build setting;
  ``generation``: the shared composition pool and each setting's splits;
- ``builder``: the ``datasets`` builder; ``spec``: ``SPEC``, how compsem publishes it.
"""

from compsem.builders.seti.builder import Seti
from compsem.builders.seti.config import SetiConfig
from compsem.builders.seti.spec import SPEC

__all__ = ["SPEC", "Seti", "SetiConfig"]
