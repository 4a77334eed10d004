"""The language's keywords, each with a one-line meaning, by where they may be written.

The grammar (``grammar.lark``) is the authority on where a word is allowed; these tables are
what an editor suggests and shows. ``tests/test_lsp_units.py`` checks that every word of the
grammar (:func:`rulesplay.keywords.grammar_keywords`) has a line here, so the two cannot
drift apart.
"""

from __future__ import annotations

# Words that start a top-level line (a declaration), with their meaning.
DECLARATIONS: dict[str, str] = {
    "game": 'game "Title": the game\'s name, shown to players',
    "players": "players N or N..M: how many seats the game is for",
    "author": 'author "Name": who wrote the ruleset',
    "about": 'about "text": a line describing the game',
    "extends": 'extends "base.rules": this file is a variant of another ruleset',
    "include": 'include "cards.part": adds every declaration of another file',
    "option": "option NAME: TYPE = DEFAULT \"doc\": a setting chosen before play",
    "enum": "enum NAME: a, b, c: a named set of values (suits, colours)",
    "card": "card NAME: a kind of card, its attributes, table and copies",
    "zone": "zone NAME: FLAGS: a place cards lie (per player or shared; who sees it)",
    "var": "var NAME: TYPE = DEFAULT: a value the game keeps (player/team/trick/card var: "
           "one per seat, team, trick or card)",
    "phase": "phase NAME: a step of the game: statements, then 'next' lines",
    "start": "start PHASE: the phase play begins in (default: the first)",
    "score": "score: EXPR: each seat's final score (player bound)",
    "tiebreak": "tiebreak: EXPR: breaks equal scores, in the order written",
    "winners": "winners: EXPR: the winning seats (default: the best score, then tiebreaks)",
    "teams": "teams: EXPR: each seat's team; seats with equal values play as one side",
    "replace": "replace DECLARATION: in a variant, this declaration replaces the base's",
    "remove": "remove WHAT NAME: in a variant, drops a declaration of the base",
    "ability": "ability NAME: modifiers of named stats and steps a card kind brings",
    "rule": "rule NAME: a named block of statements, run by 'do NAME'",
    "define": "define NAME(args) = EXPR: a named expression",
    "limit": "limit NAME N: a budget of the game (decisions, entries, steps)",
}

# Words that start a statement (inside a phase, rule or block), with their meaning.
STATEMENTS: dict[str, str] = {
    "let": "let NAME = EXPR: a local name for the rest of the block",
    "move": "move CARDS to [top of|bottom of] ZONE: moves cards between zones",
    "shuffle": "shuffle ZONE: shuffles with the game's seeded generator",
    "deal": "deal N from ZONE to ZONE [starting with SEAT]: deals round the table",
    "reveal": "reveal ZONE or VAR: shows a zone's cards or a variable to every seat",
    "hide": "hide ZONE or VAR: back to its declared visibility",
    "say": 'say "text": a line for every seat\'s account of the game',
    "end": "end game: the game ends now; end trick: the trick ends now (in after play)",
    "break": "break: leaves the innermost repeat or for loop",
    "do": "do RULE: runs a named rule",
    "trigger": "trigger STEP for CARDS: runs the abilities' blocks at that step",
    "if": "if EXPR: runs the block when the test holds (elif, else follow)",
    "elif": "elif EXPR: another test, tried when the ones before failed",
    "else": "else: the block run when no test held",
    "repeat": "repeat N times [as i] / repeat while EXPR / repeat until EXPR: a loop",
    "for": "for each player p / for each x in COLL: once per seat or element",
    "trick": "trick [climbing] in ZONE led by SEAT: a round of plays won by the highest card",
    "next": "next PHASE [if EXPR]: where the phase goes when its statements are done",
}

# Words that start a line inside a card kind and inside an ability.
IN_CARD = ("copies", "label", "short", "table")
IN_ABILITY = ("modify", "at")

