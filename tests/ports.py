"""Table ports for the tests' real processes and sockets on 127.0.0.1.

A port the kernel hands out for ``bind(("127.0.0.1", 0))`` comes from the ephemeral range
(32768-60999 on Linux), where every outgoing connection takes its source port too: between
the moment a test learns such a port and the moment the process it starts binds it, a
connection of another test (the suite runs two xdist workers) may take it, and the host then
fails to listen or, worse, a test knocks on someone else's socket. :func:`free_port` hands out
ports below that range instead, each xdist worker from its own block, so that neither the other
worker nor any outgoing connection can take a port before the test binds it.
"""

from __future__ import annotations

import itertools
import os
import socket
from typing import Final

FIRST_PORT: Final = 20_000
"""The first port handed out: below the kernel's ephemeral range (32768 and up)."""
BLOCK: Final = 4_000
"""Ports per xdist worker: worker ``gwN`` takes ``FIRST_PORT + (N % 3) * BLOCK`` onwards."""

_worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
_START: Final = FIRST_PORT + (int(_worker) if _worker.isdigit() else 0) % 3 * BLOCK
# each run starts at another place in the block, so that a port a run before left in TIME_WAIT
# is not the first tried
_next = itertools.count(os.getpid() % BLOCK)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` now, from this worker's block (the module's docstring says
    why): never one handed out before in this process, while the block lasts.

    Raises:
        RuntimeError: every port of the block is in use.
    """
    for _ in range(BLOCK):
        port = _START + next(_next) % BLOCK
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {_START}..{_START + BLOCK - 1}")
