"""Hand-written Bargain Hunter, used as a speed baseline for the rulesplay interpreter.

A direct, plain-Python implementation of bargain_hunter.en.txt as read by the rulings
BH1-BH11 in RULINGS.md, for 3 and 4 players. The API mirrors the interpreter's so a benchmark
can drive both the same way:

    game = DirectBargainHunter()
    state = game.new_state(num_players, seed)
    while not state.is_terminal():
        state.apply(some_choice(state.legal_actions()))   # for state.current_player()
    state.scores(), state.winners()

Actions are small tuples:
    ("bargain", card)   round 1, choose the item card that starts the bargain pile
    ("play", card)      play a card to the trick
    ("trump", bool)     BH5 declare the colour just played trump (True) or not (False)
    ("order", +1 / -1)  BH6 the duplicate just played is higher (+1) or lower (-1)
    ("clean", number)   BH9 spring-clean all item cards of this number from the junk pile
    ("skip",)           BH9 do not spring-clean

apply() assumes the action came from legal_actions(); it does not re-check it.

Cards are ids 0..109: ids 0..107 are item cards (colour = id // 18, number = (id % 18) // 2 + 1,
two copies of each colour/number are ids 2k and 2k+1); 108 and 109 are the Irresistible Offers.
"""

from __future__ import annotations

import random
import sys
import time

COLOURS = ("red", "yellow", "green", "blue", "purple", "orange")
OFFER = -1  # colour of an Irresistible Offer
NUM_ITEMS = 108
NUM_CARDS = 110
OFFERS = (108, 109)

