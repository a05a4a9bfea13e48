"""The content root: the folder of packs that commands and the editor read when none is named.

One environment variable chooses it, `NEXUS_CONTENT_ROOT`; unset, it is the content that ships with
the package (`shipped.py`). `NEXUS_CONTENT`, the name the command line once read, is still honoured
when `NEXUS_CONTENT_ROOT` is unset, with a warning, once per process, that it is deprecated.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

from .. import shipped

CONTENT_ROOT_ENV = "NEXUS_CONTENT_ROOT"
#: The earlier name, read only when `CONTENT_ROOT_ENV` is unset.
DEPRECATED_CONTENT_ROOT_ENV = "NEXUS_CONTENT"

_warned = False


def default_content_root() -> Path:
    """`$NEXUS_CONTENT_ROOT`, else (deprecated) `$NEXUS_CONTENT`, else the content that ships."""
    chosen = os.environ.get(CONTENT_ROOT_ENV)
    if chosen:
        return Path(chosen)
    deprecated = os.environ.get(DEPRECATED_CONTENT_ROOT_ENV)
    if deprecated:
        _warn_deprecated()
        return Path(deprecated)
    return shipped.content_folder()


def _warn_deprecated() -> None:
    # FutureWarning, not DeprecationWarning: it is meant for the person who set the variable, and
    # Python shows it by default. Once per process, however many times the root is asked for.
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(f"{DEPRECATED_CONTENT_ROOT_ENV} is deprecated: set {CONTENT_ROOT_ENV} instead",
                      FutureWarning, stacklevel=3)
