// @ts-check
// The wire contract (docs/protocol.md) as JSDoc types, for the type check only
// (scripts/jscheck: tsc --checkJs). Nothing here runs and no module loads it at run time:
// modules name these types with  /** @typedef {import("./types.js").View} View */.
// Each type is what the server sends (app/server/wire.py, app/rooms/live.py, app/engine/views.py,
// app/rooms/config.py); a field the server never sends has no place here.

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
 * @property {"payoff_out" | "stock_out" | "stalemate"} reason
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
 * @property {{plays: number, centre_plays: number, moved_side: number[], passes: number, dry_turns: number}} turn_info
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
 *   | {type: "autoplay", seat: number, by: "clock" | "absent"}} GameEvent
 */

// ---- the room -------------------------------------------------------------------------------

/** @typedef {"random" | "easy" | "normal" | "hard"} BotLevel */
/**
 * An empty seat has every field null and `connected: false`.
 * `team`: the seat's team index (0, 1, 2) in a partnership game, else null.
 * @typedef {{seat: number, player_id: string | null, name: string | null, bot: BotLevel | null, connected: boolean,
 *   team: number | null}} RoomSeat
 */
/**
 * The room object (`room`, `welcome.room`, REST).
 * @typedef {object} Room
 * @property {string} code
 * @property {string} host  the host's player id
 * @property {string | null} host_name
 * @property {"waiting" | "playing" | "over"} status
 * @property {string} preset
 * @property {number} seats_taken
 * @property {GameOptions | null} options  null only if the stored options no longer resolve
 * @property {Partial<GameOptions>} overrides
 * @property {RoomSeat[]} seats
 * @property {number} seat_count
 * @property {boolean} public
 * @property {number | null} turn_seconds
 * @property {boolean} hints
 * @property {string | null} match_id
 * @property {number} match_number
 * @property {number} spectators  people connected who do not sit
 * @property {{player_id: string, name: string | null}[]} watchers  who they are (name null: unknown)
 * @property {boolean} seeded
 * @property {boolean} rated  a rated room: accounts only, no bots; its matches change ratings
 * @property {RematchInfo | null} [rematch]  once a match is over and someone offered a rematch
 */
/** REST answers add the links. @typedef {Room & {invite_url: string, socket_path: string}} RestRoom */

// ---- server -> client messages ----------------------------------------------------------------

/** @typedef {{player_id: string, name: string, seat: number | null, host: boolean, account?: boolean}} You */
/** @typedef {{mu: number, sigma: number, ordinal: number, games: number}} Rating */
/**
 * What a hand's or match's end awarded (the state's `awards`, null while a hand is played).
 * @typedef {object} Awards
 * @property {{seat: number, player_id: string, key: string, name: string, description: string}[]} achievements
 * @property {{seat: number, player_id: string, before: Rating, after: Rating}[]} ratings
 */
/** @typedef {{type: "welcome", you: You, room: Room}} WelcomeMessage */
/** @typedef {{type: "room", room: Room}} RoomMessage */
/** @typedef {{seat: number, deadline: string, remaining: number, turn_seconds: number}} Clock */
/**
 * A state on a split socket (the client says hello with `format: "split"`): the view is
 * `{...shared, ...own}`.
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {number} v
 * @property {Omit<View, "you" | "hand" | "legal_moves">} shared  the same for every receiver of this version
 * @property {Pick<View, "you" | "hand" | "legal_moves">} own  this receiver's own part
 * @property {GameEvent[]} events
 * @property {string} match_id
 * @property {number} match_number
 * @property {Clock | null} clock  null when there is no turn clock or no hand is being played
 * @property {number[]} autoplay  seats the server plays for while their players are away
 * @property {Awards | null} [awards]  once a hand or match is over: achievements earned, rating changes
 * @property {NextHandInfo | null} next_hand  between hands of a match: who is ready, the countdown
 */
/**
 * Between hands: the seats ready for the next hand (bots and players away count as ready), and
 * when it is dealt anyway (`remaining` seconds from when the state was sent).
 * @typedef {{ready: number[], deadline: string, remaining: number}} NextHandInfo
 */
/**
 * @typedef {"bad_message" | "unauthorized" | "not_your_turn" | "illegal_move" | "not_host" | "seat_taken"
 *   | "room_full" | "game_not_started" | "rate_limited" | "not_allowed_now" | "bad_options" | "conflict"
 *   | "hints_off" | "unavailable" | "rated_room"} ErrorCode
 */
/** @typedef {{type: "error", code: ErrorCode, message: string, id: string | null, option: string | null}} ErrorMessage */
/** @typedef {{type: "chat", from: {player_id: string, name: string, seat: number | null}, text: string, at: string}} ChatMessage */
/** @typedef {{type: "hint", v: number, move: Move, reason: string}} HintMessage */
/** The room's recent chat, oldest first, sent on each (re)connect. @typedef {{type: "chat_history", lines: Omit<ChatMessage, "type">[]}} ChatHistoryMessage */
/** @typedef {{by: number | null, seats: {seat: number, answer: "offered" | "accepted" | "declined" | "waiting" | "left" | "empty" | "bot"}[]}} RematchInfo */
/** The current hand's move log, sent on each (re)connect after the state (app/rooms/handlog.py).
 * @typedef {{type: "log", match_id: string, hand_number: number, entries: {v: number, events: GameEvent[]}[], made_for_you: number[]}} LogMessage */
