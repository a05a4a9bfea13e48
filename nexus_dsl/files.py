"""Reading content files: confined to a root, bounded in size, decoded with positioned errors.

Every content file the tools read (pack manifests, rule scripts, YAML data, scenarios) comes through
`read_content`, and every path they read or write is first put through `confine`: the one place that
decides whether a path, once symbolic links are followed, still lies inside the folder it belongs to.
A pack from a stranger may hold a link to `/etc/passwd` or to another user's files; such a file is
refused (and its text never shown in an error excerpt), never read.

Positions follow the parser's convention: lines are counted by `\\n` only, columns in characters,
both 1-based; a problem with the whole file (it leads outside, it cannot be read) is at 1:1.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import ContentError, Diagnostic
from .limits import INPUT_LIMITS, InputLimits

__all__ = ["confine", "inside", "read_content", "position_of_offset", "display_path"]

_BOM = b"\xef\xbb\xbf"


def inside(path: Path, folder: Path) -> bool:
    """Whether `path` is `folder` or lies below it (both taken as given: resolve them first)."""
    try:
        Path(path).relative_to(folder)
    except ValueError:
        return False
    return True


def display_path(path: Path) -> str:
    """How a file is named in messages: relative to the working folder when it lies below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def confine(path: Path, root: Path, file: str | None = None) -> Path:
    """`path` with every symbolic link followed, if that lies inside `root` (also resolved); else a
    `ContentError` (`content/outside_root`). The returned path is the one to open."""
    try:
        resolved = Path(path).resolve()
        resolved_root = Path(root).resolve()
    except (OSError, RuntimeError) as error:  # a symlink loop, a name the platform refuses
        raise ContentError(Diagnostic("content/unreadable", f"cannot follow the path: {_reason(error)}",
                                      file or str(path), 1, 1)) from None
    if not inside(resolved, resolved_root):
        raise ContentError(Diagnostic(
            "content/outside_root", "this file leads outside its folder (a symbolic link?) and is not read",
            file or str(path), 1, 1, hint=f"content is read only from inside {display_path(resolved_root)}"))
    return resolved


def read_content(path: Path, root: Path, file: str | None = None, limits: InputLimits = INPUT_LIMITS) -> str:
    """The text of a content file under `root`: confined, at most `limits.max_file_bytes`, UTF-8
    (a leading byte-order mark is dropped). Raises `ContentError` with a positioned diagnostic."""
    file = file or display_path(path)
    target = confine(path, root, file)
    if not os.path.isfile(target):  # before opening: opening a named pipe would wait forever
        raise ContentError(Diagnostic("content/unreadable", "this is not a regular file", file, 1, 1))
    try:
        with open(target, "rb") as stream:
            data = stream.read(limits.max_file_bytes + 1)
    except OSError as error:
        raise ContentError(Diagnostic("content/unreadable", f"cannot read the file: {_reason(error)}", file, 1, 1)) from None
    if len(data) > limits.max_file_bytes:
        line, column = position_of_offset(data, limits.max_file_bytes)
        raise ContentError(Diagnostic(
            "content/too_large", f"the file is larger than {limits.max_file_bytes:,} bytes", file, line, column,
            hint="split it into several files; content files are usually a few kilobytes"))
    return decode_content(data, file)


def decode_content(data: bytes, file: str) -> str:
    """UTF-8 text of `data` (a leading byte-order mark dropped), or a `ContentError` at the first
    byte that is not UTF-8."""
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = position_of_offset(data, error.start)
        raise ContentError(Diagnostic(
            "content/not_utf8", f"byte 0x{data[error.start]:02x} is not UTF-8 text", file, line, column, column + 1,
            hint="save the file as UTF-8")) from None


def position_of_offset(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based (line, column) of byte `offset`: lines counted by `\\n`, columns in characters."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    # "ignore": an offset inside a multi-byte character counts the character it belongs to once
    column = len(data[line_start:offset].decode("utf-8", errors="ignore")) + 1
    return line, column


def _reason(error: BaseException) -> str:
    return getattr(error, "strerror", None) or type(error).__name__
