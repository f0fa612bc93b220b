"""Every reason the engine gives for refusing a move, by a stable key, in the engine's own
English. A refusal carries its key and its parameters (numbers, rank numbers, card codes), so
whoever shows it may say it in another language (the catalogues in static/i18n/ hold the
texts under `reason.<key>`; docs/client.md, "Languages").

A template names a parameter as `{name}`, or `{name:kind}` where kind is how it is said:
`rank` ("Queen"), `a_rank` ("a Queen"), `ranks_or` (a list: "Ace or 2"), `card` (a card code
such as "7H": "7♥")."""

from __future__ import annotations

import re
from typing import Any

from .cards import RANK_BY_NAME, RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS, a_rank, rank_word
from .errors import IllegalMove

REASONS: dict[str, str] = {
    "no_such_card": "there is no such card",
    "not_in_hand": "that card is not in your hand",
    "centre_stays": "cards on the centre stacks stay there",
    "own_piles_only": "you may only play from your own piles",
    "own_or_partner_piles": "you may only play from your own piles and your partner's",
    "payoff_top_only": "only the top card of a pay-off pile can be played",
    "no_such_side_stack": "there is no such side stack",
    "side_top_only": "only the top card of a side stack can be played",
    "take_backs_off": "take-backs are not allowed in this game",
    "take_backs_used": "you may take back at most {n} moves in a turn",
    "nothing_to_take_back": "there is no move of yours this turn that can be taken back "
                            "(it showed a card, or there is none)",
    "must_play_first": "you must first play your {ranks:ranks_or} to the centre",
    "payoff_to_centre": "a pay-off card can only go to a centre stack",
    "discard_to_side": "use a discard to put a card on a side stack",
    "no_such_centre_stack": "there is no such centre stack",
    "wild_cannot_be": "a wild card cannot stand for {need:a_rank} here",
    "ace_starts": "only an Ace can start a centre stack",
    "ace_on_empty": "an Ace can only start a new stack on an empty centre slot",
    "wrong_rank": "{rank:a_rank} cannot go on a stack that needs {need:a_rank}",
    "fits_no_centre": "{rank:a_rank} fits no centre stack now (they need: {needs:ranks_or})",
    "discard_from_hand": "you can only discard a card from your hand",
    "discard_on_side": "a discard goes on one of your side stacks",
    "discard_own_side": "you may only discard to your own side stacks",
    "no_wild_discard": "a wild card may not be discarded",
    "no_ace_discard": "an Ace may not be discarded",
    "fill_empty_first": "fill your empty side stacks first",
    "colours_alternate": "on a side stack colours must alternate: red on black, black on red",
    "same_or_one_lower": "on that side stack only the same rank or one lower may go",
    "no_side_to_side": "cards may not move from one side stack to another",
    "side_move_bad": "that side stack card cannot move there",
    "no_loading": "loading an opponent's pay-off pile is not allowed in this game",
    "load_bad": "you may load only a card of the same suit, one rank above or below the top card",
    "fill_before_end": "fill your empty side stacks before you end your turn",
    "discard_before_end": "discard at least one card to a side stack before you end your turn",
    "discard_to_end": "you must discard a card to a side stack to end your turn",
    "not_allowed": "that move is not allowed now",
    "hand_over": "the hand is over",
    "match_not_started": "the match has not started",
    "not_dealt_yet": "a new hand can only be dealt when the previous one is over",
    "not_your_turn": "it is not your turn",
    "bad_move": "that is not a move",
}
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")


def _say(value: Any, kind: str | None) -> str:
    if kind == "rank":
        return rank_word(int(value))
    if kind == "a_rank":
        return a_rank(int(value))
    if kind == "ranks_or":
        return " or ".join(rank_word(int(r)) for r in value)
    if kind == "card":
        code = str(value)
        if code == "JK":
            return "Joker"
        return RANK_NAMES[RANK_BY_NAME[code[:-1]]] + SUIT_SYMBOLS[SUIT_NAMES.index(code[-1])]
    return str(value)


def fill(template: str, params: dict[str, Any]) -> str:
    """`template` with `params` said in English."""
    return PLACEHOLDER.sub(lambda m: _say(params[m.group(1)], m.group(2)), template)


def english(key: str, params: dict[str, Any]) -> str:
    """The engine's sentence for `key` with `params` filled in."""
    return fill(REASONS[key], params)


def refusal(key: str, cls: type[IllegalMove] = IllegalMove, **params: Any) -> IllegalMove:
    """The error refusing a move for reason `key` (its message the English sentence)."""
    return cls(english(key, params), key=key, params=params)
