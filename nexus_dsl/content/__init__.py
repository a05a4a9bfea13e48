"""Content packs: discovery, loading, layering, and the immutable Ruleset."""

from ..model.ruleset import Ruleset
from .loader import cached_ruleset, discover_packs, load_ruleset, load_ruleset_collecting

__all__ = ["Ruleset", "cached_ruleset", "discover_packs", "load_ruleset", "load_ruleset_collecting"]
