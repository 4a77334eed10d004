"""Any ruleset as an OpenSpiel game (the ``openspiel`` extra)::

    import numpy as np
import pyspiel
    import rulesplay.adapters.openspiel  # registers the games
    game = pyspiel.load_game("rulesplay", {"ruleset": "classics/hearts", "players": 4,
                                           "options": "target:20"})
    game = pyspiel.load_game("rulesplay_hearts", {"explicit_chance": True})

Importing this module registers ``rulesplay`` (any ruleset: a ``.rules`` path or a shipped
game's name) and one name per shipped game, ``rulesplay_`` and the name's last part
(``rulesplay_hearts``, ``rulesplay_spades``; :func:`shipped_game_names` lists
them). Parameters (OpenSpiel refuses names it was not told of, so a ruleset's options go in
one text):

- ``ruleset`` (``rulesplay`` only): the ``.rules`` file or a shipped game's name.
- ``players``: the player count (0, the default: the ruleset's usual count).
- ``options``: ``"NAME:VALUE;NAME:VALUE"`` (``"target:20;moon:subtract"``), as the
  command line's ``--option NAME=VALUE`` takes them.
- ``explicit_chance`` (default false): chance as OpenSpiel chance nodes (see
  :mod:`rulesplay.adapters.chance`: each draw of a shuffle, ``move ... at random`` or
  ``random()`` is a node of ``n`` outcomes of probability ``1/n``; given the outcomes
  ``random.Random(seed)`` draws, the game is the one that seed plays). When false, chance
  is drawn inside the game from its seeded generator (``SAMPLED_STOCHASTIC``).
- ``seed`` (default 0): without explicit chance, the first state the game object builds
  plays what ``rulesplay run --seed SEED`` plays, the next ``SEED + 1``, and so on; -1
  draws the first seed from the operating system (OpenSpiel's usual meaning).
- ``engine``: ``compiled`` (default) or ``interpret``; ``reward``: ``win`` (default) or
  ``score``.
- ``recall_tokens`` (default 1024): the tokens of a seat's record of what it observed
  (:mod:`rulesplay.adapters.recall`: perfect recall) in the information state tensor.

Actions are :mod:`rulesplay.encode`'s fixed action space (a decision of several cards with
many ways is chosen card by card: the same player moves again until its ``done``).
Rewards come at the end only: with ``reward=win`` +1 to each winner and -1 to every other
seat (0 to all when every seat wins), as the PettingZoo adapter gives them; with
``reward=score`` each seat's final score. A game that reaches its ``decisions`` or
``total`` limit without ending is terminal there, cut short, with zero returns
(:meth:`RulesplayState.truncation` says so). The game is declared general-sum. A state
pickles (OpenSpiel's ``serialize``) as the engine's save JSON (:meth:`State.to_json`).
"""

from __future__ import annotations

import functools
import json
import random
import re
from typing import Any

import numpy as np
import pyspiel

from ..encode.tensor import Spaces
from ..engine.game import Game, load
from ..engine.lower import ENGINES
from ..engine.state import State
from ..errors import RulesError
from ..limits import MAX_INT, MAX_SEED, SEED_RANGE
from ..shipped import shipped_names
from . import chance
from .budget import spent
from .openspiel_observe import SeatObserver, view_text
from .recall import Recorder

__all__ = ["RulesplayGame", "RulesplayState", "parse_options", "shipped_game_names"]

PREFIX = "rulesplay"
REWARDS = ("win", "score")
# What OpenSpiel's serialize writes: the history, the move number and the pickled state.
_SERIALIZED = re.compile(r"history=[-0-9:, ]*\nmove_number=\d+\n__dict__=[A-Za-z0-9+/=]+\s*\Z")
# Every parameter a registered game takes, with its default (OpenSpiel types them by it).
PARAMS: dict[str, Any] = {"players": 0, "options": "", "explicit_chance": False,
                          "seed": 0, "engine": ENGINES[0], "reward": "win",
                          "recall_tokens": 1024}
