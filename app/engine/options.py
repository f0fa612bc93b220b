"""Rule options: one frozen value type, the presets by name, and validation.

`make_options(preset, overrides)` is the only way the rest of the product builds options:
it starts from the defaults (the standard game), applies the preset, then the overrides one
by one, fills the values other options imply, and refuses an impossible combination with an
`OptionsError` naming the option. JSON names are exactly those of docs/rules.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .cards import RANK_BY_NAME, RANK_NAMES
from .errors import OptionsError

CHOICES: dict[str, tuple[str, ...]] = {
    "teams": ("none", "pairs"),
    "completed_stacks": ("shuffle_into_stock", "set_aside_until_stock_empty"),
    "stock_out": ("draw", "fewest_wins", "play_on"),
    "five_card_bonus": ("refill", "centre_only", "none"),
    "discard_rule": ("any", "same_or_one_lower"),
    "stalemate": ("end", "redeal"),
    "deal": ("shuffled_together", "separate_packs"),
    "first_player": ("highest", "lowest_deals", "dealer"),
    "side_plays": ("one", "many"),
    "side_colours": ("any", "alternate"),
    "side_stacks_shown": ("spread", "squared", "peek"),
}
BOOLS = (
    "kings_wild", "must_discard", "side_to_side", "aces_on_side_stacks", "wilds_on_side_stacks",
    "compulsory_aces", "compulsory_aces_twos", "load_opponent", "massachusetts",
    "stalemate_aces_twos", "take_backs",
)
INT_RANGES: dict[str, tuple[int, int]] = {
    "players": (2, 6),
    "decks": (1, 8),
    "payoff_size": (5, 30),
    "hand_size": (5, 5),
    "side_stacks": (4, 4),
    "winner_bonus": (0, 100),
}
CENTRE_RANGE = (3, 12)
UNLIMITED = "unlimited"
PLAYERS_PLUS_ONE = "players_plus_one"


@dataclass(frozen=True, slots=True)
class Options:
    """Every rule option of docs/rules.md, already resolved (no 'auto' values).

    `centre_stacks` is None for unlimited; `match_target` is None for a single game.
    """

    players: int = 2
    teams: str = "none"
    decks: int = 2
    jokers_per_deck: int = 0
    kings_wild: bool = True
    wild_cannot_be: frozenset[str] = frozenset({"A"})
    payoff_size: int = 20
    hand_size: int = 5
    side_stacks: int = 4
    centre_stacks: int | None = 4
    completed_stacks: str = "shuffle_into_stock"
    stock_out: str = "draw"
    five_card_bonus: str = "refill"
    discard_rule: str = "any"
    must_discard: bool = True
    side_to_side: bool = False
    aces_on_side_stacks: bool = True
    wilds_on_side_stacks: bool = True
    compulsory_aces: bool = False
    compulsory_aces_twos: bool = False
    load_opponent: bool = False
    massachusetts: bool = False
    stalemate: str = "end"
    winner_bonus: int = 5
    match_target: int | None = None
    deal: str = "shuffled_together"
    first_player: str = "highest"
    side_plays: str = "one"
    side_colours: str = "any"
    side_stacks_shown: str = "spread"
    stalemate_aces_twos: bool = False
    take_backs: bool = False

    @property
    def top_rank(self) -> int:
        """The rank that completes a centre stack: Queen (12), or King (13) if kings are not wild."""
        return 12 if self.kings_wild else 13

    @property
    def team_count(self) -> int:
        return self.players // 2 if self.teams == "pairs" else self.players

    def team_of(self, seat: int) -> int | None:
        """Team index of a seat (partners sit opposite), or None without teams."""
        return seat % (self.players // 2) if self.teams == "pairs" else None

    def to_json(self) -> dict[str, Any]:
        """Every option by its rules.md name, as JSON values (a fresh dict)."""
        return dict(_options_json(self))

    def _make_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "wild_cannot_be":
                value = sorted(value, key=lambda r: RANK_BY_NAME[r])
            elif f.name == "centre_stacks" and value is None:
                value = UNLIMITED
            out[f.name] = value
        return out


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Options))


@lru_cache(maxsize=256)
def _options_json(options: Options) -> dict[str, Any]:
    return options._make_json()


_BY_ID: dict[int, tuple[Options, dict[str, Any]]] = {}


def options_json(options: Options) -> dict[str, Any]:
    """`options.to_json()` shared between calls (views use it): callers must not mutate it.
    Found by the object's identity first (hashing every option per view costs a microsecond;
    the entry holds the object, so its id is not reused while it is there)."""
    hit = _BY_ID.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    if len(_BY_ID) >= 1024:
        _BY_ID.clear()
    out = _options_json(options)
    _BY_ID[id(options)] = (options, out)
    return out

OPTION_HELP: dict[str, str] = {
    "players": "Number of seats, 2 to 6.",
    "teams": "'pairs': partners sit opposite (4 or 6 players) and may play each other's piles.",
    "decks": "Number of 52-card decks shuffled together (default: the larger of 2 and the players).",
    "jokers_per_deck": "Jokers added per deck (0 or 2); jokers are always wild.",
    "kings_wild": "Kings are wild and stacks climb A to Q; off: stacks climb A to K.",
    "wild_cannot_be": "Ranks a wild card may not stand for (for example the Ace).",
    "payoff_size": "Cards in each pay-off pile at the deal (5 to 30).",
    "hand_size": "Cards in a full hand.",
    "side_stacks": "Side (discard) stacks per player.",
    "centre_stacks": "How many centre stacks may exist at once, 'unlimited', or 'players_plus_one'.",
    "completed_stacks": "A finished stack goes into the stock at once, or is set aside until the stock runs out.",
    "stock_out": "When the stock runs out: a draw, the fewest pay-off cards wins, or play on without drawing.",
    "five_card_bonus": "Emptying your hand in your turn draws a fresh hand and you go on; 'centre_only': only "
                       "if every card went to the centre.",
    "discard_rule": "'same_or_one_lower': on a side stack only the same rank or one lower.",
    "must_discard": "A turn must end with a discard; off: you may end a turn without one (or pass).",
    "side_to_side": "The top card of a side stack may move to another of your side stacks.",
    "aces_on_side_stacks": "Off: an Ace may never be discarded.",
    "wilds_on_side_stacks": "Off: a wild card may never be discarded.",
    "compulsory_aces": "An Ace in your hand or on your pay-off pile must be played at once (unlimited centre stacks).",
    "compulsory_aces_twos": "An Ace or 2 on your pay-off pile or side stacks must be played as soon as it can.",
    "load_opponent": "You may load an opponent's pay-off pile with a card of the same suit one rank above or below.",
    "massachusetts": "Side stacks start with a card each and must be refilled before your final discard.",
    "stalemate": "When every player passes: the fewest pay-off cards wins, or all but the pay-off piles are redealt.",
    "winner_bonus": "Points for going out, on top of one per card left in the opponents' pay-off piles.",
    "match_target": "Play hands until someone reaches this score; empty for a single game.",
    "deal": "'separate_packs': pay-off piles from one pack, hands and stock (with every joker) from the rest.",
    "first_player": "'highest': highest pay-off card starts; 'lowest_deals': lowest deals, the next seat starts; "
                    "'dealer': a dealer is drawn at random and goes first.",
    "side_plays": "'many': any number of discards to your side stacks in a turn; you end it yourself.",
    "side_colours": "'alternate': a card on a side stack must be the other colour than the card below.",
    "side_stacks_shown": "'squared': only the top card of each side stack is shown; remember the rest; "
                         "'peek': the same, but you may look through your own.",
    "stalemate_aces_twos": "In a block, an Ace or 2 in your hand that fits the centre must be played.",
    "take_backs": "You may take back your last move of the turn while it revealed nothing.",
}

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "pagat": {"centre_stacks": 3, "side_stacks_shown": "squared"},
    "hoyle": {"stock_out": "play_on", "side_stacks_shown": "peek"},
    "wikipedia": {"payoff_size": 26, "aces_on_side_stacks": False},
    "short": {"payoff_size": 13},
    "cat_and_mouse": {
        "payoff_size": 26, "deal": "separate_packs", "jokers_per_deck": 2,
        "kings_wild": False, "wild_cannot_be": ["A"], "compulsory_aces": True,
        "discard_rule": "same_or_one_lower", "side_to_side": True, "must_discard": False,
        "winner_bonus": 10, "first_player": "lowest_deals", "side_plays": "many", "match_target": 25,
    },
    "book": {
        "payoff_size": 26, "deal": "separate_packs", "jokers_per_deck": 2,
        "wild_cannot_be": ["A"], "discard_rule": "same_or_one_lower", "must_discard": False,
        "compulsory_aces_twos": True, "centre_stacks": UNLIMITED, "stalemate": "end",
    },
    "massachusetts": {"massachusetts": True, "payoff_size": 14},
}

PRESET_HELP: dict[str, str] = {
    "standard": "Two decks, pay-off piles of 20, kings wild, four centre stacks.",
    "pagat": "As Pagat describes it: at most three centre stacks, side stacks squared up.",
    "hoyle": "As in Hoyle's program: play on without drawing when the stock runs out; peek at your own side stacks.",
    "wikipedia": "Pay-off piles of 26 and no Aces on side stacks.",
    "short": "A quick game with pay-off piles of 13.",
    "cat_and_mouse": "One pack for pay-off piles, the other with 4 jokers for the stock; aces compulsory.",
    "book": "The card-book version: separate packs, restricted discards, Aces and 2s compulsory.",
    "massachusetts": "Pay-off piles of 14; side stacks start filled and must be kept filled.",
}


def _parse_value(name: str, value: Any) -> Any:
    """Coerce one JSON option value, or raise OptionsError naming it."""
    if name in BOOLS:
        if not isinstance(value, bool):
            raise OptionsError(name, "must be true or false", key="option_bool")
        return value
    if name in CHOICES:
        if value not in CHOICES[name]:
            raise OptionsError(name, "must be one of " + ", ".join(CHOICES[name]), key="option_choice",
                               params={"choices": ", ".join(CHOICES[name])})
        return value
    if name in INT_RANGES:
        lo, hi = INT_RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            if lo == hi:
                raise OptionsError(name, f"must be {lo}", key="option_exactly", params={"value": lo})
            raise OptionsError(name, f"must be a whole number from {lo} to {hi}", key="option_range",
                               params={"min": lo, "max": hi})
        return value
    if name == "jokers_per_deck":
        if isinstance(value, bool) or value not in (0, 2):
            raise OptionsError(name, "must be 0 or 2", key="option_jokers")
        return value
    if name == "centre_stacks":
        if value is None or value == UNLIMITED:
            return None
        if value == PLAYERS_PLUS_ONE:
            return PLAYERS_PLUS_ONE
        lo, hi = CENTRE_RANGE
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise OptionsError(name, f"must be a whole number from {lo} to {hi}, 'unlimited' or "
                               f"'{PLAYERS_PLUS_ONE}'", key="option_centre",
                               params={"min": lo, "max": hi, "players_plus_one": PLAYERS_PLUS_ONE})
        return value
    if name == "match_target":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000:
            raise OptionsError(name, "must be a positive whole number (at most 10000) or empty for a single game",
                               key="option_match_target", params={"max": 10_000})
        return value
    if name == "wild_cannot_be":
        if not isinstance(value, (list, tuple, set, frozenset)):
            raise OptionsError(name, "must be a list of ranks such as [\"A\", \"7\"]", key="option_ranks_list")
        ranks = set()
        for r in value:
            if r not in RANK_BY_NAME or r == "JOKER":
                raise OptionsError(name, f"{r!r} is not a rank (A, 2-10, J, Q, K)", key="option_not_rank",
                                   params={"rank": repr(r)[:40]})
            ranks.add(r)
        return frozenset(ranks)
    raise OptionsError(name, "is not a known option", key="option_unknown")


def make_options(preset: str = "standard", overrides: Mapping[str, Any] | None = None) -> Options:
    """Resolve a preset plus overrides into validated `Options`.

    Implied values (applied only where the preset and the overrides are silent):
    `decks` = max(2, players), or under `deal=separate_packs` the decks the pay-off piles
    need plus one stock deck per two players; `centre_stacks` = unlimited under
    `compulsory_aces`; `payoff_size` = 14 under `massachusetts`; `discard_rule` = any when the
    overrides ask for `side_colours=alternate` but not for a discard rule (seed 003: alternate
    colours replace the sequence rule, also a preset's). `centre_stacks` given as
    `players_plus_one` resolves to players + 1.
    """
    if preset not in PRESETS:
        raise OptionsError("preset", "must be one of " + ", ".join(PRESETS), key="preset_unknown")
    overrides = dict(overrides or {})
    explicit = dict(PRESETS[preset])
    for name in overrides:
        if name not in OPTION_NAMES:
            raise OptionsError(name, "is not a known option", key="option_unknown")
    explicit.update(overrides)
    values: dict[str, Any] = {}
    for name, raw in explicit.items():
        values[name] = _parse_value(name, raw)
    players = values.get("players", 2)
    if values.get("centre_stacks") == PLAYERS_PLUS_ONE:
        values["centre_stacks"] = players + 1
    if values.get("compulsory_aces") and "centre_stacks" not in values:
        values["centre_stacks"] = None
    if values.get("massachusetts") and "payoff_size" not in values:
        values["payoff_size"] = 14
    if values.get("side_colours") == "alternate" and "discard_rule" not in overrides:
        values["discard_rule"] = "any"
    if "decks" not in values:
        if values.get("deal") == "separate_packs":
            payoff = players * values.get("payoff_size", 20)
            values["decks"] = -(-payoff // 52) + -(-players // 2)
        else:
            values["decks"] = max(2, players)
    options = Options(**values)
    validate(options)
    return options


def validate(o: Options) -> None:
    """Refuse an impossible combination with an OptionsError naming the option."""
    if o.teams == "pairs" and o.players not in (4, 6):
        raise OptionsError("teams", "pairs needs 4 or 6 players", key="pairs_players")
    if o.compulsory_aces and o.centre_stacks is not None:
        raise OptionsError("centre_stacks", "compulsory_aces needs unlimited centre stacks", key="compulsory_unlimited")
    per_deck = 52 + o.jokers_per_deck
    total = o.decks * per_deck
    payoff = o.players * o.payoff_size
    table = o.players * o.hand_size + (o.players * o.side_stacks if o.massachusetts else 0)
    if o.deal == "separate_packs":
        payoff_decks = -(-payoff // 52)
        if payoff_decks >= o.decks:
            raise OptionsError(
                "decks",
                f"separate packs need more than the {payoff_decks} deck(s) that {o.players} "
                f"pay-off piles of {o.payoff_size} use", key="packs_too_few",
                params={"n": payoff_decks, "players": o.players, "size": o.payoff_size},
            )
        rest = total - payoff
        if rest < table + 1:
            raise OptionsError("decks", f"the stock pack has {rest} cards, fewer than the "
                               f"{table + 1} the hands need", key="stock_pack_small",
                               params={"n": rest, "need": table + 1})
    elif total < payoff + table + 1:
        raise OptionsError(
            "decks",
            f"{o.decks} deck(s) ({total} cards) cannot give {o.players} players pay-off piles of "
            f"{o.payoff_size} and hands of {o.hand_size} ({payoff + table} cards) and leave a stock",
            key="decks_too_few", params={"n": o.decks, "players": o.players, "size": o.payoff_size},
        )


def options_from_json(data: Mapping[str, Any]) -> Options:
    """Rebuild options from their `to_json()` form (every option given)."""
    return make_options("standard", {k: v for k, v in data.items() if k in OPTION_NAMES})


def rank_set(names: frozenset[str]) -> frozenset[int]:
    return frozenset(RANK_BY_NAME[n] for n in names)


__all__ = [
    "Options", "make_options", "validate", "options_from_json", "PRESETS", "PRESET_HELP",
    "OPTION_HELP", "OPTION_NAMES", "CHOICES", "UNLIMITED", "RANK_NAMES", "rank_set",
]
