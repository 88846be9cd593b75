"""What a config holds and how it reaches a model: loading it from a Hub id or an export
folder (``benchmark``), its inputs, labels and grouping fields (``schema``), its paper's
preset (``presets``), tokenisation cached by ``datasets`` (``encode``) and row caps and
groups (``sampling``)."""
