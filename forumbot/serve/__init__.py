"""``forumbot serve``: many seasons judged by one service (see docs/runtime.md). :mod:`.service` runs the
seasons of a directory, :mod:`.lease` shares them between workers on PostgreSQL, :mod:`.pacing` shares each
forum account's write pacing between seasons, :mod:`.metrics` exposes health and Prometheus metrics."""
