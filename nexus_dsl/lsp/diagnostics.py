"""The checker's diagnostics of a document, as the protocol's diagnostics.

A `Diagnostic` (`errors.py`) maps onto the protocol's field for field: its code, its severity, its
message (the hint on a line of its own, as `nexus check` prints it beneath), and its position,
moved from the parser's 1-based lines and columns to the protocol's 0-based ones. A problem with
no end column covers the word it starts at; one about the whole file (line 0) sits at its start.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from ..content.loader import SCRIPT_SUFFIX, internal_error
from ..errors import Diagnostic
from ..model.ruleset import Ruleset
from ..validate_files import check_script_text
from .positions import Text, token_end

SOURCE = "nexus"
SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def check_document(path: Path, file: str, source: str, ruleset: Ruleset | None) -> list[Diagnostic]:
    """Every problem of a rule script's text, checked on top of `ruleset` (the packs it belongs to).
    A fault of the tool is itself a diagnostic: the document is never left unchecked in silence."""
    if path.suffix != SCRIPT_SUFFIX:
        return []
    try:
        return check_script_text(source, file, ruleset)
    except Exception as error:  # noqa: BLE001 - reported on the document, never raised at the client
        return [internal_error(file, error)]


def to_lsp(diagnostic: Diagnostic, text: Text) -> types.Diagnostic:
    """One `Diagnostic` as the protocol's, its position in the client's units."""
    if diagnostic.line <= 0:
        where = text.range(0, 0, 0)
    else:
        line = min(diagnostic.line, len(text.lines)) - 1
        start = max(diagnostic.column - 1, 0)
        end = diagnostic.end_column - 1 if diagnostic.end_column > diagnostic.column else token_end(text.line(line), start)
        where = text.range(line, start, end)
    message = diagnostic.message + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else "")
    return types.Diagnostic(range=where, message=message, code=diagnostic.code, source=SOURCE,
                            severity=SEVERITIES.get(diagnostic.severity, types.DiagnosticSeverity.Error))
