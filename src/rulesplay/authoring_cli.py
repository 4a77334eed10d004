"""Commands for writing rulesets: ``new`` (start one from a template), ``cards`` (the deck as
a table) and ``fmt`` (a ruleset in canonical layout, comments kept)."""

from __future__ import annotations

import json
import shlex
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.table import Table

from . import terminal
from .engine.game import Game, load
from .errors import RulesError
from .option_table import value_shown
from .outfiles import OutputRefused, write_atomic
from .shipped import is_name
from .show import expr_text, quote

TEMPLATE = '''\
# {comment}: a new ruleset; 'rulesplay validate' checks it. The language is described in
# docs/language/README.md of rulesplay's source (not installed with it), files in docs/files.md.
game {title}
players 2..4
about "One line on what the game is about."

option hand_size: int in 1..13 = 5 "Cards dealt to each player."

enum suit: clubs, diamonds, hearts, spades

card card "card":
    suit: suit
    rank: 2..14
    label: "{{rank}} of {{suit}}"

zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "trick": shared, public
zone won "won": per player, public

phase deal "Deal":
    shuffle deck
    deal hand_size from deck to hand
    next play

# Each trick: every seat plays a card; the highest rank wins it.
phase play "Play":
    trick in table led by 0:
        each player plays card from hand[player] "play a card"
        won by highest it.rank
        after trick:
            move table to won[winner]
    next play if count(hand[0]) > 0
    next end

score: count(won[player])
'''


def variant_skeleton(game: Game, target: str, title: str) -> str:
    """The text ``rulesplay new --from`` writes: a variant of ``game`` (``extends
    "target"``, a ``game`` line naming ``title``) with each of its options' defaults as a
    commented line to change, and how to replace or remove a phase.

    Args:
        game: the loaded base.
        target: the base as the ``extends`` line names it (a shipped game's name or a path).
        title: the variant's name, shown after the base's title.
    """
    lines = [f"# {comment_text(game.title)} with house rules. What a variant may say: "
             "docs/files.md of rulesplay's source (not installed with it).",
             f"extends {quote(target)}", f"game {quote(f'{game.title} ({title})')}", "",
             "# Change an option's default by removing the '#':"]
    for o in game.ruleset.options:
        lines.append(f"# option {o.name} = {expr_text(o.default)}"
                     + (f"  # {comment_text(o.doc)}" if o.doc else ""))
    if not game.ruleset.options:
        lines.append("# (this game has no options)")
    lines += ["", "# Or replace a phase of the base:  replace phase NAME \"Label\": ...",
              "# or remove one:  remove phase NAME", ""]
    return "\n".join(lines)


def comment_text(text: str) -> str:
    """``text`` fit for the rest of a ``#`` comment line: each control character (a line
    break would end the comment and start a statement) becomes a space."""
    return "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
                   for ch in text)


PLAIN_NAME = ("NAME must be a plain file name in the current folder: no '/' or '\\', not "
              "empty, not starting with '.', no control characters (e.g. my_game)")


def plain_name_fault(name: str) -> str | None:
    """Why ``name`` is not a plain file name for ``rulesplay new`` (None when it is one).

    A plain name is a single file name in the current folder: not empty, no folder
    separator (``/``, or ``\\`` on any system), not starting with ``.`` (so neither hidden
    nor ``..``), and no control or line-separator characters.
    """
    if not name.strip():
        return "it is empty"
    if "/" in name or "\\" in name:
        return "it names a folder ('/' or '\\')"
    if name.startswith("."):
        return "it starts with '.' (a hidden file, or a folder above)"
    if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in name):
        return "it holds a control character"
    return None


def _file_for(name: str) -> Path:
    fault = plain_name_fault(name)
    if fault is not None:
        raise click.UsageError(f"{terminal.clean(repr(name))}: {fault}. {PLAIN_NAME}")
    path = Path(name if name.endswith(".rules") else f"{name}.rules")
    if path.exists():
        raise click.UsageError(f"{path} exists already; rulesplay new does not overwrite: "
                               "choose another NAME")
    return path


@click.command(short_help="Start a ruleset, or a variant of a game (--from).")
@click.argument("name")
@click.option("--from", "base", default=None, metavar="GAME",
              help="Start a variant of this shipped game (a name, as 'rulesplay list' "
                   "shows) or of a .rules file.")
def new(name: str, base: str | None) -> None:
    """Start the ruleset NAME.rules in the current folder: a small game that runs as it is,
    or with --from GAME a variant (an 'extends' line and the base's options, commented)."""
    path = _file_for(name)
    title = path.stem.replace("_", " ").strip().title() or "New Game"
    if base is None:
        text = TEMPLATE.format(title=quote(title), comment=comment_text(title))
    else:
        game = load(base)  # a wrong name or a broken base says so before a file is written
        target = base if is_name(base) and not Path(base).exists() else \
            Path(base).resolve().as_posix()
        if not is_name(target):
            try:  # a path: relative to the new file, which must reach it (docs/files.md)
                target = Path(base).resolve().relative_to(Path.cwd().resolve()).as_posix()
                target = target if target.startswith(".") else f"./{target}"
            except ValueError:
                pass
        text = variant_skeleton(game, target, title)
    try:
        with path.open("x", encoding="utf-8") as out:  # never replaces a file
            out.write(text)
    except OSError as exc:
        raise click.UsageError(f"cannot write {path}: {exc.strerror}") from None
    if base is not None:
        try:  # a base the new file may not reach (docs/files.md): say so, leave nothing
            load(str(path))
        except RulesError as exc:
            path.unlink()
            raise click.UsageError(f"a variant here cannot extend {base}: "
                                   f"{exc.diagnostics[0].message if exc.diagnostics else exc}"
                                   "; copy the base beside it or use a shipped game's name "
                                   "(see docs/files.md of rulesplay's source)") from None
    click.echo(terminal.clean(f"wrote {path}; try: rulesplay run {shlex.quote(str(path))} "
                              "--seed 1"))


