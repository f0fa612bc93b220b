"""Options: defaults, presets, overrides, implied values and validation messages."""

from __future__ import annotations

import pytest

from app.engine import OPTION_HELP, OPTION_NAMES, PRESETS, OptionsError, make_options, options_from_json


def test_defaults_are_the_standard_game() -> None:
    o = make_options()
    assert (o.players, o.decks, o.payoff_size, o.hand_size, o.side_stacks) == (2, 2, 20, 5, 4)
    assert o.kings_wild and o.wild_cannot_be == frozenset({"A"}) and o.centre_stacks == 4
    assert o.top_rank == 12 and o.match_target is None and o.winner_bonus == 5


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("pagat", {"centre_stacks": 3, "side_stacks_shown": "squared"}),
        ("hoyle", {"stock_out": "play_on", "side_stacks_shown": "peek"}),
        ("wikipedia", {"payoff_size": 26, "aces_on_side_stacks": False}),
        ("short", {"payoff_size": 13}),
        ("massachusetts", {"massachusetts": True, "payoff_size": 14}),
        ("cat_and_mouse", {"payoff_size": 26, "deal": "separate_packs", "decks": 2, "jokers_per_deck": 2,
                           "kings_wild": False, "compulsory_aces": True, "centre_stacks": "unlimited",
                           "discard_rule": "same_or_one_lower", "side_to_side": True,
                           "must_discard": False, "winner_bonus": 10, "first_player": "lowest_deals",
                           "side_plays": "many", "match_target": 25}),
        ("book", {"payoff_size": 26, "deal": "separate_packs", "decks": 2, "jokers_per_deck": 2,
                  "kings_wild": True, "discard_rule": "same_or_one_lower", "must_discard": False,
                  "compulsory_aces_twos": True, "centre_stacks": "unlimited", "stalemate": "end"}),
    ],
)
def test_presets(preset: str, expected: dict[str, object]) -> None:
    data = make_options(preset).to_json()
    for name, value in expected.items():
        assert data[name] == value, name
    # everything the preset does not name keeps its default
    default = make_options().to_json()
    changed = {k for k in data if data[k] != default[k]}
    assert changed <= set(expected)


def test_every_option_has_help_and_json_round_trips() -> None:
    assert set(OPTION_HELP) == set(OPTION_NAMES)
    for preset in PRESETS:
        o = make_options(preset)
        assert options_from_json(o.to_json()) == o


def test_overrides_apply_one_by_one_and_imply_decks() -> None:
    o = make_options("pagat", {"players": 5})
    assert o.centre_stacks == 3 and o.players == 5 and o.decks == 5
    assert make_options("standard", {"players": 3, "decks": 4}).decks == 4


def test_compulsory_aces_implies_unlimited_but_refuses_an_explicit_limit() -> None:
    assert make_options("standard", {"compulsory_aces": True}).centre_stacks is None
    with pytest.raises(OptionsError) as err:
        make_options("standard", {"compulsory_aces": True, "centre_stacks": 4})
    assert err.value.option == "centre_stacks" and "unlimited" in str(err.value)


def test_massachusetts_implies_payoff_14_unless_given() -> None:
    assert make_options("standard", {"massachusetts": True}).payoff_size == 14
    assert make_options("standard", {"massachusetts": True, "payoff_size": 20}).payoff_size == 20


@pytest.mark.parametrize(
    ("overrides", "option", "words"),
    [
        ({"players": 7}, "players", "2 to 6"),
        ({"players": 3, "teams": "pairs"}, "teams", "4 or 6"),
        ({"players": 4, "decks": 2, "payoff_size": 30}, "decks", "cannot give 4 players"),
        ({"jokers_per_deck": 1}, "jokers_per_deck", "0 or 2"),
        ({"payoff_size": 40}, "payoff_size", "5 to 30"),
        ({"centre_stacks": 1}, "centre_stacks", "unlimited"),
        ({"stock_out": "explode"}, "stock_out", "play_on"),
        ({"kings_wild": "yes"}, "kings_wild", "true or false"),
        ({"wild_cannot_be": ["Z"]}, "wild_cannot_be", "not a rank"),
        ({"match_target": 0}, "match_target", "positive"),
        ({"colour": "red"}, "colour", "not a known option"),
        ({"hand_size": 6}, "hand_size", "must be 5"),
        ({"deal": "separate_packs", "decks": 1, "payoff_size": 26}, "decks", "separate packs"),
    ],
)
def test_impossible_options_are_refused_naming_the_option(overrides: dict[str, object], option: str,
                                                           words: str) -> None:
    with pytest.raises(OptionsError) as err:
        make_options("standard", overrides)
    assert err.value.option == option
    assert words in str(err.value)
    assert str(err.value).startswith(option + ":")


def test_unknown_preset() -> None:
    with pytest.raises(OptionsError) as err:
        make_options("poker")
    assert err.value.option == "preset"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_works_for_every_player_count(preset: str, players: int) -> None:
    o = make_options(preset, {"players": players})
    assert o.players == players
    if players in (4, 6):
        assert make_options(preset, {"players": players, "teams": "pairs"}).team_count == players // 2
