"""RNPC's labels: the rules as pure functions of what a phrase's modifiers are (``rules``), the
catalogue of every rule by name (``catalogue``), and the rules applied to the original release's
human-labelled rows (``agreement``), reading each row's EPC event from its words (``events``)."""
