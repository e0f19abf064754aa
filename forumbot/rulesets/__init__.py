"""The built-in rulesets, one module each; importing this package registers them."""

from forumbot.rulesets import sunlight  # noqa: F401
from forumbot.rulesets import killer_club  # noqa: F401
from forumbot.rulesets import interview_vampire  # noqa: F401
from forumbot.rulesets import vampire_village  # noqa: F401
from forumbot.rulesets import human_kill  # noqa: F401
