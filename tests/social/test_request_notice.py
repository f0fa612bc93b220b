"""What a player is told of a friend request (`lobby_messages.request_notice`): the sender's name,
unless the player chose quiet requests; then only how many wait. An acceptance always names."""

from __future__ import annotations

from app.social.core.lobby_messages import LobbyFriendRequest, LobbyFriendRequests, PlayerRef, request_notice

BOB = PlayerRef(player_id="Hk2", name="Ann (admin)")


def test_a_request_names_its_sender_unless_quiet() -> None:
    assert request_notice(BOB, mutual=False, quiet=False, waiting=4) == LobbyFriendRequest(from_=BOB, friends=False)
    assert request_notice(BOB, mutual=False, quiet=True, waiting=4) == LobbyFriendRequests(waiting=4)


def test_an_acceptance_names_the_new_friend_even_when_quiet() -> None:
    for quiet in (False, True):
        assert request_notice(BOB, mutual=True, quiet=quiet, waiting=0) == LobbyFriendRequest(from_=BOB, friends=True)