MAX_RECALL_TOKENS = 1 << 20


def _seed(value: Any) -> int:
    """The game's first seed from its ``seed`` parameter: -1 (OpenSpiel's usual "any
    seed") draws one from the operating system, each game object its own.

    Raises:
        ValueError: neither -1 nor a seed of the engine's range."""
    seed = int(value)
    if seed == -1:
        return random.SystemRandom().randrange(1 << 62)  # (room for the seeds that follow)
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed {seed}: give {SEED_RANGE}, or -1 for a random one")
    return seed


def parse_options(text: str) -> dict[str, str]:
    """``"target:20;moon:add"`` -> ``{"target": "20", "moon": "add"}`` (values as text,
    converted by the ruleset's option types when the game loads).

    Raises:
        ValueError: a part without ``NAME:VALUE``, or a name given twice.
    """
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = part.partition(":")
        if not sep or not name.strip():
            raise ValueError(f"options: '{part}' is not NAME:VALUE (write "
                             "'target:20;moon:add')")
        if name.strip() in out:
            raise ValueError(f"options: '{name.strip()}' is given twice")
        out[name.strip()] = value.strip()
    return out


@functools.lru_cache(maxsize=32)
def _load(ruleset: str, options: str, engine: str) -> Game:
    return load(ruleset, parse_options(options), engine=engine)


@functools.lru_cache(maxsize=32)
def _spaces(game: Game, players: int) -> Spaces:
    return Spaces(game, players)


def _game_type(short_name: str, spec: dict[str, Any], explicit: bool,
               players: tuple[int, int]) -> pyspiel.GameType:
    mode = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=short_name, long_name=f"rulesplay: {short_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if explicit else mode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1], min_num_players=players[0],
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spec)


