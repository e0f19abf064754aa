"""What a day of human_kill (人类杀) keeps: the orders given in the day's windows (and the sage's choice at
nightfall), each taking effect when its window closes or at nightfall. A new day starts with none
(:meth:`~forumbot.rulesets.human_kill.HumanKill._open_day`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Day:
    """The day's orders (seats; None: none given)."""

    iku_choice: str | None = None  # Iku's: "cancel" (today's weather) or "foresee" (tomorrow's)
    check_done: int | None = None  # Remilia's check (one a day)
    disguise: int | None = None  # Mamizou's
    exorcised: int | None = None  # the exorcism's target who goes out at nightfall (None: nobody, or protected)
    yukari_save: int | None = None
    yukari_kill: int | None = None
    dream: tuple[int, ...] = ()  # Doremy's one or two
    order_choice: tuple[int, bool] | None = None  # the sage's: (where the order starts, clockwise)
