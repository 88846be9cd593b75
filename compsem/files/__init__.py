"""What compsem reads and writes on a user's disk: which paths it owns and may replace
(``ownership``), output folders written whole or not at all (``output_folder``), names checked
before use (``names``), and fingerprints of files and of content (``fingerprint``,
``content_fingerprint``)."""
