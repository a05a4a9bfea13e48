"""`nexus editor`: the browser editor served by Streamlit from wherever the package is installed.

The editor's script is found through `shipped.py` (the checkout's `editor/app.py`, or the wheel's
copy), and Streamlit is run on it as a child process with every setting on its command line, so
it does not depend on the folder it is started from. It listens on this machine only unless
another address is asked for, on the command line or in `$NEXUS_EDITOR_ADDRESS`: whoever can open
the editor can read and write the content under its content root, and it has no login.
Streamlit is the `editor` extra; without it, the command says how to install it.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys

from . import shipped

ADDRESS_ENV = "NEXUS_EDITOR_ADDRESS"
LOCAL_ADDRESS = "127.0.0.1"
DEFAULT_PORT = 8501
INSTALL_HINT = "pip install 'nexus_dsl[editor]'"


def default_address() -> str:
    """`$NEXUS_EDITOR_ADDRESS`, else the loopback address: this machine only."""
    return os.environ.get(ADDRESS_ENV) or LOCAL_ADDRESS


def is_local(address: str) -> bool:
    return address.startswith("127.") or address in ("localhost", "::1")


def streamlit_installed() -> bool:
    return importlib.util.find_spec("streamlit") is not None


def streamlit_command(address: str, port: int) -> list[str]:
    """`streamlit run` on the editor's script with the editor's settings (`streamlit_settings`), run
    through `editor_host`, which starts on the first page's work while the server starts."""
    return [sys.executable, "-m", "nexus_dsl.editor_host", "run", str(shipped.editor_app()),
            *streamlit_settings(address, port)]


def streamlit_settings(address: str, port: int) -> list[str]:
    """Headless, on this address and port, with the repository's Streamlit settings
    (`.streamlit/config.toml`) given on the command line, where no working folder can change them."""
    return ["--server.headless", "true", "--server.address", address, "--server.port", str(port),
            "--browser.gatherUsageStats", "false", "--client.toolbarMode", "minimal"]


def run_editor(address: str, port: int) -> int:
    """Serve the editor until Streamlit stops (Ctrl+C); Streamlit's exit code, 130 when interrupted,
    1 when Streamlit is not installed."""
    if not streamlit_installed():
        print(f"nexus editor: the editor needs Streamlit, which is not installed here: {INSTALL_HINT}",
              file=sys.stderr)
        return 1
    if not is_local(address):
        print(f"WARNING: the editor listens on {address}: anyone who can reach port {port} can read and write the "
              "content under its content root.", file=sys.stderr)
    process = subprocess.Popen(streamlit_command(address, port))
    interrupted = False
    while True:
        try:
            code = process.wait()
            return 130 if interrupted else code
        except KeyboardInterrupt:
            # A Ctrl+C in the terminal reaches Streamlit as well; one sent to this process alone is
            # passed on. Either way Streamlit shuts down in its own time, and is waited for.
            interrupted = True
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
