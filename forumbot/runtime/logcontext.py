"""The season a log line is about: set by the runner for each cycle, so that ``forumbot serve`` (many
seasons in one process) can put the season's name in every line (:class:`SeasonFilter`)."""

from __future__ import annotations

import contextvars
import json
import logging

#: the name of the season the current thread is working on ("" when none)
SEASON: contextvars.ContextVar[str] = contextvars.ContextVar("forumbot_season", default="")


class SeasonFilter(logging.Filter):
    """Adds ``record.season`` (the current season's name, or "-") to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "season"):
            record.season = SEASON.get() or "-"
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO), level, logger, season, message (and the exception)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + "Z", "level": record.levelname,
               "logger": record.name, "season": getattr(record, "season", "-"), "message": record.getMessage()}
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)
