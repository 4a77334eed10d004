"""The interpreter: compiles a checked ruleset once and runs any number of games from it.

Layers, bottom to top; a module imports only modules of its own layer or below, at its top
(``tests/test_layers.py`` holds this table and fails on an import circle, an import inside
a function, or an import from a higher layer):

1. Run-time tables: ``expr`` (``Layout``: slots, zone ids, per-card attribute tables; ``Fn``),
   ``actions`` (``Action``, the per-decision cache; the tool's own words are the one
   table of ``rulesplay.words``),
   ``program`` (``Program``: the tables of one compiled game, which nodes, states and front
   ends read: card ids and labels, zones, variable defaults, the node list, score functions).
2. State: ``observe`` (what a seat may see; determinisation), ``state`` (``State``: plain
   data plus the engine API; ``save_shape`` checks a save before it is used; ``budgets``
   stops a game over one of its limits; ``team_results``: who plays with whom, each team's
   result). It imports
   no loader: ``State.from_json(data, game)`` takes a ``Game``; without one it asks the
   loader the ``rulesplay`` package installs.
3. Run-time nodes: ``effects`` (blocks, loops, phases, moving cards), ``choices``
   (decisions, ``chooses``), ``card_sets`` (several cards as one decision: their sets,
   actions and id space), ``tricks``, ``routines`` (a phase lowered to one generated
   function). They hold compiled functions and step on a state.
4. Compilers of expressions and texts: ``codegen`` (expressions to generated functions
   over slots; ``expr_facts``: what it knows of an expression before writing it),
   ``texts`` (label templates and card labels to display functions).
5. The compile step, beside the nodes it builds: ``options`` (option values), ``tables``
   (cards, zones, variables, ability tables), ``compile_effects`` (simple statements to
   inline effects), ``compile_stmts`` (the statement visitor: statements to effects and
   nodes, for the frame interpreter), ``lower`` (the phase compiler: each phase to one
   generated function, the compiled engine; ``routine_code`` holds the source being
   generated), ``build`` (a whole ``Program`` for one player
   count, in a fixed order).
6. ``game``: ``Game`` (a checked ruleset with options; makes states) and the loaders
   ``load``, ``loads``, ``load_bundle``.

The hot path (``State._run`` stepping nodes, generated expression functions) touches only
layers 1-3 and never a pydantic model.
"""
