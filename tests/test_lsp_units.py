"""The language server's parts without a server (issue 15 item 4): editor positions, the
tables it shows, and what it finds in a ruleset held in the editor's buffers."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesplay.lsp
from rulesplay.cli import main
from rulesplay.errors import Span
from rulesplay.keywords import grammar_keywords
from rulesplay.lsp.analyse import analyse
from rulesplay.lsp.complete import complete
from rulesplay.lsp.keywords import MEANINGS
from rulesplay.lsp.lookup import hover_text, resolve
from rulesplay.lsp.positions import from_client, lines_of, span_range, to_client, units
from rulesplay.validate.functions import BUILTINS, SUMMARIES


def test_columns_count_utf16_units_for_the_editor() -> None:
    lines = lines_of('say "🂡é" x\r\nnext')
    assert lines == ['say "🂡é" x', "next"]
    # 'x' is the 10th character; the card emoji takes two UTF-16 units, é one
    assert to_client(lines, 1, 10) == (0, 10)
    assert to_client(lines, 1, 10, "utf-8") == (0, 13)
    assert to_client(lines, 1, 10, "utf-32") == (0, 9)
    assert from_client(lines, 0, 10) == (0, 9)
    assert from_client(lines, 0, 13, "utf-8") == (0, 9)
    assert units("🂡") == 2 and units("é", "utf-8") == 2
    # a span with no end underlines the word it starts at
    assert span_range(lines, Span(line=2, col=1)) == ((1, 0), (1, 4))
    assert span_range(lines, Span(line=1, col=7, end_line=1, end_col=8)) == ((0, 7), (0, 8))
    # a one-character span at a word (a parser's caret) covers the word; at the end of a
    # line, the line's last character
    assert span_range(lines, Span(line=1, col=10, end_line=1, end_col=11)) == ((0, 10), (0, 11))
    assert span_range(lines, Span(line=1, col=1, end_line=1, end_col=2)) == ((0, 0), (0, 3))
    assert span_range(lines, Span(line=2, col=5)) == ((1, 3), (1, 4))


def test_every_keyword_of_the_grammar_has_a_meaning() -> None:
    assert not sorted(grammar_keywords() - set(MEANINGS))


def test_every_builtin_has_a_summary() -> None:
    assert list(SUMMARIES) == list(BUILTINS)
    assert all(s.startswith(name + "(") for name, s in SUMMARIES.items())


def test_a_missing_pygls_is_named_with_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulesplay.lsp.importlib.util, "find_spec", lambda name: None)
    problem = rulesplay.lsp.missing()
    assert problem is not None and "pip install 'rulesplay[lsp]'" in problem
    result = CliRunner().invoke(main, ["lsp"])
    assert result.exit_code == 1 and "needs pygls" in result.output
    assert "Traceback" not in result.output


BASE = """\
game "Base"
players 2
card coin:
    face: 1..3
zone pile: shared
player var points: int = 0
phase play:
    move top(pile) to pile
    next end
score: points[player]
"""


def test_a_variant_sees_its_base_declarations_and_its_unsaved_text(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    variant = tmp_path / "house.rules"
    variant.write_text("extends \"base.rules\"\n", encoding="utf-8")
    path = str(variant.resolve())
    unsaved = 'extends "base.rules"\nreplace phase play:\n    points[1] += pile\n    next end\n'
    found = analyse(path, {path: unsaved})
    # the mistake is in the unsaved text: the file on disk has only the extends line
    assert [(d.message, d.span.line, d.span.col) for d in found.diagnostics[path]] == \
        [("type mismatch: expected a number, got a zone", 3, 18)]
    lines = lines_of(unsaved)
    got = resolve(found.index, lines, path, 2, 5)
    assert got is not None and got[1][0].span.file == str(tmp_path / "base.rules")
    assert "player var points" in (hover_text(found.index, lines, path, 2, 5) or "")
    typed = lines_of(unsaved.replace("points[1] += pile", "x = "))
    assert {"pile", "points"} <= {i.label for i in complete(found.index, typed, path, 2, 8)}
    # a mistake in the base is shown in the base and at the variant's extends line
    (tmp_path / "base.rules").write_text(BASE.replace("pile\n    next", "pyle\n    next"),
                                         encoding="utf-8")
    found = analyse(path, {path: 'extends "base.rules"\n'})
    base = str(tmp_path / "base.rules")
    assert found.diagnostics[base][0].span.line == 8
    assert found.diagnostics[path][0].message.startswith("in base.rules:8:")
    assert found.diagnostics[path][0].span.line == 1


def test_a_buffer_that_is_no_file_yet_is_checked_alone() -> None:
    found = analyse("untitled:1", {"untitled:1": BASE.replace("next end", "next ned")},
                    on_disk=False)
    assert any("ned" in d.message for d in found.diagnostics["untitled:1"])
    assert found.index is not None and found.index.named("pile")


def test_an_indented_line_completes_what_its_declaration_holds() -> None:
    text = BASE.replace("    face: 1..3\n", "    face: 1..3\n    co\n")
    lines = lines_of(text)
    row = lines.index("    co")
    assert [i.label for i in complete(None, lines, "x.rules", row, 6)] == \
        ["copies", "label", "short", "table"]
    row = lines.index("    next end")
    inside = [i.label for i in complete(None, lines, "x.rules", row, 4)]
    assert "move" in inside and "copies" not in inside and "phase" not in inside


def test_a_part_file_alone_is_only_parsed(tmp_path: Path) -> None:
    part = str(tmp_path / "cards.part")
    assert analyse(part, {part: "card coin:\n    face: 1..3\n"}).diagnostics == {part: []}
    broken = analyse(part, {part: "card coin:\n    face: 1..\n"}).diagnostics[part]
    assert len(broken) == 1 and broken[0].span.line == 2


def test_a_failure_of_rulesplay_itself_becomes_one_diagnostic(
        monkeypatch: pytest.MonkeyPatch) -> None:
    server = pytest.importorskip("rulesplay.lsp.server")

    def broken(*args: object) -> None:
        raise KeyError("x")

    monkeypatch.setattr(server, "analyse", broken)
    said = server.safe_analyse("/a.rules", {"/a.rules": ""}, True).diagnostics["/a.rules"]
    assert len(said) == 1 and "KeyError" in said[0].message and said[0].span.line == 1