class RulesplayGame(pyspiel.Game):  # type: ignore[misc]  # (pyspiel publishes no types)
    """A ruleset as an OpenSpiel game (see the module docstring for the parameters).

    Args:
        params: the game parameters (OpenSpiel fills in the defaults).
        short_name: the registered name it was loaded by.
        ruleset: the shipped game's file for a per-game name (None: ``params["ruleset"]``).

    Attributes:
        rules: the loaded :class:`~rulesplay.Game`; spaces: its
            :class:`~rulesplay.encode.tensor.Spaces` at this player count.
        explicit: whether chance is explicit; reward: ``win`` or ``score``.

    Raises:
        RulesError: the ruleset does not load, or a bad option or player count.
        ValueError: a bad engine, reward or options text.
    """

    def __init__(self, params: dict[str, Any], short_name: str = PREFIX,
                 ruleset: str | None = None) -> None:
        p = {**PARAMS, **dict(params)}
        path = ruleset if ruleset is not None else str(p.get("ruleset", ""))
        if not path:
            raise ValueError("the 'rulesplay' game needs a 'ruleset': a .rules file or a "
                             "shipped game's name")
        if p["engine"] not in ENGINES:
            raise ValueError(f"engine '{p['engine']}': use {' or '.join(ENGINES)}")
        if p["reward"] not in REWARDS:
            raise ValueError(f"reward '{p['reward']}': use 'win' or 'score'")
        self.recall_tokens = int(p["recall_tokens"])
        if not 0 <= self.recall_tokens <= MAX_RECALL_TOKENS:
            raise ValueError(f"recall_tokens {self.recall_tokens}: give 0 to "
                             f"{MAX_RECALL_TOKENS} (the tokens of a seat's record in the "
                             "information state tensor)")
        self.ruleset = path
        self.rules = _load(path, str(p["options"]), str(p["engine"]))
        n = int(p["players"]) or self.rules.usual_players
        self.spaces = _spaces(self.rules, n)
        self.program = self.spaces.program
        self.explicit, self.reward = bool(p["explicit_chance"]), str(p["reward"])
        self.seed, self._built = _seed(p["seed"]), 0
        self._trackers: dict[int, Any] = {}
        prog = self.program
        sequenced = bool(self.spaces.actions.sequenced)
        self.max_outcomes = max(prog.num_cards, n) + 1
        bound = 1.0 if self.reward == "win" else float(MAX_INT)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spaces.num_actions,
            max_chance_outcomes=self.max_outcomes if self.explicit else 0,
            num_players=n, min_utility=-bound, max_utility=bound, utility_sum=None,
            max_game_length=prog.max_decisions * (prog.num_cards + 1 if sequenced else 1))
        spec = {k: v for k, v in PARAMS.items()}
        if ruleset is None:
            spec = {"ruleset": "", **spec}
        given = {k: v for k, v in p.items() if k in spec and v != spec[k]}
        super().__init__(_game_type(short_name, spec, self.explicit, self.rules.player_range),
                         info, given)

    def describe(self) -> str:
        """The game a state of this game belongs to, in words (a save names it, and a save
        is refused by another game with both names): ruleset, players, options, chance."""
        opts = str(self.get_parameters().get("options", ""))
        return (f"{self.ruleset} for {self.program.layout.n} players"
                + (f" with options '{opts}'" if opts else "")
                + (" with explicit chance" if self.explicit else ""))

    def deserialize_state(self, text: str) -> RulesplayState:
        """A state from :meth:`RulesplayState.serialize`'s text.

        Raises:
            ValueError: ``text`` is not a serialized rulesplay state, is damaged, or is a
                state of another game (the message names both games).
        """
        if not isinstance(text, str) or not _SERIALIZED.match(text):
            raise ValueError("deserialize_state: the text is not a serialized rulesplay "
                             "state (one is made by state.serialize(): 'history=...', "
                             "'move_number=...' and '__dict__=...' lines)")
        try:
            state: RulesplayState = super().deserialize_state(text)
        except ValueError:
            raise
        except Exception as exc:  # noqa: BLE001  (pickle's and OpenSpiel's many errors)
            raise ValueError("deserialize_state: the serialized state is damaged "
                             f"({type(exc).__name__}: {str(exc).splitlines()[0][:120]})"
                             ) from None
        return state

    def new_initial_state(self, *_: Any) -> RulesplayState:
        """A new game (built when first used: OpenSpiel makes one for every clone)."""
        return RulesplayState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> SeatObserver:
        """The observer of one kind of view: perfect recall (information state) or not
        (observation); a seat's private view with public information only.

        Raises:
            ValueError: observer parameters, or a kind of view the adapter does not give.
        """
        if params:
            raise ValueError(f"observer parameters are not supported; passed {params}")
        perfect = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        if iig_obs_type is not None and (
                not iig_obs_type.public_info or
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("the rulesplay adapter observes as one seat with public "
                             "information (private_info=SINGLE_PLAYER, public_info=True)")
        return SeatObserver(self.spaces, perfect, self.recall_tokens)

    def next_seed(self) -> int:
        """The seed of the next state built without explicit chance."""
        seed = self.seed + self._built
        self._built += 1
        return seed

    def tracker(self, seat: int) -> Any:
        """The seat's :class:`~rulesplay.agents.infoset.Tracker` (kept between resamples)."""
        from ..agents.infoset import Tracker

        if seat not in self._trackers:
            self._trackers[seat] = Tracker(seat)
        return self._trackers[seat]


class _Core:
    """The engine side of one OpenSpiel state: the engine's state (or, at a chance node,
    the step pending on chance), the current player's partial selection (card numbers in
    the order picked) and every seat's record (:mod:`~rulesplay.adapters.recall`). Copied
    with
    ``copy.deepcopy`` (OpenSpiel's clone) by the engine's cheap clone; pickled
    (OpenSpiel's serialize) as the engine's save JSON."""

    __slots__ = ("game", "pending", "recorder", "seen", "selection", "state")

    def __init__(self, game: RulesplayGame) -> None:
        self.game = game
        self.state: State | None = None
        self.pending: chance.Pending | None = None
        self.selection: tuple[int, ...] = ()
        self.recorder = Recorder(game.program.layout.n)
        self.seen: tuple[State | None, list[dict[str, Any] | None]] = (None, [])

    def ensure(self) -> _Core:
        """Build the game's start on first use."""
        if self.state is None and self.pending is None:
            g = self.game
            if g.explicit:
                self.set(chance.start(g.program, g.seed))
            else:
                self.set(g.rules.new_state(g.program.layout.n, seed=g.next_seed()))
        return self

    def set(self, result: State | chance.Pending) -> None:
        """Hold ``result``: the state after a step (every seat records what it observes
        of it), or the step pending on chance."""
        if isinstance(result, chance.Pending):
            self.pending = result
        else:
            self.state, self.pending = result, None
            self.seen = (None, [])  # (the state changed: its views are worked out again)
            self.recorder.observe(result, lambda seat: self.observation(result, seat))

    def observation(self, state: State, seat: int) -> dict[str, Any]:
        """``state.observation(seat)``, worked out once per state and seat until the state
        changes (the record, the strings and the tensors of a step all read it)."""
        held, views = self.seen
        if held is not state:
            views = [None] * self.game.program.layout.n
            self.seen = (state, views)
        obs = views[seat]
        if obs is None:
            obs = views[seat] = state.observation(seat)
        return obs

    def over(self) -> bool:
        """Whether the game is over: finished, or cut short by its budget
        (:func:`~rulesplay.adapters.budget.spent`)."""
        s = self.state
        return self.pending is None and s is not None and (s.terminal or
                                                            spent(s) is not None)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        self.ensure()
        c = _Core(self.game)
        c.state = None if self.state is None else self.state.clone()
        c.pending = None if self.pending is None else self.pending.copy()
        c.selection = self.selection
        c.recorder = self.recorder.copy()
        return c

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        self.ensure()
        data = {"game": self.game.describe(),
                "state": None if self.state is None else self.state.to_json(),
                "pending": None if self.pending is None else self.pending.save(),
                "selection": list(self.selection), "recorder": self.recorder.save()}
        return _Saved, (json.dumps(data),)


class _Saved:
    """A core as unpickled: its save, turned into a core when set on a state of its game
    (:meth:`RulesplayState.__setattr__`)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def resolve(self, game: RulesplayGame) -> _Core:
        """The core this save holds, in ``game``.

        Raises:
            ValueError: the save is damaged, or of another game (both named).
        """
        try:
            return self._resolve(game)
        except ValueError:
            raise
        except (RulesError, LookupError, TypeError, AttributeError) as exc:
            raise ValueError(f"the serialized state is damaged: {exc}") from None

    def _resolve(self, game: RulesplayGame) -> _Core:
        try:
            d = json.loads(self.text)
        except ValueError:
            d = None
        core = _Core(game)
        if not isinstance(d, dict) or not {"state", "pending", "selection"} <= set(d):
            raise ValueError("the serialized state is damaged or not a rulesplay state")
        if d.get("game", game.describe()) != game.describe():
            raise ValueError(f"the serialized state is of {d['game']}, not of this game "
                             f"({game.describe()}): deserialize it with the game it was "
                             "saved from")
        if d["state"] is not None:
            core.state = State.from_json(d["state"], game.rules)
        p = d["pending"]
        if p is not None:
            before = None if p["before"] is None else State.from_json(p["before"], game.rules)
            action = None if before is None else \
                next((a for a in before.legal_actions() if a.id == p["action"]), None)
            if before is not None and action is None:
                raise RulesError(f"the serialized state's step {p['action']!r} is not legal "
                                 "in its position")
            core.pending = chance.Pending(game.program, p["seed"], False, before, action,
                                          list(p["outcomes"]), int(p["need"]))
        core.selection = tuple(d["selection"])
        if "recorder" in d:
            core.recorder = Recorder.load(d["recorder"], game.program.layout.n)
        elif core.state is not None:  # (a save of before the records: from its state)
            state = core.state
            core.recorder.observe(state, lambda seat: state.observation(seat))
        return core


class RulesplayState(pyspiel.State):  # type: ignore[misc]  # (pyspiel publishes no types)
    """A game in progress, for OpenSpiel. ``core.state`` is the engine's
    :class:`~rulesplay.State` (rulesplay bots take it); see the module docstring."""

    def __init__(self, game: RulesplayGame) -> None:
        super().__init__(game)
        self._core = _Core(game)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "_core" and isinstance(value, _Saved):  # (OpenSpiel's deserialize)
            value = value.resolve(self.__dict__["_core"].game)
        super().__setattr__(name, value)

    @property
    def core(self) -> _Core:
        """The engine side, built on first use."""
        core: _Core = self._core.ensure()
        return core

    def view(self, player: int) -> tuple[State | None, tuple[int, ...]]:
        """What ``player``'s view is made from: the engine state (at a chance node the one
        before the step being drawn; None at the game's start) and its own selection."""
        c = self.core
        if c.pending is not None:
            return c.pending.before, ()
        assert c.state is not None
        mine = c.selection if player == c.state.current_player() else ()
        return c.state, mine

    # ------------------------------------------------------------ the OpenSpiel API
    def current_player(self) -> int:
        """The seat to decide; ``PlayerId.CHANCE`` at a chance node, ``TERMINAL`` at the
        end (or when the game's budget is spent: see :meth:`is_terminal`)."""
        c = self.core
        if c.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert c.state is not None
        if c.over():
            return int(pyspiel.PlayerId.TERMINAL)
        return c.state.current_player()

    def is_terminal(self) -> bool:
        """Whether the game is over: finished by its rules, or cut short at its
        ``decisions`` or ``total`` limit (truncated: zero returns; :meth:`truncation`
        says why)."""
        return self.core.over()

    def truncation(self) -> str | None:
        """Why the game was cut short (the engine's message for the limit reached), or
        None when it was not (it goes on, or ended by its rules)."""
        c = self.core
        return None if c.pending is not None or c.state is None else spent(c.state)

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action indices of ``player`` (none unless it is to decide), sorted."""
        c = self.core
        if c.state is None or c.pending is not None or player != c.state.current_player() \
                or c.over():
            return []
        return c.game.spaces.legal_indices(c.state, c.selection)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next draw's outcomes ``0 .. n - 1``, each of probability ``1/n``.

        Raises:
            ValueError: a draw of more outcomes than the game's ``max_chance_outcomes``
                (the cards in the game, or the seats, plus one).
        """
        c = self.core
        if c.pending is None:
            return []
        n = c.pending.need
        if n > c.game.max_outcomes:
            raise ValueError(f"a draw of {n} outcomes: the adapter's chance nodes have at "
                             f"most {c.game.max_outcomes} (the cards or the seats, plus one)")
        return [(k, 1.0 / n) for k in range(n)]

    def _apply_action(self, action: int) -> None:
        """Take a chance outcome, or the current player's action index (a card of a
        decision chosen card by card only joins its selection).

        Raises:
            ValueError: an index or outcome that is not legal now.
            RulesError: the ruleset failed while running.
        """
        c = self.core
        if c.pending is not None:
            c.set(c.pending.give(int(action)))
            return
        assert c.state is not None
        spaces, s = c.game.spaces, c.state
        legal = [] if c.over() else spaces.legal_indices(s, c.selection)
        if action not in legal:
            raise ValueError(spaces.refusal(action, legal))
        aid, name = spaces.actions.ids[action], s.decision_name()
        if name in spaces.actions.sequenced:
            if aid.startswith(f"{name}:+"):
                card = spaces.card_index[aid.split(":+", 1)[1]]
                c.selection = (*c.selection, card)  # (in the order picked: recalled)
                c.recorder.pick(s.current_player(), int(action))
                return
            if aid == f"{name}:done":
                chosen = tuple(sorted(c.selection))
                aid = next(a.id for a in s.legal_actions() if a.value == chosen)
        c.selection = ()
        if c.game.explicit:
            c.set(chance.apply(s, aid))
        else:
            s.apply(aid)
            c.set(s)

    def apply_action(self, action: int) -> None:
        """OpenSpiel's ``apply_action``, with a bad index refused in words.

        Raises:
            ValueError: an index or outcome that is not legal now (the message lists the
                legal ones), or an action at the end of the game.
        """
        if isinstance(action, bool) or not isinstance(action, int | np.integer) \
                or action < 0:
            c = self.core
            if c.pending is not None:
                raise ValueError(f"chance outcome {action!r} is not one of "
                                 f"0..{c.pending.need - 1}")
            raise ValueError(c.game.spaces.refusal(
                action, self._legal_actions(self.current_player())))
        super().apply_action(action)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """OpenSpiel's ``observation_tensor``, a seat out of range refused in words.

        Raises:
            ValueError: ``player`` is not a seat of this game.
        """
        return list(super().observation_tensor(self._seat(player)))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """OpenSpiel's ``information_state_tensor``, a seat out of range refused in words.

        Raises:
            ValueError: ``player`` is not a seat of this game.
        """
        return list(super().information_state_tensor(self._seat(player)))

    def _seat(self, player: int | None) -> int:
        """``player``, or the current player when None.

        Raises:
            ValueError: not a seat of the game (at a chance node or the end, None).
        """
        seat = self.current_player() if player is None else player
        n = self.core.game.program.layout.n
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) \
                or not 0 <= seat < n:
            raise ValueError(f"player {seat} is not a seat of this game: seats are 0 to "
                             f"{n - 1}" + (" (give the player: none is to act now)"
                                           if player is None else ""))
        return int(seat)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action}"
        ids = self.core.game.spaces.actions.ids
        if not 0 <= action < len(ids):
            raise ValueError(f"action {action} is not an action of this game (indices run "
                             f"0 to {len(ids) - 1})")
        return str(ids[action])

    def returns(self) -> list[float]:
        """At the end, per seat: +1 win / -1 loss (0 to all when all win), or the final
        score with ``reward=score``; zeros before, and zeros for a game cut short at its
        limit (no winner, no final score)."""
        c = self.core
        n = c.game.program.layout.n
        if not self.is_terminal() or self.truncation() is not None:
            return [0.0] * n
        assert c.state is not None
        if c.game.reward == "score":
            return [float(v) for v in c.state.scores()]
        winners = c.state.winners()
        return [0.0] * n if len(winners) == n else \
            [1.0 if i in winners else -1.0 for i in range(n)]

    def rewards(self) -> list[float]:
        """The returns at the end (rewards come only then), zeros before."""
        return self.returns()

    def __str__(self) -> str:
        c = self.core
        lines = []
        s = c.state
        if c.pending is not None:
            p = c.pending
            lines.append(f"chance: a draw of 1 of {p.need}, outcomes so far "
                         f"{' '.join(map(str, p.outcomes)) or '-'}"
                         + (f", drawing for {p.action.id}" if p.action else ", the start"))
            s = p.before
        if s is not None:
            prog = s.program
            lines.append(f"phase {prog.phase_name(s) or '-'} | to decide: "
                         f"{s.current_player()} {s.decision_name() or '-'}"
                         + (" | terminal" if s.terminal else "")
                         + (" | cut short at its limit" if c.over() and not s.terminal
                            else ""))
            if c.selection:
                lines.append("selection " + " ".join(prog.card_ids[x] for x in c.selection))
            for z, cards in enumerate(s.zones):
                ref = prog.zone_ref(z)
                owner = "" if ref["owner"] is None else f"[{ref['owner']}]"
                lines.append(f"{ref['zone']}{owner}: "
                             + " ".join(prog.card_ids[x] for x in cards))
            lines.append("history " + " ".join(aid for _, aid in s.history))
        return "\n".join(lines)

    def resample_from_infostate(self, player: int, sampler: Any) -> RulesplayState:
        """A state ``player`` cannot tell from this one: the cards it cannot see dealt
        again consistently with what it has seen (the determinisation sampler of
        :mod:`rulesplay.agents`), its own selection kept, future chance drawn afresh.

        Args:
            player: the seat whose knowledge the sample keeps.
            sampler: a ``random.Random``, or a callable returning a float in [0, 1)
                (OpenSpiel's ``UniformProbabilitySampler``) that seeds one.

        Raises:
            ValueError: at a chance node or at the end.
        """
        c = self.core
        if c.pending is not None or c.state is None or c.over():
            raise ValueError("resample_from_infostate needs a decision node")
        rng = sampler if isinstance(sampler, random.Random) else \
            random.Random(int(float(sampler()) * 2 ** 53))
        if c.game.explicit:  # (the past is not replayable from the seed: no tracker)
            from ..agents.infoset import InfoSet

            info = InfoSet(c.state, player)
        else:
            info = c.game.tracker(player).infoset(c.state)
        world = info.sample(rng)
        out = RulesplayState(c.game)
        core = _Core(c.game)
        core.state = world
        core.seen = (None, [])
        core.selection = c.selection if player == c.state.current_player() else ()
        core.recorder = c.recorder.copy()  # (the player's record: what it has observed)
        out._core = core
        return out

    def information_state_string(self, player: int | None = None) -> str:
        """The seat's information state as text (perfect recall; see
        :mod:`~rulesplay.adapters.openspiel_observe`)."""
        return self._text(player, True)

    def observation_string(self, player: int | None = None) -> str:
        """The seat's observation as text (see
        :mod:`~rulesplay.adapters.openspiel_observe`)."""
        return self._text(player, False)

    def _text(self, player: int | None, perfect: bool) -> str:
        seat = self._seat(player)
        view, mine = self.view(seat)
        if view is None:
            return f"seat {seat}\nthe game's start (chance)"
        recall = self.core.recorder.summary(seat) if perfect else None
        return view_text(self.core.game.spaces, view, seat, mine, recall,
                         self.core.observation(view, seat))


