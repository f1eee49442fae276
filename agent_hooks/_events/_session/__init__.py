"""Session events: start, end, setup, resumption, errors, notifications, and the
environment changing under the session (configuration, directories, files, instructions).


One module per event, so that a process that handles one event creates only
that event's classes; this package holds the field descriptions they share.
"""

from __future__ import annotations

__all__: list[str] = []

WATCH_PATHS = (
    "Absolute paths to watch for FileChanged events; replaces the dynamic watch list "
    "(paths named by FileChanged matchers are always watched; an empty list clears it). "
    "The last handler in configuration order that sets it wins."
)
NOTIFICATION_MESSAGE = "Docker Agent: the text of the error or warning."
