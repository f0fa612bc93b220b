// The client's types that no server schema declares, written by hand and copied into
// static/types.js by scripts/gen_types.py (edit this file, then run the script): the engine's
// shapes (cards, moves, options, the view, events), which the server passes through as open
// JSON, and what only the client holds (its identity, the configure form, an error body).

// ---- cards, piles, moves ---------------------------------------------------------------------

/** @typedef {"A" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K" | "JOKER"} Rank */
/** @typedef {"S" | "H" | "D" | "C"} Suit */
/**
 * A card as the view shows it; `as` only on a wild in a centre stack.
 * @typedef {{id: number, rank: Rank, suit: Suit | null, wild?: true, as?: Rank}} Card
 */
/** A pile's name on the wire: "hand", "payoff:S", "side:S:K", "centre:I". @typedef {string} Pile */
/**
 * A move object, as `legal_moves` gives it and `move` sends it back.
 * @typedef {{kind: "play", card: number, from: Pile, to: Pile}
 *   | {kind: "discard", card: number, to: Pile}
 *   | {kind: "move_side", from: Pile, to: Pile}
 *   | {kind: "load", card: number, from: Pile, to: Pile}
 *   | {kind: "end_turn"}
 *   | {kind: "take_back"}} Move
 */

// ---- the game options (rules.md names, resolved) ------------------------------------------

/**
 * @typedef {object} GameOptions
 * @property {number} players
 * @property {"none" | "pairs"} teams
 * @property {number} decks
 * @property {number} jokers_per_deck
 * @property {boolean} kings_wild
 * @property {Rank[]} wild_cannot_be
 * @property {number} payoff_size
 * @property {number} hand_size
 * @property {number} side_stacks
 * @property {number | "unlimited"} centre_stacks
 * @property {string} completed_stacks
 * @property {string} stock_out
 * @property {string} five_card_bonus
 * @property {string} discard_rule
 * @property {boolean} must_discard
 * @property {boolean} side_to_side
 * @property {boolean} aces_on_side_stacks
 * @property {boolean} wilds_on_side_stacks
 * @property {boolean} compulsory_aces
 * @property {boolean} compulsory_aces_twos
 * @property {boolean} load_opponent
 * @property {boolean} massachusetts
 * @property {string} stalemate
 * @property {number} winner_bonus
 * @property {number | null} match_target
 * @property {string} deal
 * @property {string} first_player
 * @property {string} side_plays
 * @property {string} side_colours
 * @property {string} side_stacks_shown
 * @property {boolean} stalemate_aces_twos
 * @property {boolean} take_backs
 */
/** One option's value. @typedef {GameOptions[keyof GameOptions]} OptionValue */

// ---- the view (engine `view`; `omniscient_view` for replays) -------------------------------

/**
 * @typedef {object} Player
 * @property {number} seat
 * @property {string} name
 * @property {number | null} team
 * @property {number} hand_count
 * @property {number} payoff_count
 * @property {Card | null} payoff_top
 * @property {Card[][]} side  four stacks, bottom first (`side_stacks_shown=squared`: each stack's top only)
 * @property {number[]} side_counts  cards in each side stack
 * @property {boolean | null} connected  null in replays
 * @property {number} score  the match total
 * @property {TurnEnd | null} [last_turn_end]  the table when this seat last closed its turn (v1.2)
 */
/**
 * @typedef {object} TurnEnd
 * @property {number[]} centre_counts  cards on each centre slot
 * @property {(string | null)[]} payoff_ranks  each seat's pay-off top rank then ("A" … "K", "JOKER")
 */
/**
 * @typedef {object} Result
 * @property {"payoff_out" | "stock_out" | "stalemate" | "forfeit" | "resign"} reason
 * @property {number[]} winners  empty for a draw
 * @property {number[]} scores  this hand's points by seat
 * @property {number[]} totals
 * @property {string} seed
 * @property {boolean} match_over
 * @property {number[]} match_winners
 */
