"""BoOQA's generation steps: relation triples from the parse, their out-of-core aggregation into
windows and propositions, hyponym negatives, bundles and splits. The builder is
``compsem.builders.booqa.builder``."""
