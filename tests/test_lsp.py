"""``rulesplay lsp`` driven over stdio as an editor drives it (issue 15 item 4): open a
ruleset with a mistake and see it underlined, fix it and see the underline go, then ask for
hover, completion, definitions and the outline."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesplay.lsp import missing

if missing():
    pytest.skip(f"{missing()}", allow_module_level=True)

from lsp_client import Client  # noqa: E402

CARDS = """\
# the one kind of card
card coin "Coin":
    face: 1..3
"""

GOOD = """\
game "Test"
players 2
include "cards.part"
# how many rounds are played
option rounds: int in 1..5 = 2 "rounds to play"
zone pile: shared, hidden
zone hand "Hand": per player, owner
player var points: int = 0
phase deal:
    shuffle pile
    deal 1 from pile to hand
    next play
phase play:
    let n = count(hand[1])
    points[1] += n
    next deal if "🂡ü" != "x" and points[1] < rounds
    next end
score: points[player]
"""
BAD = GOOD.replace("points[1] < rounds", "points[1] < rnds")


def _at(text: str, needle: str, nth: int = 0, into: int = 0) -> dict[str, int]:
    """The LSP position (UTF-16 columns) of the ``nth`` ``needle`` in ``text``, plus
    ``into`` characters."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    start += into
    line = text.count("\n", 0, start)
    before = text[text.rfind("\n", 0, start) + 1:start]
    return {"line": line, "character": len(before.encode("utf-16-le")) // 2}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("house")
    (root / "cards.part").write_text(CARDS, encoding="utf-8")
    (root / "game.rules").write_text(BAD, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def editor(folder: Path) -> Iterator[tuple[Client, str]]:
    client = Client()
    try:
        client.answers["initialize"] = client.request(
            "initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}})
        client.notify("initialized")
        uri = (folder / "game.rules").as_uri()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "rules", "version": 1, "text": BAD}})
        yield client, uri
    finally:
        client.close()


def test_the_server_says_what_it_can_do(editor: tuple[Client, str]) -> None:
    client, _ = editor
    result = client.answers["initialize"]
    assert result["serverInfo"]["name"] == "rulesplay"
    can = result["capabilities"]
    assert can["positionEncoding"] == "utf-16"
    assert can["hoverProvider"] and can["definitionProvider"] and can["documentSymbolProvider"]
    assert can["completionProvider"]["triggerCharacters"] == ["."]


def _ask(client: Client, method: str, uri: str, pos: dict[str, int]) -> Any:
    return client.request(method, {"textDocument": {"uri": uri}, "position": pos})


def test_a_mistake_is_underlined_where_it_is_then_cleared_when_fixed(
        editor: tuple[Client, str]) -> None:
    client, uri = editor
    diags = client.notification("textDocument/publishDiagnostics", uri=uri)["diagnostics"]
    assert [d["message"] for d in diags] == ["undefined name 'rnds' (did you mean 'rounds'?)"]
    # the emoji before the mistake takes two UTF-16 units: the range counts them
    assert diags[0]["range"] == {"start": _at(BAD, "rnds"), "end": _at(BAD, "rnds", into=4)}
    assert diags[0]["range"]["start"]["character"] == BAD.splitlines()[15].index("rnds") + 1
    assert diags[0]["severity"] == 1
    # a burst of typing: another mistake, then the fix at once (not saved: the file on disk
    # still has the mistake); checked once, 0.3 s after the last change
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"text": BAD.replace("hand[1]", "hnd[1]")}]})
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": GOOD}]})
    again = client.notification("textDocument/publishDiagnostics", uri=uri)
    assert again["diagnostics"] == []


def test_hover_shows_declarations_builtins_and_keywords(editor: tuple[Client, str]) -> None:
    client, uri = editor
    option = _ask(client, "textDocument/hover", uri, _at(GOOD, "rounds", nth=1, into=2))
    text = option["contents"]["value"]
    assert 'option rounds: int in 1..5 = 2 "rounds to play"' in text
    assert "how many rounds are played" in text and "*option*" in text
    zone = _ask(client, "textDocument/hover", uri, _at(GOOD, "hand[1]"))["contents"]["value"]
    assert "zone hand" in zone and "per player, owner" in zone
    kind = _ask(client, "textDocument/hover", uri, _at(GOOD, "count("))["contents"]["value"]
    assert kind.startswith("**count** (builtin)") and "number of elements" in kind
    word = _ask(client, "textDocument/hover", uri, _at(GOOD, "shuffle"))["contents"]["value"]
    assert word.startswith("**shuffle**")
    assert _ask(client, "textDocument/hover", uri, _at(GOOD, "Test", into=1)) is None


def _labels(result: Any) -> list[str]:
    items = result["items"] if isinstance(result, dict) else result
    return [i["label"] for i in items]


