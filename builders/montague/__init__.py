"""The Montague consistency tests' phrase sets: the Appendix A lexicon, and PLANE's adjectives
in its types. The builder is ``compsem.builders.montague.builder``; ``compsem embed`` (the three
metamorphic tests on embedding models) lives in ``compsem.harness``."""
