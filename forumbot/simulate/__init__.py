"""``forumbot simulate``: a balance simulator that plays complete games through the bot's engine.

Modules: :mod:`~forumbot.simulate.actions` (what a player may do now, as data),
:mod:`~forumbot.simulate.view` (what he knows), :mod:`~forumbot.simulate.policies` (how he chooses:
the :class:`~forumbot.simulate.policies.Policy` interface, ``random`` and ``heuristic``),
:mod:`~forumbot.simulate.play` (one game), :mod:`~forumbot.simulate.run` (many games: seeds,
processes or a Dask cluster, win rates with Wilson intervals, CSV and plots). See ``docs/simulate.md``.
"""
