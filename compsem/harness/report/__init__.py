"""``compsem report`` (``run``) and every view of the one results model
(``compsem.harness.results.model``): mean ± std tables (``tables``), leaderboards
(``leaderboard``), the results page (``page``, ``page_html``, ``svg``), PNG plots (``plots``)
and each command's ``summary.md`` (``summary``). Nothing here reads a result file or groups
runs itself."""
