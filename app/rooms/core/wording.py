"""The options in a player's words, for the create-room form (`GET /api/options`): a label for
each option, each choice and each preset, and help texts that never quote a value's code name.
The code names stay the wire's; only what a person reads is here."""

from __future__ import annotations

OPTION_LABEL: dict[str, str] = {
    "players": "Players",
    "teams": "Teams",
    "decks": "Decks of cards",
    "jokers_per_deck": "Jokers per deck",
    "kings_wild": "Kings are wild",
    "wild_cannot_be": "A wild card may not stand for",
    "payoff_size": "Pay-off pile size",
    "hand_size": "Cards in a hand",
    "side_stacks": "Side stacks per player",
    "centre_stacks": "Centre stacks at once",
    "completed_stacks": "A finished centre stack",
    "stock_out": "When the stock runs out",
    "five_card_bonus": "Play your whole hand",
    "discard_rule": "What may go on a side stack",
    "must_discard": "A turn ends with a discard",
    "side_to_side": "Move cards between side stacks",
    "aces_on_side_stacks": "Aces may be discarded",
    "wilds_on_side_stacks": "Wild cards may be discarded",
    "compulsory_aces": "Aces must be played at once",
    "compulsory_aces_twos": "Aces and 2s must be played at once",
    "load_opponent": "Load an opponent's pay-off pile",
    "massachusetts": "Massachusetts side stacks",
    "stalemate": "When nobody can play",
    "winner_bonus": "Bonus for going out",
    "match_target": "Match",
    "deal": "How the cards are dealt",
    "first_player": "Who starts",
    "side_plays": "Discards in a turn",
    "side_colours": "Colours on side stacks",
    "side_stacks_shown": "Side stacks show",
    "stalemate_aces_twos": "Aces and 2s break a block",
    "take_backs": "Allow undo",
}

CHOICE_LABEL: dict[str, dict[str, str]] = {
    "teams": {"none": "Every player for themselves", "pairs": "Partners sitting opposite"},
    "jokers_per_deck": {"0": "No jokers", "2": "Two jokers"},
    "completed_stacks": {"shuffle_into_stock": "Goes back into the stock",
                         "set_aside_until_stock_empty": "Is set aside until the stock runs out"},
    "stock_out": {"draw": "The hand is a draw", "fewest_wins": "Fewest pay-off cards wins",
                  "play_on": "Play on without drawing"},
    "five_card_bonus": {"refill": "Draw a fresh hand and go on",
                        "centre_only": "Draw a fresh hand only if every card went to the centre",
                        "none": "Nothing more"},
    "discard_rule": {"any": "Any card", "same_or_one_lower": "Only the same rank or one lower"},
    "stalemate": {"end": "Fewest pay-off cards wins", "redeal": "Redeal all but the pay-off piles"},
    "deal": {"shuffled_together": "Everything shuffled together",
             "separate_packs": "Pay-off piles from a pack of their own"},
    "first_player": {"highest": "Highest pay-off card starts",
                     "lowest_deals": "Lowest card deals, the next player starts",
                     "dealer": "A dealer drawn at random goes first"},
    "centre_stacks": {"unlimited": "As many as you like", "players_plus_one": "One more than the players"},
    "side_plays": {"one": "One, and it ends the turn", "many": "As many as you like; you end the turn"},
    "side_colours": {"any": "Any colour on any colour", "alternate": "Red and black alternate"},
    "side_stacks_shown": {"spread": "Every card, fanned out", "squared": "Only the top card (remember the rest)",
                          "peek": "Only the top card; you may look through your own"},
}

# Help texts in a player's words where the engine's own quote code names.
HELP: dict[str, str] = {
    "teams": "Partners sit opposite (4 or 6 players) and may play from each other's piles.",
    "discard_rule": "Whether any card may go on a side stack, or only the same rank or one lower.",
    "deal": "Everything from one shuffle, or the pay-off piles from a pack of their own and hands and "
            "stock (with every joker) from the rest.",
    "first_player": "The player with the highest pay-off card starts; or the lowest card deals and the "
                    "next player starts; or a dealer is drawn at random and goes first.",
    "centre_stacks": "How many centre stacks may be started at once (or one more than the players).",
    "five_card_bonus": "When your hand runs out during your turn: draw five more and go on; or only if every "
                       "card of the hand went to the centre (not to your side stacks); or nothing more.",
    "side_plays": "One discard a turn, which ends it; or any number of discards, and you end the turn yourself.",
    "side_colours": "Any card on any card; or a red card only on a black one and a black only on a red "
                    "(wild cards go with any colour).",
    "side_stacks_shown": "Every card of a side stack fanned out; or the stacks squared up, only the top card "
                         "showing, so you must remember the rest; or squared up, but you may look through "
                         "your own (as in Hoyle's program).",
}

PRESET_LABEL: dict[str, str] = {
    "standard": "Standard", "pagat": "Pagat's rules", "hoyle": "Hoyle's rules", "wikipedia": "Wikipedia's rules",
    "short": "Short game", "cat_and_mouse": "Cat and Mouse", "book": "The card book's rules",
    "massachusetts": "Massachusetts",
}
