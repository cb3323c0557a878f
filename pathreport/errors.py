"""The base class of errors caused by the user's data or configuration.

Entry points print these as one clear message (no traceback), because the message already names
the file, the slide, the field, what was expected, what was found and how to fix it.
"""


class PathreportError(Exception):
    """An error in the user's input, with a message that says how to fix it."""


class ConfigError(PathreportError, ValueError):
    """A configuration value that cannot work (checked before any compute)."""
