"""English surface realisation the builders share: indefinite articles and copular sentences
(``articles``), inflection (``inflection``); and the help text of compsem's commands
(``help_format``)."""
