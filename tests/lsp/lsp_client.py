"""A small JSON-RPC client that drives `python -m nexus_dsl lsp` as an editor does: messages
framed by `Content-Length` headers on the server's standard input and output.

A thread reads every message the server sends into a queue; a test waits for the one it expects
with a generous timeout, and a timeout fails the test (it never passes one)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO, Callable

TIMEOUT = 120.0  # seconds: loading the packs on a busy machine is slow, never this slow


class ServerTimeout(AssertionError):
    pass


def _read_message(stream: BinaryIO) -> dict[str, Any] | None:
    length = None
    while True:
        header = stream.readline()
        if not header:
            return None
        header = header.strip()
        if not header:
            break
        name, _, value = header.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    if length is None:
        return None
    return json.loads(stream.read(length).decode("utf-8"))


class LspClient:
    def __init__(self, cwd: Path, env: dict[str, str] | None = None) -> None:
        environment = {**os.environ, **(env or {})}
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(cwd), environment.get("PYTHONPATH", "")]))
        self.process = subprocess.Popen([sys.executable, "-m", "nexus_dsl", "lsp"], cwd=cwd, env=environment,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self._next_id = 0
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        while (message := _read_message(self.process.stdout)) is not None:
            self.messages.put(message)

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        """Send a request and wait for its answer (a server's error answer fails the test)."""
        self._next_id += 1
        ident = self._next_id
        self.send({"id": ident, "method": method, "params": params})
        answer = self.wait_for(lambda m: m.get("id") == ident and "method" not in m, f"the answer to {method}")
        assert "error" not in answer, answer["error"]
        return answer.get("result")

    def wait_for(self, wanted: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        for message in self.seen:
            if wanted(message):
                self.seen.remove(message)
                return message
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                raise ServerTimeout(f"no {what} within {TIMEOUT:.0f} s; stderr: {self.stderr_so_far()}") from None
            if wanted(message):
                return message
            self.seen.append(message)

    def diagnostics(self, uri: str, version: int) -> list[dict[str, Any]]:
        """The diagnostics the server publishes for a version of a document."""
        published = self.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                  and m["params"]["uri"] == uri and m["params"].get("version") == version,
                                  f"diagnostics of version {version} of {uri}")
        return list(published["params"]["diagnostics"])

    def stderr_so_far(self) -> str:
        if self.process.poll() is None:
            return "(the server is running)"
        assert self.process.stderr is not None
        return self.process.stderr.read().decode("utf-8", "replace")[-2000:]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
