"""The papers' analyses of saved runs, read from their per-row files and the rows they evaluated.

- ``subwords``: accuracy against the share of items with words a tokenizer splits (PLANE §6).
- ``run``: ``compsem subwords``, the analysis of result files written to a folder.
- ``page``: the analyses' files read back, and their sections of the results page.
- ``length``: accuracy against ``--max-length`` over train runs (PLANE App. D, Fig. 8).
- ``pmi``: ``compsem pmi``, the PMI of an export's phrases by class (PLANE App. A, Fig. 4).
- ``recency``: F1 of a two-shot prompting run by premise order (PLANE App. B.2, Fig. 7).
- ``reference``: the papers' own headline numbers, declared by each benchmark's spec, beside
  compsem's runs of the same config and metric on the leaderboards and the page.
"""
