"""SETI's generation steps: the lexicon, source sentences, compositions labelled by Table 3, and
the systematicity splits. The builder is ``compsem.builders.seti.builder``."""
