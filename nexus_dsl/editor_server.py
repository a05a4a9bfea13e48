"""Starting the editor's Streamlit server as a process of its own, waiting until it answers, and
stopping it with everything it started: what the browser tests and the editor's latency benchmark
do, each with a content root and sessions folder of their own. Nothing here imports Streamlit: the
server is `nexus editor` (`python -m nexus_dsl editor`, which runs Streamlit on the editor's script)
in a new process group."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO


class EditorServerError(RuntimeError):
    """The server exited, or did not answer in time; the message carries what it printed."""


@dataclass
class EditorServer:
    url: str
    process: subprocess.Popen[bytes] | None  # None: an editor started by someone else
    log: Path
    content_root: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else "(no output)"

    def wait_until_healthy(self, seconds: float) -> float:
        """Poll Streamlit's health endpoint until it answers `ok`; the seconds it took. Raises
        EditorServerError if the process dies or the time runs out."""
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            if self.process is not None and self.process.poll() is not None:
                raise EditorServerError(f"streamlit exited with {self.process.returncode}:\n{self.output()}")
            with contextlib.suppress(OSError, urllib.error.URLError):
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as answer:
                    if answer.read().strip() == b"ok":
                        return time.monotonic() - start
            time.sleep(0.05)
        raise EditorServerError(f"streamlit did not answer within {seconds:.0f}s:\n{self.output()}")

    def stop(self) -> None:
        """Stop streamlit and anything it started (a batch's worker processes) as one group."""
        process = self.process
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_editor(content_root: Path, sessions_dir: Path, log: Path, port: int | None = None) -> EditorServer:
    """`nexus editor` on `port` (default: a free one) of 127.0.0.1, with this Python, reading
    `content_root` and keeping playtest sessions in `sessions_dir`; its output goes to `log`.
    Returns at once: call `wait_until_healthy` before opening a page."""
    port = free_port() if port is None else port
    env = {"NEXUS_CONTENT_ROOT": str(content_root), "NEXUS_SESSIONS_DIR": str(sessions_dir)}
    command = [sys.executable, "-m", "nexus_dsl", "editor", "--address", "127.0.0.1", "--port", str(port)]
    return start_server(command, port, env, log, content_root)


def start_server(command: list[str], port: int, env: dict[str, str], log: Path, content_root: Path) -> EditorServer:
    """A Streamlit server started by `command` (listening on `port` of 127.0.0.1) in a new process
    group, with `env` over this environment; its output goes to `log`. Returns at once."""
    # No file watcher: nothing is edited under a running test, and watching costs a thread per folder.
    env = {**os.environ, **env, "PYTHONUNBUFFERED": "1", "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"}
    sink: IO[bytes]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    return EditorServer(f"http://127.0.0.1:{port}", process, log, content_root)
