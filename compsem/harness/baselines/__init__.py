"""``compsem baselines``: the reference runs declared once (``declared``) and running them
with their page (``runs``)."""
