"""Rematch in `hexlan play` (issue 26): the game-over screen's r plays again at the same table
(the same game, options, bots and names) with a new game id, every seat moved on one place and
the next seed; the second game is played to its end too, and its log says the person's seat."""

from __future__ import annotations

from pathlib import Path

from test_tui import SMALL

from hexlan.engine.options import GameOptions
from hexlan.net.replay import read_timeline
from hexlan.tui.app import HexlanApp, make_app
from hexlan.tui.screens.info import GameOverScreen


async def _until_over(pilot: object, app: HexlanApp) -> GameOverScreen:
    for _ in range(4000):
        await pilot.pause()  # type: ignore[attr-defined]
        # the buttons' row mounts last (after the score table and the log's path)
        if isinstance(app.screen, GameOverScreen) and app.screen.query("#quit"):
            return app.screen
    raise AssertionError("the game did not end")


async def test_play_again_moves_every_seat_on_and_plays_a_new_game(tmp_path: Path) -> None:
    options = GameOptions(victory_points=4)
    app = make_app(3, 5, "beginner", "You", 0, autoplay=True, log_dir=tmp_path, options=options)
    async with app.run_test(size=SMALL) as pilot:
        over = await _until_over(pilot, app)
        first = app.game
        assert first.human_seat == 0 and over.query("#again")
        names = list(first.names)
        await pilot.press("r")
        for _ in range(200):  # the new table comes after the game-over screen has closed
            await pilot.pause(0.05)
            if app.game is not first:
                break
        assert app.game is not first and app.screen is not over
        # (the bots may finish the quick second game at once: its screens are not awaited)
        second = app.game
        assert second.human_seat == 1
        assert list(second.names) == [names[-1], *names[:-1]]  # each seat one place on
        assert second.seed == 6 and second.view.options == options
        assert second.session.game_id != first.session.game_id
        assert second.log_path != first.log_path
        await _until_over(pilot, app)
        assert second.winner is not None
        await pilot.press("q")
    assert first.log_path is not None and second.log_path is not None
    assert read_timeline(first.log_path).seat == 0
    assert read_timeline(second.log_path).seat == 1  # the replay shows the person's view
