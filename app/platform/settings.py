"""Server settings, read from `SPITE_*` environment variables (or a `.env` file).

Every limit a stranger could push against lives here, so tests and deployments can tune
it without code changes. `get_settings()` reads the environment once per call; the app
keeps the instance it was created with.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

BotLevel = Literal["random", "easy", "normal", "hard"]


class Settings(BaseSettings):
    """Configuration of one server instance."""

    model_config = SettingsConfigDict(env_prefix="SPITE_", env_file=".env", extra="ignore")

    database_url: str = "sqlite:///./spite.db"
    redis_url: str | None = Field(default=None, description="Redis for the bus between instances; unset: one instance")
    redis_prefix: str = Field(default="spite:", description="Prefix of this site's Redis channels")
    seeded_rooms: bool = False
    seed_secret: str | None = Field(
        default=None, description="Key of the HMAC that derives seeded rooms' later hands from the room's seed "
                                  "(the same on every instance for repeatable deals); unset: a random key per process")
    public_url: str = Field(
        default="http://127.0.0.1:8000",
        description="The site's address, for invite links (never taken from a request's Host header)")
    static_dir: str | None = Field(default=None, description="Folder of the client pages; default: ./static")
    auto_migrate: bool = True
    db_timeout: float = Field(default=5.0, gt=0, le=60, description="Most seconds any wait on the database may take "
                                                                    "(a lock, a connection, a statement ×2)")
    log_level: str = Field(default="info", description="Level of the app's own log (uvicorn has its own)")
    log_format: Literal["text", "json"] = Field(
        default="text", description="json: one JSON object per line, with the room and match ids")
    metrics: bool = Field(default=True, description="Serve Prometheus metrics at /metrics")
    metrics_token: str | None = Field(
        default=None, description="Bearer token /metrics asks for; unset: it answers only clients on this machine")
    trace_stages: bool = Field(default=False, description="Time each stage of every move from its frame's arrival "
                               "(spite_move_stage_seconds; for profiling, docs/performance.md)")
    api_docs: bool = Field(default=False, description="Serve the OpenAPI schema and its pages at /openapi.json, /docs")
    gc_threshold: tuple[int, int, int] | None = Field(
        default=(20000, 50, 1000),
        description="The garbage collector's thresholds (Python's 700,10,10 makes thousands of sockets pause the "
                    "loop for whole-heap collections every few seconds); empty: leave Python's")
    gc_full_seconds: float = Field(default=600.0, ge=0,
                                   description="Collect the whole heap this often (0: only when Python decides)")
    gc_freeze_seconds: float = Field(default=0.1, ge=0, le=60,
                                     description="Freeze what survived this long, so young collections never walk "
                                                 "every room's current table (0: freeze only at startup)")
    drain_seconds: float = Field(default=10.0, ge=0, le=300,
                                 description="On SIGTERM, how long moves in flight may take to commit")

    # Bots, clocks and absent players.
    bot_workers: int = Field(default=2, ge=1, le=64)
    bot_think_ms: int = Field(default=1000, ge=10, le=1000, description="Most a Hard bot thinks over one move (ms)")
    bot_delay: float = Field(default=0.8, ge=0, le=30, description="Pause before a bot or automatic move")
    absent_grace: float = Field(default=60.0, ge=0, description="Seconds before a bot plays for an absent player")
    abandoned_after: float = Field(default=3600.0, ge=1, description=(
        "Seconds without a move after which a live match is listed as abandoned (history's progress)"))
    takeover_level: BotLevel = "normal"
    clock_level: BotLevel = "normal"
    hint_level: BotLevel = "normal"
    next_hand_seconds: float = Field(
        default=20.0, ge=1, le=600,
        description="After a hand ends, the next is dealt once every seated person is ready or after this many seconds")
    min_turn_seconds: int = Field(default=1, ge=1)
    max_turn_seconds: int = Field(default=3600, ge=1)
    timeouts_to_forfeit: int = Field(
        default=3, ge=1, le=100, description="In a rated live match, the turn clock ending this many turns of a seat "
                                             "in a row forfeits the match for it (a rated loss; docs/rules.md)")
    rated_min_turn_seconds: int = Field(
        default=15, ge=1, le=3600, description="The shortest turn clock of a rated live room (a host's shorter one is "
                                               "refused; an older room's is raised to it)")
    rated_forfeit_min_moves: int = Field(
        default=10, ge=0, le=10000, description="Moves of its own a seat must have made in a rated match for its "
                                                "forfeit to be rated (else the match is not rated)")

    # Several instances: the lease on a room's timers and bots lasts this long; the holder
    # renews it every third of it, another instance takes over once it lapses.
    lease_seconds: float = Field(default=10.0, ge=0.3, le=300)

    # Presence (who is connected), shared through the store.
    presence_ttl: float = Field(default=30.0, gt=0)
    heartbeat_seconds: float = Field(default=10.0, gt=0)
    presence_debounce: float = Field(
        default=0.25, ge=0, le=5,
        description="Joins and leaves of a room within this many seconds are shown to the others once")

    # Limits on what a stranger controls.
    hello_timeout: float = Field(default=10.0, gt=0)
    handshake_concurrency: int = Field(default=8, ge=1, le=1000,
                                       description="Sockets doing their handshake's database work at once")
    handshake_wait: float = Field(default=30.0, gt=0,
                                  description="Seconds a socket waits for its turn at the handshake gate")
    max_message_bytes: int = Field(default=8192, ge=256)
    max_body_bytes: int = Field(default=65536, ge=1024)
    max_frame_bytes: int = Field(default=65536, ge=1024,
                                 description="Largest WebSocket frame uvicorn buffers (python -m app.serve)")
    header_timeout: float = Field(default=10.0, gt=0,
                                  description="Seconds a client has to send a request's headers (python -m app.serve)")
    max_connections: int = Field(default=10000, ge=16, description="Connections served at once (python -m app.serve)")
    rate_per_second: float = Field(default=10.0, gt=0)
    rate_burst: int = Field(default=30, ge=1)
    rate_strikes: int = Field(default=100, ge=1, description="Refused messages in a row before the socket is closed")
    max_chat_chars: int = Field(default=500, ge=1)
    chat_history: int = Field(default=50, ge=0, le=500,
                              description="Chat lines kept per room and sent to a socket when it (re)connects")
    max_rooms_per_player: int = Field(default=20, ge=1, description="Rooms a player may host that are not over")
    max_sockets_per_player: int = Field(default=8, ge=1)
    max_watchers_per_room: int = Field(default=64, ge=1, description="Sockets of people without a seat, per room "
                                                                     "and instance")
    chat_per_second: float = Field(default=1.0, gt=0, description="Chat lines a player may send a second (all sockets)")
    chat_burst: int = Field(default=5, ge=1, description="Chat lines a player may send at once")
    room_chat_per_second: float = Field(default=4.0, gt=0, description="Chat lines a room takes a second, all told")
    room_chat_burst: int = Field(default=12, ge=1, description="Chat lines a room takes at once")
    token_idle_days: float = Field(default=180, gt=0, description="A bearer token unused this many days stops working")
    send_queue: int = Field(default=256, ge=8, description="Messages queued for a slow socket before it is closed")
    max_public_rooms_per_player: int = Field(default=2, ge=0, description="Public rooms a player may have waiting")
    # Rate limits per client address (and per player), in the `limits` notation; docs/operations.md.
    limit_new_players: str = Field(default="10/minute;100/day", description="Guest identities created per address")
    limit_new_rooms: str = Field(default="30/minute;300/day", description="Rooms created per address")
    limit_player_rooms: str = Field(default="10/minute;100/day", description="Rooms created per player")
    limit_public_rooms: str = Field(default="4/hour;20/day", description="Public rooms created per address")
    limit_replays: str = Field(default="120/minute", description="Replay requests per address")
    limit_connects: str = Field(default="120/minute", description="Room sockets opened per address")
    limit_new_accounts: str = Field(default="10/minute;100/day", description="Accounts claimed per address")
    limit_signin_failures: str = Field(default="20/minute;200/day",
                                       description="Failed sign-ins per address (then its every sign-in is refused)")
    limit_signin_user_failures: str = Field(default="5/minute;50/day",
                                            description="Failed sign-ins per username from one address (then that "
                                                        "address's sign-ins for that username are refused)")
    limit_signin_username_failures: str = Field(
        default="20/minute;200/day", description="Failed sign-ins per username from anywhere; past it the username "
                                                 "is under attack (docs/operations.md, Sign-in)")
    signin_attack_minutes: float = Field(
        default=15.0, gt=0, le=1440, description="While a username is under attack, an address that failed on it "
                                                 "this recently is refused")
    signin_failure_delay: float = Field(default=1.0, ge=0, le=10,
                                        description="Seconds a failed sign-in waits while its username is under attack")
    limit_signins: str = Field(default="30/minute;300/day", description="Successful sign-ins per address")
    limit_user_signins: str = Field(default="10/minute;100/day", description="Successful sign-ins per username")
    hash_workers: int = Field(default=2, ge=1, le=64, description="Password hashes (argon2id) computed at once")
    hash_nice: int = Field(default=10, ge=0, le=19,
                           description="How much lower than the event loop the hash threads run (Linux nice)")
    hash_queue: int = Field(default=8, ge=0, le=10000,
                            description="Password hashes waiting for a worker; past it a sign-in is 429 at once")
    max_tokens_per_player: int = Field(
        default=20, ge=1, le=1000, description="Live tokens (signed-in devices) per player; a new sign-in past it "
                                               "ends the least recently used")
    ipv6_limit_prefix: int = Field(
        default=64, ge=1, le=128, description="Every per-address limit counts an IPv6 client by its network of this "
                                              "many bits (one host often holds a whole /64); IPv4 by the address")
    trusted_proxies: str = Field(
        default="", description="Addresses or networks (comma-separated) of the proxies whose X-Forwarded-For is "
                                "believed; empty: none, the peer's address is the client's")

    # Accounts and ratings.
    leaderboard_min_games: int = Field(default=5, ge=0, description="Rated matches a player needs on the leaderboard")
    leaderboard_min_opponents: int = Field(
        default=3, ge=1, description="Different opponents a player's rated matches need to be on the leaderboard")
    leaderboard_min_age_hours: float = Field(
        default=24.0, ge=0, le=24 * 365, description=(
            "Hours a player must have existed to be on the leaderboard, and an opponent before the match for it "
            "to count among the different opponents"))
    rated_repeat_full: int = Field(default=3, ge=1, le=1000, description=(
        "Rated matches between the same players within SPITE_RATED_REPEAT_HOURS that count fully; "
        "the next count half, then a quarter, then nothing (rating farming)"))
    rated_repeat_hours: float = Field(default=24.0, ge=0, le=24 * 365, description=(
        "The window in which rated matches between the same players are counted"))

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        import ipaddress

        for part in value.split(","):
            if part.strip():
                ipaddress.ip_network(part.strip(), strict=False)  # a ValueError names the bad entry
        return value
    # Match review (docs/bots.md, "Match review"): background jobs, never on the move path.
    review_ms: float = Field(default=150.0, ge=1, le=10000,
                             description="Most milliseconds of estimating per decision reviewed (graph points get a "
                                         "quarter of it)")
    review_samples: int = Field(default=400, ge=4, le=100000, description="Most sampled deals per decision reviewed")
    review_workers: int = Field(default=1, ge=1, le=16,
                                description="Local queue (no SPITE_REDIS_URL): reviews made at once, each in a process")
    review_timeout: float = Field(default=900.0, ge=5, le=86400,
                                  description="Most seconds one try of a review may take")
    review_retries: int = Field(default=2, ge=0, le=10, description="Tries of a failed review after the first")
    review_heartbeat: float = Field(default=30.0, ge=1, le=3600,
                                    description="Redis queue: a running review not heard from for this long is retried")
    review_stale: float = Field(default=1800.0, ge=10,
                                description="A review queued or running with no news this long is reported failed")
    limit_reviews: str = Field(default="20/minute;200/day", description="Review requests per address")
    max_queued_reviews_per_player: int = Field(
        default=2, ge=1, le=1000, description="Reviews a player asked for that may wait or run at once; past it, "
                                              "asking for another is refused until one is made")
    # The analysis board (docs/operations.md, "Analysis board"): its own process pool, off the move path.
    analysis_workers: int = Field(default=1, ge=1, le=16,
                                  description="Processes answering the analysis board (apart from the bots' pool)")
    analysis_ms: float = Field(default=400.0, ge=0, le=10000,
                               description="Most CPU milliseconds of estimating per board answer "
                                           "(0: the samples alone)")
    analysis_samples: int = Field(default=200, ge=4, le=100000, description="Most sampled deals per board answer")
    analysis_lines: int = Field(default=4, ge=1, le=10, description="Moves a board answer weighs and shows, best first")
    analysis_timeout: float = Field(default=10.0, ge=0.1, le=600,
                                    description="Most seconds a board question may wait for its answer (then 503)")
    analysis_per_minute: int = Field(default=20, ge=1, le=10000,
                                     description="Board questions a player may ask a minute (answers cached are free)")
    analysis_queue: int = Field(default=8, ge=1, le=1000,
                                description="Board questions waiting or running at once on an instance (then 503)")
    analysis_cache: int = Field(default=256, ge=1, le=100000, description="Board answers kept per instance (LRU)")
    # Turn-based rooms (docs/operations.md, "Turn-based rooms").
    turn_based_min_seconds: int = Field(default=3600, ge=1, le=1_209_600,
                                        description="Shortest turn a turn-based room may have (tests lower it)")
    missed_turns: int = Field(default=3, ge=1, le=100,
                              description="Deadlines missed in a row before a bot plays the seat (turn-based)")
    max_turn_based: int = Field(default=30, ge=1, le=1000,
                                description="Turn-based rooms not over a player may sit in (or host)")
    deadline_horizon: float = Field(
        default=120.0, ge=1, le=86_400,
        description="A turn-based room is loaded and its lease taken this many seconds before its deadline "
                    "(rooms further off wait in the store)")
    vacation_days: int = Field(default=14, ge=0, le=366, description="Days of vacation an account holder has a year")
    # Friends, invitations, quick match, the daily deal (docs/operations.md).
    max_friends: int = Field(default=200, ge=1, description="Friends and friend requests a player may have sent")
    max_blocks: int = Field(default=500, ge=1, description="Players a player may block")
    max_pending_invitations: int = Field(default=20, ge=1, description="Invitations a player may have pending")
    invitation_seconds: int = Field(default=600, ge=10, le=86400, description="An invitation expires after this")
    limit_invitations: str = Field(default="10/minute;100/day", description="Invitations sent per player")
    limit_social: str = Field(default="60/minute;1000/day",
                              description="Friend and block changes per player")
    limit_friend_requests_received: str = Field(default="5/hour;20/day",
                                                description="New friend requests a player may receive")
    quick_match_bot_seconds: float = Field(default=30.0, ge=0, le=3600,
                                           description="An unrated ticket that allows bots gets them after this wait")
    quick_match_window: float = Field(default=5.0, ge=0, description="Rating (ordinal) gap paired at once")
    quick_match_widen: float = Field(default=0.5, ge=0, description="Ordinal points the window widens per second")
    quick_match_interval: float = Field(default=1.0, gt=0, le=60, description="Seconds between matching passes")
    quick_match_bot_level: BotLevel = "normal"
    quick_match_queue: int = Field(default=10000, ge=1, description="Tickets waiting at once, site-wide")
    # Tournaments (docs/tournaments.md, docs/operations.md "Tournaments").
    tournament_interval: float = Field(default=2.0, gt=0, le=60,
                                       description="Seconds between the round runner's passes")
    tournament_idle_seconds: float = Field(
        default=900.0, ge=0.5, le=30 * 86400,
        description="A tournament table with no move for this long (nobody plays it) is ended: both seats score 0")
    max_tournaments_organised: int = Field(default=5, ge=1, le=1000,
                                           description="Tournaments not over a player may organise")
    max_tournaments_joined: int = Field(default=10, ge=1, le=1000,
                                        description="Tournaments not over a player may be in")
    daily_preset: str = Field(default="standard", description="Preset of the daily deal")
    daily_bot_level: BotLevel = "hard"
    daily_options: dict[str, Any] = Field(default_factory=dict,
                                          description="Option overrides of the daily deal (JSON), on its preset")
    daily_day: str | None = Field(default=None, description="Tests only: the UTC day (YYYY-MM-DD) taken as today")
    daily_tries_per_address: int = Field(default=1, ge=1, le=1000,
                                         description="Tries at the daily deal a day from one client address (its /64 "
                                                     "for IPv6), whoever plays")

    # Notifications (docs/operations.md, "Notifications").
    vapid_private_key: str | None = Field(
        default=None, description="The VAPID private key (base64url raw or DER, as py-vapid reads it); unset: made "
                                  "once and kept in the database (table server_keys)")
    vapid_subject: str = Field(default="mailto:admin@example.org",
                               description="The contact (mailto: or https:) given to push services in VAPID claims")
    push_hosts: str = Field(
        default="fcm.googleapis.com,updates.push.services.mozilla.com,*.push.services.mozilla.com,"
                "*.notify.windows.com,web.push.apple.com,*.push.apple.com",
        description="Hosts a push endpoint may be on, comma-separated ('*.' matches any subdomain): the server "
                    "posts only there")
    push_allow_http: bool = Field(default=False, description="Accept http push endpoints (tests only)")
    push_timeout: float = Field(default=10.0, gt=0, le=120, description="Seconds a push service has to answer")
    push_ttl: int = Field(default=86_400, ge=0, le=2_419_200, description="TTL of a Web Push message (seconds)")
    max_push_subscriptions: int = Field(default=10, ge=1, le=100, description="Push subscriptions kept per player")
    notify_attempts: int = Field(default=6, ge=1, le=50, description="Tries of one notification before it fails")
    notify_backoff: float = Field(default=5.0, gt=0, le=3600,
                                  description="Seconds before the first retry; doubled each time (at most an hour)")
    notify_poll_seconds: float = Field(default=1.0, gt=0, le=60, description="How often the outbox worker looks")
    notify_claim_seconds: float = Field(default=60.0, gt=0, le=3600,
                                        description="A claimed notification is tried again elsewhere after this")
    notify_concurrency: int = Field(default=32, ge=1, le=1000,
                                    description="Notifications one instance sends at once (one at a time per device)")
    notify_player_hour: int = Field(default=60, ge=1, le=10_000,
                                    description="Push notifications queued for one player in an hour (each device "
                                                "counts); past it, no more are queued")
    push_failure_budget: int = Field(default=5, ge=1, le=100,
                                     description="Failed or timed-out sends in a row after which a push "
                                                 "subscription is dropped")
    # Email, the optional channel (docs/operations.md, "Email"): absent without SPITE_SMTP_URL.
    smtp_url: str | None = Field(
        default=None, description="smtp://[user:password@]host[:port] (STARTTLS when the server offers it; "
                                  "?starttls=require insists) or smtps://… (TLS from the start); unset: no email")
    smtp_from: str = Field(default="Spite and Malice <noreply@localhost>", description="The From of every mail")
    smtp_timeout: float = Field(default=15.0, gt=0, le=300, description="Seconds an SMTP exchange may take")
    email_digest_minutes: int = Field(default=60, ge=1, le=10_080,
                                      description="At most one \"your turn\" digest per address this often")
    email_confirm_hours: int = Field(default=48, ge=1, le=720, description="A confirmation link works this long")
    limit_email_changes: str = Field(default="5/hour;20/day",
                                     description="Addresses set per player (each sends a confirmation mail)")
    limit_email_recipients: str = Field(default="3/day;10/month",
                                        description="Confirmation mails per recipient address, whoever asks")
    limit_email_clients: str = Field(default="10/hour;30/day", description="Addresses set per client address")
    email_resend_minutes: int = Field(default=60, ge=1, le=10_080,
                                      description="One confirmation mail pending per address: no other within this "
                                                  "(until it is followed)")


def get_settings() -> Settings:
    """Settings from the environment now."""
    return Settings()
