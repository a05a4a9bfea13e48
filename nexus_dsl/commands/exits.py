"""The exit codes of `nexus`, and the errors that say which one a stop deserves.

An error carries its intent: a command raises `UsageError` when what it was given cannot be used
(an unknown id, a bad option value, a file it cannot read) and returns `ExitCode.PROBLEMS` when it ran
and found something wrong. `cli.main` maps nothing by the class of a library's exception: anything it
was not told about is an internal error, a bug of `nexus` itself.
"""

from __future__ import annotations

from enum import IntEnum

from ..errors import Diagnostic


class ExitCode(IntEnum):
    OK = 0  # the command did what it was asked and found nothing wrong
    PROBLEMS = 1  # it ran and found problems: check errors, a failed scenario, a bout that faulted or failed
    USAGE = 2  # it could not run on what it was given: a bad option value, an unknown id, unreadable input
    INTERNAL = 3  # a bug of nexus itself: the message and traceback are worth reporting
    INTERRUPTED = 130  # stopped with Ctrl+C (128 + SIGINT, as shells report it)


#: `nexus --help`'s closing lines, and the README's table says the same.
EPILOG = """exit status:
  0    success: the command ran and found nothing wrong
  1    the command ran and found problems (check errors, a failed scenario, a bout stopped by a
       script fault, an engine error in a batch, a dominant motivation, a backend that cannot play)
  2    usage or bad input: an unknown option value or id, packs that do not load, a file that cannot be read
  3    internal error: a bug of nexus (the traceback is printed; please report it)
  130  interrupted (Ctrl+C)"""


class CommandError(Exception):
    """A command stops with `exit_code` and a message (or the positioned diagnostics) on stderr."""

    exit_code: ExitCode = ExitCode.PROBLEMS

    def __init__(self, message: str = "", diagnostics: list[Diagnostic] | None = None,
                 sources: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostics = diagnostics or []
        self.sources = sources or {}


class UsageError(CommandError):
    """What the command was given cannot be used: exit 2."""

    exit_code = ExitCode.USAGE
