"""The VS Code extension in editors/vscode (issue 15 item 4): its manifest names the
language, the shared TextMate grammar and the server command; where npm and its registry
are there, the .vsix is built with @vscode/vsce and holds what VS Code needs."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
GRAMMAR = ROOT / "editors" / "textmate" / "rules.tmLanguage.json"


def test_the_manifest_names_the_language_grammar_and_server() -> None:
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    language = manifest["contributes"]["languages"][0]
    assert language["id"] == "rules" and ".rules" in language["extensions"]
    grammar = manifest["contributes"]["grammars"][0]
    assert grammar["language"] == "rules"
    # the packaged copy of the one grammar file (copied in by the prepublish script)
    assert grammar["path"] == "./syntaxes/rules.tmLanguage.json"
    copier = (EXTENSION / "scripts" / "copy-grammar.js").read_text(encoding="utf-8")
    assert '"..", "..", "textmate", "rules.tmLanguage.json"' in copier
    assert "copy-grammar" in manifest["scripts"]["vscode:prepublish"]
    command = manifest["contributes"]["configuration"]["properties"]["rulesplay.command"]
    assert command["default"] == ["rulesplay", "lsp"]
    assert (EXTENSION / manifest["main"]).is_file()
    assert "vscode-languageclient" in manifest["dependencies"]
    assert "vscode-languageclient/node" in (EXTENSION / "extension.js").read_text()


def _why_no_build() -> str | None:
    if shutil.which("npm") is None or shutil.which("node") is None:
        return "npm is not installed (the extension build needs Node.js 20+ and npm)"
    node = subprocess.run(["node", "--version"], capture_output=True, text=True)
    major = int(node.stdout.strip().lstrip("v").split(".")[0] or 0) if node.returncode == 0 \
        else 0
    if major < 20:
        return f"@vscode/vsce 3 needs Node.js 20 or later (found {node.stdout.strip() or 'none'})"
    if not GRAMMAR.is_file():
        return f"no TextMate grammar at {GRAMMAR.relative_to(ROOT)} yet"
    try:
        ping = subprocess.run(["npm", "ping"], capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        return "npm's registry does not answer (no network?)"
    if ping.returncode != 0:
        return "npm's registry cannot be reached (no network?)"
    return None


def test_the_vsix_builds_with_the_grammar_and_the_client(tmp_path: Path) -> None:
    why = _why_no_build()
    if why:
        pytest.skip(why)
    work = tmp_path / "editors"
    shutil.copytree(EXTENSION, work / "vscode",
                    ignore=shutil.ignore_patterns("node_modules", "syntaxes", "*.vsix"))
    shutil.copytree(GRAMMAR.parent, work / "textmate")
    for step in (["npm", "ci", "--prefer-offline", "--no-audit", "--no-fund",
                  "--ignore-scripts"], ["npm", "run", "package"]):
        done = subprocess.run(step, cwd=work / "vscode", capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, f"{' '.join(step)}:\n{done.stdout}\n{done.stderr}"
    (vsix,) = (work / "vscode").glob("*.vsix")
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        assert {"extension/package.json", "extension/extension.js",
                "extension/language-configuration.json"} <= names
        assert z.read("extension/syntaxes/rules.tmLanguage.json") == GRAMMAR.read_bytes()
        assert any(n.startswith("extension/node_modules/vscode-languageclient/") for n in names)
