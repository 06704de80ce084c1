"""`hexlan serve`: the terminal app in a web browser, for a player without a terminal.

textual-serve runs a small web server: its page holds a terminal emulator, and each browser that
opens it gets its own process of the served command (by default `hexlan play`; `-- join
HOST:PORT` takes a seat at a table on the LAN instead), driven over a websocket by Textual's web
driver. Nothing of the game changes: the process is the same app a terminal runs.

The page tells the browser where the websocket is (textual-serve's ``public_url``); a server
listening on every interface (``0.0.0.0``) gives the address other machines reach it by, the
host's LAN address (:func:`lan_address`), unless ``--public-url`` says otherwise.
"""

from __future__ import annotations

import shlex
import socket
import sys
from collections.abc import Sequence
from typing import Final

SERVED_COMMANDS: Final = ("play", "join", "host", "replay")
"""The commands `hexlan serve` may serve (the first word after ``--``; ``play`` by default)."""
ANY_HOST: Final = frozenset({"0.0.0.0", "::", ""})


def served_command(args: Sequence[str]) -> list[str]:
    """The hexlan command line a browser's process runs: ``args`` after `hexlan serve --`,
    ``play`` put first unless they begin with one of :data:`SERVED_COMMANDS`.

    >>> served_command(["--players", "3"])
    ['play', '--players', '3']
    >>> served_command(["join", "10.0.0.2:47400"])
    ['join', '10.0.0.2:47400']
    """
    args = list(args)
    return args if args and args[0] in SERVED_COMMANDS else ["play", *args]


def shell_command(args: Sequence[str]) -> str:
    """The shell line textual-serve starts for each browser: this Python running
    ``-m hexlan`` with :func:`served_command` ``args``, each word quoted."""
    return shlex.join([sys.executable, "-m", "hexlan", *served_command(args)])


def lan_address() -> str:
    """This host's IPv4 address on the network its default route leads to (a UDP socket
    connected to a documentation address sends nothing but picks the interface), or
    ``127.0.0.1`` when there is none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): nothing is sent
            address = str(sock.getsockname()[0])
        except OSError:
            return "127.0.0.1"
    return "127.0.0.1" if address in ANY_HOST else address


def public_url(host: str, port: int) -> str:
    """The address a browser reaches the server by: ``http://HOST:PORT``, with a wildcard host
    replaced by :func:`lan_address`.

    >>> public_url("127.0.0.1", 8000)
    'http://127.0.0.1:8000'
    """
    shown = lan_address() if host in ANY_HOST else host
    if ":" in shown:  # an IPv6 literal
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def run_serve(host: str, port: int, args: Sequence[str], url: str | None = None) -> int:
    """Serve ``hexlan`` + :func:`served_command` ``args`` on ``host:port`` until interrupted;
    the exit code (0).

    Args:
        host: the interface to listen on (``0.0.0.0``: every one).
        port: the TCP port.
        args: the served command's arguments (see :func:`served_command`).
        url: the address browsers use (default :func:`public_url`).

    Raises:
        OSError: the port cannot be listened on (in use, no permission).
    """
    from textual_serve.server import Server  # noqa: PLC0415

    command = served_command(args)
    server = Server(
        shell_command(args),
        host=host,
        port=port,
        title=f"hexlan {command[0]}",
        public_url=url or public_url(host, port),
    )
    server.serve()
    return 0
