"""Turning a game's event stream into a readable account, and its end into a score table.

The narrator knows only generic events (see :attr:`rulesplay.State.events`); every game word
comes from the ruleset's labels (seat names, zone labels, card labels, prompts), every tool
word from :mod:`rulesplay.words` (English and Japanese)::

    ── Play ──────────────────────────────────
    Seat 1 plays yellow 4
    Seat 3: declare blue trump? no
    Seat 2 takes the trick with yellow 8: yellow 4, yellow 8 → won pile; blue 9 → discard pile

Consecutive card movements are grouped by their (from, to) zone pair; a run of movements from
one zone to a per-player zone of several players is summarised as a deal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from rich.table import Table

from . import ir
from .events import HIDDEN, Event
from .terminal import literal
from .words import tr

if TYPE_CHECKING:
    from rich.text import Text

    from .engine.program import Program
    from .engine.state import State

LIST_LIMIT = 10  # longer groups of moved cards are shown as a count

# A prompt ending in one of these reads on into its answer ("red 7 is" + "higher").
JOINERS: dict[str, tuple[str, ...]] = {"en": (" is", " are", " to", " =", " for"),
                                       "ja": ("は", "を", "が", "に", "で")}


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


class Printer(Protocol):
    """Where a :class:`Narrator` prints: a rich ``Console``, or a stand-in with these two
    methods (a seat's screen keeps what is printed)."""

    def print(self, *objects: Any) -> None: ...

    def rule(self, title: str | Text = "") -> None: ...


class Narrator:
    """Prints an account of a game, event by event, to a rich console.

    Feed it events as they happen (:meth:`feed`) and call :meth:`close` at the end; movements
    are held back until the next other event so they can be grouped.

    Args:
        program: the compiled game (labels of seats, zones and cards).
        console: where to print (a rich ``Console``).
    """

    def __init__(self, program: Program, console: Printer) -> None:
        self.program, self.console = program, console
        self.lang = program.lang
        self.card_label = dict(zip(program.card_ids, program.card_labels, strict=True))
        lay = program.layout
        self.zone_label: dict[tuple[str, int | None], str] = {
            (lay.zone_name[z], lay.zone_owner[z]): program.zone_label[z]
            for z in range(program.num_zones)}
        self.out_of_play = out_of_play(program.ruleset)
        self.moves: list[Event] = []
        self.context: Event | None = None
        self.blank = False
        self.passed: int | None = None  # the seat whose decision line just said it passes

    # ------------------------------------------------------------ words
    def t(self, key: str, **fields: Any) -> str:
        return tr(self.lang, key, **fields)

    def seat(self, seat: int) -> str:
        return self.program.seat_name(seat)

    def zone(self, ref: dict[str, Any], subject: int | None = None) -> str:
        """A zone's label; a per-player zone is named with its owner unless the owner is
        ``subject`` (the seat the line is about)."""
        label = self.zone_label.get((ref["zone"], ref["owner"]), str(ref["zone"]))
        if ref["owner"] is None or ref["owner"] == subject:
            return label
        return self.owned(ref["owner"], label)

    def owned(self, owner: int, label: str) -> str:
        """``Seat 2's hand``."""
        return self.t("owned", seat=self.seat(owner), zone=label)

    def cards(self, ids: list[str]) -> str:
        if len(ids) > LIST_LIMIT:
            return self.t("ncards", k=len(ids))
        return ", ".join(self.card_label.get(c, c) for c in ids)

    # ------------------------------------------------------------ the stream
    def feed(self, events: Iterable[Event]) -> None:
        """Narrate ``events`` (dicts of :attr:`rulesplay.State.events`) in order; cards put
        out of play (:func:`out_of_play`) are not told: they are not in this game."""
        for ev in events:
            if ev.get("type") == "move":
                if ev["to"]["zone"] not in self.out_of_play:
                    self.moves.append(ev)
                continue
            self.flush()
            self.event(ev)

    def close(self) -> None:
        """Print what is still held back (call once the game is over)."""
        self.flush()

    def say(self, text: str, style: str = "") -> None:
        self.console.print(literal(text, style))
        self.blank = False

    def gap(self) -> None:
        """One empty line (never two in a row)."""
        if not self.blank:
            self.console.print()
        self.blank = True

    def event(self, ev: Event) -> None:
        kind = ev.get("type")
        self.context = None
        passed, self.passed = self.passed, None
        if kind == "phase":
            self.gap()
            self.console.rule(literal(ev.get("label") or ev.get("phase"), "bold"))
        elif kind == "decision":
            self.context = ev
        elif kind == "trick":
            self.context = ev
        elif kind == "shuffle":
            self.say(self.t("shuffled", zone=self.zone(ev["zone"])), "dim")
        elif kind == "sight" and isinstance(ev.get("zone"), dict):
            self._sight(ev)
        elif kind == "pass":
            if passed == ev.get("player") and not ev.get("forced"):
                return  # the decision to pass already said so
            key = "passes_forced" if ev.get("forced") else "passes"
            self.say(self.t(key, seat=self.seat(ev["player"])))
        elif kind == "sit_out":
            seats = ", ".join(self.seat(p) for p in ev.get("players", []))
            self.say(self.t("sits_out", seats=seats), "dim")
        elif kind == "say":
            self.say(str(ev.get("text", "")), "italic")
        elif kind == "end":
            self.gap()
            self.console.rule(literal(self.t("game_over"), "bold"))
            self.blank = False

    def _sight(self, ev: Event) -> None:
        """Who sees a zone changed: shown to all, seen by some seats, or hidden again."""
        zone = self.zone(ev["zone"])
        cards = [str(c) for c in ev.get("cards") or []]
        shown = self.cards(cards) if cards else self.t("ncards", k=0)
        seers = ev.get("seers")
        seers = seers if isinstance(seers, int) else 0
        seats = [p for p in range(self.program.layout.n) if seers >> p & 1]
        if ev.get("shown"):
            self.say(self.t("revealed", zone=zone, cards=shown), "dim")
        elif seats:
            self.say(self.t("seen_by", zone=zone, seats=", ".join(map(self.seat, seats)),
                            cards=shown), "dim")
        else:
            self.say(self.t("hidden_again", zone=zone), "dim")

    def flush(self) -> None:
        """Print the pending decision or trick together with the movements that followed."""
        ctx, moves = self.context, self.moves
        self.context, self.moves = None, []
        if ctx is not None and ctx["type"] == "decision":
            self._decision(ctx, moves)
        elif ctx is not None and ctx["type"] == "trick":
            self._trick(ctx, moves)
        else:
            for line in self._groups(moves, None):
                self.say(line)

    # ------------------------------------------------------------ pieces
    def _decision(self, ev: Event, moves: list[Event]) -> None:
        seat, prompt, label = self.seat(ev["player"]), str(ev["prompt"]), str(ev["label"])
        action = str(ev["action"])
        value = action.split(":", 1)[1] if ":" in action else ""
        tail, lang = "", self.lang or "en"
        card = bool(moves) and moves[0]["card"] == value
        if self._takes_set(str(ev["decision"])):  # its cards' moves stay on their own line
            card = False  # (told as "3 cards: ...", never folded: the first may be '?')
        if card:
            first = moves.pop(0)
            if first["to"]["owner"] is not None:
                tail = " → " + self.zone(first["to"], ev["player"])
        if ev.get("private") and value == HIDDEN:  # a secret choice this view may not know
            line = self.t("secret", seat=seat, prompt=prompt)
        elif action == "pass":
            line = self.t("passes", seat=seat)
            self.passed = ev["player"]
        elif value in ("yes", "no"):
            line = f"{seat}: {prompt}{'？' if self.lang == 'ja' else '?'} {label}"
        elif value == "skip" and label != self.program.word("skip"):
            line = f"{seat}: {label}"
        elif lang == "en" and re.fullmatch(r"[a-z]+", prompt):
            line = f"{seat} {_third_person(prompt)} {label}"
        elif lang == "ja" and card and "を" not in prompt:
            line = f"{seat}: {label}を{prompt}"
        elif prompt.endswith(JOINERS.get(lang, ())):
            line = f"{seat}: {prompt}{' ' if lang == 'en' else ''}{label}"
        else:
            line = f"{seat}: {prompt}: {label}"
        if ev.get("for_player") is not None:  # a card chosen for another seat (a dummy)
            line += ("" if self.lang == "ja" else " ") + \
                self.t("plays_for", seat=self.seat(ev["for_player"]))
        self.say(line + tail)
        for text in self._groups(moves, ev["player"]):
            self.say("    " + text, "dim")

    def _takes_set(self, decision: str) -> bool:
        """Whether decision ``decision`` takes several cards at once (a set's moves are
        told as moves, not folded into the decision's line)."""
        names = getattr(self, "_set_names", None)
        if names is None:
            names = self._set_names = {node.name for node in self.program.nodes
                                       if getattr(node, "sets", None) is not None}
        return decision in names

    def _trick(self, ev: Event, moves: list[Event]) -> None:
        winner = ev["winner"]
        line = self.t("takes", seat=self.seat(winner),
                      card=self.card_label.get(str(ev.get("card")), str(ev.get("card"))))
        parts = [f"{self.cards(ids)} → {self.zone(dst, winner)}"
                 for (_src, dst), ids in _runs(moves)]
        self.say(line + (": " + "; ".join(parts) if parts else ""), "bold")
        self.gap()

    def _groups(self, moves: list[Event], subject: int | None) -> list[str]:
        """One line per run of movements; a deal to several players is one line. Zones are
        named with their owners whoever ``subject`` (the seat deciding) is."""
        lines = []
        i = 0
        while i < len(moves):
            j = i
            src, dst_zone = moves[i]["from"], moves[i]["to"]["zone"]
            while j < len(moves) and moves[j]["from"] == src and \
                    moves[j]["to"]["zone"] == dst_zone:
                j += 1
            block = moves[i:j]
            owners = [m["to"]["owner"] for m in block]
            if len(set(owners)) > 1 and None not in owners:
                lines.append(self._deal(block))
            else:
                for (s, d), ids in _runs(block):
                    # every per-player zone is named with its owner (even the decider's: the
                    # moves after a decision may be anyone's, e.g. cards passed around)
                    lines.append(self.t("move", cards=self.cards(ids),
                                        src=self.zone(s), dst=self.zone(d)))
            i = j
        return lines

    def _deal(self, block: list[Event]) -> str:
        counts: dict[int, int] = {}
        for m in block:
            counts[m["to"]["owner"]] = counts.get(m["to"]["owner"], 0) + 1
        src = self.zone(block[0]["from"])
        dst = self.zone_label.get((block[0]["to"]["zone"], block[0]["to"]["owner"]), "")
        if len(set(counts.values())) == 1:
            k = len(block) // len(counts)
            return self.t("dealt", k=k, n=len(counts), src=src, dst=dst,
                          cards=self.t("card" if k == 1 else "cards"))
        each = ", ".join(f"{self.seat(p)} {k}" for p, k in sorted(counts.items()))
        return self.t("dealt_uneven", total=len(block), src=src, dst=dst, each=each)


def out_of_play(ruleset: ir.Ruleset) -> frozenset[str]:
    """Hidden shared zones that the rules only ever move cards into (never read, count or
    take from): the box where an option that is off puts the cards it leaves out. Such a
    move tells of a card that is not in the game."""
    hidden = {z.name for z in ruleset.zones if z.visibility == "hidden" and not z.per_player}
    targets = [m.to.id for m in ir.walk(ruleset) if isinstance(m, ir.Move)
               and isinstance(m.to, ir.Name)]
    read = [n.id for n in ir.walk(ruleset) if isinstance(n, ir.Name) and n.id in hidden]
    return frozenset(z for z in hidden if read.count(z) == targets.count(z))


def _runs(moves: list[Event]) -> list[tuple[tuple[Any, Any], list[str]]]:
    """Consecutive movements with the same (from, to) pair, as ((from, to), [card ids])."""
    out: list[tuple[tuple[Any, Any], list[str]]] = []
    for m in moves:
        key = (m["from"], m["to"])
        if out and out[-1][0] == key:
            out[-1][1].append(m["card"])
        else:
            out.append((key, [m["card"]]))
    return out


def _pvar_text(prog: Program, decl: Any, value: Any) -> str:
    """A player variable's value for a table cell (a seat by name, a card by label)."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return prog.word("yes") if value else prog.word("no")
    if decl is not None and decl.type == "player" and isinstance(value, int):
        return prog.seat_name(value)
    if decl is not None and decl.type == "card" and isinstance(value, int):
        return prog.card_labels[value]
    return str(prog.value_label(value))


def score_table(state: State) -> Table:
    """The final table: each seat's team (with ``teams:``), score, tiebreak values, its
    player and team variables (coins, money...) and the size of its own zones.

    Args:
        state: a finished (or stopped) game.

    Returns:
        A rich :class:`Table`; winners are marked with a star.
    """
    prog = state.program
    lang = prog.lang
    lay = prog.layout
    keys = state.rank_keys()
    winners = set(state.winners())
    table = Table(title=tr(lang, "final"), title_justify="left")
    table.add_column(tr(lang, "seat"), no_wrap=True)
    teamed = len(lay.team_members) < state.num_players
    if teamed:
        table.add_column(tr(lang, "team"), no_wrap=True)
    table.add_column(tr(lang, "score"), justify="right")
    ntie = len(keys[0]) - 1 if keys else 0
    for i in range(ntie):
        table.add_column(tr(lang, "tiebreak") + (f" {i + 1}" if ntie > 1 else ""),
                         justify="right")
    decls = {v.name: v for v in prog.ruleset.vars}
    # player variables that say something at the end (not none / no for every seat)
    pvars = [(n, slot) for n, slot in lay.pslot.items()
             if any(v is not None and v is not False for v in state.pv[slot])]
    for name, _ in pvars:
        decl = decls.get(name)
        table.add_column(literal(decl.labels.get(lang, name) if decl is not None else name),
                         justify="right")
    per_player = [z for z in range(prog.num_zones) if lay.zone_owner[z] == 0]
    shown = [z for z in per_player
             if any(state.zones[z + seat] for seat in range(state.num_players))]
    shown = shown[:max(0, 6 - len(pvars) - ntie - teamed)]  # at most 8 columns: a screen's width
    for z in shown:
        table.add_column(literal(prog.zone_label[z]), justify="right")
    for seat, key in enumerate(keys):
        mark = " ★" if seat in winners else ""
        row = [literal(prog.seat_name(seat) + mark)]
        if teamed:
            row.append(literal(prog.team_name(lay.team_of[seat])))
        row += [literal(v) for v in key]
        # a team variable is kept at its team's first seat: each seat shows its team's
        row += [literal(_pvar_text(prog, decls.get(name), state.pv[slot][
                    lay.team_of[seat] if name in prog.team_vars else seat]))
                for name, slot in pvars]
        row += [literal(len(state.zones[z + seat])) for z in shown]
        table.add_row(*row, style="bold" if seat in winners else "")
    return table


def teams_line(program: Program) -> str | None:
    """Who plays with whom, for the start of an account: ``Teams: North-South (Seat 0,
    Seat 2); East-West (Seat 1, Seat 3)``; None when every seat plays alone."""
    members = program.layout.team_members
    if all(len(m) == 1 for m in members.values()):
        return None
    teams = "; ".join(f"{program.team_name(t)} ({', '.join(map(program.seat_name, m))})"
                      for t, m in members.items())
    return tr(program.lang, "teams_line", teams=teams)


def winner_line(state: State) -> str:
    """Who won, in the game's language: ``Winner: Seat 1``; ``Tied winners: Seat 1, Seat 3``
    when the winners share the best score and tiebreaks; ``Winners: Seat 3, Seat 4`` when
    several win without a tie (a ruleset's ``winners:`` declaration); ``Nobody wins.``
    Whole teams are named as teams: ``Team North-South wins (Seat 0, Seat 2)``, ``Tied
    winners: North-South (Seat 0, Seat 2), East-West (Seat 1, Seat 3)``."""
    prog = state.program
    seats = state.winners()
    names = ", ".join(prog.seat_name(s) for s in seats)
    if not seats:
        return tr(prog.lang, "nobody_wins")
    lay = prog.layout
    teams = sorted({lay.team_of[s] for s in seats})
    if lay.teamed and seats == sorted(p for t in teams for p in lay.team_members[t]):
        # whole teams won: a team's win is one win, named by the team
        if len(teams) == 1:
            return tr(prog.lang, "team_won", team=prog.team_name(teams[0])) + f" ({names})"
        names = ", ".join(f"{prog.team_name(t)} ({', '.join(map(prog.seat_name, m))})"
                          for t, m in ((t, lay.team_members[t]) for t in teams))
    if len(seats) == 1:
        return tr(prog.lang, "winner", seats=names)
    keys = state.rank_keys()
    tied = len({tuple(keys[s]) for s in seats}) == 1 and tuple(keys[seats[0]]) == max(
        tuple(k) for k in keys)
    return tr(prog.lang, "winners" if tied else "winners_list", seats=names)
