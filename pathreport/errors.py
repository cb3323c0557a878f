"""The base class of errors caused by the user's data or configuration.

Entry points print these as one clear message (no traceback), because the message already names
the file, the slide, the field, what was expected, what was found and how to fix it. Every entry
point (``train.py``, ``eval.py``, the ``pathreport`` command) catches :data:`USER_ERRORS`.
"""

from __future__ import annotations

from pathreport.registry import RegistryError


class PathreportError(Exception):
    """An error in the user's input, with a message that says how to fix it.

    Attributes:
        exit_code: the process exit status an entry point uses for this error.
    """

    exit_code = 1


class UserError(PathreportError):
    """A wrong command-line argument or input file; ``pathreport`` exits with status 2."""

    exit_code = 2


class ConfigError(PathreportError, ValueError):
    """A configuration value that cannot work (checked before any compute)."""


class CheckpointError(PathreportError, ValueError):
    """A checkpoint that is refused: unsafe to unpickle, not pathreport's, or for another model."""


class RunFolderError(PathreportError):
    """A run or output folder that cannot be used: held by a live run, finished, or unwritable."""


class RunInterrupted(PathreportError):
    """A run stopped by a signal (SIGTERM, Ctrl-C); what it had written is kept.

    The exit status is 128 + SIGTERM (143), the shell's convention for a process ended by it, so
    schedulers and scripts see the run as not completed.
    """

    exit_code = 143


class PluginError(PathreportError):
    """A plug-in that cannot be used: a plug-in file or entry point that registers nothing."""


#: What an entry point reports as one message without a traceback: pathreport's own user errors, an
#: unknown or duplicate plug-in name (:class:`~pathreport.registry.RegistryError`: a ``KeyError``,
#: because the registry is a mapping, and it cannot derive from this module's root without importing
#: the package), and a file that does not exist.
USER_ERRORS: tuple[type[BaseException], ...] = (PathreportError, RegistryError, FileNotFoundError)
