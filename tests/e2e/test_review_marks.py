"""The review on the replay page explains the move of the row clicked, shows its figures as the
server rounded them (a loss shown as 5.0 is marked, a 4.9 is not), and its chance graph has its
axes (0–100 %, move numbers, both titled); the replay's pay-off piles say their count once (no
stray second badge); at 1280×800 and 390×844.

The match is played through real sockets and read by the real server; its review row is
written into the server's database by the review's own pure function (`marks.judged`) from
chances chosen at the edge of a mark, since a review made by the estimator lands wherever the
samples put it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.review import judged, summary
from tests.web.review_helpers import finished_match, in_a_thread, store_review

from .conftest import PageOpener, Server, running_server, shot
from .test_review import at_desktop_and_phone

# (chance after the move played, after the best one), as the estimator might give them
AT_FIVE = (0.4151, 0.4649)   # 4.98 points apart: shown 41.5 % and 46.5 %, a loss of 5.0: an inaccuracy
UNDER_FIVE = (0.4149, 0.4640)  # shown 41.5 % and 46.4 %: a loss of 4.9, no mark


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """As conftest's, with room for a match played as fast as the sockets go."""
    with running_server(tmp_path_factory.mktemp("server"), SPITE_RATE_PER_SECOND="200",
                        SPITE_RATE_BURST="400") as srv:
        yield srv


def _decision(move: dict[str, Any], best: dict[str, Any], raw: tuple[float, float]) -> dict[str, Any]:
    shown = judged(*raw)
    return {"v": move["seq"], "seat": move["seat"], "played": move["move"], "best": best,
            "chance_played": shown.chance_played, "chance_best": shown.chance_best, "loss": shown.loss,
            "mark": shown.mark, "alternatives": 3}


def _set_up(base: str, db_url: str) -> dict[str, Any]:
    out: dict[str, Any] = {}

    async def make() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            ann, _bob, match_id = await finished_match(base, http, seed="review-marks")
            replay = (await http.get(f"/api/matches/{match_id}/replay")).json()
        # Two of Ann's own moves, neither the first: each judged against another move of hers
        mine = [m for m in replay["moves"] if m["seat"] == 0 and m["actor"] == "player" and m["seq"] > 1
                and m["move"]["kind"] not in ("end_turn", "take_back")]
        marked, unmarked = mine[0], mine[len(mine) // 2]
        decisions = [_decision(marked, unmarked["move"], AT_FIVE), _decision(unmarked, marked["move"], UNDER_FIVE)]
        chances = [{"v": v, "seat": s, "chance": 0.5 + (0.3 if s == 0 else -0.3) * v / replay["total"], "hand": 1}
                   for v in range(replay["total"] + 1) for s in (0, 1)]
        result = {"level": "rollout-test", "decisions": decisions, "chances": chances,
                  "luck": [{"hand": 1, "seat": 0, "points": 2.5}], "summary": summary([0], decisions, [])}
        await store_review(db_url, match_id, ann.id, result)
        out.update(ann=ann, match=match_id, marked=marked["seq"], unmarked=unmarked["seq"], total=replay["total"])

    in_a_thread(make)
    assert out, "the set-up did not finish"
    return out


def _figures(note: str) -> tuple[float, float]:
    """The two chances the note shows (played, best), in per cent, as written."""
    found = [float(x) for x in re.findall(r"(\d+(?:\.\d)?)%", note)]
    assert len(found) == 2, note
    return found[0], found[1]


def _check(page: Page, got: dict[str, Any], size: str) -> None:
    page.goto(f"{got['base']}/#replay/{got['match']}")
    graph = page.locator("#review-graph")
    graph.wait_for(state="visible")
    # the chance graph's axes: 0–100 % on the left, move numbers below, both titled
    expect(page.locator(".review-yticks span")).to_have_text(["0%", "25%", "50%", "75%", "100%"])
    xs = page.locator(".review-xticks span").all_text_contents()
    assert xs[0] == "0" and len(xs) >= 3 and all(int(x) <= got["total"] for x in xs), xs
    assert [int(x) for x in xs] == sorted(int(x) for x in xs)
    expect(page.locator(".review-axis").first).to_have_text("Chance to win the hand")
    expect(page.locator(".review-axis.x")).to_have_text("Move number")
    # each tick sits on its line: 50 % half way down the plot, the move numbers along its bottom
    box = graph.bounding_box()
    assert box is not None
    half = page.locator(".review-yticks span").nth(2).bounding_box()
    assert half is not None and abs(half["y"] + half["height"] / 2 - (box["y"] + box["height"] / 2)) < 3
    first = page.locator(".review-xticks span").first.bounding_box()
    assert first is not None and first["y"] >= box["y"] + box["height"] and abs(first["x"] - box["x"]) < 3

    # The mark sits on the row of the move it judges; clicking that row explains that move.
    marked = page.locator(f'.replay-moves li[data-at="{got["marked"]}"]')
    expect(marked.locator(".review-mark.inaccuracy")).to_have_text("?!")
    expect(page.locator(".replay-moves .review-mark")).to_have_count(1)  # 4.9 points lost: no mark
    row_text = marked.locator("button").text_content() or ""
    marked.locator("button").click()
    note = page.locator("#review-note")
    expect(note).to_contain_text(f"This move, {row_text}:")
    expect(note).to_contain_text("Inaccuracy: 5.0 points of winning chance lost.")
    played, best = _figures(note.text_content() or "")
    assert (played, best) == (41.5, 46.5) and round(best - played, 1) == 5.0
    assert page.locator(".replay-stage .review-best, .replay-stage .review-target").count() >= 1
    # a pay-off pile of the replay says its count once: the number under it, which opens it
    piles = page.locator(".replay-stage .pile-wrap:has(.pile.payoff)")
    expect(piles).to_have_count(2)
    for i in range(2):
        pile = piles.nth(i)
        assert pile.locator(".count").count() + pile.locator(".peek").count() == 1, pile.inner_text()
    shot(page, f"review-marks-{size}")

    # The row before it is another move: the explanation follows the row, never the next one.
    page.locator(f'.replay-moves li[data-at="{got["marked"] - 1}"] button').click()
    expect(note).not_to_contain_text(row_text)

    # A loss shown as 4.9 has no mark, and the note says no mark either.
    unmarked = page.locator(f'.replay-moves li[data-at="{got["unmarked"]}"]')
    expect(unmarked.locator(".review-mark")).to_have_count(0)
    unmarked.locator("button").click()
    expect(note).to_contain_text(f"This move, {unmarked.locator('button').text_content()}:")
    played, best = _figures(note.text_content() or "")
    assert (played, best) == (41.5, 46.4)
    for word in ("Inaccuracy", "Mistake", "Blunder"):
        expect(note).not_to_contain_text(word)


def test_the_review_explains_the_row_clicked_with_the_figures_its_mark_comes_from(
        server: Server, open_page: PageOpener) -> None:
    got = _set_up(server.url, f"sqlite:///{server.db}")
    got["base"] = server.url
    at_desktop_and_phone(open_page, got["ann"], lambda page, size: _check(page, got, size), "review")
