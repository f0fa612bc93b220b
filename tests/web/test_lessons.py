"""Lessons over REST and the room socket (docs/protocol.md, "Learning to play (v1.4)"): the list
with each player's progress, starting and dismissing; every lesson walked through by its hints
over a real socket; refusals that change nothing; the lesson room is its learner's alone; a run
resumed by a new app on the same database; the bot's moves from the bot pool."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.engine import Move
from app.i18n import render
from app.lessons.core import LESSONS, Lesson, LessonRun, Step, find
from app.lessons.core.catalog import DISCARD
from app.lessons.core.goals import MoveGoal, is_discard, solver
from app.lessons.core.positions import table
from app.lessons.shell.service import title
from app.web.app import create_app
from app.web.sockets.base import FORBIDDEN, NOT_FOUND
from tests.conftest import SQLITE_ONLY
from tests.web.helpers import Person, ServerThread, Sock, make_settings, new_person
from tests.web.lesson_helpers import last, lesson_problems, start, walk

pytestmark = SQLITE_ONLY  # the store's part is plain rows (test_migrations runs its migration on both)


async def _list(http: httpx.AsyncClient, who: Person | None = None, lang: str = "en") -> dict[str, Any]:
    r = await http.get("/api/lessons", headers={**(who.auth if who else {}), "Accept-Language": lang})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def test_the_list_says_each_players_progress(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    anon = await _list(http, lang="fr")
    assert [i["id"] for i in anon["items"]] == [x.id for x in LESSONS]
    assert [i["title"] for i in anon["items"]] == [title(x, "fr") for x in LESSONS]
    assert not any(i["title"] == x.title_key for i, x in zip(anon["items"], LESSONS, strict=True))  # never a key
    assert [i["about"] for i in anon["items"]] == [render("fr", f"lesson.{x.id}.about") for x in LESSONS]
    assert not any(i["about"].startswith("lesson.") for i in anon["items"])
    assert not any(i["done"] for i in anon["items"]) and anon["dismissed"] is False
    first = LESSONS[0]
    code = await start(http, ann, first.id)
    assert code.startswith("1")  # never a room code
    assert await start(http, ann, first.id) == code  # the unfinished run again
    sock = await Sock.open(server.base, code, ann)
    await walk(sock)
    await sock.close()
    mine = {i["id"]: i for i in (await _list(http, ann))["items"]}
    assert mine[first.id]["done"] is True and mine[first.id]["room"] is None
    assert all(not i["done"] for k, i in mine.items() if k != first.id)
    assert not any(i["done"] for i in (await _list(http, bob))["items"])  # progress is per player
    again = await start(http, ann, first.id)  # done: a fresh run
    assert again != code
    assert (await _list(http, ann))["items"][0]["room"] == again
    fresh = await Sock.open(server.base, again, ann)
    await fresh.wait(lambda m: m["type"] == "state")
    assert last(fresh, "lesson")["step"] == 1 and not last(fresh, "lesson")["finished"]
    await fresh.close()


async def test_dismissing_the_card_is_kept(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    assert (await _list(http, ann))["dismissed"] is False
    r = await http.post("/api/lessons/dismiss", headers=ann.auth)
    assert r.status_code == 200 and r.json() == {"dismissed": True}
    assert (await http.post("/api/lessons/dismiss", headers=ann.auth)).status_code == 200  # again: no change
    assert (await _list(http, ann))["dismissed"] is True
    assert (await http.post("/api/lessons/dismiss")).status_code == 401


async def test_a_bad_lesson_id_is_404_with_a_reason(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    r = await http.post("/api/lessons/no-such-lesson", headers=ann.auth)
    assert r.status_code == 404 and r.json()["reason"] == "no_lesson", r.text
    assert (await http.post(f"/api/lessons/{LESSONS[0].id}")).status_code == 401


@pytest.mark.parametrize("lesson_id", [x.id for x in LESSONS])
async def test_every_lesson_walks_through_to_its_end(server: ServerThread, http: httpx.AsyncClient,
                                                       lesson_id: str) -> None:
    ann = await new_person(http, "Ann")
    code = await start(http, ann, lesson_id)
    sock = await Sock.open(server.base, code, ann)
    again = await sock.error({"type": "hello", "token": ann.token, "last_v": None})  # the base's checks hold
    assert again["reason"] == "second_hello"
    await walk(sock)
    lesson = find(lesson_id)
    assert lesson is not None
    steps = [m for m in sock.messages if m["type"] == "lesson"]
    assert [m["step"] for m in steps] == list(range(1, len(lesson.steps) + 1)) + [len(lesson.steps)]
    assert steps[-1]["finished"] and steps[-1]["done"] == render("en", "learn.done")
    assert steps[0]["text"] == render("en", lesson.text_key(0), steps[0]["params"])
    welcome = sock.messages[0]
    assert welcome["type"] == "welcome" and welcome["room"]["kind"] == "lesson" and welcome["you"]["seat"] == 0
    for m in sock.messages:
        assert lesson_problems(m) == [], (m["type"], lesson_problems(m))
    done = await http.get("/api/lessons", headers=ann.auth)
    assert {i["id"]: i["done"] for i in done.json()["items"]}[lesson_id] is True
    await sock.close()


def _refused_move(lesson: Lesson, kind: str) -> dict[str, Any]:
    """A move of the first step that the engine (`illegal`) or the step's goal (`goal`) refuses."""
    run = LessonRun.begin(lesson)
    legal = run.game.legal_moves()
    if kind == "goal":
        return next(m for m in legal if lesson.steps[0].goal.accepts(run.game, m) is not None).to_wire()
    hand = run.view()["hand"]
    return {"kind": "play", "card": hand[0]["id"], "from": "hand", "to": "side:0:0"}