def test_completion_offers_what_fits_the_place(editor: tuple[Client, str]) -> None:
    client, uri = editor
    after_next = _labels(_ask(client, "textDocument/completion", uri,
                              _at(GOOD, "next play", into=5)))
    assert set(after_next) == {"deal", "play"}
    names = _labels(_ask(client, "textDocument/completion", uri,
                         _at(GOOD, "points[1] += n", into=13)))
    assert {"rounds", "pile", "hand", "points", "n", "count"} <= set(names)
    assert "phase" not in names and "deal" not in names
    top = _labels(_ask(client, "textDocument/completion", uri, {"line": 0, "character": 0}))
    assert {"phase", "zone", "option", "card"} <= set(top) and "shuffle" not in top
    inside = _labels(_ask(client, "textDocument/completion", uri, _at(GOOD, "shuffle")))
    assert {"shuffle", "move", "let"} <= set(inside) and "phase" not in inside


def test_attributes_complete_after_a_dot(editor: tuple[Client, str]) -> None:
    client, uri = editor
    text = GOOD.replace("    let n = count(hand[1])\n",
                        "    let n = count(hand[1])\n    let f = top(pile).\n")
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": text}]})
    got = _labels(_ask(client, "textDocument/completion", uri, _at(text, "(pile).", into=7)))
    assert got == ["face"]
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": GOOD}]})


def test_definition_finds_names_in_this_file_and_in_included_ones(
        editor: tuple[Client, str], folder: Path) -> None:
    client, uri = editor
    zone = _ask(client, "textDocument/definition", uri, _at(GOOD, "hand[1]"))
    assert zone == [{"uri": uri, "range": {"start": _at(GOOD, "hand \"Hand\""),
                                          "end": _at(GOOD, "hand \"Hand\"", into=4)}}]
    local = _ask(client, "textDocument/definition", uri, _at(GOOD, "+= n", into=3))
    assert local[0]["range"]["start"] == _at(GOOD, "let n", into=4)
    text = GOOD.replace("let n = count(hand[1])", "let n = count(hand[1] where it is coin)")
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 6}, "contentChanges": [{"text": text}]})
    client.notification("textDocument/publishDiagnostics", uri=uri)
    kind = _ask(client, "textDocument/definition", uri, _at(text, "is coin", into=3))
    part = (folder / "cards.part").as_uri()
    assert kind == [{"uri": part,
                     "range": {"start": _at(CARDS, "coin"), "end": _at(CARDS, "coin", into=4)}}]
    top = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    assert _ask(client, "textDocument/definition", uri, _at(text, "cards.part")) == \
        [{"uri": part, "range": top}]


def test_the_outline_lists_the_files_declarations(editor: tuple[Client, str]) -> None:
    client, uri = editor
    got = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in got] == ["rounds", "pile", "hand", "points", "deal", "play"]
    play = got[-1]
    assert play["range"]["start"]["line"] == 12 and play["range"]["end"]["line"] == 16
    assert play["selectionRange"]["start"] == _at(GOOD, "play:")


def test_a_mistake_in_an_included_file_shows_there_and_at_the_include_line(
        editor: tuple[Client, str], folder: Path) -> None:
    client, uri = editor
    (folder / "cards.part").write_text(CARDS.replace("1..3", "1..x"), encoding="utf-8")
    try:
        client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        part = client.notification("textDocument/publishDiagnostics",
                                   uri=(folder / "cards.part").as_uri())
        assert part["diagnostics"] and part["diagnostics"][0]["range"]["start"]["line"] == 2
        here = client.notification("textDocument/publishDiagnostics", uri=uri)
        assert here["diagnostics"][0]["message"].startswith("in cards.part:3:")
        assert here["diagnostics"][0]["range"]["start"] == _at(GOOD, 'include')
    finally:
        (folder / "cards.part").write_text(CARDS, encoding="utf-8")
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    cleared = client.notification("textDocument/publishDiagnostics",
                                  uri=(folder / "cards.part").as_uri())
    assert cleared["diagnostics"] == []


def test_an_unsaved_edit_of_an_open_part_shows_in_the_file_that_includes_it(
        editor: tuple[Client, str], folder: Path) -> None:
    client, uri = editor
    part = (folder / "cards.part").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": part, "languageId": "rules", "version": 1, "text": CARDS}})
    assert client.notification("textDocument/publishDiagnostics", uri=part)["diagnostics"] == []
    broken = CARDS.replace("face: 1..3", "face: 1..x")
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": part, "version": 2}, "contentChanges": [{"text": broken}]})
    here = client.notification("textDocument/publishDiagnostics", uri=uri,
                               where=lambda p: bool(p["diagnostics"]))
    assert [d["range"]["start"] for d in here["diagnostics"]] == [_at(GOOD, "include")]
    assert "in cards.part:3:" in here["diagnostics"][0]["message"]
    there = client.notification("textDocument/publishDiagnostics", uri=part,
                                where=lambda p: bool(p["diagnostics"]))
    # said by its own check and by the including file's: shown once
    assert [d["range"]["start"]["line"] for d in there["diagnostics"]] == [2]
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": part, "version": 3}, "contentChanges": [{"text": CARDS}]})
    assert client.notification("textDocument/publishDiagnostics", uri=uri)["diagnostics"] == []