/** @typedef {{type: "pong"}} PongMessage */
/**
 * @typedef {WelcomeMessage | RoomMessage | StateMessage | ErrorMessage | ChatMessage | ChatHistoryMessage
 *   | HintMessage | PongMessage | LogMessage} ServerMessage
 */

// ---- client -> server messages ----------------------------------------------------------------

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
 * @typedef {{type: "hello", token: string, last_v: number | null, format: "split"}
 *   | {type: "sit", seat: number} | {type: "stand"}
 *   | {type: "add_bot", seat: number, level: string} | {type: "remove_bot", seat: number}
 *   | {type: "free_seat", seat: number}
 *   | ({type: "configure"} & ConfigureFields) | {type: "start"}
 *   | {type: "move", id: string, move: Move} | {type: "chat", text: string}
 *   | {type: "next_hand"} | {type: "rematch", accept?: boolean} | {type: "ping"} | {type: "hint"}} ClientMessage
 */

// ---- REST -------------------------------------------------------------------------------------

/**
 * POST /api/players (a guest) or POST /api/sessions (an account), kept in localStorage;
 * `username` is set once the identity is an account.
 * @typedef {{id: string, name: string, token: string, username?: string | null}} Identity
 */
/** GET /api/players/{id} @typedef {{id: string, name: string, account: boolean, rating: Rating | null}} Profile */
/** GET /api/players/me @typedef {Profile & {username: string | null}} Me */
/** @typedef {{match_id: string, at: string, before: Rating, after: Rating}} RatingStep */
/** @typedef {{items: RatingStep[], next: string | null}} RatingPage */
/** @typedef {{rank: number, player_id: string, name: string, rating: Rating}} LeaderRow */
/** @typedef {{items: LeaderRow[], next: string | null, min_games: number}} Leaderboard */
/** @typedef {{key: string, name: string, description: string, earned_at: string | null, match_id: string | null}} Achievement */
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
 * GET /api/options: what the create-room form needs.
 * @typedef {object} Catalog
 * @property {Record<string, {help: string, label: string, changes: Partial<GameOptions>, options: GameOptions}>} presets
 * @property {Record<keyof GameOptions, OptionSpec>} options
 * @property {GameOptions} defaults
 * @property {BotLevel[]} bot_levels
 * @property {(number | null)[]} match_targets
 * @property {{min: number, max: number}} seats
 * @property {{min: number, max: number, default: null}} turn_seconds
 * @property {{default: boolean}} hints
 */
/**
 * @typedef {object} MatchPlayer
 * @property {number} seat
 * @property {string} name
 * @property {string | null} player_id
 * @property {BotLevel | null} bot
 * @property {number | null} team
 * @property {number} total
 */
/**
 * An item of GET /api/players/{id}/matches.
 * @typedef {object} MatchItem
 * @property {string} id
 * @property {string | null} room  null unless the room is public or the caller played in the match
 * @property {number} number
 * @property {string} preset
 * @property {"playing" | "hand_over" | "match_over"} status
 * @property {number | null} match_target
 * @property {number} seat
 * @property {boolean | null} won  null while the match goes on
 * @property {number[]} totals
 * @property {number[] | null} winners  null until the match ends
 * @property {MatchPlayer[]} players
 * @property {string} started_at
 * @property {string | null} ended_at
 */
/** @typedef {{items: MatchItem[], next: string | null}} MatchPage */
/**
 * GET /api/players/{id}/stats
 * @typedef {object} Stats
 * @property {string} player_id
 * @property {string} name
 * @property {number} played
 * @property {number} won
 * @property {number} points
 * @property {number} in_progress
 * @property {number} hands_played
 * @property {number} hands_won
 * @property {number | null} average_cards_left
 */
/**
 * GET /api/matches/{id}/replay
 * @typedef {object} Replay
 * @property {string} match_id
 * @property {number} total
 * @property {GameOptions} options
 * @property {string[]} names
 * @property {{number: number, seed: string, commitment: string, start_v: number, deal_order: unknown[] | null, result: unknown}[]} hands
 * @property {{seq: number, hand: number, seat: number, actor: "player" | "bot" | "clock" | "absent", move: Move, at: string}[]} moves
 */
/** GET /api/matches/{id}/replay?at=N @typedef {{at: number, total: number, view: OpenView}} ReplayStep */
/**
 * An error body (any 4xx): `detail` is FastAPI's (a string, or for 422 a list).
 * @typedef {{message: string, detail: string | {loc: (string | number)[], msg: string, type: string}[], option?: string}} ErrorBody
 */

export {};
