"""The phrase sets of the Montague modifier-consistency tests (Carvalho et al., COLING 2025).

One folder holds everything that generates them:

- ``lexicon``: Appendix A's adjectives (five Montagovian types) and nouns, with synonyms;
  ``plane_an``: the same from PLANE's adjective lexicon and WordNet nouns;
- ``builder``: the AN, AAN and lexicon configs as a ``datasets`` builder;
- ``tables``: the paper's consistency Tables 2-7 and the shipped reference scores;
- ``spec``: ``SPEC``, how compsem publishes it (card, changelog).
"""

from compsem.builders.montague.builder import Montague, MontagueConfig
from compsem.builders.montague.spec import SPEC

__all__ = ["SPEC", "Montague", "MontagueConfig"]
