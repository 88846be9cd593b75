"""BoOQA's corpus stage (§4.1, Appendix D): relation triples from a dependency parse (``relations``)
on datatrove (``extraction``) or a Ray cluster (``ray_extraction``), arguments linked to entities
(``linking``)."""
