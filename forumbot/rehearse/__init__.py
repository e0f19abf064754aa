"""``forumbot rehearse``: an organiser's season file played on a local FlaskBB by simulated players, before real
players see it (docs/rehearse.md). :mod:`.season_file` writes the rehearsal's own season file (phases scaled down,
the local forum); :mod:`.players` plays every seat with the simulator's policies through the forum. The command
itself (the forum, the bot as ``forumbot run`` runs it, the standings) is :mod:`forumbot.cli.rehearse`."""
