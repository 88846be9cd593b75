"""``compsem report`` (``run``): mean ± std tables (``tables``), leaderboards
(``leaderboard``), the results page (``page``, ``page_html``, ``svg``), PNG plots (``plots``)
and each command's ``summary.md`` (``summary``)."""
