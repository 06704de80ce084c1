"""The audit (docs/PROTOCOL.md §14) and accusations (§11.1) as a sub-protocol: a seat whose own
check of another seat's message fails where it cannot show the others why accuses it, which
freezes the game; at the end of a game, or once frozen, every seat reveals its secrets, runs the
audit and signs its result."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from hexlan.engine.core import Seat
from hexlan.net.audit import AuditInputs, AuditReport, Contest, JournalEntry, run_audit
from hexlan.net.effects import Audited, Effect
from hexlan.net.subprotocols.base import Contested, Handler, Signable, Step, SubProtocol
from hexlan.net.wire import Envelope, IllegalMove, OutOfTurn

if TYPE_CHECKING:
    from hexlan.net.session import Session


class Audits(SubProtocol):
    """Accusations and the audit: ``accuse``, ``audit_secrets`` and ``audit_result``."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.secrets: dict[Seat, tuple[bytes, bytes, bytes]] = {}
        """Each seat's revealed secrets: (its per-game seed, its X25519 key, the message id)."""
        self.digests: dict[Seat, bytes] = {}
        """Each seat's signed audit digest."""
        self.audit: AuditReport | None = None
        """The audit this seat ran, once every seat's secrets are in."""
        self.audited: Audited | None = None
        """The audit's outcome once every seat's result is in (§14)."""
        self.contested: dict[bytes, JournalEntry | None] = {}
        """What a message this seat's checks refused would have made, by its id."""
        self.to_accuse: tuple[bytes, str] | None = None
        """This seat's accusation, to sign: the contested message's id and the reason."""
        self.contested_by_me: tuple[bytes, str, Seat | None] | None = None
        """The message this session's own checks refused where it accuses (§11.1): its id,
        the reason and the seat the check suspects (an observer's shows what it could not
        accept when no accusation follows in the log)."""
        self.accusations: dict[Seat, tuple[bytes, bytes]] = {}
        """Every counted accusation (§11.1): accuser -> (contested message id, its id)."""

    def handlers(self) -> Mapping[str, Handler]:
        """Its message kinds, each with its handler."""
        return {
            "accuse": self.on_accuse,
            "audit_secrets": self.on_audit_secrets,
            "audit_result": self.on_audit_result,
        }

    @property
    def frozen(self) -> bool:
        """Whether an accusation froze the game: one counted, or this seat's own to sign."""
        return bool(self.accusations) or self.to_accuse is not None

    def auditing(self) -> bool:
        """Whether every seat owes its audit secrets: the game is won, or accused (§11.1)."""
        return self.session.won() or bool(self.accusations)

    def accuse(self, env: Envelope, exc: Contested) -> None:
        """Accuse ``env``, which this seat's own check refused as ``exc`` (§11.1)."""
        self.contested[env.id] = exc.entry
        self.to_accuse = (env.id, exc.reason[:500])
        self.contested_by_me = (env.id, exc.reason, exc.author)

    def on_accuse(self, env: Envelope, effects: list[Effect]) -> None:
        """An accusation (§11.1): counted when accepted, once per seat; the game freezes and
        every seat owes its audit secrets. One signed after its author's own secrets is moot
        (every seat's audit must read the same accusations)."""
        author = env.body.author
        if author in self.accusations or author in self.secrets or self.session.won():
            return
        contested, _ = env.body.payload
        if not any(e.id == contested for msgs in self.session.accepted for e in msgs):
            raise OutOfTurn(f"seat {author} accused a message it had not seen", author=author)
        self.accusations[author] = (bytes(contested), env.id)

    def on_audit_secrets(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat's secrets revealed for the audit (§14); once every seat's are in, the audit
        runs."""
        author = env.body.author
        if not self.auditing() or author in self.secrets:
            raise OutOfTurn(f"seat {author} revealed its secrets out of place", author=author)
        seed, x25519_private = env.body.payload
        self.secrets[author] = (seed, x25519_private, env.id)
        if len(self.secrets) == self.session.players:
            self.session.request("audit", self._audit_job(), self._took_audit, effects)

    def _audit_job(self) -> Callable[[], AuditReport]:
        inputs = self.audit_inputs()
        return lambda: run_audit(inputs)

    def audit_inputs(self) -> AuditInputs:
        """What the end-of-game audit reads (§14): the opening, the board, the journal of
        applied actions, the deck and every seat's revealed secrets.

        Raises:
            KeyError: a seat's ``audit_secrets`` is not in yet.
            OutOfTurn: the game has not begun.
        """
        self.session.require_game(None)
        # laid with a Catan view; a game with a state of its own has no board laid apart
        assert self.session.start_board is not None or self.session.new_game is not None
        contest = self.contest()
        journal = self.session.journal
        if contest is not None:
            journal = (
                journal[: self.session.applied_at[contest.message_id][1]] if contest.applied else []
            )
        return AuditInputs(
            opening=self.session.opening,
            board=self.session.start_board,  # as laid: fog hexes face down
            journal=tuple(journal),
            secrets=tuple(self.secrets[s] for s in range(self.session.players)),
            decks=tuple(d.deck for d in self.session.decks.values()),  # the game is over: fixed now
            shuffle_ids=tuple(
                tuple(
                    shuffle.id
                    if (shuffle := self.session.dealing.shuffles.get((label, s)))
                    else b""
                    for s in range(self.session.players)
                )
                for label in self.session.decks
            ),
            contest=contest,
        )

    def contest(self) -> Contest | None:
        """The accusation the audit of an accused game judges (§11.1): the one contesting the
        message applied earliest (the lowest accuser among those of one message); one whose
        message was never applied here only if no other was."""
        if not self.accusations:
            return None
        never = len(self.session.applied_at)

        def place(item: tuple[Seat, tuple[bytes, bytes]]) -> tuple[int, Seat]:
            accuser, (contested, _) = item
            return self.session.applied_at.get(contested, (never, 0))[0], accuser

        accuser, (contested, accusation_id) = min(self.accusations.items(), key=place)
        env = next(e for msgs in self.session.accepted for e in msgs if e.id == contested)
        applied = contested in self.session.applied_at
        entry = None
        if applied and contested in self.contested:
            entry = self.contested[contested]
        elif applied:
            at = self.session.applied_at[contested][1]
            if at < len(self.session.journal) and self.session.journal[at].message_id == contested:
                entry = self.session.journal[at]
        return Contest(
            accuser,
            accusation_id,
            env.body.author,
            contested,
            env.body.kind,
            tuple(env.body.payload),
            entry,
            applied,
        )

    def _took_audit(self, report: object, effects: list[Effect]) -> None:
        assert isinstance(report, AuditReport)
        self.audit = report
        self._audit_complete(effects)

    def on_audit_result(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat's signed audit digest (§14); once every seat's is in, the game is audited."""
        author = env.body.author
        if author in self.digests or author not in self.secrets:
            raise OutOfTurn(f"seat {author} signed an audit result out of place", author=author)
        self.digests[author] = env.body.payload[0]
        self._audit_complete(effects)

    def _audit_complete(self, effects: list[Effect]) -> None:
        if self.audit is None or self.audited is not None:
            return
        if len(self.digests) < self.session.players:
            return
        disagreeing = tuple(
            s for s, digest in sorted(self.digests.items()) if digest != self.audit.digest
        )
        self.audited = Audited(self.audit, disagreeing)
        effects.append(self.audited)
        if self.accusations:  # an accused game ends with its verdict (§11.1)
            first = self.audit.deviations[0] if self.audit.deviations else None
            contest = self.contest()
            assert contest is not None
            evidence = tuple(
                e.to_bytes()
                for msgs in self.session.accepted
                for e in msgs
                if e.id in (contest.message_id, contest.accusation_id)
            )
            reason = (
                "the audit of the accused game found nothing" if first is None else first.reason
            )
            self.session.stop(
                IllegalMove(f"accused: {reason}", author=None if first is None else first.seat),
                effects,
                evidence,
            )

    def accuse_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """This seat's accusation of a message its own checks refused (§11.1)."""
        accusation = self.to_accuse
        if accusation is not None and self.session.seat in seats:
            build = self.session.own(self.session.seat, lambda _: ("accuse", accusation))
            yield Step(self.session.seat, "accuse", key=("accuse", 0), build=build, awaited=False)

    def audit_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """The end-of-game audit (§14), or the audit of an accused game (§11.1): each seat's
        secrets, then its result once the audit has run here."""
        if not (self.session.won() or self.frozen):
            return
        secrets = (self.session.chain.secret, self.session.game_keys.private_bytes)
        for s in seats:
            if s not in self.secrets:
                build = self.session.own(s, lambda _: ("audit_secrets", secrets))
                yield Step(s, "audit_secrets", key=("audit_secrets", 0), build=build)
            elif self.audit is not None and s not in self.digests:
                build = self.session.own(s, lambda _: self._audit_result_step())
                yield Step(s, "audit_result", key=("audit_result", 0), build=build)

    def _audit_result_step(self) -> Signable:
        """This seat's ``audit_result``: the digest of the audit it ran, with its deviations."""
        assert self.audit is not None
        deviations = tuple(d.to_payload() for d in self.audit.deviations)
        return "audit_result", (self.audit.digest, deviations)
