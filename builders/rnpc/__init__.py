"""RNPC's generation steps: the noun lexicon, noun phrases, the label rules of SPTE, MPTE and
EPC, and the tasks built from them. The builder is ``compsem.builders.rnpc.builder``."""
