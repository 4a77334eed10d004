"""``rulesplay lsp``: the language server, over stdin and stdout, on pygls.

Diagnostics follow the editor's buffer: on open and save at once, on change 0.3 s after the
last keystroke (a burst of typing is checked once). The check runs in a worker thread, so
hover and completion answer meanwhile; a check overtaken by a later one publishes nothing.
Hover, completion, go-to-definition and the outline answer from the last table of
declarations that parsed (:mod:`.index`).
"""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..errors import Diagnostic, Span
from .analyse import Analysis, analyse
from .complete import complete
from .convert import completion_item, lsp_diagnostic, lsp_range, symbols
from .index import Index
from .lookup import hover_text, resolve
from .positions import from_client, lines_of

_FILE_LINE = re.compile(r'^\s*(include|extends)\s+"([^"\\]+)"')
DEBOUNCE = 0.3  # seconds after the last change before the ruleset is checked again


def _version() -> str:
    """rulesplay's version, as installed ("unknown" when run from a bare checkout)."""
    try:
        return version("rulesplay")
    except PackageNotFoundError:
        return "unknown"


class RulesServer(LanguageServer):
    """The server's state: the last declarations table of each open document, what each
    one's check said about each file, and the pending checks."""

    def __init__(self) -> None:
        super().__init__("rulesplay", _version())
        self.indexes: dict[str, Index] = {}
        # file uri -> the document whose check said it -> diagnostics
        self.said: dict[str, dict[str, list[types.Diagnostic]]] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.turns: dict[str, int] = {}  # checks started, per document
        # One check at a time, off the event loop (a large ruleset takes ~0.4 s of CPU).
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulesplay-check")

    @property
    def encoding(self) -> str:
        """The position encoding agreed with the editor ("utf-16" unless it asked)."""
        enc = self.workspace.position_encoding
        return str(getattr(enc, "value", enc) or "utf-16")

    def path_of(self, uri: str) -> tuple[str, bool]:
        """The file path of ``uri``, and whether it is a file on disk."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return (str(Path(path).resolve()), True) if path else (uri, False)

    def buffers(self) -> dict[str, str]:
        """The text of every open file, by resolved path."""
        out = {}
        for uri, doc in self.workspace.text_documents.items():
            path, on_disk = self.path_of(uri)
            if on_disk:
                out[path] = doc.source
        return out

    def check(self, uri: str) -> None:
        """Check the document ``uri`` in the worker thread (the editor's requests are
        answered meanwhile), then publish what it found."""
        self.pending.pop(uri, None)
        if uri not in self.workspace.text_documents:
            return
        path, on_disk = self.path_of(uri)
        edited = self.buffers() if on_disk else {}
        edited[path] = self.workspace.get_text_document(uri).source
        self.turns[uri] = turn = self.turns.get(uri, 0) + 1
        done = asyncio.get_running_loop().run_in_executor(self.worker, safe_analyse, path,
                                                          edited, on_disk)
        done.add_done_callback(lambda f: self.found(uri, turn, path, edited, f.result()))

    def found(self, uri: str, turn: int, path: str, edited: dict[str, str],
              result: Analysis) -> None:
        """Take in the diagnostics of a check of ``uri`` (for it and for the files it brings
        in), unless a later check of it has started, and publish the files they touch."""
        if turn != self.turns.get(uri) or uri not in self.workspace.text_documents:
            return
        if result.index is not None:
            self.indexes[uri] = result.index
        touched = {target for target, by in self.said.items() if uri in by}
        for by in self.said.values():
            by.pop(uri, None)
        for file, diags in result.diagnostics.items():
            target = uri if file == path else from_fs_path(file)
            if target is None:
                continue
            text = edited.get(file)
            self.said.setdefault(target, {})[uri] = [
                lsp_diagnostic(d, lines_of(text if text is not None else d.source or ""),
                               self.encoding) for d in diags]
            touched.add(target)
        for target in sorted(touched):
            self.publish(target)

    def forget(self, uri: str) -> None:
        """Drop what the checks of ``uri`` said (it was closed), publishing what is left."""
        for target in sorted(t for t, by in self.said.items() if uri in by):
            self.said[target].pop(uri)
            self.publish(target)

    def publish(self, target: str) -> None:
        """Send the diagnostics of ``target``: what every open document's check said about
        it (a base open beside its variant is reported by both: each once)."""
        out: dict[tuple[str, int, int, int, int], types.Diagnostic] = {}
        for diags in self.said.get(target, {}).values():
            for d in diags:
                r = d.range
                key = (d.message, r.start.line, r.start.character, r.end.line, r.end.character)
                out.setdefault(key, d)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=target, diagnostics=list(out.values())))

    def check_with_users(self, uri: str) -> None:
        """Check ``uri`` and every other open document that extends or includes it (their
        diagnostics change with its unsaved text)."""
        self.check(uri)
        path = self.path_of(uri)[0]
        for other, index in list(self.indexes.items()):
            if other != uri and path in index.sources:
                self.check(other)

    def later(self, uri: str) -> None:
        """Check ``uri`` (and its users) after :data:`DEBOUNCE` seconds with no further
        change."""
        if uri in self.pending:
            self.pending[uri].cancel()
        self.pending[uri] = asyncio.get_running_loop().call_later(
            DEBOUNCE, self.check_with_users, uri)

    def place(self, uri: str, pos: types.Position) -> tuple[list[str], str, int, int]:
        """The document's lines, its path, and the cursor as (row, index in characters)."""
        lines = lines_of(self.workspace.get_text_document(uri).source)
        row, col = from_client(lines, pos.line, pos.character, self.encoding)
        return lines, self.path_of(uri)[0], row, col


