"""Abandon votes (docs/PROTOCOL.md §11) as a sub-protocol: the seats that remain sign that the
game ends as abandoned by the seats that owe a step and stall; a named seat that is still there
answers with ``present``, which voids the vote."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hexlan.engine.core import IllegalActionError, Seat
from hexlan.net.effects import Abandoned, Effect
from hexlan.net.subprotocols.base import (
    AUTOMATIC_TIMEOUT,
    Handler,
    OwedStep,
    Signable,
    Step,
    SubProtocol,
)
from hexlan.net.wire import OWED_STEPS, Envelope, IllegalMove

if TYPE_CHECKING:
    from hexlan.net.session import Session


@dataclass(frozen=True, slots=True)
class AbandonVote:
    """One seat's signed ``abandon`` (§11): who it says is gone, what each owed, and the
    latest message of every seat it had seen (its heads)."""

    missing: tuple[Seat, ...]
    heads: tuple[tuple[int, bytes], ...]
    owed: tuple[OwedStep, ...]
    message_id: bytes

    @classmethod
    def from_envelope(cls, env: Envelope) -> AbandonVote:
        """The vote an ``abandon`` envelope (its payload already checked by the schema)
        carries."""
        missing, heads, owed = env.body.payload
        return cls(
            tuple(missing),
            tuple((int(seq), bytes(id_)) for seq, id_ in heads),
            tuple(
                OwedStep(seat, str(step), int(number))
                for seat, (step, number) in zip(missing, owed, strict=True)
            ),
            env.id,
        )


class AbandonVotes(SubProtocol):
    """The ``abandon`` and ``present`` messages, and the votes that stand."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.abandoned: tuple[Seat, ...] | None = None
        """The seats the game ended as abandoned by, once every remaining seat agreed."""
        self.abandon_votes: dict[Seat, tuple[Seat, ...]] = {}
        """The ``abandon`` votes that stand now: signer -> the seats it says are gone."""
        self.abandon_owed: tuple[OwedStep, ...] = ()
        """What each missing seat owed, by the vote that ended the game as abandoned."""
        self.votes: dict[Seat, AbandonVote] = {}
        """Every seat's latest vote, standing or not."""

    def handlers(self) -> Mapping[str, Handler]:
        """Its message kinds, each with its handler."""
        return {"abandon": self.on_abandon, "present": self.on_present}

    def abandon(self, missing: Sequence[Seat], now: float = 0.0) -> list[Effect]:
        """Sign that the game ends as abandoned by the stalled seats ``missing`` (§11); the game
        ends when every other seat has signed the same.

        Each missing seat must owe the game a step now (:meth:`owed_steps`): an automatic one
        for at least :data:`AUTOMATIC_TIMEOUT` seconds of no progress (or named already in
        another seat's standing vote), or a decision (the shell
        knows that the seat is gone; a seat that is still there answers the vote with a
        ``present`` message, which voids it). The payload names the step each seat owed.

        Raises:
            IllegalActionError: the game is over; ``missing`` is empty, names this seat or a
                seat not at the table; or a seat in it owes nothing, or has not stalled for
                long enough.
        """
        seats = tuple(sorted(set(missing)))
        if self.session.observer or self.session.done:
            raise IllegalActionError("the game is not running for this seat")
        if (
            not seats
            or self.session.seat in seats
            or not all(0 <= s < self.session.players for s in seats)
        ):
            raise IllegalActionError(f"cannot abandon the game for seats {list(missing)}")
        first: dict[Seat, OwedStep] = {}
        for owed in self.session.owed_steps():
            if owed.step in OWED_STEPS:  # a broken chain is no step to leave a seat behind for
                first.setdefault(owed.seat, owed)
        waited = now - self.session.last_progress
        for seat in seats:
            if seat not in first:
                raise IllegalActionError(
                    f"seat {seat} owes the game nothing now: only a seat the game waits for "
                    "can be left behind"
                )
            step = first[seat]
            seconded = any(seat in missing for missing in self.abandon_votes.values())
            if step.step != "decision" and waited < AUTOMATIC_TIMEOUT and not seconded:
                raise IllegalActionError(
                    f"seat {seat} owes its {step.describe()} for {waited:.1f} s only; a seat "
                    f"can be left behind after {AUTOMATIC_TIMEOUT:g} s"
                )
        steps = tuple((first[seat].step, first[seat].number) for seat in seats)
        effects: list[Effect] = []
        self.session.sign("abandon", (seats, self.session.heads(), steps), effects)
        self.session.last_progress = now
        return effects

    def _vote_valid(self, vote: AbandonVote) -> bool:
        """Whether ``vote`` stands here now: each missing seat still owes the step the vote
        names, and a seat named for a decision has signed nothing its signer had not seen
        (§11). A vote that does not stand is void, never blamed: a seat's message and a vote
        against it cross on the network."""
        owed = self.session.owed_steps()
        return all(
            step in owed
            and (
                step.step != "decision"
                or vote.heads[step.seat][0] == len(self.session.accepted[step.seat]) - 1
            )
            for step in vote.owed
        )

    def vote_void(self) -> bool:
        """Whether this seat's latest ``abandon`` no longer stands here (§11): a step it named
        was taken, or changed into another, or the seat named for a decision has a message
        beyond the vote's heads (one this seat accepted since, say a torn last message another
        seat resent). Its shell then signs a new vote for the seats still stalled; a void vote
        never counts anywhere, and without a new one the abandonment would wait forever.
        False when this seat has signed no vote, and once the game is over."""
        own = self.votes.get(self.session.seat)
        return own is not None and not self.session.is_over and not self._vote_valid(own)

    def count(self, effects: list[Effect]) -> None:
        """End the game as abandoned once every remaining seat's latest vote stands and names
        the same missing seats; :attr:`abandon_votes` keeps the votes that stand."""
        if (self.abandoned is not None and not self.session.observer) or not self.votes:
            return
        # A seat never counts a vote against itself: it is here, and answers it (``present``).
        # An observer reads a log to its end, so a later ``present`` voids a vote again.
        before, self.abandoned = self.abandoned, None
        standing = {
            a: v
            for a, v in self.votes.items()
            if self.session.seat not in v.missing and self._vote_valid(v)
        }
        self.abandon_votes = {a: v.missing for a, v in standing.items()}
        for vote in standing.values():
            remaining = [s for s in range(self.session.players) if s not in vote.missing]
            if all(s in standing and standing[s].missing == vote.missing for s in remaining):
                self.abandoned = vote.missing
                self.abandon_owed = vote.owed
                if before is None:
                    effects.append(Abandoned(vote.missing))
                return

    def take_vote(self, env: Envelope, effects: list[Effect]) -> None:
        """Count ``env``, a seat's ``abandon``, as its latest vote (a vote naming its own signer
        stops the game)."""
        author = env.body.author
        vote = AbandonVote.from_envelope(env)
        if author in vote.missing:
            self.session.stop(
                IllegalMove(f"seat {author} signed that it left the game itself", author=author),
                effects,
                (env.to_bytes(),),
            )
            return
        self.votes[author] = vote

    def on_abandon(self, env: Envelope, effects: list[Effect]) -> None:
        """Counted when accepted (:meth:`_vote_abandon`); ordering changes nothing."""

    def on_present(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat named in an ``abandon`` is still there; its message voids the vote (§11)."""

    def present_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """This seat's ``present`` voiding a vote to abandon it while it is still here (§11)."""
        me = self.session.seat
        if me not in seats:
            return
        for vote in self.votes.values():
            deciding = any(o.seat == me and o.step == "decision" for o in vote.owed)
            if deciding and vote.heads[me][0] == len(self.session.accepted[me]) - 1:
                build = self.session.own(me, functools.partial(self._present_message, vote))
                yield Step(me, "present", build=build, awaited=False)

    def _present_message(self, vote: AbandonVote, effects: list[Effect]) -> Signable:
        """This seat's ``present``: it is still here, so ``vote`` is void (§11)."""
        return "present", (vote.message_id,)
