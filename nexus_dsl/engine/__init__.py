"""The engine: mechanisms that play a bout from a ruleset (docs/architecture.md). Compiled with mypyc
when a build of these sources exists (`nexus_dsl.native`)."""

from ..native import use_native_build

use_native_build()
