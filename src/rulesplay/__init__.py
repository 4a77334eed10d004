"""rulesplay: card games as plain-text rulesets, validated, played, simulated and compared.

The engine API::

    game = rulesplay.load("rulesets/classics/hearts.rules", options={"target": 50})
    state = game.new_state(num_players=4, seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    state.scores(), state.winners()
"""

from .engine.actions import Action
from .engine.game import Game, game_of_save, load, loads
from .engine.state import State, set_game_loader
from .errors import RulesError

# The engine imports no loader: a save given without its game is rebuilt by this one.
set_game_loader(game_of_save)

__all__ = ["Action", "Game", "RulesError", "State", "load", "loads"]
