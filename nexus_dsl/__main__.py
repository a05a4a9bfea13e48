"""`python -m nexus_dsl` is the same as the `nexus` command."""

import sys

from .cli import main

sys.exit(main())
