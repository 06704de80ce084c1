"""Openings of committed hands (docs/PROTOCOL.md §7, §7.1, §7.2) as a sub-protocol: a steal's
victim commits to its hand and opens the card the beacon chooses to the thief alone; the fleet's
loot is opened to everyone at drawn positions; the Master Merchant's victim opens its whole hand
to the player, who names by position the cards it takes. A reader that finds an opening false
disputes it by showing its key."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from hexlan.engine import actions as A
from hexlan.engine.chance import HAND_DRAW, HAND_SHOW, STEAL, ChanceNode
from hexlan.engine.core import IllegalActionError, Resource, Seat
from hexlan.engine.info import InformationState
from hexlan.engine.shown import HandShown, HandTake
from hexlan.net.audit import HandRecord, JournalEntry, LootRecord, StealRecord
from hexlan.net.beacon import BeaconStream
from hexlan.net.effects import Effect
from hexlan.net.identity import GameKeys
from hexlan.net.merchant import taken_at, why_bad_positions
from hexlan.net.steal import (
    CommittedHand,
    StealOpeningError,
    check_opening,
    commit_hand,
    derive_steal_secrets,
    draw_positions,
    open_hand,
    open_opening,
    seal_hand,
    seal_opening,
)
from hexlan.net.subprotocols.base import Contested, Handler, Step, SubProtocol
from hexlan.net.wire import ZERO_ID, Envelope, IllegalMove, OutOfTurn

if TYPE_CHECKING:
    from hexlan.net.session import Session


def _commits_hand(node: ChanceNode | None, seat: Seat) -> bool:
    """Whether ``node`` waits for ``seat`` to commit to its hand: the victim of a steal (§7) or
    the seat the fleet's loot is drawn from (§7.1)."""
    if node is None:
        return False
    if node.kind == HAND_DRAW:
        return node.seats[0] == seat
    return node.kind in (STEAL, HAND_SHOW) and node.seats[1] == seat


def _steals_from(node: ChanceNode | None, seat: Seat) -> bool:
    """Whether ``node`` is a steal from ``seat``: the victim, who commits to its hand and opens
    the stolen card (§7)."""
    return node is not None and node.kind == STEAL and node.seats[1] == seat


