"""The import structure of ``src/rulesplay``, read from the source with :mod:`ast`.

- No import circle among the package's modules (top-level imports; imports under
  ``if TYPE_CHECKING:`` only name types and are left out).
- No import inside a function or class body in ``engine/``: a module's dependencies are
  the lines at its top.
- The engine's layers (see ``engine/__init__.py``): each module imports only modules of its
  own layer or of layers below it, and every engine module has a layer in ``LAYERS``.
- The run-time nodes do not name the compile step or the loader even for type annotations.
- No engine module is over ``MAX_LINES`` lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "rulesplay"
PACKAGE = "rulesplay"
ENGINE = f"{PACKAGE}.engine"
MAX_LINES = 700

# Bottom to top. A module may import modules of its own layer and of the layers below.
LAYERS: dict[str, int] = {
    # 1. the run-time tables nodes and states read: layout and slots, actions, the
    #    compiled program's tables (the tool's words come from rulesplay.words)
    "expr": 1, "actions": 1, "program": 1, "shuffles": 1,
    # 2. the state (plain data and the engine API) and the views of it
    "observe": 2, "state": 2, "save_shape": 2, "budgets": 2, "team_results": 2,
    # 3. the run-time nodes
    "effects": 3, "choices": 3, "tricks": 3, "routines": 3, "card_sets": 3,
    # 4. compilers of expressions and of display texts
    "codegen": 4, "expr_facts": 4, "quantify": 4, "texts": 4,
    # 5. the compile step: tables and nodes from the checked IR, a whole program
    "options": 5, "tables": 5, "compile_effects": 5, "compile_stmts": 5, "lower": 5,
    "lower_trick": 5, "routine_code": 5,
    "build": 5,
    # 6. Game and the loaders
    "game": 6,
    # 7. checks of a whole loaded game (every player count)
    "player_counts": 7,
}
NODES_LAYER = 3
# Above every layer, beside each other: the command line, the language server (issue 15
# item 4) and the web server (issue 17). No other module imports them; the CLI loads each
# server inside its command (``lsp``, ``serve``), so pygls (the ``lsp`` extra) and Starlette
# (the ``web`` extra) are imported by the servers' own modules only.
TOP_LAYER = (f"{PACKAGE}.cli", f"{PACKAGE}.__main__", f"{PACKAGE}.lsp", f"{PACKAGE}.web")


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The package's modules an import statement in ``module`` loads."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            is_package = MODULES[module].name == "__init__.py"
            base = module.split(".")
            base = base[:len(base) - node.level + (1 if is_package else 0)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        # ``from . import x`` loads module x when there is one, else names from the package.
        names = [f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target
                 for a in node.names]
    return {n for n in names if n in MODULES}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _top_imports(module: str) -> tuple[set[str], set[str], list[ast.stmt]]:
    """``(run-time imports, annotation-only imports, the import statements)`` at the top of
    ``module``: the module body, including module-level ``if``/``try`` blocks; imports in
    ``if TYPE_CHECKING:`` bodies are annotation-only."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    run: set[str] = set()
    types: set[str] = set()
    statements: list[ast.stmt] = []

    def scan(stmts: list[ast.stmt], into: set[str]) -> None:
        for st in stmts:
            if isinstance(st, ast.Import | ast.ImportFrom):
                into |= _targets(module, st)
                statements.append(st)
            elif isinstance(st, ast.If):
                scan(st.body, types if _is_type_checking(st.test) else into)
                scan(st.orelse, into)
            elif isinstance(st, ast.Try):
                for block in (st.body, st.orelse, st.finalbody,
                              *(h.body for h in st.handlers)):
                    scan(block, into)

    scan(tree.body, run)
    return run, types, statements


