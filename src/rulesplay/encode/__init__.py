"""Any ruleset as fixed-size tensors: a seat's observation vector and a fixed action space
with a legal mask, for reinforcement-learning libraries and game frameworks (the PettingZoo
adapter, :mod:`rulesplay.adapters.pettingzoo`, is built on it).

- :mod:`.actions`: every action id a compiled game can produce, numbered (no numpy).
- :mod:`.layout`: the observation vector's segments, offsets and meaning (no numpy).
- :mod:`.tensor`: :class:`~.tensor.Spaces` (numpy arrays) and :class:`~.tensor.Chooser`
  (indices to moves, card by card for a large choice of several cards); needs numpy
  (``pip install 'rulesplay[spaces]'``).
- :mod:`.describe`: the text ``rulesplay spaces FILE`` prints.
"""