COLOUR = [i // 18 for i in range(NUM_ITEMS)] + [OFFER, OFFER]
NUMBER = [(i % 18) // 2 + 1 for i in range(NUM_ITEMS)] + [0, 0]
# The other copy of an item card (same colour and number); Offers have none.
TWIN = [i ^ 1 for i in range(NUM_ITEMS)] + [-1, -1]

ROUNDS = {3: 6, 4: 4}  # BH2
TRASH_MIN = {3: 3, 4: 2}  # BH2
HAND_SIZE = 8

# Phases: who is deciding what.
BARGAIN, PLAY, TRUMP, ORDER, CLEAN, OVER = range(6)

SKIP = ("skip",)
TRUMP_ACTIONS = [("trump", True), ("trump", False)]
ORDER_ACTIONS = [("order", 1), ("order", -1)]


def card_name(card: int) -> str:
    if COLOUR[card] == OFFER:
        return "Offer"
    return f"{COLOURS[COLOUR[card]]} {NUMBER[card]}"


class State:
    """One game in progress. Every field is an int, a list or the random generator."""

    __slots__ = (
        "n",
        "rounds",
        "trash_min",
        "rng",
        "round_no",
        "dealer",
        "deck",
        "trash",
        "hands",
        "bargain",
        "junk",
        "phase",
        "to_act",
        "leader",
        "last_winner",
        "trick_cards",
        "trick_players",
        "trick_keys",
        "lead",
        "trump",
        "pending_order",
        "bargains_left",
        "clean_idx",
        "clean_pass",
    )

    def clone(self) -> State:
        s = State.__new__(State)
        s.n = self.n
        s.rounds = self.rounds
        s.trash_min = self.trash_min
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s.round_no = self.round_no
        s.dealer = self.dealer
        s.deck = self.deck[:]
        s.trash = self.trash[:]
        s.hands = [h[:] for h in self.hands]
        s.bargain = [p[:] for p in self.bargain]
        s.junk = [p[:] for p in self.junk]
        s.phase = self.phase
        s.to_act = self.to_act
        s.leader = self.leader
        s.last_winner = self.last_winner
        s.trick_cards = self.trick_cards[:]
        s.trick_players = self.trick_players[:]
        s.trick_keys = self.trick_keys[:]
        s.lead = self.lead
        s.trump = self.trump
        s.pending_order = self.pending_order
        s.bargains_left = self.bargains_left
        s.clean_idx = self.clean_idx
        s.clean_pass = self.clean_pass
        return s

    # ------------------------------------------------------------------ queries

    def current_player(self) -> int:
        return self.to_act

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list:
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[self.to_act]
            lead = self.lead
            if lead is not None:
                follow = [("play", c) for c in hand if COLOUR[c] == lead]
                if follow:
                    # Following the lead colour is compulsory; an Offer may always be played.
                    follow.extend(("play", c) for c in hand if COLOUR[c] == OFFER)
                    return follow
            # BH4: no lead colour yet (empty trick or only Offers): any card.
            return [("play", c) for c in hand]
        if phase == TRUMP:
            return TRUMP_ACTIONS[:]
        if phase == ORDER:
            return ORDER_ACTIONS[:]
        if phase == CLEAN:
            numbers = sorted({NUMBER[c] for c in self.junk[self.to_act] if c < NUM_ITEMS})
            actions = [("clean", k) for k in numbers]
            actions.append(SKIP)
            return actions
        if phase == BARGAIN:
            return [("bargain", c) for c in self.hands[self.to_act] if c < NUM_ITEMS]
        return []

    def scores(self) -> list[int]:
        return [len(b) - len(j) for b, j in zip(self.bargain, self.junk, strict=True)]

    def winners(self) -> list[int]:
        scores = self.scores()
        best = max(scores)
        tied = [p for p in range(self.n) if scores[p] == best]
        least_junk = min(len(self.junk[p]) for p in tied)
        return [p for p in tied if len(self.junk[p]) == least_junk]

    # ------------------------------------------------------------------ moves

    def apply(self, action) -> None:
        kind = action[0]
        if kind == "play":
            self._play(action[1])
        elif kind == "trump":
            if action[1]:
                self.trump = COLOUR[self.trick_cards[-1]]
            if self.pending_order:
                self.phase = ORDER
            else:
                self._card_done()
        elif kind == "order":
            # BH6: only the two copies' relative order changes.
            twin_key = self.trick_keys[self.trick_cards.index(TWIN[self.trick_cards[-1]])]
            self.trick_keys[-1] = twin_key + action[1]
            self._card_done()
        elif kind == "clean":
            self._clean(action[1])
            self._next_cleaner()
        elif kind == "skip":
            self._next_cleaner()
        elif kind == "bargain":
            p = self.to_act
            self.hands[p].remove(action[1])
            self.bargain[p].append(action[1])
            self.bargains_left -= 1
            if self.bargains_left:
                self.to_act = (p + 1) % self.n
            else:
                self._start_hunt()
        else:
            raise ValueError(f"unknown action {action!r}")

    def _play(self, card: int) -> None:
        p = self.to_act
        self.hands[p].remove(card)
        colour = COLOUR[card]
        lead = self.lead
        self.trick_cards.append(card)
        self.trick_players.append(p)
        # Keys order cards of one colour: 4 * number + 1, a declared duplicate is +-1 of its twin.
        self.trick_keys.append(4 * NUMBER[card] + 1)
        if colour == OFFER:
            self._card_done()
            return
        if lead is None:
            # BH4: the first coloured card of the trick sets the lead colour.
            self.lead = colour
            self._card_done()
            return
        self.pending_order = TWIN[card] in self.trick_cards
        if colour != lead and self.trump is None:
            # BH5: a coloured card off the lead colour means the player could not follow.
            self.phase = TRUMP
        elif self.pending_order:
            self.phase = ORDER
        else:
            self._card_done()

    def _card_done(self) -> None:
        self.pending_order = False
        if len(self.trick_cards) < self.n:
            self.phase = PLAY
            self.to_act = (self.to_act + 1) % self.n
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        cards = self.trick_cards
        players = self.trick_players
        keys = self.trick_keys
        winner_idx = -1
        # BH7: the last-played Offer wins; else highest trump; else highest lead colour card.
        for i in range(len(cards) - 1, -1, -1):
            if COLOUR[cards[i]] == OFFER:
                winner_idx = i
                break
        if winner_idx < 0:
            best_colour = self.trump if self.trump is not None else self.lead
            best_key = -1
            for i, c in enumerate(cards):
                if COLOUR[c] == best_colour and keys[i] > best_key:
                    best_key = keys[i]
                    winner_idx = i
        winner = players[winner_idx]
        # BH8: matches of the bargain pile's top number to the bargain pile, the rest to junk.
        wanted = NUMBER[self.bargain[winner][-1]]
        bargain = self.bargain[winner]
        junk = self.junk[winner]
        for c in cards:
            if NUMBER[c] == wanted:
                bargain.append(c)
            else:
                junk.append(c)
        self.trick_cards = []
        self.trick_players = []
        self.trick_keys = []
        self.lead = None
        self.trump = None
        self.last_winner = winner
        self.leader = winner
        if self.hands[winner]:
            self.phase = PLAY
            self.to_act = winner
        else:
            self._start_cleaning()

    # ------------------------------------------------------------------ rounds

    def _deal(self) -> None:
        n = self.n
        deck = self.deck
        per_hand = min(HAND_SIZE, len(deck) // n)
        hands = self.hands
        dealer = self.dealer
        for _ in range(per_hand):
            for j in range(1, n + 1):
                hands[(dealer + j) % n].append(deck.pop())
        for h in hands:
            h.sort()
        if self.round_no == 1:
            self.phase = BARGAIN
            self.bargains_left = n
            self.to_act = (dealer + 1) % n
        else:
            self._start_hunt()

    def _start_hunt(self) -> None:
        # BH3: a round whose deal gave no cards has no tricks, only spring cleaning.
        if not self.hands[0]:
            self._start_cleaning()
            return
        self.phase = PLAY
        self.leader = (self.dealer + 1) % self.n
        self.to_act = self.leader

    def _start_cleaning(self) -> None:
        self.phase = CLEAN
        self.clean_idx = 0
        self.clean_pass = 0
        self.to_act = self.last_winner

    def _clean(self, number: int) -> None:
        # BH9: the N earliest cards of the number are trashed, the rest go onto the bargain pile.
        p = self.to_act
        keep = []
        taken = []
        for c in self.junk[p]:
            if NUMBER[c] == number:
                taken.append(c)
            else:
                keep.append(c)
        self.junk[p] = keep
        n_trash = self.trash_min
        self.trash.extend(taken[:n_trash])
        self.bargain[p].extend(taken[n_trash:])

    def _next_cleaner(self) -> None:
        if self.round_no == self.rounds and self.clean_pass == 0:
            self.clean_pass = 1  # last round: a second choice, back to back
            return
        self.clean_pass = 0
        self.clean_idx += 1
        if self.clean_idx < self.n:
            self.to_act = (self.last_winner + self.clean_idx) % self.n
        elif self.round_no == self.rounds:
            self.phase = OVER
        else:
            self._new_round()

    def _new_round(self) -> None:
        # BH10: deal passes clockwise; the trash is shuffled and put under the deck.
        self.round_no += 1
        self.dealer = (self.dealer + 1) % self.n
        trash = self.trash
        self.rng.shuffle(trash)
        self.deck = trash + self.deck  # deck top is the end of the list
        self.trash = []
        self._deal()


class DirectBargainHunter:
    name = "bargain_hunter"

    def new_state(self, num_players: int, seed: int) -> State:
        if num_players not in ROUNDS:
            raise ValueError("Bargain Hunter is for 3 or 4 players")
        s = State.__new__(State)
        s.n = num_players
        s.rounds = ROUNDS[num_players]
        s.trash_min = TRASH_MIN[num_players]
        s.rng = random.Random(seed)
        s.round_no = 1
        s.dealer = s.rng.randrange(num_players)  # BH10: first dealer from the generator
        s.deck = list(range(NUM_CARDS))
        s.rng.shuffle(s.deck)
        s.trash = []
        s.hands = [[] for _ in range(num_players)]
        s.bargain = [[] for _ in range(num_players)]
        s.junk = [[] for _ in range(num_players)]
        s.phase = BARGAIN
        s.to_act = 0
        s.leader = (s.dealer + 1) % num_players
        s.last_winner = s.leader
        s.trick_cards = []
        s.trick_players = []
        s.trick_keys = []
        s.lead = None
        s.trump = None
        s.pending_order = False
        s.bargains_left = 0
        s.clean_idx = 0
        s.clean_pass = 0
        s._deal()
        return s


def random_playout(num_players: int, seed: int) -> tuple[int, list[int]]:
    """Play one game choosing uniformly among legal actions; return (decisions, scores)."""
    state = DirectBargainHunter().new_state(num_players, seed)
    chooser = random.Random(seed + 1)
    decisions = 0
    while not state.is_terminal():
        state.apply(chooser.choice(state.legal_actions()))
        decisions += 1
    return decisions, state.scores()


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 500
    for num_players in (3, 4):
        decisions = 0
        start = time.perf_counter()
        for seed in range(games):
            d, _ = random_playout(num_players, seed)
            decisions += d
        elapsed = time.perf_counter() - start
        print(
            f"{num_players} players: {games} games in {elapsed:.2f}s, "
            f"{games / elapsed:.1f} games/s, {decisions / elapsed:.0f} decisions/s, "
            f"{decisions / games:.1f} decisions/game"
        )


if __name__ == "__main__":
    main(sys.argv)
