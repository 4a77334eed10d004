"""rulesplay's findings as Language Server Protocol values (lsprotocol types)."""

from __future__ import annotations

from lsprotocol import types

from ..errors import Diagnostic, Span
from .complete import Item
from .index import Decl
from .positions import span_range

SEVERITY = {"error": types.DiagnosticSeverity.Error,
            "warning": types.DiagnosticSeverity.Warning}
_ITEM_KIND = {"option": types.CompletionItemKind.Constant,
              "enum": types.CompletionItemKind.Enum,
              "enum value": types.CompletionItemKind.EnumMember,
              "card kind": types.CompletionItemKind.Class,
              "attribute": types.CompletionItemKind.Field,
              "zone": types.CompletionItemKind.Variable,
              "variable": types.CompletionItemKind.Variable,
              "phase": types.CompletionItemKind.Module,
              "ability": types.CompletionItemKind.Interface,
              "rule": types.CompletionItemKind.Method,
              "define": types.CompletionItemKind.Function,
              "local": types.CompletionItemKind.Variable,
              "builtin": types.CompletionItemKind.Function,
              "keyword": types.CompletionItemKind.Keyword}
_SYMBOL_KIND = {"option": types.SymbolKind.Constant, "enum": types.SymbolKind.Enum,
                "enum value": types.SymbolKind.EnumMember, "card kind": types.SymbolKind.Class,
                "attribute": types.SymbolKind.Field, "zone": types.SymbolKind.Array,
                "variable": types.SymbolKind.Variable, "phase": types.SymbolKind.Module,
                "ability": types.SymbolKind.Interface, "rule": types.SymbolKind.Method,
                "define": types.SymbolKind.Function}


def lsp_range(lines: list[str], span: Span, encoding: str) -> types.Range:
    """The editor range of ``span`` in a file of ``lines``."""
    (sl, sc), (el, ec) = span_range(lines, span, encoding)
    return types.Range(start=types.Position(line=sl, character=sc),
                       end=types.Position(line=el, character=ec))


def lsp_diagnostic(diag: Diagnostic, lines: list[str], encoding: str) -> types.Diagnostic:
    """One rulesplay diagnostic as the editor shows it (source "rulesplay")."""
    span = diag.span if diag.span.line > 0 else Span(file=diag.span.file, line=1, col=1)
    return types.Diagnostic(range=lsp_range(lines, span, encoding), message=diag.message,
                            severity=SEVERITY[diag.severity], source="rulesplay")


def completion_item(item: Item) -> types.CompletionItem:
    """A completion as the editor lists it."""
    return types.CompletionItem(label=item.label, kind=_ITEM_KIND.get(item.kind),
                                detail=item.detail or item.kind)


def symbols(decls: list[Decl], lines: list[str], encoding: str) -> list[types.DocumentSymbol]:
    """The outline of one file: its declarations, enum values and card attributes nested
    under their enum or card kind."""
    out: list[types.DocumentSymbol] = []
    children: dict[int, list[types.DocumentSymbol]] = {}
    for d in decls:
        if d.kind not in _SYMBOL_KIND:
            continue
        name_range = lsp_range(lines, d.span, encoding)
        whole = d.whole if d.whole.end_line else d.span
        whole_range = lsp_range(lines, whole, encoding)
        if whole_range.start.line > name_range.start.line or \
                whole_range.end.line < name_range.end.line:
            whole_range = name_range
        symbol = types.DocumentSymbol(name=d.name, kind=_SYMBOL_KIND[d.kind],
                                      range=whole_range, selection_range=name_range,
                                      detail=d.line)
        parent = out[-1] if out else None
        if d.kind in ("enum value", "attribute") and parent is not None and \
                parent.kind in (types.SymbolKind.Enum, types.SymbolKind.Class):
            children.setdefault(id(parent), []).append(symbol)
        else:
            out.append(symbol)
    for symbol in out:
        symbol.children = children.get(id(symbol))
    return out
