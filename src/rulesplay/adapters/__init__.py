"""Adapters to the standard game APIs of other libraries, each an optional extra:
:mod:`.pettingzoo` (``pip install 'rulesplay[pettingzoo]'``). They use only the engine
API and the encodings of :mod:`rulesplay.encode`."""