@click.command(short_help="List a ruleset's cards: labels, kinds, attributes, text.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--players", "-p", type=int, default=None,
              help="Player count (copies may depend on it); default: the fewest allowed.")
@click.option("--json", "as_json", is_flag=True, help="Print the cards as JSON.")
def cards(file: str, players: int | None, as_json: bool) -> None:
    """List the deck of FILE: each card's label, kind, attributes, copies and ability
    text."""
    game = load(file)
    lo, hi = game.player_range
    n = lo if players is None else players
    if not lo <= n <= hi:
        raise click.UsageError(f"--players: {game.title} takes {lo} to {hi} players")
    rows = deck_rows(game, n)
    if as_json:
        click.echo(json.dumps(rows, indent=1, ensure_ascii=False))
        return
    table = Table(title=terminal.literal(f"{game.title}: {sum(r['copies'] for r in rows)} "
                                         f"cards for {n} players", "table.title"),
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    abilities = any(r["abilities"] for r in rows)  # a column only when some card has one
    for col in ("card", "kind", "attributes", "copies", "ability")[:5 if abilities else 4]:
        table.add_column(col, overflow="fold", justify="right" if col == "copies" else "left")
    for r in rows:
        attrs = ", ".join(f"{k} {_attribute_text(v)}" for k, v in r["attributes"].items()
                          if v is not None)
        cells = [terminal.literal(r["label"]), r["kind"], terminal.literal(attrs),
                 str(r["copies"]), terminal.literal("\n".join(r["abilities"]))]
        table.add_row(*cells[:5 if abilities else 4])
    terminal.console(soft_wrap=False).print(table)


def _attribute_text(value: Any) -> str:
    """A card attribute as the language writes it (``true``/``false``, a set as a/b)."""
    return "/".join(map(value_shown, value)) if isinstance(value, list) else value_shown(value)


def deck_rows(game: Any, players: int) -> list[dict[str, Any]]:
    """The distinct cards of ``game`` for ``players`` seats, in deck order: label, kind,
    attributes (by name; sets as lists), copies, and the text of each ability the card
    names."""
    program = game.program(players)
    abilities = {a.name: a.labels.get(None, a.name) for a in game.ruleset.abilities}
    counts: Counter[str] = Counter()
    first: dict[str, dict[str, Any]] = {}
    for label, attrs in zip(program.card_labels, program.card_attrs, strict=True):
        plain = {k: sorted(v) if isinstance(v, set | frozenset) else v
                 for k, v in attrs.items() if k != "kind"}
        key = json.dumps([label, attrs["kind"], plain], sort_keys=True, default=str)
        counts[key] += 1
        if key not in first:
            named = [abilities[v] for v in plain.values() if isinstance(v, str)
                     and v in abilities]
            first[key] = {"label": label, "kind": attrs["kind"], "attributes": plain,
                          "abilities": named}
    return [{**row, "copies": counts[key]} for key, row in first.items()]


@click.command(name="fmt", short_help="Print or rewrite rulesets in canonical layout.")
@click.argument("files", metavar="FILE...", nargs=-1, required=True)
@click.option("--check", is_flag=True,
              help="Print nothing; list the files not in canonical layout and exit 1 if any.")
@click.option("--write", is_flag=True, help="Rewrite the files in place (unchanged files are "
                                            "not touched).")
def fmt_(files: tuple[str, ...], check: bool, write: bool) -> None:
    """Print each ruleset FILE (or .part file) in canonical layout, each comment kept at its
    statement: the same ruleset (its IR is checked to be unchanged), one layout."""
    from .compose import read_source, ruleset_file
    from .fmt import format_text

    if check and write:
        raise click.UsageError("--check and --write: choose one")
    unformatted = []
    for name in files:
        path = ruleset_file(name)
        text = read_source(path)
        tidy = format_text(text, path)
        if check:
            if tidy != text:
                unformatted.append(path)
        elif write:
            if tidy != text:
                try:  # the same guard as every other file rulesplay writes: never a link
                    write_atomic(path, tidy, "the formatted ruleset", ruleset=True)
                except OutputRefused as exc:
                    raise click.ClickException(str(exc)) from None
                click.echo(terminal.clean(f"formatted {path}"), err=True)
        else:
            click.echo(tidy, nl=False)
    for path in unformatted:
        click.echo(terminal.clean(f"would reformat {path}"))
    if unformatted:
        sys.exit(1)
