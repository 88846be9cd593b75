"""BoOQA's sampling stage (Appendix D): the out-of-core shuffle of the triples (``partitions``),
the population of windows (``population``), bundles (``bundles``), each window's propositions
(``propositions``) and candidate negative predicates (``predicate_hyponyms``)."""
