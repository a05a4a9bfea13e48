"""nexus_dsl: a rule-script language, engine and tools for designing NEXUS Arena Combat System content.

The public API — everything the CLI and the editor use — is re-exported here.
"""

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

__all__ = [
    "Action", "Bout", "BoutSetup", "CheckContext", "CheckError", "CheckReport", "ContentError", "Decision",
    "Diagnostic", "Dice", "Event", "PieceSetup", "HeuristicAgent", "NexusError", "Outcome", "RandomAgent",
    "Ruleset", "RulesError", "SchemaError", "ScriptRuntimeError", "Status", "SyntaxLayerError", "Termination",
    "barge_problems", "cached_ruleset", "check_declarations", "check_paths", "check_script_text", "discover_packs",
    "format_source", "from_canonical", "load_ruleset", "load_ruleset_collecting", "make_agent", "parse",
    "parse_declaration", "play", "print_declaration", "print_module", "run_scenarios", "standard_setup",
    "to_canonical",
]
