"""Reading content files: confined to a root, bounded in size, decoded with positioned errors.

Every content file the tools read (pack manifests, rule scripts, YAML data, scenarios) comes through
`read_content`, and every path they read or write is first put through `confine`: the one place that
decides whether a path, once symbolic links are followed, still lies inside the folder it belongs to.
A pack from a stranger may hold a link to `/etc/passwd` or to another user's files; such a file is
refused (and its text never shown in an error excerpt), never read.

Writing goes through `write_atomically`: a whole file at once (a temporary beside it, renamed over
it), so no reader ever sees half of one; the editor's saves and the load cache both write this way.

Positions follow the parser's convention: lines are counted by `\\n` only, columns in characters,
both 1-based; a problem with the whole file (it leads outside, it cannot be read) is at 1:1.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from .errors import ContentError, Diagnostic
from .limits import INPUT_LIMITS, InputLimits

__all__ = ["check_text_size", "confine", "decode_content", "display_path", "inside", "position_of_offset",
           "read_content", "read_content_bytes", "fsync_folder", "remove_quietly", "write_atomically"]

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
    return decode_content(read_content_bytes(path, root, file, limits), file)


def read_content_bytes(path: Path, root: Path, file: str | None = None, limits: InputLimits = INPUT_LIMITS) -> bytes:
    """The bytes of a content file under `root`, as `read_content` reads them (confined, at most
    `limits.max_file_bytes`), not yet decoded: for a reader that counts them (a pack's total)."""
    file = file or display_path(path)
    target = confine(path, root, file)
    if not os.path.isfile(target):  # before opening: opening a named pipe would wait forever
        raise ContentError(Diagnostic("content/unreadable", "this is not a regular file", file, 1, 1))
    try:
        with open(target, "rb") as stream:
            data = stream.read(limits.max_file_bytes + 1)
    except OSError as error:
        raise ContentError(Diagnostic("content/unreadable", f"cannot read the file: {_reason(error)}", file, 1, 1)) from None
    too_large = check_text_size(data, file, limits)
    if too_large is not None:
        raise ContentError(too_large)
    return data


def check_text_size(text: str | bytes, file: str, limits: InputLimits = INPUT_LIMITS,
                    code: str = "content/too_large") -> Diagnostic | None:
    """Why `text` is larger than a content file may be (`limits.max_file_bytes` of UTF-8), at the
    character in which the limit falls; None when it is not. The one size check of every layer:
    the file reader (bytes as read), the parser and the YAML loader (text handed to them directly,
    as the editor does). No more of a long text is measured than the limit."""
    most = limits.max_file_bytes
    if isinstance(text, str):
        if len(text) * 4 <= most:  # no character takes more than 4 bytes of UTF-8
            return None
        data = text[: most + 1].encode("utf-8", errors="surrogatepass")
    else:
        data = text
    if len(data) <= most:
        return None  # a longer text would have had more bytes than this head of it
    line, column = position_of_offset(data, most)
    what = "text" if isinstance(text, str) else "file"
    return Diagnostic(code, f"the {what} is larger than {most:,} bytes", file, line, column, column + 1,
                      hint="split it into several files; content files are usually a few kilobytes")


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


# ---------------------------------------------------------------- atomic writes
def _new_temporary(folder: Path, owner: str) -> tuple[int, Path]:
    """A new, empty temporary file for a write of `owner`, opened for writing. Created with mode 0o666
    so the umask gives it the mode of any new file (mkstemp's 0o600 would leak into the saved file)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    while True:
        temporary = folder / f".{owner}.{secrets.token_hex(8)}.tmp"
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:  # 64 random bits taken: draw again
            continue


def write_atomically(target: Path, data: bytes, mode: int | None, owner: str | None = None,
                     durable: bool = True) -> None:
    """Put `data` at `target` all at once: a temporary beside it, written, given `mode`, renamed over
    the target. `durable`: the file and then its folder are fsynced, so the write survives a power
    cut (a cache, which is rebuilt when lost, skips that cost)."""
    descriptor, temporary = _new_temporary(target.parent, owner or target.name)
    try:
        with os.fdopen(descriptor, "wb") as stream:
            if mode is not None:
                os.fchmod(stream.fileno(), mode)
            stream.write(data)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        remove_quietly(temporary)
        raise
    if durable:
        fsync_folder(target.parent)


def fsync_folder(folder: Path) -> None:
    """Make a rename durable (where the platform allows opening a folder)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def remove_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
