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
}

CHOICE_LABEL: dict[str, dict[str, str]] = {
    "teams": {"none": "Every player for themselves", "pairs": "Partners sitting opposite"},
    "jokers_per_deck": {"0": "No jokers", "2": "Two jokers"},
    "completed_stacks": {"shuffle_into_stock": "Goes back into the stock",
                         "set_aside_until_stock_empty": "Is set aside until the stock runs out"},
    "stock_out": {"draw": "The hand is a draw", "fewest_wins": "Fewest pay-off cards wins",
                  "play_on": "Play on without drawing"},
    "five_card_bonus": {"refill": "Draw a fresh hand and go on", "none": "Nothing more"},
    "discard_rule": {"any": "Any card", "same_or_one_lower": "Only the same rank or one lower"},
    "stalemate": {"end": "Fewest pay-off cards wins", "redeal": "Redeal all but the pay-off piles"},
    "deal": {"shuffled_together": "Everything shuffled together",
             "separate_packs": "Pay-off piles from a pack of their own"},
    "first_player": {"highest": "Highest pay-off card starts",
                     "lowest_deals": "Lowest card deals, the next player starts"},
    "centre_stacks": {"unlimited": "As many as you like"},
}

# Help texts in a player's words where the engine's own quote code names.
HELP: dict[str, str] = {
    "teams": "Partners sit opposite (4 or 6 players) and may play from each other's piles.",
    "centre_stacks": "How many centre stacks may be started at once.",
    "discard_rule": "Whether any card may go on a side stack, or only the same rank or one lower.",
    "deal": "Everything from one shuffle, or the pay-off piles from a pack of their own and hands and "
            "stock (with every joker) from the rest.",
    "first_player": "The player with the highest pay-off card starts; or the lowest card deals and the "
                    "next player starts.",
}

PRESET_LABEL: dict[str, str] = {
    "standard": "Standard", "pagat": "Pagat's rules", "hoyle": "Hoyle's rules", "wikipedia": "Wikipedia's rules",
    "short": "Short game", "cat_and_mouse": "Cat and Mouse", "book": "The card book's rules",
    "massachusetts": "Massachusetts",
}
