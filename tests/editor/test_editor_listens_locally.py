"""The editor listens on this machine only unless sharing it is asked for explicitly: the Streamlit
configuration, `nexus editor` and the Makefile's command bind to the loopback address, a stray
`ADDRESS` in the environment changes nothing, and the server started the way `make editor` starts it
listens on no other address."""

from __future__ import annotations

import ipaddress
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

from nexus_dsl.editor_launch import streamlit_command

REPOSITORY = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 60


def editor_command(*arguments: str, environment: dict[str, str] | None = None) -> list[str]:
    """The command `make editor` runs to start the editor (asked of make itself, not run)."""
    listing = subprocess.run(["make", "--no-print-directory", "-n", "editor", *arguments], cwd=REPOSITORY,
                             capture_output=True, text=True, check=True,
                             env={**os.environ, **(environment or {})}).stdout
    lines = [line for line in listing.splitlines() if "nexus editor" in line]
    assert len(lines) == 1, listing
    return shlex.split(lines[0])


def option(command: list[str], name: str) -> str | None:
    return command[command.index(name) + 1] if name in command else None


def test_the_configuration_binds_to_the_loopback_address() -> None:
    config = tomllib.loads((REPOSITORY / ".streamlit" / "config.toml").read_text())
    assert ipaddress.ip_address(config["server"]["address"]).is_loopback


def test_make_editor_binds_to_the_loopback_address_unless_asked_on_its_command_line() -> None:
    assert ipaddress.ip_address(option(editor_command(), "--address")).is_loopback
    # A variable that happens to be in someone's environment does not open the editor up ...
    stray = editor_command(environment={"ADDRESS": "0.0.0.0"})
    assert ipaddress.ip_address(option(stray, "--address")).is_loopback
    # ... only an explicit choice does.
    assert option(editor_command("ADDRESS=0.0.0.0"), "--address") == "0.0.0.0"
    assert option(editor_command(environment={"NEXUS_EDITOR_ADDRESS": "0.0.0.0"}), "--address") == "0.0.0.0"


def test_nexus_editor_runs_streamlit_on_the_loopback_address_with_the_repository_settings() -> None:
    command = streamlit_command("127.0.0.1", 8601)
    assert command[1:4] == ["-m", "nexus_dsl.editor_host", "run"] and Path(command[4]) == REPOSITORY / "editor" / "app.py"
    assert option(command, "--server.address") == "127.0.0.1" and option(command, "--server.port") == "8601"
    # What .streamlit/config.toml says, on the command line: no working folder can change it.
    config = tomllib.loads((REPOSITORY / ".streamlit" / "config.toml").read_text())
    assert option(command, "--client.toolbarMode") == config["client"]["toolbarMode"]
    assert option(command, "--browser.gatherUsageStats") == str(config["browser"]["gatherUsageStats"]).lower()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening_addresses(port: int) -> set[str]:
    """The local addresses with a socket listening on `port` (from /proc/net/tcp and tcp6)."""
    found = set()
    for table, family in (("/proc/net/tcp", socket.AF_INET), ("/proc/net/tcp6", socket.AF_INET6)):
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            address, port_hex = fields[1].split(":")
            if fields[3] != "0A" or int(port_hex, 16) != port:  # 0A: listening
                continue
            raw = bytes.fromhex(address)
            # The kernel prints each 32-bit word of the address in host (little-endian) order.
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            found.add(socket.inet_ntop(family, raw))
    return found


def test_the_editor_started_as_make_does_listens_on_loopback_only(tmp_path: Path) -> None:
    port = free_port()
    command = editor_command() + ["--port", str(port)]
    assert Path(command[0]).name == "nexus"
    command[:1] = [sys.executable, "-m", "nexus_dsl"]  # the `nexus` of this Python, as make's venv has its own
    log = (tmp_path / "streamlit.log").open("w")
    server = subprocess.Popen(command, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                              env={**os.environ, "NEXUS_SESSIONS_DIR": str(tmp_path / "sessions"),
                                   "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"})
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert server.poll() is None, (tmp_path / "streamlit.log").read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "streamlit.log").read_text()
            time.sleep(0.2)
        addresses = listening_addresses(port)
        assert addresses, "no listening socket found"
        assert all(ipaddress.ip_address(a).is_loopback for a in addresses), addresses
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()
