"""``compsem embed`` (``run``): the Montague consistency tests on embedding models
(``models``), with their report (``report``)."""
