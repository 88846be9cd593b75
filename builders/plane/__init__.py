"""PLANE's generation steps: adjective-noun extraction from a corpus, and WordNet hypernyms.
The builder is ``compsem.builders.plane.builder``."""
