"""``compsem lm-eval-tasks`` (``tasks``): every config of an export as an
lm-evaluation-harness task folder, with its README (``readme``) and the functions its YAML names
(``utils``)."""