/**
 * @typedef {object} View
 * @property {number | null} you
 * @property {number} turn
 * @property {"playing" | "hand_over" | "match_over"} status
 * @property {number} hand_number
 * @property {number} first
 * @property {number} stock_count
 * @property {number} set_aside_count
 * @property {Card[][]} centre
 * @property {Player[]} players
 * @property {Card[]} hand
 * @property {Card[][] | null} [own_side]  `side_stacks_shown=peek`: the receiver's own side stacks, whole
 * @property {Move[]} legal_moves
 * @property {{plays: number, centre_plays: number, moved_side: number[], passes: number, dry_turns: number, discards: number,
 *   off_centre: boolean, block: boolean, stale_refills: number, take_backs: number}} turn_info
 * @property {Result | null} result
 * @property {GameOptions} options
 * @property {string} deal_commitment
 * @property {number[]} totals
 * @property {number | null} match_target
 */
/** @typedef {Player & {hand: Card[], payoff: Card[], side_cards: Card[][]}} OpenPlayer */
/**
 * Every card face up (GET /api/matches/{id}/replay?at=N).
 * @typedef {Omit<View, "players"> & {players: OpenPlayer[], stock: Card[], set_aside: Card[], seed: string}} OpenView
 */

// ---- events (state.events) ------------------------------------------------------------------

/**
 * @typedef {{type: "deal", first: number}
 *   | {type: "play", seat: number, card: Card, from: Pile, to: Pile}
 *   | {type: "discard", seat: number, card: Card, to: Pile}
 *   | {type: "move_side", seat: number, card: Card, from: Pile, to: Pile}
 *   | {type: "load", seat: number, card: Card, from: Pile, to: Pile}
 *   | {type: "reveal", seat: number, card: Card}
 *   | {type: "complete", slot: number, count: number, into: "stock" | "aside"}
 *   | {type: "reshuffle", count: number}
 *   | {type: "draw", seat: number, count: number}
 *   | {type: "turn", seat: number}
 *   | {type: "end_turn", seat: number}
 *   | {type: "redeal"}
 *   | {type: "take_back", seat: number}
 *   | {type: "hand_over", reason: Result["reason"], winners: number[], scores: number[]}
 *   | {type: "forfeit", seat: number}
 *   | {type: "resign", seat: number}
 *   | {type: "autoplay", seat: number, by: "clock" | "absent"}} GameEvent
 */

// ---- the room, and what only the client holds -----------------------------------------------

/** @typedef {"random" | "easy" | "normal" | "hard"} BotLevel */
/**
 * @typedef {object} ConfigureFields
 * @property {string} preset
 * @property {Partial<GameOptions>} options
 * @property {number} seats
 * @property {number | null} turn_seconds
 * @property {boolean} hints
 * @property {boolean} [public]
 * @property {boolean} [rated]  only when creating a room (POST /api/rooms), only for an account
 */
/**
 * POST /api/players (a guest) or POST /api/sessions (an account), kept in localStorage;
 * `username` is set once the identity is an account.
 * @typedef {{id: string, name: string, token: string, username?: string | null}} Identity
 */
/**
 * One option of GET /api/options; `label` names it in a player's words, `choice_labels` (where
 * given) name its values (by their JSON text: "pairs", "2", "unlimited").
 * @typedef {{label: string, choice_labels?: Record<string, string>}} OptionWords
 * @typedef {OptionWords & ({default: boolean, help: string, kind: "bool"}
 *   | {default: string | number, help: string, kind: "choice", choices: (string | number)[]}
 *   | {default: number, help: string, kind: "int", min: number, max: number}
 *   | {default: number | "unlimited", help: string, kind: "int_or_unlimited", min: number, max: number, unlimited: "unlimited", also?: string[]}
 *   | {default: number | null, help: string, kind: "int_or_none", min: number, suggested: (number | null)[]}
 *   | {default: Rank[], help: string, kind: "ranks", suggested: Rank[][]})} OptionSpec
 */
/**
 * An error body (any 4xx): `detail` is FastAPI's (a string, or for 422 a list); v1.3: `message` in the
 * caller's language, `reason` (the catalogues' `reason.<key>`) and `params` beside it (null without one).
 * @typedef {{message: string, detail: string | {loc: (string | number)[], msg: string, type: string}[], option?: string, reason?: string | null, params?: Record<string, unknown> | null}} ErrorBody
 */
