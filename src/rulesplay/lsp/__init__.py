"""The language server (``rulesplay lsp``): diagnostics while typing, hover, completion,
go-to-definition and the outline of ``.rules`` files, for any editor that speaks the
Language Server Protocol (see docs/editors.md).

Modules: :mod:`.positions` (spans to editor positions), :mod:`.analyse` (the diagnostics of
the editor's buffers), :mod:`.index` (the declarations), :mod:`.lookup` (hover,
definition), :mod:`.complete`, :mod:`.keywords`, :mod:`.convert` (to lsprotocol values) and
:mod:`.server` (the pygls wiring; needs the ``lsp`` extra).
"""

from __future__ import annotations

import importlib.util

INSTALL = "pip install 'rulesplay[lsp]'  (or: pip install 'pygls>=2.0' 'lsprotocol>=2025.0')"


def missing() -> str | None:
    """What to install for the server, or None when pygls 2 and lsprotocol are there."""
    for name in ("pygls", "lsprotocol"):
        if importlib.util.find_spec(name) is None:
            return f"the language server needs {name}: {INSTALL}"
    from importlib.metadata import version

    if int(version("pygls").split(".")[0]) < 2:
        return f"the language server needs pygls 2 (found {version('pygls')}): {INSTALL}"
    return None