def _short_names() -> dict[str, str]:
    """Registered name -> shipped game name: ``rulesplay_`` and the last part of the name,
    or the whole name with ``_`` for ``/`` when another game has the same last part."""
    names = list(shipped_names())
    last = [n.rsplit("/", 1)[-1] for n in names]
    return {f"{PREFIX}_{part if last.count(part) == 1 else n.replace('/', '_')}": n
            for n, part in zip(names, last, strict=True)}


def shipped_game_names() -> dict[str, str]:
    """Every per-game name this module registers -> the shipped game it loads."""
    return _short_names()


def _register() -> None:
    """Register ``rulesplay`` and every shipped game's name. Each creator is a class (an
    object Python never frees: OpenSpiel keeps its creators until after Python has
    finished, when freeing a function would crash the interpreter's exit)."""
    known = set(pyspiel.registered_names())
    wide = (1, 64)  # (the registry's range: each game's own is in its instance's type)
    if PREFIX not in known:
        pyspiel.register_game(_game_type(PREFIX, {"ruleset": "", **PARAMS}, False, wide),
                              RulesplayGame)
    for short, name in _short_names().items():
        if short not in known:
            creator = type(f"RulesplayGame_{short}", (_ShippedGame,),
                           {"SHORT": short, "RULESET": name, "__doc__": f"Shipped {name}."})
            pyspiel.register_game(_game_type(short, dict(PARAMS), False, wide), creator)


class _ShippedGame(RulesplayGame):
    """A shipped game by its registered name (a subclass per game sets the two names)."""

    SHORT = PREFIX
    RULESET = ""

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params, self.SHORT, self.RULESET)


_register()
