"""nexus_dsl: a rule-script language, engine and tools for designing NEXUS Arena Combat System content.

The public API — everything the CLI and the editor use — is re-exported here. Each name is imported
when first used (PEP 562), so that a tool that only loads content (`nexus_dsl.content.loader`) does
not pay for importing the engine, the agents and the scenario runner.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .agents import HeuristicAgent, RandomAgent, make_agent
    from .check.checker import CheckContext, check_declarations
    from .content.barge_checks import barge_problems
    from .content.loader import cached_ruleset, discover_packs, load_ruleset, load_ruleset_collecting
    from .engine.actions import Action, Decision
    from .engine.bout import Bout, Event, play
    from .engine.dice import Dice
    from .engine.setup import BoutSetup, PieceSetup, standard_setup
    from .engine.state import Outcome, Status, Termination
    from .errors import (CheckError, ContentError, Diagnostic, NexusError, RulesError, SchemaError,
                         ScriptRuntimeError, SyntaxLayerError)
    from .model.ruleset import Ruleset
    from .scenario import run_paths as run_scenarios
    from .syntax.canonical import from_canonical, to_canonical
    from .syntax.parser import parse, parse_declaration
    from .syntax.printer import format_source, print_declaration, print_module
    from .validate_files import CheckReport, check_paths, check_script_text

__version__ = "0.1.0"

#: Each public name -> (the module it lives in, its name there).
_EXPORTS: dict[str, tuple[str, str]] = {
    **{name: (".agents", name) for name in ("HeuristicAgent", "RandomAgent", "make_agent")},
    **{name: (".check.checker", name) for name in ("CheckContext", "check_declarations")},
    "barge_problems": (".content.barge_checks", "barge_problems"),
    **{name: (".content.loader", name)
       for name in ("cached_ruleset", "discover_packs", "load_ruleset", "load_ruleset_collecting")},
    **{name: (".engine.actions", name) for name in ("Action", "Decision")},
    **{name: (".engine.bout", name) for name in ("Bout", "Event", "play")},
    "Dice": (".engine.dice", "Dice"),
    **{name: (".engine.setup", name) for name in ("BoutSetup", "PieceSetup", "standard_setup")},
    **{name: (".engine.state", name) for name in ("Outcome", "Status", "Termination")},
    **{name: (".errors", name) for name in ("CheckError", "ContentError", "Diagnostic", "NexusError", "RulesError",
                                            "SchemaError", "ScriptRuntimeError", "SyntaxLayerError")},
    "Ruleset": (".model.ruleset", "Ruleset"),
    "run_scenarios": (".scenario", "run_paths"),
    **{name: (".syntax.canonical", name) for name in ("from_canonical", "to_canonical")},
    **{name: (".syntax.parser", name) for name in ("parse", "parse_declaration")},
    **{name: (".syntax.printer", name) for name in ("format_source", "print_declaration", "print_module")},
    **{name: (".validate_files", name) for name in ("CheckReport", "check_paths", "check_script_text")},
}

__all__ = [
    "Action", "Bout", "BoutSetup", "CheckContext", "CheckError", "CheckReport", "ContentError", "Decision",
    "Diagnostic", "Dice", "Event", "PieceSetup", "HeuristicAgent", "NexusError", "Outcome", "RandomAgent",
    "Ruleset", "RulesError", "SchemaError", "ScriptRuntimeError", "Status", "SyntaxLayerError", "Termination",
    "barge_problems", "cached_ruleset", "check_declarations", "check_paths", "check_script_text", "discover_packs",
    "format_source", "from_canonical", "load_ruleset", "load_ruleset_collecting", "make_agent", "parse",
    "parse_declaration", "play", "print_declaration", "print_module", "run_scenarios", "standard_setup",
    "to_canonical",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use and kept here."""
    try:
        module, attribute = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(import_module(module, __name__), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
