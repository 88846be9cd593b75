"""PLANE's items (§3.2, Table 1): phrases WordNet reads otherwise (``compounds``), hypernym walks
(``hypernyms``) and the item pool (``pool``)."""
