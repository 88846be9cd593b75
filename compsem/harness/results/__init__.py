"""What a run leaves: result and per-row files (``files``), scores overall and per group
(``scores``), which runs may share a line (``comparable``) and the command that reruns one
(``reproduce``)."""