class Openings(SubProtocol):
    """The ``steal_commit``, ``steal_open``, ``loot_open``, ``hand_open``, ``merchant_take``
    and ``steal_dispute`` messages."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.steals = 0
        """Steals completed (a Spy's opening counts): the next one's number is one more."""
        self.steal_number = 0
        """The open steal's number, once its commitment is applied."""
        self.steal_index = -1
        """The open steal's card, once the beacon chose it."""
        self.loot_positions: tuple[int, ...] = ()
        """The fleet's loot, once drawn (§7.1)."""
        self.steal_commitments: tuple[bytes, ...] = ()
        self.steal_commit_id = ZERO_ID
        self.opened: StealRecord | HandRecord | None = None
        """The last opening applied."""
        self.hand: HandRecord | None = None
        """A hand opened to its player, not yet taken from."""
        self.hand_openings: tuple[tuple[bytes, int], ...] = ()
        """Its openings, as seen here."""
        self.disputed = 0
        """A steal whose opening this reader found false (§7)."""

    def handlers(self) -> Mapping[str, Handler]:
        """Its message kinds, each with its handler."""
        return {
            "steal_commit": self.on_steal_commit,
            "steal_open": self.on_steal_open,
            "loot_open": self.on_loot_open,
            "hand_open": self.on_hand_open,
            "merchant_take": self.on_merchant_take,
            "steal_dispute": self.on_steal_dispute,
        }

    def on_steal_commit(self, env: Envelope, effects: list[Effect]) -> None:
        """The victim's commitment to its hand (§7): the beacon then draws the card or the loot."""
        view = self.session.require_view(env)
        author = env.body.author
        number, commitments = env.body.payload
        node = view.chance_node()
        if not _commits_hand(node, author) or self.steal_number:
            raise OutOfTurn(f"seat {author} has no steal to commit to", author=author)
        if len(commitments) != view.hand_size[author]:
            raise IllegalMove(
                f"seat {author} committed {len(commitments)} cards but holds {view.hand_size[author]}",
                author=author,
            )
        if number != self.steals + 1:
            raise IllegalMove(
                f"seat {author} numbered steal {self.steals + 1} as {number}", author=author
            )
        self.steal_commitments = tuple(commitments)
        self.steal_commit_id = env.id
        self.steal_number = number
        assert node is not None
        if node.kind != HAND_SHOW:  # a hand opened to one seat draws nothing (§7.2)
            self.session.beacon.open_event("steal" if node.kind == STEAL else "loot", env.id)

    def on_steal_open(self, env: Envelope, effects: list[Effect]) -> None:
        """The victim's opening of the stolen card, sealed to the thief (§7): the thief checks
        it (a false one it disputes) and every seat applies ``StealCard``."""
        view = self.session.require_view(env)
        author = env.body.author
        number, nonce, ciphertext = env.body.payload
        if (
            not _steals_from(view.chance_node(), author)
            or number != self.steal_number
            or self.steal_index < 0
        ):
            raise OutOfTurn(f"seat {author} has no steal to open", author=author)
        index = self.steal_index
        record = StealRecord(
            number,
            view.active,
            author,
            self.steal_commitments,
            index,
            nonce,
            ciphertext,
            self.steal_commit_id,
            env.id,
        )
        self.opened = record
        resource: Resource | None = None
        if self.session.seat == view.active:
            try:
                resource = self._opened_card(self.session.game_keys.private_key, record)
            except IllegalMove:
                self.disputed = number  # the thief shows everyone (steal_dispute)
                return
            try:
                view.check(A.StealCard(resource))
            except IllegalActionError as exc:  # the thief knows the victim held none of it
                raise Contested(
                    f"seat {author} gave a {resource.name.lower()} it cannot hold: {exc}",
                    author,
                    JournalEntry(A.StealCard(None), None, env.id, steal=record),
                ) from exc
        elif self.session.seat == author:
            kinds = self.session.require_view(None).rules.cards
            resource = kinds[self.own_committed_hand(number).openings[index][1]]
        self.steals += 1
        self.steal_number = 0
        self.steal_index = -1
        self.session.engine_apply(A.StealCard(resource), None, env.id, effects, steal=record)

    def on_loot_open(self, env: Envelope, effects: list[Effect]) -> None:
        """The fleet's loot (§7.1): the victim opens its commitments at the drawn positions for
        everyone; each opening must match, and the cards must be ones it could hold, else the
        victim is named. Applies ``FleetLoot``."""
        view = self.session.require_view(env)
        author = env.body.author
        number, openings = env.body.payload
        node = view.chance_node()
        if (
            node is None
            or node.kind != HAND_DRAW
            or node.seats[0] != author
            or number != self.steal_number
            or not self.loot_positions
        ):
            raise OutOfTurn(f"seat {author} has no loot to open", author=author)
        positions = self.loot_positions
        if len(openings) != len(positions):
            raise IllegalMove(
                f"seat {author} opened {len(openings)} cards of the fleet's loot, not"
                f" {len(positions)}",
                author=author,
            )
        cards = [0] * view.kinds
        for position, (salt, card) in zip(positions, openings, strict=True):
            commitment = self.steal_commitments[position]
            if not check_opening(commitment, self.session.game_id, number, salt, card):
                raise IllegalMove(
                    f"seat {author}'s opening of card {position} (loot {number}) does not match"
                    " its commitment",
                    author=author,
                )
            if card >= view.kinds:
                raise IllegalMove(f"seat {author} opened card kind {card}", author=author)
            cards[card] += 1
        assert view.variant is not None  # only a game's rules module draws from a hand
        action = view.variant.hand_draw_outcome(view, tuple(cards))
        try:
            view.check(action)
        except IllegalActionError as exc:
            raise IllegalMove(
                f"seat {author} opened cards for the fleet's loot that it cannot hold: {exc}",
                author=author,
            ) from exc
        record = LootRecord(number, author, self.steal_commitments, self.steal_commit_id)
        self.steals += 1
        self.steal_number = 0
        self.loot_positions = ()
        self.session.engine_apply(action, None, env.id, effects, loot=record)

    def on_hand_open(self, env: Envelope, effects: list[Effect]) -> None:
        """The Master Merchant's victim opens its committed hand to the player alone (§7.2):
        the player reads and checks every opening (a false one: it disputes, as a thief does),
        and applies ``HandShown`` with the hand; the victim with its own; every other seat
        with none."""
        view = self.session.require_view(env)
        author = env.body.author
        number, nonce, ciphertext = env.body.payload
        node = view.chance_node()
        if (
            node is None
            or node.kind != HAND_SHOW
            or node.seats[1] != author
            or number != self.steal_number
        ):
            raise OutOfTurn(f"seat {author} has no hand to open", author=author)
        player = node.seats[0]
        record = HandRecord(
            number,
            player,
            author,
            self.steal_commitments,
            nonce,
            ciphertext,
            self.steal_commit_id,
            env.id,
            node.cards,
        )
        self.opened = record
        openings: tuple[tuple[bytes, int], ...] = ()
        if self.session.seat == player:
            try:
                openings = self._opened_hand(self.session.game_keys.private_key, record)
            except IllegalMove:
                self.disputed = number  # the player shows everyone (steal_dispute)
                return
        elif self.session.seat == author:
            openings = self.own_committed_hand(number).openings
        hand = taken_at(openings, range(len(openings)), view.kinds) if openings else None
        action = HandShown(author, hand)
        try:
            view.check(action)
        except IllegalActionError as exc:  # the player knows the victim cannot hold it
            raise IllegalMove(
                f"seat {author} opened a hand it cannot hold: {exc}", author=author
            ) from exc
        self.steals += 1
        self.steal_number = 0
        self.hand, self.hand_openings = record, openings
        self.session.engine_apply(action, None, env.id, effects, hand=record)

    def _hand_open_step(
        self, view: InformationState, effects: list[Effect]
    ) -> tuple[str, tuple[object, ...]] | None:
        """This victim's ``hand_open``: every opening of its committed hand sealed to the
        Master Merchant's player (§7.2); None when the player's key gives no shared secret (the
        game stops naming the player)."""
        number, player = self.steal_number, view.active
        hand = self.own_committed_hand(number)
        nonce = derive_steal_secrets(self.session.chain.secret, number, len(hand.openings))[2]
        try:
            ciphertext = seal_hand(
                self.session.game_keys.private_key,
                self.session.opening.seats[player].x25519_public,
                self.session.game_id,
                number,
                hand.openings,
                nonce,
            )
        except ValueError as exc:
            reason = f"cannot seal the hand opening for seat {player}: {exc}"
            self.session.stop(IllegalMove(reason, author=player), effects, ())
            return None
        return "hand_open", (number, nonce, ciphertext)

    def _opened_hand(
        self, player_key: X25519PrivateKey, hand: HandRecord
    ) -> tuple[tuple[bytes, int], ...]:
        """The openings of a hand opened to its player, read with the player's X25519 key and
        checked against the victim's commitments (§7.2).

        Raises:
            IllegalMove: naming the victim: the opening does not decrypt for the player, or a
                card does not match its commitment.
        """
        victim = hand.victim
        try:
            return open_hand(
                player_key,
                self.session.opening.seats[victim].x25519_public,
                self.session.game_id,
                hand.steal,
                hand.nonce,
                hand.ciphertext,
                hand.commitments,
            )
        except StealOpeningError as exc:
            raise IllegalMove(
                f"seat {victim}'s hand opening is false: {exc}", author=victim
            ) from exc

    def on_merchant_take(self, env: Envelope, effects: list[Effect]) -> None:
        """The Master Merchant's player names the positions of the cards it takes (§7.2): the
        player and the victim apply ``HandTake`` with the cards there, every other seat
        with none."""
        view = self.session.require_view(env)
        author = env.body.author
        number, positions = env.body.payload
        hand = self.hand
        if hand is None or hand.steal != number or author != hand.player:
            raise OutOfTurn(f"seat {author} has no Master Merchant's take to make", author=author)
        count = min(hand.takes, len(hand.commitments))
        why = why_bad_positions(positions, len(hand.commitments), count)
        if why is not None:
            raise IllegalMove(f"seat {author}'s Master Merchant take {why}", author=author)
        taken = taken_at(self.hand_openings, positions, view.kinds) if self.hand_openings else None
        action = HandTake(taken)
        view.check(action)
        record = dataclasses.replace(hand, positions=tuple(positions))
        self.hand, self.hand_openings = None, ()
        self.session.engine_apply(action, author, env.id, effects, hand=record)

    def _opened_card(self, thief_key: X25519PrivateKey, steal: StealRecord) -> Resource:
        """The card a steal opening holds, read with the thief's X25519 key (§7).

        Raises:
            IllegalMove: naming the victim: the opening does not decrypt for the thief, or
                holds a card the victim had not committed to at the chosen index.
        """
        victim = steal.victim
        try:
            salt, kind = open_opening(
                thief_key,
                self.session.opening.seats[victim].x25519_public,
                self.session.game_id,
                steal.steal,
                steal.index,
                steal.nonce,
                steal.ciphertext,
            )
        except ValueError as exc:
            raise IllegalMove(
                f"seat {victim}'s steal opening is false: {exc}", author=victim
            ) from exc
        commitment = steal.commitments[steal.index]
        if not check_opening(commitment, self.session.game_id, steal.steal, salt, kind):
            raise IllegalMove(f"seat {victim} opened a card it had not committed to", author=victim)
        kinds = self.session.require_view(None).rules.cards
        if kind >= len(kinds):  # a kind 0..7 of no hand of this game
            raise IllegalMove(f"seat {victim} opened a card kind the game has not", author=victim)
        return kinds[kind]

    def on_steal_dispute(self, env: Envelope, effects: list[Effect]) -> None:
        """The thief of the last steal (or the seat a hand was opened to, §7.2) says its
        opening is false and shows its X25519 key, so that every peer can read the opening
        (§7): one of the two seats is named either way."""
        author = env.body.author
        number, private = env.body.payload
        steal = self.opened
        if steal is None:
            raise OutOfTurn(f"seat {author} disputes no steal of its own", author=author)
        reader = steal.player if isinstance(steal, HandRecord) else steal.thief
        if steal.steal != number or author != reader:
            raise OutOfTurn(f"seat {author} disputes no steal of its own", author=author)
        try:
            keys = GameKeys.from_private_bytes(bytes(private))
        except ValueError as exc:
            raise IllegalMove(f"seat {author} disputed with no key: {exc}", author=author) from exc
        if keys.public_bytes != self.session.opening.seats[author].x25519_public:
            raise IllegalMove(
                f"seat {author} disputed steal {number} with a key that is not its own",
                author=author,
            )
        if isinstance(steal, HandRecord):
            self._opened_hand(keys.private_key, steal)  # names the victim if it is false
        else:
            self._opened_card(keys.private_key, steal)  # names the victim if it is false
        raise IllegalMove(f"seat {author} disputed a true opening of steal {number}", author=author)

    def openings_owed(self, node: ChanceNode | None) -> list[tuple[Seat, str]]:
        """The openings ``node`` waits for, as ``(seat, kind)`` in the order the seat signs
        them: the one description :meth:`owed_steps` (every seat's) and
        :meth:`_next_obligation` (this seat's, each not yet sent) both read.

        - a steal (§7): the victim's ``steal_commit``, then its ``steal_open`` once the card
          is chosen;
        - a hand opened to one seat (§7.2, the Master Merchant): its ``steal_commit``, then
          its ``hand_open``;
        - a hand drawn from blind (§7.1, the fleet's loot): its ``steal_commit``, then its
          ``loot_open`` once the positions are drawn.
        """
        if node is None:
            return []
        committed = bool(self.steal_number)
        if node.kind == STEAL:
            victim = node.seats[1]
            steps = [] if committed else [(victim, "steal_commit")]
            return steps + ([(victim, "steal_open")] if self.steal_index >= 0 else [])
        if node.kind == HAND_SHOW:
            return [(node.seats[1], "hand_open" if committed else "steal_commit")]
        if node.kind == HAND_DRAW:
            drawn = node.seats[0]
            steps = [] if committed else [(drawn, "steal_commit")]
            return steps + ([(drawn, "loot_open")] if self.loot_positions else [])
        return []

    def _opening_number(self, kind: str) -> int:
        """The number this seat's opening of ``kind`` signs (its key among the steps sent): a
        commitment or a Spy's opening opens the next steal; the others answer the open one."""
        return self.steals + 1 if kind == "steal_commit" else self.steal_number

    def _opening_step(
        self, kind: str, view: InformationState, node: ChanceNode, effects: list[Effect]
    ) -> tuple[str, tuple[object, ...]] | None:
        """This seat's opening of ``kind`` (one :meth:`_openings_owed` lists for it), signed
        now; None when it cannot be (the game then stops, naming the seat at fault)."""
        number = self._opening_number(kind)
        if kind == "steal_commit":
            return "steal_commit", (number, self.own_committed_hand(number).commitments)
        if kind == "loot_open":
            openings = self.own_committed_hand(number).openings
            return "loot_open", (number, tuple(openings[p] for p in self.loot_positions))
        if kind == "steal_open":
            return self.steal_open_step(view, effects)
        return self._hand_open_step(view, effects)

    def steal_open_step(
        self, view: InformationState, effects: list[Effect]
    ) -> tuple[str, tuple[object, ...]] | None:
        """This victim's ``steal_open``: the stolen card's opening sealed to the thief (§7);
        None when the thief's key gives no shared secret (the game stops naming the thief)."""
        me = self.session.seat
        number, index = self.steal_number, self.steal_index
        salt, kind = self.own_committed_hand(number).openings[index]
        thief = view.active
        thief_public = self.session.opening.seats[thief].x25519_public
        nonce = derive_steal_secrets(self.session.chain.secret, number, view.hand_size[me])[2]
        try:
            nonce, ciphertext = seal_opening(
                self.session.game_keys.private_key,
                thief_public,
                self.session.game_id,
                number,
                index,
                salt,
                kind,
                nonce=nonce,
            )
        except ValueError as exc:  # only the thief's key can fail here: name its owner
            reason = f"cannot seal the steal opening for seat {thief}: {exc}"
            self.session.stop(IllegalMove(reason, author=thief), effects, ())
            return None
        return "steal_open", (number, nonce, ciphertext)

    def own_committed_hand(self, steal: int) -> CommittedHand:
        """This seat's commitment to its hand for steal number ``steal``, rebuilt from its own
        secret."""
        view = self.session.require_view(None)
        cards = [r for r, n in enumerate(view.hands[self.session.seat]) for _ in range(n)]
        order, salts, _ = derive_steal_secrets(self.session.chain.secret, steal, len(cards))
        return commit_hand(self.session.game_id, steal, cards, order=order, salts=salts)

    def opening_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """The openings the chance node waits for (:meth:`_openings_owed`)."""
        view = self.session.view
        node = None if view is None else view.chance_node()
        if view is None or node is None:
            return
        for seat, kind in self.openings_owed(node):
            if seat in seats:
                key = (kind, self._opening_number(kind))
                build = self.session.own(
                    seat, functools.partial(self._opening_step, kind, view, node)
                )
                yield Step(seat, kind, key=key, build=build)

    def dispute_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """This seat's dispute of a steal's or a hand's opening it found false (§7, §7.2)."""
        me = self.session.seat
        if me in seats and self.disputed:
            key = ("steal_dispute", self.disputed)
            payload = (self.disputed, self.session.game_keys.private_bytes)
            build = self.session.own(me, lambda _: ("steal_dispute", payload))
            yield Step(me, "steal_dispute", key=key, build=build, awaited=False)

    def resolve(self, node: ChanceNode, stream: BeaconStream) -> None:
        """Draw what an opening's beacon event decides: the index of a stolen card (§7), the
        positions of the fleet's loot (§7.1)."""
        if node.kind == STEAL:
            self.steal_index = stream.randbelow(len(self.steal_commitments))
        elif node.kind == HAND_DRAW:
            size = len(self.steal_commitments)
            self.loot_positions = draw_positions(stream.randbelow, size, node.cards)
