"""Golden playthroughs: one short seeded game per preset, written as text (every move and
each seat's view after it). `python scripts/make_goldens.py` rewrites the files;
tests/engine/test_golden.py replays and compares them, so any change of behaviour shows up
as a readable diff."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from app.engine import PRESETS, Match, make_options, view

GOLDEN_DIR = Path(__file__).parent / "golden"

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "squared": ("standard", {"side_stacks_shown": "squared", "side_to_side": True, "must_discard": False}),
    "alternate_dealer": ("standard", {"players": 3, "side_colours": "alternate", "first_player": "dealer",
                                      "centre_stacks": "players_plus_one"}),
    "take_backs": ("standard", {"take_backs": True, "must_discard": False, "side_plays": "many"}),
    "book_aces_twos": ("book", {"stalemate_aces_twos": True}),
}
"""Golden games of option mixes the presets do not cover (name: preset and overrides)."""
GOLDENS: dict[str, tuple[str, dict[str, Any]]] = {p: (p, {}) for p in sorted(PRESETS)} | VARIANTS


def card(c: dict[str, Any] | None) -> str:
    if c is None:
        return "-"
    text = "JK" if c["rank"] == "JOKER" else c["rank"] + c["suit"]
    return f"{text}={c['as']}" if "as" in c else text


def render_view(v: dict[str, Any]) -> str:
    """One line per receiver: everything the view shows, compactly."""
    centre = " ".join("[" + ",".join(card(c) for c in st) + "]" for st in v["centre"])
    players = []
    for p in v["players"]:
        sides = " ".join("[" + ",".join(card(c) for c in st) + "]" for st in p["side"])
        if v["options"]["side_stacks_shown"] != "spread":
            sides += " counts " + ",".join(str(n) for n in p["side_counts"])
        players.append(f"p{p['seat']} pay {p['payoff_count']}:{card(p['payoff_top'])} hand {p['hand_count']} "
                       f"side {sides} score {p['score']}")
    hand = " ".join(card(c) for c in v["hand"])
    if v.get("own_side") is not None:  # side_stacks_shown=peek: the receiver's own stacks, whole
        hand += " own " + " ".join("[" + ",".join(card(c) for c in st) + "]" for st in v["own_side"])
    line = (f"you {v['you']} turn {v['turn']} {v['status']} stock {v['stock_count']} centre {centre} | "
            + " | ".join(players) + f" | hand {hand} | legal {len(v['legal_moves'])}")
    if v["result"]:
        r = v["result"]
        line += f" | result {r['reason']} winners {r['winners']} scores {r['scores']}"
    return line


def playthrough(name: str) -> str:
    preset, overrides = GOLDENS[name]
    o = make_options(preset, overrides)
    m = Match(o, [f"P{i}" for i in range(o.players)])
    seed = f"golden-{name}"
    m.deal(seed)
    rng = random.Random(seed)
    mix = f" {overrides}" if overrides else ""
    lines = [f"# preset {preset}{mix}, seed {seed}, random legal moves from random.Random({seed!r})",
             f"options {o.to_json()}"]

    def views() -> None:
        for seat in range(o.players):
            lines.append("  " + render_view(view(m, seat)))

    lines.append(f"v{m.v} deal, first {m.game.first}")
    views()
    while m.status == "playing":
        move = rng.choice(m.game.legal_moves())
        seat = m.game.turn
        m.apply(move, seat=seat)
        wire = move.to_wire()
        if "card" in wire:
            wire["card"] = m.game.deck.code(wire["card"])
        lines.append(f"v{m.v} seat {seat} {wire}")
        views()
    return "\n".join(lines) + "\n"


def golden_path(preset: str) -> Path:
    return GOLDEN_DIR / f"{preset}.txt"


def write_all() -> list[Path]:
    GOLDEN_DIR.mkdir(exist_ok=True)
    paths = []
    for name in GOLDENS:
        path = golden_path(name)
        path.write_text(playthrough(name))
        paths.append(path)
    return paths