GRAPH = {m: _top_imports(m)[0] for m in MODULES}
ENGINE_MODULES = sorted(m for m in MODULES if m.startswith(ENGINE + "."))


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                return path[path.index(t):] + [t]
            if t not in state:
                found = visit(t)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_scan_sees_the_package() -> None:
    assert ENGINE in MODULES and f"{ENGINE}.state" in MODULES
    assert f"{ENGINE}.effects" in GRAPH[f"{ENGINE}.tricks"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_circle() -> None:
    cycle = _cycle(GRAPH)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_no_import_inside_a_function_or_class_in_the_engine(module: str) -> None:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    top = {(st.lineno, st.col_offset) for st in _top_imports(module)[2]}
    nested = [node.lineno for node in ast.walk(tree)
              if isinstance(node, ast.Import | ast.ImportFrom)
              and (node.lineno, node.col_offset) not in top]
    assert not nested, f"{module}: imports not at the top of the module, lines {nested}"


def test_every_engine_module_has_a_layer() -> None:
    names = {m.rsplit(".", 1)[1] for m in ENGINE_MODULES}
    assert names == set(LAYERS), "place new engine modules in LAYERS (and in the layer " \
        "comment of engine/__init__.py); drop removed ones"


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_engine_modules_import_only_their_layer_and_below(module: str) -> None:
    layer = LAYERS[module.rsplit(".", 1)[1]]
    above = sorted(t for t in GRAPH[module] if t.startswith(ENGINE + ".")
                   and LAYERS[t.rsplit(".", 1)[1]] > layer)
    assert not above, f"{module} (layer {layer}) imports a higher layer: {above}"
    assert ENGINE not in GRAPH[module], "import engine modules directly, not the package"


@pytest.mark.parametrize("module", [m for m in ENGINE_MODULES
                                    if LAYERS[m.rsplit(".", 1)[1]] <= NODES_LAYER
                                    and m.rsplit(".", 1)[1] not in ("program", "state")])
def test_run_time_modules_do_not_name_the_compile_step_even_for_types(module: str) -> None:
    # Only ``program`` and ``state`` name ``Game`` (the game a program and a save belong to).
    run, types, _ = _top_imports(module)
    above = sorted(t for t in run | types if t.startswith(ENGINE + ".")
                   and LAYERS[t.rsplit(".", 1)[1]] > NODES_LAYER)
    assert not above, f"{module} names {above}"


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_engine_modules_are_small(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines"


def _in_top(module: str) -> bool:
    return any(module == top or module.startswith(top + ".") for top in TOP_LAYER)


def test_nothing_below_imports_the_cli_or_the_language_server() -> None:
    users = sorted(m for m, targets in GRAPH.items() if not _in_top(m)
                   and any(_in_top(t) for t in targets))
    assert not users, f"modules below the top layer import it: {users}"


@pytest.mark.parametrize(("roots", "owner"), [
    (("pygls", "lsprotocol"), f"{PACKAGE}.lsp"),
    (("starlette", "uvicorn", "websockets"), f"{PACKAGE}.web"),
], ids=["lsp", "web"])
def test_only_its_server_imports_an_extra(roots: tuple[str, ...], owner: str) -> None:
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n.split(".")[0] in roots for n in names) and \
                    not module.startswith(owner + ".") and module != f"{PACKAGE}.serve_cli":
                found.append(module)
    assert not found, f"{roots} imported outside {owner}: {found}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith(f"{PACKAGE}.lsp")))
def test_language_server_modules_are_small(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES // 2, f"{module} has {lines} lines"


ADAPTERS = f"{PACKAGE}.adapters"


def test_the_adapters_are_above_the_engine_and_nothing_imports_them() -> None:
    # The adapters (PettingZoo, OpenSpiel) use the engine and the encodings; no other module
    # of the package imports them, so their extras are never needed elsewhere.
    users = sorted(m for m, targets in GRAPH.items() if not m.startswith(ADAPTERS + ".")
                   and m != ADAPTERS and any(t.startswith(ADAPTERS) for t in targets))
    assert not users, f"modules outside rulesplay.adapters import it: {users}"
    assert f"{ADAPTERS}.chance" in GRAPH[f"{ADAPTERS}.openspiel"]


def test_only_the_openspiel_adapter_imports_openspiel() -> None:
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n.split(".")[0] in ("pyspiel", "open_spiel") for n in names) and \
                    module != f"{ADAPTERS}.openspiel":
                found.append(module)
    assert not found, f"pyspiel/open_spiel imported outside rulesplay.adapters.openspiel: {found}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith(ADAPTERS + ".")))
def test_adapter_modules_are_small(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines"
