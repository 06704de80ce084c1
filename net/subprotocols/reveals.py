"""Reveals a chance node waits for (docs/PROTOCOL.md §5, §13.8) as a sub-protocol: each seat's
count of a Monopoly's resource, a drawn card's show by the seat that drew it, and a winner's
claim of victory with the shows of its victory point cards.

What a count counts comes from the engine's chance node (:data:`~hexlan.engine.chance.COUNT`,
its :class:`~hexlan.engine.chance.Count`), and the count's outcome from
:meth:`~hexlan.engine.state.GameState.count_outcome`: the sub-protocol names no card."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from hexlan.engine import actions as A
from hexlan.engine.chance import (
    COUNT,
    POINT_REVEAL,
    REVEAL,
    VICTORY_REVEAL,
    ChanceNode,
    Count,
)
from hexlan.engine.core import IllegalActionError, Seat
from hexlan.engine.info import InformationState
from hexlan.net.audit import JournalEntry
from hexlan.net.effects import Effect
from hexlan.net.subprotocols.base import Contested, Handler, Signable, Step, SubProtocol
from hexlan.net.wire import Envelope, IllegalMove, OutOfTurn, encode_action

if TYPE_CHECKING:
    from hexlan.net.session import Session


def count_key(turn: int, index: int) -> tuple[str, int]:
    """The obligation of a ``count`` for the ``index``-th count (from 0) of ``turn``: as before
    several a turn existed for the first (§5)."""
    return ("count", turn) if index == 0 else (f"count:{index}", turn)


class Reveals(SubProtocol):
    """The ``count`` messages, and the ``action`` messages by which a seat shows what it alone
    saw: a drawn card's show, a claim of victory."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.counts: dict[Seat, int] = {}
        """The open count's numbers in so far (a Monopoly's): seat -> its count."""
        self.count_ids: dict[Seat, bytes] = {}
        """The open count's message ids."""
        self.count_turn = -1
        """The turn of the last count opened."""
        self.count_index = 0
        """The open count's number in its turn (0 the first; several Monopolies a turn in
        Cities & Knights): each ``count`` names it, so a count answers one node only (§5)."""

    def handlers(self) -> Mapping[str, Handler]:
        """Its message kinds, each with its handler."""
        return {"count": self.on_count}

    def count_opened(self, turn: int) -> None:
        """A count node opened in ``turn`` (a Monopoly played): each of its seats owes its count
        (§5), numbered within the turn (several a turn in Cities & Knights)."""
        self.counts = {}
        self.count_ids = {}
        if turn == self.count_turn:  # another count in this turn
            self.count_index += 1
        else:
            self.count_turn, self.count_index = turn, 0

    def on_count(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat's count (§5): what the open count node asks of its hand (a Monopoly's
        resource); the last one applies the engine's outcome of the counts."""
        view = self.session.require_view(env)
        author = env.body.author
        turn, count, *named = env.body.payload
        index = int(named[0]) if named else 0  # which count of the turn it answers
        node = view.chance_node()
        rule = None if node is None else node.count
        if (
            node is None
            or rule is None
            or author not in node.seats
            or author in self.counts
            or turn != view.turn
            or index != self.count_index
        ):
            raise OutOfTurn(f"seat {author} has no count to give", author=author)
        what = f"seat {author} counted {count} {rule.kind.name.lower()}, a number it cannot hold"
        if count > rule.bound(view.hand_size[author]):  # every seat sees it
            raise IllegalMove(what, author=author)
        if all(rule.of(h) != count for h in view.possible_hands(author)):
            raise Contested(what, author, None)
        self.counts[author] = count
        self.count_ids[author] = env.id
        if len(self.counts) == len(node.seats):
            amounts = tuple(self.counts.get(s, 0) for s in range(self.session.players))
            ids = tuple(self.count_ids.get(s, b"") for s in range(self.session.players))
            take = view.count_outcome(amounts)
            try:
                view.check(take)
            except IllegalActionError as exc:
                # Each count is possible alone, not all together (hands linked by a steal):
                # any of the counting seats may be the liar: the audit names it (§11.1).
                entry = JournalEntry(take, None, env.id, counts=ids)
                raise Contested(f"the counts cannot all be true: {exc}", None, entry) from exc
            self.session.engine_apply(take, None, env.id, effects, counts=ids)

    def reveal_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """The reveals the chance node waits for: each count not in (a Monopoly's, §5), a
        drawn card's show (§13.8)."""
        view = self.session.view
        node = None if view is None else view.chance_node()
        if view is None or node is None:
            return
        if node.kind == COUNT and node.count is not None:
            key = count_key(view.turn, self.count_index)
            rule = node.count
            for s in node.seats:
                if s in seats:
                    build = self.session.own(s, lambda _: self._count_step(view, rule))
                    yield Step(s, "count", key=key, build=build)
        elif node.kind == REVEAL and node.event == POINT_REVEAL and node.seats[0] in seats:
            build = self.session.own(node.seats[0], lambda _: self._point_show_step(view, node))
            yield Step(node.seats[0], "card_show", build=build)

    def _count_step(self, view: InformationState, rule: Count) -> Signable:
        """This seat's count by ``rule`` (the open count node's), naming the count within the
        turn (left out for the first, §5)."""
        amount = rule.of(view.hands[self.session.seat])
        index = self.count_index
        return "count", (view.turn, amount, index) if index else (view.turn, amount)

    def _point_show_step(
        self, view: InformationState, node: ChanceNode
    ) -> tuple[str, tuple[object, ...]] | None:
        """This seat's show of the card it just drew (a reveal, :data:`POINT_REVEAL`): the card's
        ``card_reveal`` first if it is one to show (among every card dealt to it), then the
        engine's one outcome in this seat's view as its ``action``; None once sent (§13.8)."""
        outcomes = view.chance_outcomes()
        if len(outcomes) != 1:
            return None
        action = outcomes[0][0]
        key = self.session.obligation_key_of("action", (encode_action(action)[0],))
        if key in self.session.sent:
            return None
        played = self.session.card_played(action)
        if played is not None:
            dealers, face, before, _ = played
            dealer = dealers[-1]  # a Catan deck has one generation
            position = dealer.unshown_own(face, before)
            if (
                not dealer.shown_count(self.session.seat, face, before)
                and position is not None
                # signed, perhaps not yet ordered: this seat need not be the active one
                and (f"card_reveal:{dealer.label}", dealer.own_index[position])
                not in self.session.sent
            ):
                return "card_reveal", dealer.show_payload(position, before)
        return "action", encode_action(action)

    def victory_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """The claim of victory the game waits for (§5): the winner's cards shown, then its
        ``RevealVictory``."""
        view = self.session.view
        node = None if view is None else view.chance_node()
        if view is None or node is None or node.event != VICTORY_REVEAL:
            return
        for s in node.seats:
            if s in seats:
                build = self.session.own(s, lambda _: self._victory_step(view))
                yield Step(s, "victory", key=("victory", 0), build=build)

    def _victory_step(self, view: InformationState) -> tuple[str, tuple[object, ...]]:
        """This seat's claim of victory (§5): each victory point card it has not shown yet,
        one at a time, then the ``RevealVictory`` action."""
        me = self.session.seat
        point = view.point_card()  # none in a game without point cards
        dealer = None if point is None else self.session.decks[point[0]]
        owned = sorted(dealer.own_cards.items()) if dealer is not None else []
        for position, face in owned:
            assert dealer is not None and point is not None
            if face == point[1] and dealer.deck.shown_by(dealer.own_index[position]) is None:
                # a card dealt before this turn among those cards (it counts even with
                # ``vp_cards_next_turn``), one dealt in this turn among all its cards
                early = dealer.dealt_in[position] < view.turn
                before = view.turn if early else None
                return "card_reveal", dealer.show_payload(position, before)
        reveal = A.RevealVictory(me, view.hidden_victory_points(me))
        return "action", encode_action(reveal)