def safe_analyse(path: str, edited: dict[str, str], on_disk: bool) -> Analysis:
    """:func:`analyse`, or, when rulesplay itself fails on this text (a bug), one
    diagnostic at the top of the file saying so, instead of a server that stops checking."""
    try:
        return analyse(path, edited, on_disk)
    except Exception as exc:  # (the server must go on answering)
        said = Diagnostic(f"rulesplay could not check this file ({type(exc).__name__}: "
                          f"{exc}); please report it", Span(file=path, line=1, col=1))
        return Analysis(diagnostics={path: [said]})


SERVER = RulesServer()


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams) -> None:
    """A file was opened: check it now."""
    ls.check(params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
    """The buffer changed (pygls has applied the change): check it once typing pauses."""
    ls.later(params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulesServer, params: types.DidSaveTextDocumentParams) -> None:
    """A file was saved: check it and the open files that use it now."""
    ls.check_with_users(params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams) -> None:
    """A file was closed: drop its pending check, its table and what its checks said."""
    uri = params.text_document.uri
    if uri in ls.pending:
        ls.pending.pop(uri).cancel()
    ls.forget(uri)
    ls.indexes.pop(uri, None)


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: RulesServer, params: types.HoverParams) -> types.Hover | None:
    """Markdown about the name under the cursor (:func:`.lookup.hover_text`)."""
    uri = params.text_document.uri
    lines, path, row, col = ls.place(uri, params.position)
    text = hover_text(ls.indexes.get(uri), lines, path, row, col)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                    value=text))


@SERVER.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=["."]))
def completion(ls: RulesServer, params: types.CompletionParams) -> types.CompletionList:
    """What may be written at the cursor (:func:`.complete.complete`)."""
    uri = params.text_document.uri
    lines, path, row, col = ls.place(uri, params.position)
    items = complete(ls.indexes.get(uri), lines, path, row, col)
    return types.CompletionList(is_incomplete=False,
                                items=[completion_item(i) for i in items])


@SERVER.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulesServer, params: types.DefinitionParams) -> list[types.Location]:
    """Where the name under the cursor is declared, or the file an include/extends line
    names."""
    uri = params.text_document.uri
    lines, path, row, col = ls.place(uri, params.position)
    named = _FILE_LINE.match(lines[row]) if lines else None
    if named and ls.path_of(uri)[1]:
        file = Path(path).parent / named.group(2)
        # the ruleset file an include or extends line names, at its top (no other file)
        if file.suffix in (".rules", ".part") and file.is_file():
            start = types.Position(line=0, character=0)
            return [types.Location(uri=file.resolve().as_uri(),
                                   range=types.Range(start=start, end=start))]
    index = ls.indexes.get(uri)
    found = resolve(index, lines, path, row, col)
    if index is None or found is None:
        return []
    out = []
    for d in found[1][:1]:
        target = uri if d.span.file == path else from_fs_path(d.span.file)
        if target is not None:
            file_lines = lines_of(index.sources.get(d.span.file, ""))
            out.append(types.Location(uri=target,
                                      range=lsp_range(file_lines, d.span, ls.encoding)))
    return out


@SERVER.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RulesServer,
                    params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    """The outline: the declarations written in this file (:func:`.convert.symbols`)."""
    uri = params.text_document.uri
    index = ls.indexes.get(uri)
    if index is None:
        return []
    path = ls.path_of(uri)[0]
    own = [d for d in index.decls if d.span.file == path]
    return symbols(own, lines_of(index.sources.get(path, "")), ls.encoding)


def serve() -> None:
    """Run the server on stdin and stdout until the editor says exit."""
    SERVER.start_io()
