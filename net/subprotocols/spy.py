"""The Spy (docs/PROTOCOL.md §7.3) as a sub-protocol: the victim re-encrypts every progress card
it holds to the Spy's player, who names by position the card it takes (or none); a victim that
knows the card taken was spent disputes the take by opening it to everyone."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from hexlan.engine.chance import DECK_SHOW
from hexlan.engine.core import IllegalActionError, Seat
from hexlan.engine.shown import NO_TAKE, DeckShown, DeckTake
from hexlan.net import spy as spying
from hexlan.net.audit import SpyRecord
from hexlan.net.deck import DeckError
from hexlan.net.effects import Effect
from hexlan.net.subprotocols.base import Handler, Step, SubProtocol
from hexlan.net.wire import Envelope, IllegalMove, OutOfTurn

if TYPE_CHECKING:
    from hexlan.net.session import Session


class Spy(SubProtocol):
    """The ``spy_open``, ``spy_take`` and ``spy_dispute`` messages."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.open: spying.OpenSpy | None = None
        """A Spy's cards opened, not yet taken from."""
        self.takes: dict[int, SpyRecord] = {}
        """Every Spy's take, by its number."""
        self.disputed = 0
        """A Spy whose take this victim found spent."""

    def handlers(self) -> Mapping[str, Handler]:
        """Its message kinds, each with its handler."""
        return {
            "spy_open": self.on_spy_open,
            "spy_take": self.on_spy_take,
            "spy_dispute": self.on_spy_dispute,
        }

    def open_for(self, victim: Seat) -> bool:
        """Whether a Spy's cards of ``victim`` are open and not yet taken from: the victim
        shows no card meanwhile (the player's choice rests on them)."""
        return self.open is not None and self.open.record.victim == victim

    def on_spy_open(self, env: Envelope, effects: list[Effect]) -> None:
        """The Spy's victim re-encrypts every progress card position it holds to the player
        (§7.3): every peer checks the list and each proof (naming the victim); the player reads
        the cards, and applies ``DeckShown`` with those not yet shown; the victim with its
        own; every other seat with none."""
        view = self.session.require_view(env)
        author = env.body.author
        number, items = env.body.payload
        node = view.chance_node()
        if (
            node is None
            or node.kind != DECK_SHOW
            or node.seats[1] != author
            or number != self.session.openings.steals + 1
        ):
            raise OutOfTurn(f"seat {author} has no progress cards to open", author=author)
        player = node.seats[0]
        parsed = spying.parse_items(items)
        try:
            spying.check_open(self.session.decks, node.decks, author, player, parsed, number)
            indices = (
                spying.read(self.session.decks, parsed)
                if self.session.seat == player
                else spying.own_indices(self.session.decks, parsed)
                if self.session.seat == author
                else None
            )
        except DeckError as exc:
            raise IllegalMove(f"seat {author}'s spy_open: {exc.reason}", author=author) from exc
        cards = (
            None
            if indices is None
            else spying.hand_of(self.session.decks, node.decks, parsed, indices)
        )
        action = DeckShown(author, cards)
        try:
            view.check(action)
        except IllegalActionError as exc:  # the player's view: not the cards it may hold
            raise IllegalMove(
                f"seat {author} opened progress cards it cannot hold: {exc}", author=author
            ) from exc
        record = SpyRecord(
            number,
            player,
            author,
            tuple((label, item.position, item.moved, item.proof) for label, item in parsed),
            env.id,
        )
        self.session.openings.steals += 1  # a Spy's opening numbers as a steal (§7.3)
        self.open = spying.OpenSpy(record, node.decks, parsed, indices)
        self.session.engine_apply(action, None, env.id, effects, spy=record)

    def take_payload(self, action: DeckTake) -> tuple[object, ...]:
        """``spy_take [number, deck, position]`` for this player's ``action``.

        Raises:
            IllegalActionError: no Spy of this seat's is open, or its opened cards hold no
                unspent card of the take's face (the engine's view of the victim's hand is
                the one its ``DeckShown`` gave; a card shown since is spent).
        """
        spy = self.open
        if spy is None or spy.indices is None or spy.record.player != self.session.seat:
            raise IllegalActionError("this seat has no Spy's take to make")
        if action.deck == NO_TAKE:
            return (spy.record.spy, spying.NO_DECK, spying.NO_POSITION)
        assert action.face is not None
        try:
            label, position = spying.position_for(
                self.session.decks, spy.items, spy.indices, spy.labels[action.deck], action.face
            )
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None
        return (spy.record.spy, label, position)

    def on_spy_take(self, env: Envelope, effects: list[Effect]) -> None:
        """The Spy's player names the position it takes, or none (§7.3): the player and the
        victim apply ``DeckTake`` with the card's face, every other seat with its deck only; the
        position moves to the player. A victim that knows the card was spent does not apply
        it: it disputes (``spy_dispute``)."""
        view = self.session.require_view(env)
        author = env.body.author
        number, label, position = env.body.payload
        spy = self.open
        if spy is None or spy.record.spy != number or author != spy.record.player:
            raise OutOfTurn(f"seat {author} has no Spy's take to make", author=author)
        victim = spy.record.victim
        if (label, position) == (spying.NO_DECK, spying.NO_POSITION):
            view.check(DeckTake(NO_TAKE, None))
            self.open = None
            self.session.engine_apply(
                DeckTake(NO_TAKE, None), author, env.id, effects, spy=spy.record
            )
            return
        j = spying.find(spy.items, label, position)
        if j is None:
            raise IllegalMove(
                f"seat {author} took position {position} of the {label!r} deck, not one of"
                f" seat {victim}'s",
                author=author,
            )
        dealer, item = self.session.decks[label], spy.items[j][1]
        deck = dealer.deck
        record = dataclasses.replace(
            spy.record,
            deck=label,
            position=position,
            moves=deck.moves(position),
            shown=deck.shown_cards(),
            take_id=env.id,
        )
        self.open = None
        self.takes[number] = record
        face = None
        if spy.indices is not None:
            index = spy.indices[j]
            if self.session.seat == victim and spying.is_spent(dealer, index):
                self.disputed = number  # everyone opens the card (spy_dispute)
                return
            face = deck.face(index)
        action = DeckTake(spy.labels.index(label), face)
        try:
            view.check(action)
        except IllegalActionError as exc:
            # The position is one of the victim's (above), so a take this view refuses is of a
            # card the victim no longer holds: one it played (say, every card of that deck).
            raise IllegalMove(
                f"seat {author} took a card already played: {exc}", author=author
            ) from exc
        try:
            dealer.accept_transfer(victim, author, item, spying.context(number), view.turn)
        except DeckError as exc:  # checked at the spy_open already
            raise IllegalMove(f"seat {victim}'s spy_open: {exc.reason}", author=victim) from exc
        self.session.engine_apply(action, author, env.id, effects, spy=record)

    def on_spy_dispute(self, env: Envelope, effects: list[Effect]) -> None:
        """The Spy's victim says the card taken was spent and opens it to everyone with its
        share (§7.3): shown before the take names the player, else the victim."""
        author = env.body.author
        number, label, position, share, proof = env.body.payload
        taken = self.takes.get(number)
        if (
            taken is None
            or author != taken.victim
            or (label, position) != (taken.deck, taken.position)
        ):
            raise OutOfTurn(f"seat {author} disputes no Spy's take from it", author=author)
        deck = self.session.decks[label].deck
        try:
            index = deck.open_by_share(position, author, share, proof, at=taken.moves)
        except DeckError as exc:
            raise IllegalMove(f"seat {author}'s spy_dispute: {exc.reason}", author=author) from exc
        if index in taken.shown:
            raise IllegalMove(
                f"seat {taken.player} took a card already played (card {index} of the {label}"
                " deck)",
                author=taken.player,
            )
        raise IllegalMove(f"seat {author} disputed a card it held", author=author)

    def _dispute_message(self) -> tuple[str, tuple[object, ...]]:
        """This victim's ``spy_dispute``: its share opening the card taken, as it held it
        (§7.3)."""
        taken = self.takes[self.disputed]
        dealer = self.session.decks[taken.deck]
        share, proof = dealer.holder_share_payload(taken.position, taken.moves)
        return "spy_dispute", (taken.spy, taken.deck, taken.position, share, proof)

    def dispute_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """This victim's dispute of a Spy's take of a card it had spent (§7.3)."""
        me = self.session.seat
        if me in seats and self.disputed:
            key = ("spy_dispute", self.disputed)
            build = self.session.own(me, lambda _: self._dispute_message())
            yield Step(me, "spy_dispute", key=key, build=build, awaited=False)

    def open_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """The victim's ``spy_open`` a Spy's node waits for (§7.3): every progress card it
        holds re-encrypted to the player."""
        view = self.session.view
        node = None if view is None else view.chance_node()
        if node is None or node.kind != DECK_SHOW or node.seats[1] not in seats:
            return
        victim, number = node.seats[1], self.session.openings.steals + 1
        build = self.session.own(
            victim,
            lambda _: (
                "spy_open",
                spying.open_payload(self.session.decks, node.decks, node.seats[0], number),
            ),
        )
        yield Step(victim, "spy_open", key=("spy_open", number), build=build)
