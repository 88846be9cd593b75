"""``python -m compsem.cli``: the ``compsem`` command."""

import sys

from compsem.cli.program import main

sys.exit(main())
