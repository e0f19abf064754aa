"""The ``heuristic`` policy of each ruleset, one module per ruleset, registered in
:data:`forumbot.simulate.policies.HEURISTICS` when :mod:`forumbot.simulate.policies` is imported.

Each module's docstring says what each role does and which clause of its rulebook the play follows.
Every heuristic decides from the player's :class:`~forumbot.simulate.view.View` only (his own private
messages, the thread, the living seats) and the table-talk model :meth:`View.hunch` (``--skill``);
``tests/simulate/test_heuristics.py`` checks that perturbing other players' private messages never
changes a decision.
"""

from __future__ import annotations

from forumbot.simulate.heuristics import human_kill, interview_vampire, killer_club, sunlight, vampire_village
from forumbot.simulate.policies import HEURISTICS

HEURISTICS.update({
    "interview_vampire": interview_vampire.heuristic,
    "sunlight": sunlight.heuristic,
    "killer_club": killer_club.heuristic,
    "vampire_village": vampire_village.heuristic,
    "human_kill": human_kill.heuristic,
})