async def test_a_refused_move_changes_nothing(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    lesson = LESSONS[0]  # aim: play the pay-off card, nothing else
    sock = await Sock.open(server.base, await start(http, ann, lesson.id), ann)
    before = await sock.wait(lambda m: m["type"] == "state")
    miss = await sock.error({"type": "move", "id": "m1", "move": _refused_move(lesson, "goal")})
    assert miss["code"] == "lesson_goal" and miss["reason"].startswith("lesson.miss."), miss
    assert miss["id"] == "m1" and miss["message"] == render("en", miss["reason"], miss["params"])
    bad = await sock.error({"type": "move", "id": "m2", "move": _refused_move(lesson, "illegal")})
    assert bad["code"] in ("illegal_move", "bad_message"), bad
    if bad["code"] == "illegal_move":
        assert bad["reason"] and not bad["reason"].startswith("lesson."), bad
    chat = await sock.error({"type": "chat", "text": "hello"})
    assert chat["code"] == "not_allowed_now" and chat["reason"] == "lesson_room"
    assert last(sock, "state")["v"] == before["v"]  # nothing changed
    hint = await sock.request({"type": "hint"}, lambda m: m["type"] == "hint")
    state = await sock.request({"type": "move", "id": "m3", "move": hint["move"]}, lambda m: m["type"] == "state")
    assert state["v"] == before["v"] + 1


async def test_an_engine_refusal_is_illegal_move_with_the_engines_reason(server: ServerThread,
                                                                        http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    lesson = LESSONS[0]
    sock = await Sock.open(server.base, await start(http, ann, lesson.id), ann)
    state = await sock.wait(lambda m: m["type"] == "state")
    view = state["view"]
    card = view["hand"][0]
    stacks = [c for c in view["centre"]] if isinstance(view.get("centre"), list) else []
    move = {"kind": "play", "card": card["id"], "from": "hand", "to": "centre:0"}
    err = await sock.error({"type": "move", "id": "x", "move": move})
    assert err["code"] == "illegal_move" and err["reason"] and not err["reason"].startswith("lesson."), (err, stacks)


async def test_out_of_turn_and_after_the_end(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    lesson = LESSONS[0]
    sock = await Sock.open(server.base, await start(http, ann, lesson.id), ann)
    await walk(sock)
    err = await sock.error({"type": "hint"})
    assert err["code"] == "not_your_turn"
    move = {"kind": "discard", "card": 0, "to": "side:0:0"}
    err = await sock.error({"type": "move", "id": "late", "move": move})
    assert err["code"] in ("not_allowed_now", "not_your_turn"), err


async def _closed(sock: Sock) -> None:
    with pytest.raises(AssertionError, match="closed"):
        await sock.wait(lambda m: False, timeout=10)


async def test_someone_else_may_not_open_my_lesson(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann, eve = await new_person(http, "Ann"), await new_person(http, "Eve")
    code = await start(http, ann, LESSONS[0].id)
    sock = await Sock.open(server.base, code, eve, hello=False)
    await sock.send({"type": "hello", "token": eve.token, "last_v": None})
    err = await sock.wait(lambda m: m["type"] == "error")
    assert err["code"] == "not_allowed_now" and err["reason"] == "lesson_private"
    await _closed(sock)
    assert sock.closed is not None and sock.closed[0] == FORBIDDEN
    assert not any(m["type"] in ("state", "lesson") for m in sock.messages)


async def test_an_unknown_lesson_code_closes_4404(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    sock = await Sock.open(server.base, "1ZZZZZZZZZZZ", ann, hello=False)
    await _closed(sock)
    assert sock.closed is not None and sock.closed[0] == NOT_FOUND


def _lessons_of(app: Any, *extra: Lesson) -> None:
    """Lessons beyond the catalogue's, for this app's lesson service (the catalogue's remain)."""
    more = {x.id: x for x in extra}
    app.state.services.lessons.lessons = lambda key: more.get(key) or find(key)


TWO = Lesson("two_steps", DISCARD.steps + DISCARD.steps)


async def test_a_new_app_on_the_same_database_resumes_the_run(db_url: str) -> None:
    first = ServerThread(create_app(make_settings(db_url))).start()
    try:
        _lessons_of(first.app, TWO)
        async with httpx.AsyncClient(base_url=first.base, timeout=30) as http:
            ann = await new_person(http, "Ann")
            code = await start(http, ann, TWO.id)
            sock = await Sock.open(first.base, code, ann)
            await sock.wait(lambda m: m["type"] == "state")
            hint = await sock.request({"type": "hint"}, lambda m: m["type"] == "hint")
            await sock.request({"type": "move", "id": "a", "move": hint["move"]}, lambda m: m["type"] == "state")
            assert last(sock, "lesson")["step"] == 2
            await sock.close()
    finally:
        first.stop()
    second = ServerThread(create_app(make_settings(db_url))).start()
    try:
        _lessons_of(second.app, TWO)
        sock = await Sock.open(second.base, code, ann)
        state = await sock.wait(lambda m: m["type"] == "state")
        assert last(sock, "lesson")["step"] == 2 and state["v"] == 1  # the run as it was left
        await walk(sock)
        assert last(sock, "lesson")["finished"]
        await sock.close()
    finally:
        second.stop()


async def test_a_move_made_first_on_another_instance_wins(db_url: str) -> None:
    """Two instances, one learner's run: the second socket's move, decided on the table it had,
    loses the write (`conflict`) and is sent the table the store holds; nothing is played twice."""
    one = ServerThread(create_app(make_settings(db_url))).start()
    two = ServerThread(create_app(make_settings(db_url))).start()
    try:
        for server in (one, two):
            _lessons_of(server.app, TWO)
        async with httpx.AsyncClient(base_url=one.base, timeout=30) as http:
            ann = await new_person(http, "Ann")
            code = await start(http, ann, TWO.id)
        a, b = await Sock.open(one.base, code, ann), await Sock.open(two.base, code, ann)
        await a.wait(lambda m: m["type"] == "state")
        await b.wait(lambda m: m["type"] == "state")
        hint = await a.request({"type": "hint"}, lambda m: m["type"] == "hint")
        await a.request({"type": "move", "id": "a1", "move": hint["move"]}, lambda m: m["type"] == "state")
        start_at = len(b.messages)
        lost = await b.error({"type": "move", "id": "b1", "move": hint["move"]})
        assert lost["code"] == "conflict" and lost["id"] == "b1", lost
        fresh = await b.wait(lambda m: m["type"] == "state", start=start_at)
        assert fresh["v"] == 1 and last(b, "lesson")["step"] == 2
        assert await walk(b) == 1  # the second step only: the first was played once, on the other instance
        await a.close()
        await b.close()
    finally:
        two.stop()
        one.stop()


def _two_moves(start: Any, now: Any, moves: Any) -> bool:
    return len(moves) >= 2


_HANDS = [["5C", "9H", "JD", "3S", "6H"], ["2C", "4C", "8H", "10D", "JS"]]
BOT = Lesson("with_bot", (Step("discard", MoveGoal(is_discard, "discard", until=_two_moves), solver(is_discard),
                               position=table(payoff=[["9C", "4D", "10H"], ["QS", "8S", "7D"]], hands=_HANDS)),),
             bot="easy")


async def test_the_bots_moves_come_from_the_bot_pool(db_url: str) -> None:
    server = ServerThread(create_app(make_settings(db_url))).start()
    try:
        _lessons_of(server.app, BOT)
        lessons = server.app.state.services.lessons
        pool, asked = lessons.bots, []

        class Spy:
            async def choose(self, view: dict[str, Any], level: str) -> dict[str, Any]:
                asked.append(level)
                move: dict[str, Any] = await pool.choose(view, level)
                return move

        lessons.bots = Spy()
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            ann = await new_person(http, "Ann")
            sock = await Sock.open(server.base, await start(http, ann, BOT.id), ann)
            await walk(sock)
            assert asked and set(asked) == {"easy"}
            bot_events = [e for m in sock.messages if m["type"] == "state" for e in m["events"] if e.get("seat") == 1
                          and e["type"] in ("play", "discard")]
            assert bot_events, sock.summary(12)
            assert Move.from_wire(last(sock, "state")["view"]["legal_moves"][0]) if last(sock, "state")["view"][
                "legal_moves"] else True
            await sock.close()
    finally:
        server.stop()