# Other words of statements and expressions, with their meaning.
OTHER: dict[str, str] = {
    "chooses": "SEAT chooses NAME from DOMAIN: a decision of that seat",
    "may": "SEAT may choose NAME from DOMAIN: a decision the seat may skip",
    "secretly": "SEAT secretly chooses ...: others learn a choice was made, not which",
    "from": "from: the zone or values a deal or choice takes from; the seat a loop starts at",
    "where": "COLL where TEST: the elements passing the test (it = the element)",
    "skip": 'skip "label" [if|unless TEST]: the label of not choosing',
    "each": "for each / each player plays: once per seat or element",
    "plays": "each player plays NAME from ZONE: the play of a trick",
    "pass": 'pass "label": in a climbing trick, a seat may pass',
    "won": "won by highest EXPR: the card that takes the trick",
    "after": "after play: / after trick: blocks run after each play, after the trick",
    "sits": "sits out if TEST: seats that skip this trick",
    "chosen": "chosen by SEAT: who chooses the card played in that turn",
    "climbing": "trick climbing: seats play in turn until all but one have passed",
    "in": "x in COLL: membership; for each x in COLL: a loop",
    "not": "not EXPR: the opposite of a test",
    "and": "A and B: both hold",
    "or": "A or B: either holds",
    "is": "CARD is KIND: the card is of that kind",
    "of": "left of / right of / team of / partner of SEAT; set of ENUM",
    "to": "to ZONE: where cards go",
    "times": "repeat N times: a counted loop",
    "as": "repeat N times as i: names the count (from 1)",
    "while": "repeat while TEST: loops while the test holds",
    "until": "repeat until TEST / for each player p from SEAT until TEST: loops until the "
             "test holds",
    "table": "table: rows of a card kind's attributes, one card (or more) per row",
    "copies": "copies: EXPR: how many of each card of a kind the deck holds",
    "label": 'label: "text {placeholders}": how a card is shown',
    "short": 'short: "text": a card\'s short label',
    "text": "NAME: text: a card attribute holding a printed text",
    "set": "NAME: set of ENUM: a card attribute holding a set of enum values",
    "modify": "modify STAT: EXPR: what an ability adds to a named stat",
    "at": "at STEP: a block an ability runs when 'trigger STEP' fires; move ... at random",
    "none": "none: no value (an empty top, a skipped choice)",
    "it": "it: the element being tested or measured (in where, count, best ...)",
    "this": "this: the card whose ability is running",
    "player": "player: the seat a per-seat expression is about (score, loops, choices)",
    "players": "players: the number of seats in this game",
    "seats": "seats: every seat, in turn order",
    "winner": "winner: the seat that took the trick (in after trick)",
    "kept": "kept: the variable keeps its value across rounds",
    "public": "public: every seat sees the variable (the default)",
    "owner": "owner: a player variable is seen by its seat only",
    "hidden": "hidden: no seat sees the variable",
    "seen": "seen by SEATS: a zone only those seats see",
    "clockwise": "for each player p clockwise: turn order (the default)",
    "counterclockwise": "for each player p counterclockwise: the other way round",
    "ordered": "for each player p ordered by KEY: highest KEY first",
    "top": "move ... to top of ZONE",
    "bottom": "move ... to bottom of ZONE",
    "left": "left of SEAT: the next seat in turn order",
    "right": "right of SEAT: the seat before in turn order",
    "team": "team of SEAT: the seat's team; team var: one value per team",
    "partner": "partner of SEAT: the seat's teammate",
    "yes": "yes (true): the yes/no value",
    "no": "no (false): the yes/no value",
    "true": "true (yes): the yes/no value",
    "false": "false (no): the yes/no value",
    "bool": "bool: the yes/no type",
    "int": "int in LO..HI: a whole number option type",
    "led": "led by SEAT: the seat that plays first in the trick",
    "highest": "won by highest EXPR: the card with the highest value takes the trick",
    "unless": 'skip "label" unless TEST: the skip is allowed when the test fails',
    "starting": "deal ... starting with SEAT: the first seat dealt to",
    "with": "starting with SEAT",
    "all": "deal all from ZONE: every card, round the table",
    "up": "deal up to N: fewer when the zone runs out",
    "game": "end game: the game ends now",
    "by": "led by / won by / chosen by / ordered by / seen by",
    "choose": "SEAT may choose NAME from DOMAIN: a decision the seat may skip",
    "consecutive": "of consecutive KEY: the chosen cards' KEY values form a run",
    "one": "of one KEY: the chosen cards share a KEY value",
    "out": "sits out if TEST: seats that skip this trick",
    "play": "after play: the block run after each play of a trick",
    "turn": "pass for this turn: the pass holds for this turn only",
    "before": "before play: in a trick, the block run when a seat's turn comes, before its "
              "plays are listed",
    "usually": "players 3..5, usually 4: the count a game gets when none is asked for",
    "random": "move CARDS to ZONE at random: each card at a place drawn from the game's "
              "seeded generator; random(c) draws one element",
}

MEANINGS: dict[str, str] = {**OTHER, **STATEMENTS, **DECLARATIONS}
"""Every keyword's meaning (a declaration's, then a statement's, win a shared word)."""
