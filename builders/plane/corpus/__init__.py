"""PLANE's corpus stage: adjective-noun phrases extracted on datatrove (``extraction``) or a Ray
cluster (``ray_extraction``), and what each embedded source yields (``source_yield``, with its
measured ``corpus_yield.json``)."""
