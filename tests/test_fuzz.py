"""A small, fixed version of scripts/fuzz.py in the suite: mutated messages of a real seeded game
(bit flips, truncation, insertion, oversized and deeply nested msgpack, real seats' signatures
over bad bodies) fed to the envelope decoder and to a live session mid-game.

Nothing but the protocol's own rejections may come out (:class:`RemoteProtocolError`, and the
session's Rejected or Stopped effects), and an input the session rejects or ignores changes
nothing: heads, applied numbers, the log's length, the public state hash, the view hash. The
long runs and their rates are the script's (figures printed, never asserted here).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scripts_import import load_script

SEED = 3


fuzz = load_script("fuzz")


@pytest.fixture(scope="module")
def corpus() -> Any:
    return fuzz.build_corpus(SEED, 2)


@pytest.fixture(scope="module")
def keys(corpus: Any) -> list[bytes]:
    return [seat[1] for seat in corpus.opening_payload[2]]


@pytest.fixture(scope="module")
def snapshot(corpus: Any) -> Any:
    return fuzz.Snapshot(fuzz.restored_session(corpus, len(corpus.envelopes) // 2))


FUZZ_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def test_the_corpus_is_a_whole_game_that_decodes(corpus: Any, keys: list[bytes]) -> None:
    assert len(corpus.envelopes) > 500
    assert {fuzz.decode(data, keys) for data in corpus.envelopes} == {"parsed:verified"}


@FUZZ_SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_messages_only_meet_protocol_rejections(
    corpus: Any, keys: list[bytes], seed: int
) -> None:
    mutator = fuzz.Mutator(corpus, random.Random(seed), resign_share=0.4)
    for _ in range(10):
        _, data = mutator.next()
        outcome = fuzz.decode(data, keys)  # raises on anything but a protocol rejection
        assert outcome.startswith(("rejected:", "parsed:"))


@FUZZ_SETTINGS
@given(data=st.binary(max_size=600), index=st.integers(0, 10_000), at=st.integers(0, 10_000))
def test_arbitrary_bytes_inside_real_messages(
    corpus: Any, keys: list[bytes], data: bytes, index: int, at: int
) -> None:
    real = corpus.envelopes[index % len(corpus.envelopes)]
    cut = at % (len(real) + 1)
    for candidate in (data, real[:cut] + data, real[:cut] + data + real[cut:]):
        assert fuzz.decode(candidate, keys).startswith(("rejected:", "parsed:"))


@pytest.mark.parametrize("depth", [15, 16, 17, 1000, 200_000])
def test_deep_nesting_is_rejected_not_a_crash(keys: list[bytes], depth: int) -> None:
    nest = b"\x91" * depth + b"\xc0"
    assert fuzz.decode(nest, keys).startswith("rejected:")
    assert fuzz.decode(fuzz._pack([nest, bytes(64)]), keys).startswith("rejected:")


@FUZZ_SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_a_live_session_changes_nothing_for_what_it_refuses(
    corpus: Any, snapshot: Any, seed: int
) -> None:
    rng = random.Random(seed)
    cut = len(corpus.envelopes) // 2
    frontier = list(range(cut, cut + 12))
    mutator = fuzz.Mutator(corpus, rng, frontier * 4 + list(range(len(corpus.envelopes))))
    session = snapshot.fresh()
    for _ in range(3):
        before = fuzz.session_state(session)
        waiting = len(session._waiting)
        _, data = mutator.next()
        effects = session.receive(data)  # raises on anything unexpected
        outcome = fuzz.classify(effects, waiting, len(session._waiting))
        if outcome in ("accepted", "stopped"):
            return  # a real signature: the change may be legitimate
        after = fuzz.session_state(session)
        if outcome == "held":  # waiting for its predecessors, nothing else
            assert after[3] == before[3] + 1
            after = (*after[:3], before[3], *after[4:])
        assert after == before, outcome


def test_the_script_runs_and_reports_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = fuzz.main(
        ["--inputs", "3000", "--session-inputs", "300", "--jobs", "1", "--seed", "2", "--json"]
    )
    lines = capsys.readouterr().out.strip().splitlines()
    report = json.loads(lines[-1])
    assert code == 0
    assert report["inputs"] == 3300
    assert report["unexpected"] == 0 and report["state_changes"] == 0
    assert report["decoder"]["inputs_per_s"] > 0 and report["session"]["inputs"] == 300
