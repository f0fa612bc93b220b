"""Who may try a password now, counted before the hash (docs/operations.md, "Sign-in").

Every try reserves, at once and atomically (`Reservations`), one of each of these, and gives
back the ones its outcome did not use:

- a success per address (`SPITE_LIMIT_SIGNINS`) and per username (`SPITE_LIMIT_USER_SIGNINS`);
- a failure per address (`SPITE_LIMIT_SIGNIN_FAILURES`) and per username *from that address*
  (`SPITE_LIMIT_SIGNIN_USER_FAILURES`): a guesser's address is refused, not the account's owner;
- a failure per username from anywhere (`SPITE_LIMIT_SIGNIN_USERNAME_FAILURES`), which refuses
  nobody by itself: past it the username is *under attack*, and then an address that failed
  on it in the last `SPITE_SIGNIN_ATTACK_MINUTES` is refused and every failed try is answered
  only after `SPITE_SIGNIN_FAILURE_DELAY` seconds. A right password from an address with no
  recent failure on it always goes through, so a stranger cannot lock an account out.

A refusal is `429` with `Retry-After`; the password is not hashed then.
"""

from __future__ import annotations

from app.platform.settings import Settings
from app.web.http.refused import too_many
from app.web.http.reserve import Reservations, Ticket, parse_rules

SUCCESS = ("signins", "user_signins")
FAILURE = ("signin_failures", "signin_user_failures", "signin_username_failures")


class SignInGuard:
    """The sign-in limits of one instance (in its memory, like the other rate limits)."""

    def __init__(self, settings: Settings) -> None:
        self.window = Reservations({
            "signins": parse_rules(settings.limit_signins),
            "user_signins": parse_rules(settings.limit_user_signins),
            "signin_failures": parse_rules(settings.limit_signin_failures),
            "signin_user_failures": parse_rules(settings.limit_signin_user_failures),
            "signin_username_failures": parse_rules(settings.limit_signin_username_failures),
        })
        self.attack_seconds = settings.signin_attack_minutes * 60.0
        self.delay = settings.signin_failure_delay

    def under_attack(self, user: str) -> bool:
        """Whether `user` has had more failures (from anywhere) than its limit allows."""
        return self.window.wait("signin_username_failures", user) is not None

    def admit(self, user: str, address: str) -> Ticket:
        """Reserve one try of `user`'s password from `address`, or raise 429."""
        pair = f"{user}\n{address}"
        if self.under_attack(user) and self.window.count("signin_user_failures", pair, self.attack_seconds):
            raise too_many("signin_failures", max(1, int(self.attack_seconds)))
        got = self.window.reserve([("signin_failures", address), ("signin_user_failures", pair),
                                   ("signins", address), ("user_signins", user)])
        if isinstance(got, int):
            failures = self.window.wait("signin_failures", address) or self.window.wait("signin_user_failures", pair)
            raise too_many("signin_failures" if failures else "signins", got)
        self.window.note(got, "signin_username_failures", user)
        return got

    def settle(self, ticket: Ticket, ok: bool) -> None:
        """Keep the counts this try's outcome used, give back the others."""
        ticket.give_back(*(FAILURE if ok else SUCCESS))

    def failure_delay(self, user: str) -> float:
        """Seconds to hold back a failed try's answer (only while `user` is under attack)."""
        return self.delay if self.under_attack(user) else 0.0
