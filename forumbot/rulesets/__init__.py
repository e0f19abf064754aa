"""The built-in rulesets, one module each; importing this package registers them."""

from forumbot.rulesets import (
    human_kill,  # noqa: F401
    interview_vampire,  # noqa: F401
    killer_club,  # noqa: F401
    sunlight,  # noqa: F401
    vampire_village,  # noqa: F401
)
