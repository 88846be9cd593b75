"""What a benchmark package declares and is built with: its spec (``spec``), build settings
(``settings``), the papers' harness presets (``presets``) and LLM prompts (``prompts``), the
Arrow-table builder base (``builder``), grouping fields (``grouping``), audit checks and the
hypothesis-only probe (``audit_checks``, ``hypothesis_only``), the dataset card (``card``),
stratified representative order (``sampling``) and the size below which a split cannot rank
models (``size_floor``)."""
