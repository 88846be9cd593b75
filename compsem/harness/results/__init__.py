"""What a run leaves and how runs are read back: result and per-row files (``files``), scores
overall and per group with their intervals (``scores``, ``intervals``), which runs may share a
line (``comparable``), the one results model every report renders (``model``: files read once,
runs grouped once) and the command that reruns a run (``reproduce``)."""
