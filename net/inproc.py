"""The in-process transport: several sessions of one table wired together in memory.

`hexlan play` runs every seat's :class:`~hexlan.net.session.Session` in one process through
this transport, so the local game takes the same protocol path as a networked one; tests use it
to play whole games between sessions without sockets (h11's ``ConnectionPair``, STYLE.md).
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from hexlan.engine.bots.base import Bot
from hexlan.engine.options import GameOptions
from hexlan.net.beacon import HashChain
from hexlan.net.effects import Compute, Effect, Persist, Send
from hexlan.net.identity import GameKeys, Identity
from hexlan.net.session import Session, engine_version
from hexlan.net.wire import (
    BASE_GAME,
    PROTOCOL_VERSION,
    Opening,
    SeatInfo,
    board_kinds,
    option_entries,
)


@dataclass(frozen=True, slots=True)
class SeatKeys:
    """Everything secret a seat holds for one game."""

    identity: Identity
    chain: HashChain
    game_keys: GameKeys

    @classmethod
    def generate(cls) -> SeatKeys:
        """Fresh keys and chain from the operating system's randomness."""
        return cls(Identity.generate(), HashChain.generate(), GameKeys.generate())

    @classmethod
    def seeded(cls, seed: int, seat: int) -> SeatKeys:
        """Keys and chain that follow from a seed (`hexlan play --seed`): reproducible and
        therefore not fair; logs say so (PROTOCOL.md §9)."""

        def derive(what: str) -> bytes:
            return hashlib.sha256(f"hexlan/v1/seeded/{what}/{seed}/{seat}".encode()).digest()

        return cls(
            Identity(Ed25519PrivateKey.from_private_bytes(derive("identity"))),
            HashChain(derive("chain")),
            GameKeys.from_private_bytes(derive("x25519")),
        )


def make_opening(
    names: Sequence[str],
    keys: Sequence[SeatKeys],
    options: GameOptions | None = None,
    board_kind: str | None = None,
    created: int | None = None,
    game: str = BASE_GAME,
) -> Opening:
    """The opening of a table whose seats' keys are all known here (§3).

    Args:
        names: one name per seat, as many as ``game`` takes.
        keys: each seat's keys.
        options: game options (official rules by default).
        board_kind: "beginner" or "random"; None: the game's first (:func:`board_kinds`:
            "beginner" where its map has that layout, else "random").
        created: seconds since the epoch (now by default).
        game: the game's name (seeds/<game>.toml).

    Raises:
        LocalProtocolError: an opening the protocol refuses (a seat count outside the game's
            range, a board kind its map lacks, a name it cannot carry...).
        EngineError: an unknown game.
    """
    if board_kind is None:
        board_kind = board_kinds(game)[0]
    return Opening(
        PROTOCOL_VERSION,
        engine_version(),
        tuple(
            SeatInfo(name, k.identity.public_bytes, k.game_keys.public_bytes, k.chain.commitment)
            for name, k in zip(names, keys, strict=True)
        ),
        option_entries(options or GameOptions()),
        board_kind,  # type: ignore[arg-type]
        int(time.time()) if created is None else created,
        game,
    )


class InProcessTable:
    """Sessions of every seat of one table, delivering each other's messages in memory.

    Args:
        names: one name per seat (2 to 4 in the base game, 5 or 6 in the 5-6 player game).
        options: game options.
        board_kind: "beginner" or "random"; None: the game's first (see :func:`make_opening`).
        seed: when given, the seats' chain secrets follow from it (a reproducible, unfair game).
        background: run the deck's proof work in worker threads (:meth:`poll` brings the
            results in), so a screen stays live while the deck is set up. The order in which
            messages then flow depends on timing, so a seeded table that must replay bit for bit
            leaves it off: its proof work runs where it arises.
        game: the game's name (seeds/<game>.toml), "base" by default.
    """

    def __init__(
        self,
        names: Sequence[str],
        options: GameOptions | None = None,
        board_kind: str | None = None,
        seed: int | None = None,
        *,
        background: bool = False,
        game: str = BASE_GAME,
    ) -> None:
        keys = [
            SeatKeys.generate() if seed is None else SeatKeys.seeded(seed, seat)
            for seat in range(len(names))
        ]
        self.opening = make_opening(
            names, keys, options, board_kind, 0 if seed is not None else None, game
        )
        self.sessions = [
            Session(
                seat, k.identity, self.opening, k.chain, k.game_keys, inline_work=not background
            )
            for seat, k in enumerate(keys)
        ]
        self.logs: list[list[bytes]] = [[] for _ in names]
        self.effects: list[list[Effect]] = [[] for _ in names]
        self._queue: deque[tuple[int, bytes]] = deque()
        self._workers: ThreadPoolExecutor | None = None
        self._jobs: dict[Future[object], tuple[int, str]] = {}

    @property
    def working(self) -> bool:
        """Whether proof work is running in the background."""
        return bool(self._jobs)

    def poll(self, *, block: bool = False) -> bool:
        """Hand finished background work to its session and let messages flow; with
        ``block``, first wait until some work finishes (if any runs). Whether any finished."""
        if block and self._jobs:
            wait(self._jobs, return_when=FIRST_COMPLETED)
        done = [future for future in self._jobs if future.done()]
        for future in done:
            seat, key = self._jobs.pop(future)
            self._handle(seat, self.sessions[seat].computed(key, future.result()))
        self.pump()
        return bool(done)

    def close(self) -> None:
        """Stop the background workers (work still running is dropped)."""
        if self._workers is not None:
            self._workers.shutdown(wait=False, cancel_futures=True)
            self._workers = None
        self._jobs.clear()

    def start(self) -> None:
        """Every seat signs the opening; messages flow until the table is quiet."""
        for seat, session in enumerate(self.sessions):
            self._handle(seat, session.start())
        self.pump()

    def submit(self, seat: int, action: object) -> None:
        """A seat's decision; messages flow until the table is quiet.

        Raises:
            IllegalActionError: the seat may not do that now.
        """
        self._handle(seat, self.sessions[seat].submit(action))  # type: ignore[arg-type]
        self.pump()

    def play_bots(self, bots: Sequence[Bot], limit: int = 20_000) -> None:
        """Start the table and let ``bots[s]`` decide for seat ``s``, from that seat's view, until
        no seat has a decision due (the game is over, and its audit done with it) or ``limit``
        decisions were made.

        Raises:
            IllegalActionError: a bot chose an action its seat may not take.
        """
        self.start()
        for _ in range(limit):
            seat = next((s.seat for s in self.sessions if s.decision_due()), None)
            if seat is None:
                return
            view = self.sessions[seat].view
            assert view is not None  # a decision is due only once the game has begun
            self.submit(seat, bots[seat].choose(view, seat))

    def pump(self) -> None:
        """Deliver queued messages (in the order sent) until none is left."""
        while self._queue:
            seat, data = self._queue.popleft()
            self._handle(seat, self.sessions[seat].receive(data))

    def _handle(self, seat: int, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Persist):
                self.logs[seat].append(effect.envelope)
            elif isinstance(effect, Send):
                for other in range(len(self.sessions)):
                    if other != seat:
                        self._queue.append((other, effect.envelope))
            elif isinstance(effect, Compute):
                if self._workers is None:
                    self._workers = ThreadPoolExecutor(2, thread_name_prefix="hexlan-proofs")
                self._jobs[self._workers.submit(effect.job)] = (seat, effect.key)
            else:
                self.effects[seat].append(effect)
