"""Hostile TCP callers for the listener tests (tests/test_transport.py, tests/test_lobby.py):
many connections at once from several loopback addresses, and a wait for a hang-up."""

from __future__ import annotations

import asyncio
import contextlib

FLOOD_SOURCES = tuple(f"127.0.0.{i}" for i in range(2, 10))
"""Loopback addresses the flood comes from (Linux routes all of 127/8 to lo), so that both the
per-address and the overall bound on callers are reached."""

Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def open_many(
    port: int, count: int, sources: tuple[str, ...] = FLOOD_SOURCES, timeout: float = 8.0
) -> list[Connection]:
    """Open ``count`` connections at once to ``127.0.0.1:port``, from ``sources`` in turn; the
    ones that opened within ``timeout`` seconds (a machine may refuse some)."""

    async def one(i: int) -> Connection | None:
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(sources[i % len(sources)], 0)
                )
        except (OSError, TimeoutError):
            return None

    opened = await asyncio.gather(*(one(i) for i in range(count)))
    return [c for c in opened if c is not None]


async def hung_up(reader: asyncio.StreamReader, timeout: float = 3.0) -> bool:
    """Whether the other side closes (or resets) the connection within ``timeout`` seconds;
    whatever it sends first is read and ignored."""
    try:
        async with asyncio.timeout(timeout):
            while await reader.read(65536):
                pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


def close_all(connections: list[Connection]) -> None:
    """Close every connection (already closed ones too)."""
    for _, writer in connections:
        with contextlib.suppress(Exception):
            writer.close()
