"""Dealing the hidden stacks (docs/PROTOCOL.md §13) as a sub-protocol: each seat's share of the
joint key, each deck's shuffles and their proofs once challenged, the decryption shares of each
card dealt, and the shows of a seat's own cards."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from hexlan.engine.chance import DECK_DRAW
from hexlan.engine.core import Seat
from hexlan.net.dealing import Dealer, Shuffled
from hexlan.net.deck import DeckError
from hexlan.net.effects import Effect
from hexlan.net.shuffle import ShuffleDraw
from hexlan.net.subprotocols.base import Handler, Signable, Step, SubProtocol
from hexlan.net.wire import Body, Envelope, IllegalMove, OutOfTurn

if TYPE_CHECKING:
    from hexlan.net.session import Session


class Dealing(SubProtocol):
    """The ``deck_key``, ``shuffle``, ``shuffle_proof``, ``draw_share`` and ``card_reveal``
    messages, over the session's decks (:attr:`~hexlan.net.session.Session.decks`) and their one
    joint key."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.shuffles: dict[tuple[str, Seat], Envelope] = {}
        """Each deck's shuffles: (deck, shuffler) -> its ``shuffle`` message."""
        self.proofs_in: dict[str, tuple[Seat, int]] = {}
        """Per deck: ``(author, seq)`` of the message whose ordering applied the deck's last
        shuffle proof (§13.6); a ``draw_share`` of the deck must list it in its heads (§13.7)."""

    def handlers(self) -> Mapping[str, Handler]:
        """Its message kinds, each with its handler."""
        return {
            "deck_key": self.on_deck_key,
            "shuffle": self.on_shuffle,
            "shuffle_proof": self.on_shuffle_proof,
            "draw_share": self.on_draw_share,
            "card_reveal": self.on_card_reveal,
        }

    def _deck_for(self, env: Envelope, label: str) -> Dealer:
        dealer = self.session.decks.get(label)
        if dealer is None:
            raise IllegalMove(f"this game has no {label!r} deck", author=env.body.author)
        return dealer

    def on_deck_key(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat's share of the joint deck key, with its proof (§13)."""
        author = env.body.author
        share, proof = env.body.payload
        try:
            self.session.key.add(author, share, proof)
        except DeckError as exc:
            raise IllegalMove(f"seat {author}'s key share: {exc.reason}", author=author) from exc

    def on_shuffle(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat's shuffle of a deck (§13); the last one opens the deck's challenge event."""
        author = env.body.author
        label, output = env.body.payload
        deck = self._deck_for(env, label).deck
        if not self.session.key.complete:
            raise OutOfTurn(f"seat {author} shuffled before every key share was in", author=author)
        try:
            deck.add_shuffle(author, output)
        except DeckError as exc:
            raise IllegalMove(f"seat {author}'s shuffle: {exc.reason}", author=author) from exc
        self.shuffles[label, author] = env
        if deck.shuffled:
            self.session.beacon.open_event("challenge", env.id, deck=label)

    def on_shuffle_proof(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat's proof of its challenged shuffle (§13.6), checked as a proof job (its own is
        taken as made)."""
        author = env.body.author
        label, *proof = env.body.payload
        dealer = self._deck_for(env, label)
        try:
            job = dealer.verification_job(author, proof)
        except DeckError as exc:
            raise OutOfTurn(exc.reason, author=author) from exc
        if (
            len(dealer.proved) == self.session.players
        ):  # the deck is usable; its checks may still run
            self.proofs_in[label] = self.session.through
        if author == self.session.seat:
            dealer.deck.mark_verified(author)  # its own shuffle, made from its own seed
            return
        evidence = (self.shuffles[label, author].to_bytes(), env.to_bytes())

        def checked(reason: object, effects: list[Effect]) -> None:
            if reason is None:
                dealer.deck.mark_verified(author)
            elif self.session.stopped is None:
                self.session.stop(
                    IllegalMove(f"seat {author}'s shuffle proof fails: {reason}", author=author),
                    effects,
                    evidence,
                )

        self.session.request(f"verify:{label}:{author}", job, checked, effects)

    def on_draw_share(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat's decryption share of the card being dealt (§13.7); the last one deals it."""
        author = env.body.author
        label, position, share, proof = env.body.payload
        dealer = self._deck_for(env, label)
        node = self.session.require_game(env).chance_node()
        if (
            node is None
            or node.kind != DECK_DRAW
            or self.session.dealer_of(node.deck) is not dealer
        ):
            raise OutOfTurn(f"seat {author} gave a share while no card is dealt", author=author)
        if not self._after_proofs(env.body, label):
            raise OutOfTurn(
                f"seat {author} gave a share of the {label} deck before every shuffle proof "
                "of it was in",
                author=author,
            )
        try:
            complete = dealer.add_share(position, author, share, proof)
        except DeckError as exc:
            raise IllegalMove(
                f"seat {author}'s decryption share: {exc.reason}", author=author
            ) from exc
        if complete:
            try:
                position, face = dealer.finish_deal()
            except DeckError as exc:  # only if a false shuffle beat its proof (never in practice)
                raise IllegalMove(f"the dealt card is no card: {exc.reason}") from exc
            outcome = self.session.require_game(env).draw_outcome(face)
            self.session.engine_apply(outcome, None, env.id, effects, position=position, deck=label)

    def on_card_reveal(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat shows one of its own cards (§13.8), proving it is at one of the listed
        positions."""
        author = env.body.author
        label, index, positions, proof = env.body.payload
        dealer = self._deck_for(env, label)
        self.session.require_game(env)
        # Any owner may show its own card at any time (it shows only that card, and that it is
        # at one of the listed positions); a winner whose turn has ended
        # (``victory_at_turn_end``) shows its cards after it. But not a Spy's victim whose cards
        # are open and not yet taken from: the player's choice rests on them (§7.3).
        if self.session.spy.open_for(author):
            raise OutOfTurn(
                f"seat {author} showed a card while its Spy was open (before the take)",
                author=author,
            )
        try:
            dealer.show(author, index, positions, proof)
        except DeckError as exc:
            raise IllegalMove(f"seat {author}'s card reveal: {exc.reason}", author=author) from exc

    def _after_proofs(self, body: Body, label: object) -> bool:
        """Whether ``body`` lists in its heads the message that applied the last shuffle proof
        of deck ``label`` (§13.7): its author had every proof of the deck when it signed."""
        through = self.proofs_in.get(label) if isinstance(label, str) else None
        return through is not None and body.heads[through[0]][0] >= through[1]

    def share_waits(self, body: Body) -> bool:
        """Whether a ``draw_share`` waits, unaccepted, for this seat's own checks of its deck's
        shuffle proofs (§13.7): every proof is in and listed by the share, and a check still
        runs. A share that does not list them is accepted and refused when applied. An
        observer never waits: it opens only public cards, whose shares every seat gave after
        its own checks, and owns none."""
        label = body.payload[0]
        dealer = self.session.decks.get(label) if isinstance(label, str) else None
        return (
            not self.session.observer
            and dealer is not None
            and not dealer.deck.ready
            and self._after_proofs(body, label)
        )

    def dealing_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """The decks' dealing (§13): each seat's share of the joint key once its opening is
        in; once the key is complete, deck by deck in the rule set's order, the next shuffle,
        each seat's proof of a challenged shuffle and each share of the card being dealt."""
        if not self.session.decks:  # a game without hidden stacks deals nothing
            return
        # one joint key: any deck's dealer proves a share of it
        key_payload = next(iter(self.session.decks.values())).key_payload
        for s in seats:
            if self.session.accepted[s]:
                build = self.session.own(s, lambda _: ("deck_key", key_payload()))
                yield Step(s, "deck_key", key=("deck_key", 0), build=build)
        if not self.session.key.complete:
            return
        for dealer in self.session.decks.values():
            yield from self._deck_steps(dealer, seats)

    def _deck_steps(self, dealer: Dealer, seats: Sequence[Seat]) -> Iterator[Step]:
        """One deck's dealing steps: its next shuffle (this seat's own work for it begins
        early, while the seats before it shuffle), each seat's proof once its shuffle is
        challenged, each share of the card being dealt."""
        deck, label = dealer.deck, dealer.label
        for s in seats:
            early = s == self.session.seat and not dealer.has_shuffle
            if deck.next_shuffler == s or early:
                build = self.session.own(s, functools.partial(self._shuffle_step, dealer))
                key = (f"shuffle:{label}", 0)
                yield Step(s, "shuffle", key=key, build=build, awaited=deck.next_shuffler == s)
        if deck.challenged:
            for s in seats:
                build = self.session.own(s, functools.partial(self._proof_step, dealer))
                yield Step(s, "shuffle_proof", key=(f"shuffle_proof:{label}", 0), build=build)
        position = dealer.drawing
        if position is not None and deck.ready:
            for s in seats:
                if dealer.owes_share(s, position):
                    build = self.session.own(
                        s, functools.partial(self._share_message, dealer, position)
                    )
                    key = (f"draw_share:{label}", position)
                    yield Step(s, "draw_share", position, key, build)

    def _share_message(self, dealer: Dealer, position: int, effects: list[Effect]) -> Signable:
        """This seat's decryption share of the card at ``position`` of ``dealer``'s deck."""
        return "draw_share", dealer.share_payload(position)

    def _shuffle_step(self, dealer: Dealer, effects: list[Effect]) -> Signable | None:
        """This seat's shuffle of ``dealer``'s deck once it is its turn to shuffle and the work
        is done. perf: the costly part of a shuffle needs only the joint key: it is computed
        while the seats before this one shuffle (scripts/bench_crypto.py, "last shuffle")."""
        label = dealer.label
        turn = dealer.deck.next_shuffler == self.session.seat
        if not dealer.has_shuffle:
            drawn = functools.partial(self._took_draw, dealer)
            self.session.request(f"draw:{label}", dealer.draw_job(), drawn, effects)
            if turn and dealer.has_draw:
                shuffled = functools.partial(self._took_shuffle, dealer)
                self.session.request(f"shuffle:{label}", dealer.shuffle_job(), shuffled, effects)
        return ("shuffle", dealer.shuffle_payload()) if turn and dealer.has_shuffle else None

    def _proof_step(self, dealer: Dealer, effects: list[Effect]) -> Signable | None:
        """This seat's proof of its challenged shuffle; after a restart the shuffle is made
        again from the seed first."""
        if not dealer.has_shuffle:
            shuffled = functools.partial(self._took_shuffle, dealer)
            self.session.request(f"shuffle:{dealer.label}", dealer.shuffle_job(), shuffled, effects)
        return ("shuffle_proof", dealer.proof_payload()) if dealer.has_shuffle else None

    def _took_draw(self, dealer: Dealer, drawn: object, effects: list[Effect]) -> None:
        assert isinstance(drawn, ShuffleDraw)
        dealer.take_draw(drawn)

    def _took_shuffle(self, dealer: Dealer, shuffled: object, effects: list[Effect]) -> None:
        assert isinstance(shuffled, Shuffled)
        dealer.take_shuffle(shuffled)
