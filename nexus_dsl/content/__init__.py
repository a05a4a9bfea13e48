"""Content packs: discovery, loading, layering, and the immutable Ruleset."""

from .loader import cached_ruleset, discover_packs, load_ruleset, load_ruleset_collecting
from ..model.ruleset import Ruleset

__all__ = ["Ruleset", "cached_ruleset", "discover_packs", "load_ruleset", "load_ruleset_collecting"]
