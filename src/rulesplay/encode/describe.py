"""The text of ``rulesplay spaces FILE``: the observation layout (segments with offsets,
sizes and meaning) and the action space (blocks of ids with examples)."""

from __future__ import annotations

from .actions import ActionSpace
from .layout import Layout


def describe(title: str, players: int, layout: Layout, actions: ActionSpace,
             examples: int = 3) -> list[str]:
    """The lines printed for a game at ``players`` seats.

    Args:
        title: the game's title.
        players: the player count.
        layout, actions: the game's observation layout and action space.
        examples: how many ids to show per decision.
    """
    lines = [f"{title}, {players} players",
             f"observation: float32 vector of {layout.size} entries",
             f"  {'offset':>6} {'size':>5}  segment: meaning"]
    for s in layout.segments:
        lines.append(f"  {s.offset:>6} {s.size:>5}  {s.name}: {s.meaning}")
    lines.append(f"faces ({len(layout.faces)}): " + ", ".join(layout.faces))
    lines.append(f"actions: {len(actions)} ids (a legal mask of int8 of that length)")
    lines.append(f"  {'first':>6} {'count':>5}  decision (kind): examples")
    for b in actions.blocks:
        shown = ", ".join(f"{b.start + i}={aid}" for i, aid in enumerate(b.ids[:examples]))
        more = ", ..." if len(b.ids) > examples else ""
        note = f"  [{b.note}]" if b.note else ""
        lines.append(f"  {b.start:>6} {len(b.ids):>5}  {b.name} ({b.kind}): {shown}{more}{note}")
    return lines
