"""What compsem reads and writes on a user's disk: which paths it owns and may replace
(``ownership``, its manifests signed with this user's key by ``signing``), output folders
written whole or not at all (``output_folder``, whose last step ``replace`` finishes or rolls
back), one writer at a time and a registry of what a killed one left (``writers``), names
checked before use (``names``), fingerprints of files and of content (``fingerprint``,
``content_fingerprint``), every read of a user's file bounded and non-blocking
(``bounded_read``), an export's card and data files validated in one place for every reader
(``export_reader``), and the working directory and cache folders checked before a command
(``environment``)."""
