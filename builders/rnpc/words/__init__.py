"""The words of RNPC's noun phrases: nouns (``nouns``), MPTE's second nouns (``second_nouns``),
where a modifier or event places a noun (``places``), valence (``valence``) and which modifiers
fit which nouns (``noun_phrases``)."""
