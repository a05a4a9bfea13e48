"""The language server: pygls's `LanguageServer` with the features of this package wired in.

Documents are synchronised whole (each change sends the full text), so the text checked is always
the client's, whatever its idea of a line ending. Each request reads the document as it stands,
finds the ruleset of the packs it belongs to (`packs.py`) and answers with `answers.py` or
`navigation.py`; opening or changing a document publishes its diagnostics. A fault of the tool
in a request is logged (the client shows the log) and answered with nothing: the server goes on.
"""

from __future__ import annotations

import logging
from functools import wraps
from pathlib import Path
from typing import Callable, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..files import display_path
from ..model.ruleset import Ruleset
from .answers import completion_at, formatting_edits, hover_at
from .diagnostics import check_document, to_lsp
from .navigation import Document, definitions, references
from .packs import Packs
from .positions import Text

log = logging.getLogger(__name__)
_Answer = TypeVar("_Answer")


class NexusLanguageServer(LanguageServer):
    """The server, and the rulesets of the packs its documents belong to."""

    def __init__(self) -> None:
        super().__init__("nexus-lsp", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.packs = Packs()

    def document(self, uri: str) -> Document:
        found = self.workspace.get_text_document(uri)
        path = Path(found.path)
        encoding = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        return Document(path, display_path(path), Text(found.source, str(encoding)))

    def word_at(self, uri: str, position: types.Position) -> tuple[str, Document, Ruleset | None] | None:
        """The id under the cursor, the document and its packs' ruleset (what navigation asks)."""
        document = self.document(uri)
        word = document.text.word_at(position)
        return (word[0], document, self.packs.for_file(document.path).ruleset) if word else None

    def publish(self, uri: str, version: int | None) -> None:
        document = self.document(uri)
        loaded = self.packs.for_file(document.path)
        found = check_document(document.path, document.file, document.text.source, loaded.ruleset)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[to_lsp(d, document.text) for d in found]))


def _guarded(feature: Callable[..., _Answer | None]) -> Callable[..., _Answer | None]:
    """Answer nothing where a feature fails: one faulty answer never stops the server."""
    @wraps(feature)
    def guarded(*args: object) -> _Answer | None:
        try:
            return feature(*args)
        except Exception:  # noqa: BLE001 - logged for the client, the server goes on
            log.exception("nexus lsp: %s failed", feature.__name__)
            return None
    return guarded


def build_server() -> NexusLanguageServer:
    server = NexusLanguageServer()

    @server.feature(types.INITIALIZED)
    @_guarded
    def initialized(ls: NexusLanguageServer, params: types.InitializedParams) -> None:
        folders = [to_fs_path(uri) for uri in ls.workspace.folders]
        ls.packs = Packs([Path(folder) for folder in folders if folder])

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @_guarded
    def did_open(ls: NexusLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.publish(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @_guarded
    def did_change(ls: NexusLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.publish(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @_guarded
    def did_save(ls: NexusLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.packs.forget()  # what the packs hold may have changed with the file
        ls.publish(params.text_document.uri, None)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @_guarded
    def did_close(ls: NexusLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @_guarded
    def hover(ls: NexusLanguageServer, params: types.HoverParams) -> types.Hover | None:
        document = ls.document(params.text_document.uri)
        return hover_at(document.text, params.position, ls.packs.for_file(document.path).ruleset)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."]))
    @_guarded
    def completion(ls: NexusLanguageServer, params: types.CompletionParams) -> types.CompletionList | None:
        document = ls.document(params.text_document.uri)
        return completion_at(document.text, params.position, ls.packs.for_file(document.path).ruleset)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @_guarded
    def definition(ls: NexusLanguageServer, params: types.DefinitionParams) -> list[types.Location] | None:
        found = ls.word_at(params.text_document.uri, params.position)
        return definitions(*found) or None if found else None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @_guarded
    def find_references(ls: NexusLanguageServer, params: types.ReferenceParams) -> list[types.Location] | None:
        found = ls.word_at(params.text_document.uri, params.position)
        return references(*found, params.context.include_declaration) or None if found else None

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    @_guarded
    def formatting(ls: NexusLanguageServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        document = ls.document(params.text_document.uri)
        return formatting_edits(document.text, document.file)

    return server


def serve() -> None:
    """Serve one client on standard input and output until it says `exit`."""
    logging.basicConfig(level=logging.WARNING)  # on standard error, which the protocol leaves free
    build_server().start_io()
