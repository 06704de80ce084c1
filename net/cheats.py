"""The red-team catalogue: the deviations `hexlan bot --cheat KIND [--cheat-at N]` can play.

Each kind is one deviation the test suite already catches (tests/test_fairness.py,
tests/test_session.py); :mod:`hexlan.net.redteam` makes a seat's own session commit it, so
people who test fairness can watch honest peers catch it over a real network and
`hexlan verify` name it in their logs.

``N`` counts the kind's *opportunities*: the moments at which an honest seat would sign the
message the kind falsifies (its N-th chance reveal, its N-th decryption share, ...); the seat
deviates at the N-th one and plays honestly before and after. ``N`` = 1 unless given. A kind
whose opportunity comes once a game (its shuffle, its audit secrets) takes only ``N`` = 1. A
game that ends before the N-th opportunity is simply honest, and the bot's result says so
(its JSON line's ``"cheat"`` entry; its log notes ``red team: ...`` when it deviates).

The honest peers stop at once for most kinds; for a withholding kind (and a forged signature,
which is refused as unproven) they pause, naming the seat, until they abandon the game
(`hexlan bot --abandon-after S`, or the players). The cheating seat itself goes on as far as
its own session lets it: a seat that withholds a step then waits like any seat gone quiet
(end it with Ctrl-C), and a seat whose own session checks its lie (a replayed reveal, a false
share, an undealt card, a false hash) stops naming itself once it has sent it.

This module is pure data, so the command line can list and check kinds without loading the
network or crypto stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class CheatKind:
    """One deviation.

    Attributes:
        name: the ``--cheat`` value.
        opportunity: what ``--cheat-at N`` counts.
        does: what the seat does at the N-th opportunity.
        proves: what the honest peers' reaction shows (the ``--cheat list`` line).
        withholds: the honest peers pause (a stall naming the seat) rather than stop; they need
            ``--abandon-after`` to end the game.
        once: the opportunity comes once a game, so only ``N`` = 1 is accepted.
        game: the only game (seeds/<game>.toml) in which the opportunity comes; None: any.
    """

    name: str
    opportunity: str
    does: str
    proves: str
    withholds: bool = False
    once: bool = False
    game: str | None = None


_KINDS: Final = (
    CheatKind(
        "equivocate",
        "each message it signs after its opening signature (1: its deck key share)",
        "signs a second, different body with the same sequence number and sends both",
        "two bodies for one number stop every peer, naming the seat, both bodies kept (§11)",
    ),
    CheatKind(
        "forge",
        "each chance reveal it owes",
        "sends its reveal signed by a key that is not its own",
        "a forged signature is refused and kept as evidence (naming nobody, §12); the game "
        "pauses for the seat's true reveal, the stall names it",
        withholds=True,
    ),
    CheatKind(
        "replay",
        "each chance reveal it owes",
        "reveals again the preimage it revealed for the event before (its chain commitment "
        "for the first)",
        "a replayed beacon value does not hash to the seat's chain: peers stop naming it (§6)",
    ),
    CheatKind(
        "false-share",
        "each decryption share it gives (a card another seat buys)",
        "gives the share point A·x + G with the proof of the true one",
        "a false decryption share fails its DLEQ proof: peers stop naming the seat (§13.7)",
    ),
    CheatKind(
        "swap-shuffle",
        "its shuffle of the game's first deck (the development deck; trade in Cities & Knights)",
        "publishes its shuffle with card 0 replaced by a re-encryption of card 1",
        "a shuffle that loses a card fails its proof of a shuffle (Terelius-Wikström, "
        "Fiat-Shamir): peers stop naming the shuffler (§13.6)",
        once=True,
    ),
    CheatKind(
        "false-steal",
        "each steal in which it is the victim",
        "opens the chosen commitment with another card, sealed for the thief",
        "the thief's steal_dispute shows its key and every peer names the victim (§7)",
    ),
    CheatKind(
        "lie-commit",
        "each steal in which it is the victim while it lacks some resource",
        "commits to a hand of its size made of a resource it does not hold, and opens the "
        "chosen commitment truly (for the thief only)",
        "the thief alone can see the lie: it accuses the opening (§11.1), every seat publishes "
        "its secrets, and the audit of the game so far names the victim's commitment",
    ),
    CheatKind(
        "lie-offer",
        "each decision in its own turn's main phase while it lacks a resource that a seat "
        "knowing no hidden card thinks it may hold (after a steal)",
        "offers every other seat a trade giving one card of that resource, as if it held it",
        "the seat that knows its hand accuses the offer (§11.1), every seat publishes its "
        "secrets, and the audit of the game so far names the offer",
    ),
    CheatKind(
        "undealt-card",
        "each decision in its own turn while it holds a card bought before this turn and has "
        "played none (a game with a state of its own: each decision at which it may play a "
        "hidden card)",
        "plays a Knight (a game with a state of its own: a hidden card it may play) without "
        "showing a card it was dealt",
        "a card play must spend a card its seat showed: peers stop naming the seat (§13.8)",
    ),
    CheatKind(
        "missing-commodity",
        "each decision in its own turn's main phase while it has a city and lacks the "
        "commodities of a track's next city improvement",
        "builds that improvement anyway, without the commodities",
        "a commodity spent that the hand lacks is refused: peers stop naming the seat and the "
        "cost (Cities & Knights only)",
        game="cities-and-knights",
    ),
    CheatKind(
        "undealt-discard",
        "each progress card it must discard over the hand limit",
        "discards a progress card it was never dealt, without showing one",
        "a discard must spend a card its seat showed: peers stop naming the seat as soon as "
        "the discard is ordered (§13.8; Cities & Knights only)",
        game="cities-and-knights",
    ),
    CheatKind(
        "spy-forge",
        "each Spy played on it (its spy_open)",
        "re-encrypts another card than the one at its first progress position, with the proof "
        "of the true one",
        "a false re-encryption fails its proof: peers stop naming the victim at once (§7.3; "
        "Cities & Knights only)",
        game="cities-and-knights",
    ),
    CheatKind(
        "spy-spent",
        "each Spy it plays whose victim holds a position whose card was already played",
        "takes that spent position instead of the card its bot chose",
        "the victim opens the card to everyone (spy_dispute): peers stop naming the player "
        "(§7.3; Cities & Knights only)",
        game="cities-and-knights",
    ),
    CheatKind(
        "withhold-reveal",
        "each chance reveal it owes",
        "never sends the reveal",
        "the game pauses with a stall naming the seat; the others can abandon the game, and "
        "verify reports the reveal it owed (§11)",
        withholds=True,
    ),
    CheatKind(
        "withhold-audit",
        "its audit secrets, once the game is won",
        "never sends its audit_secrets",
        "the end of the game pauses naming the seat; abandoned, the log stays unaudited and "
        "verify names the seat (§14)",
        withholds=True,
        once=True,
    ),
    CheatKind(
        "false-head",
        "its audit secrets, once the game is won",
        "lists among their heads, as another seat's latest message, one that seat never signed",
        "the secrets are refused and the end of the game pauses naming the seat, never the seat "
        "it framed; abandoned, the log stays unaudited and verify names the seat (§11, §14)",
        withholds=True,
        once=True,
    ),
    CheatKind(
        "flood-held",
        "each turn acknowledgement it owes",
        "after its true acknowledgement, signs 850 valid acknowledgements of about 11 KB each, "
        "numbered past the window of messages a peer holds ahead (MAX_AHEAD), and sends them",
        "a flood far ahead of the seat's next number is refused naming the seat, never held, "
        "and no honest seat's message is refused: the game is played to its audited end (§8)",
    ),
    CheatKind(
        "false-hash",
        "each turn acknowledgement it owes",
        "acknowledges a public-state hash and trail that are not the game's",
        "a divergence: every honest peer accuses the acknowledgement (§11.1), and the audit "
        "of the game so far names the seat that acknowledged a state the game never reached",
    ),
)

CHEATS: Final[dict[str, CheatKind]] = {kind.name: kind for kind in _KINDS}
"""Every kind, by name, in the order ``--cheat list`` prints them."""


def cheat_lines() -> list[str]:
    """``hexlan bot --cheat list``: one line per kind, what it proves."""
    width = max(len(name) for name in CHEATS)
    return [f"{kind.name:<{width}}  {kind.proves}" for kind in CHEATS.values()]


def check_cheat(kind: str, at: int) -> CheatKind:
    """The kind named ``kind``, checked with ``--cheat-at`` ``at``.

    Raises:
        ValueError: no such kind (the message lists the kinds), ``at`` below 1, or ``at``
            above 1 for a kind that comes once a game.
    """
    found = CHEATS.get(kind)
    if found is None:
        raise ValueError(f"no cheat {kind!r}; the kinds are: {', '.join(CHEATS)} (or list)")
    if at < 1:
        raise ValueError(f"--cheat-at counts opportunities from 1, not {at}")
    if found.once and at != 1:
        raise ValueError(f"{kind} comes once a game ({found.opportunity}): --cheat-at must be 1")
    return found
