"""The state a bout starts from: its setup laid out with the rules of the loaded packs, the arena's
objects placed, every pile filled from the box, and the decks shuffled with the bout's dice."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from ..errors import Diagnostic, NexusError, did_you_mean
from ..model.ruleset import DATA_TYPES, Ruleset
from .board import DEFAULT_SIZE, Grid, Square
from .dice import Dice
from .setup import (PROTECTED_LOCATION_MARK, RANDOM_ITEM, RANDOM_LAYOUT, STATUSES, BoutSetup, PieceSetup, PlayerSetup,
                    SetupError, declared_only, draw_at_random, holder_of, pick_random_layout, starting_states,
                    weapon_in_hand)
from .state import BoutState, Piece, Player, Status


def initial_state(ruleset: Ruleset, setup: BoutSetup, dice: Dice) -> BoutState:
    """The state the bout starts from (the dice may pick the arena, and shuffle the decks)."""
    settings = ruleset.settings
    state = BoutState(grid=Grid(ruleset.game.board_size or DEFAULT_SIZE), pieces={})
    _lay_out(ruleset, setup, dice, state)
    for object_type, square in setup.objects:
        state.place(object_type, square)
    seated = len(setup.seated()) if ruleset.game.pieces == 0 else len(setup.pieces)
    if ruleset.game.players and seated not in ruleset.game.players:
        counts = " or ".join(str(n) for n in ruleset.game.players)
        raise SetupError(f"{ruleset.game.id} is played by {counts} players, not {seated}", code="setup/players")
    if ruleset.game.pieces == 0:  # players alone, such as a card game's
        for seat in setup.seated():
            state.players[seat.label] = _new_player(ruleset, seat)
    else:
        for spec in _drawn_items(ruleset, setup.pieces, dice):
            state.pieces[spec.label] = _new_piece(ruleset, setup, spec, settings, state.grid)
    for piece in state.pieces.values():  # condition and counter coins come out of the reserve (pg.5)
        state.drawn += piece.overall + sum(piece.locations.values()) + piece.counter_coins()
    for spec in setup.pieces if state.pieces else ():  # each piece stands for a player of its label
        piece = state.pieces[spec.label]
        held = {stat: value for stat, value in spec.stats.items() if stat in ruleset.words.player_stats}
        profile = ruleset.profile_of(piece.profile)
        state.players[spec.label] = Player(spec.label, piece.seat, piece.side,
                                           _player_stats(ruleset, held, spec.label, profile),
                                           _owned_piles(ruleset, spec.piles, spec.label))
    state.drawn += sum(sum(player.piles.values()) for player in state.players.values())
    _shuffle_decks(ruleset, dice, state, setup)
    _place_cards(ruleset, state, setup)
    state.piles = _shared_piles(ruleset, setup, len(state.players))
    state.drawn += sum(state.piles.values())
    if setup.phase == "command":
        state.active = setup.active or setup.pieces[0].label
        state.cycle = 1
    return state


def _new_piece(ruleset: Ruleset, setup: BoutSetup, spec: PieceSetup, settings: Any, grid: Grid) -> Piece:
    words = ruleset.words
    locations = {loc: words.starts[loc] for loc in words.group("location")}
    locations.update(declared_only(spec.locations, locations, "location", spec.label, "locations"))
    traits = {t: words.starts[t] for t in words.group("trait")}
    if spec.traits is not None:
        traits.update(declared_only(spec.traits, traits, "trait", spec.label, "traits"))
    elif spec.role:
        role = ruleset.role_of(spec.role)
        if role is None:
            raise _unknown_item(ruleset.game.roles, spec.role, spec.label)
        traits.update(role.get("advantages", {}))
    if spec.profile and ruleset.profile_of(spec.profile) is None:
        raise _unknown_item(ruleset.game.profiles, spec.profile, spec.label)
    assert spec.at is not None and spec.facing is not None
    weapon = ruleset.declaration("weapon", spec.weapon) if spec.weapon else None
    if spec.weapon and weapon is None:
        raise SetupError(f"no weapon `{spec.weapon}` in the loaded packs", spec.label, "weapon", "setup/unknown_weapon")
    unknown_cards = [card for card in spec.hand or () if not _hand_card(ruleset, card)]
    if unknown_cards:
        raise SetupError(f"no {_card_word(ruleset)} `{unknown_cards[0]}` in the loaded packs", spec.label,
                         ruleset.words.hand or "hand", "setup/unknown_card")
    if spec.status not in STATUSES:
        raise SetupError(f"`status: {spec.status}` is not one of {', '.join(STATUSES)}", spec.label, "status")
    status = Status(spec.status)
    held = weapon_in_hand(spec, weapon, ruleset.words.group("location"))
    hold = ruleset.words.hold
    holder = holder_of(spec, setup.pieces, grid, hold)
    if spec.overall is not None:
        overall = spec.overall
    else:  # a piece is incapacitated because its overall condition ran out (pg.13)
        overall = 0 if status == Status.INCAPACITATED else settings.get("overall_condition", 0)
    states = starting_states(spec, held, hold.state if holder is not None else None, ruleset.words.states)
    piece = Piece(
        label=spec.label, seat=spec.seat, square=spec.at, facing=spec.facing, overall=overall,
        locations=locations, role=spec.role, profile=spec.profile,
        states=states, traits=traits, ap=spec.ap,
        mp=spec.mp, status=status, weapon=spec.weapon, counters=_counters(ruleset, spec),
        hand=list(spec.hand or []), ratio=spec.ratio, marks=dict(spec.marks),
        holding=spec.holding, held_by=holder, stats=_plain_stats(ruleset, spec), side=_side_of(ruleset, spec),
    )
    if held is not None:
        piece.ammo, piece.durability = held.ammo, held.durability
        if held.protects is not None:
            piece.marks[PROTECTED_LOCATION_MARK] = held.protects
    return piece


def _drawn_items(ruleset: Ruleset, pieces: Sequence[PieceSetup], dice: Dice) -> Sequence[PieceSetup]:
    """The pieces with every role and profile named RANDOM_ITEM drawn with the dice (`draw_at_random`):
    the roles first, in seat order, then the profiles."""
    if not any(RANDOM_ITEM in (spec.role, spec.profile) for spec in pieces):
        return pieces
    labels = [spec.label for spec in pieces]
    game = ruleset.game
    roles = [spec.role for spec in pieces]
    profiles = [spec.profile for spec in pieces]
    roles = _drawn_kind(ruleset, game.roles, roles, labels, dice)
    profiles = _drawn_kind(ruleset, game.profiles, profiles, labels, dice)
    return [replace(spec, role=role, profile=profile) for spec, role, profile in zip(pieces, roles, profiles)]


def _drawn_kind(ruleset: Ruleset, kind: str | None, named: list[str | None], labels: list[str],
                dice: Dice) -> list[str | None]:
    """`named` (items of the data `kind`) with each RANDOM_ITEM drawn; a setup error when the game
    declares no such data."""
    if RANDOM_ITEM not in named:
        return named
    if kind is None:
        raise _unknown_item(kind, RANDOM_ITEM, labels[named.index(RANDOM_ITEM)])
    return draw_at_random(named, labels, list(ruleset.data.get(kind, {})), dice.roll, DATA_TYPES.get(kind) or kind)


def _unknown_item(data_kind: str | None, ident: str, label: str) -> SetupError:
    """A setup naming a role or profile the loaded packs do not hold: worded, keyed and coded by
    the name of an item of its data kind (`setup/unknown_<item>`)."""
    word = DATA_TYPES.get(data_kind or "") or "item"
    if data_kind is None:
        return SetupError(f"names {word} `{ident}`, but the game declares no data for it", label, word,
                          f"setup/unknown_{word}")
    return SetupError(f"no {word} `{ident}` in the loaded packs", label, word, f"setup/unknown_{word}")


def _hand_card(ruleset: Ruleset, card: str) -> bool:
    """Whether `card` is a card of a kind played from a hand."""
    return any(ruleset.declaration(kind, card) is not None for kind in ruleset.words.hand_kinds)


def _card_word(ruleset: Ruleset) -> str:
    """What a card played from a hand is called in a setup's errors: `<kind> card`, by the first
    kind played from a hand."""
    kinds = ruleset.words.hand_kinds
    return f"{kinds[0]} card" if kinds else "card played from a hand"


def _counters(ruleset: Ruleset, spec: PieceSetup) -> dict[str, set[int]]:
    """Every counter the packs declare, with the numbers the setup has marked on it already."""
    unknown = [name for name in spec.counters if name not in ruleset.words.counters]
    if unknown:
        raise SetupError(f"no counter `{unknown[0]}` in the loaded packs", spec.label, unknown[0], "setup/unknown_counter")
    return {name: set(spec.counters.get(name, ())) for name in ruleset.words.counters}


def _lay_out(ruleset: Ruleset, setup: BoutSetup, dice: Dice, state: BoutState) -> None:
    """Place the objects of the setup's board layout (an item of the data kind the game names its
    layouts, `game { layouts <kind> }`; one picked with the dice for RANDOM_LAYOUT) and make its
    hazards the active ones; `state.meta["layout"]` records which it was."""
    layout_id = setup.layout
    if not layout_id:
        return
    game = ruleset.game
    kind, word = game.layouts, game.layout_word
    known = list(ruleset.data.get(kind, {})) if kind else []
    if layout_id == RANDOM_LAYOUT and RANDOM_LAYOUT not in known:
        if not known:
            raise NexusError(Diagnostic("setup/unknown_layout", f"no {word} in the loaded packs to pick at random", "<setup>"))
        layout_id = pick_random_layout(known, dice.roll, word)
    layout = ruleset.data_item(kind, layout_id) if kind else None
    if layout is None:
        raise NexusError(Diagnostic("setup/unknown_layout", f"no {word} `{layout_id}` in the loaded packs", "<setup>",
                                    hint=did_you_mean(layout_id, known) if kind else
                                    "the game names no data kind its layouts are (`game { layouts <kind> }`)"))
    for obj in layout.get("objects", []):
        state.place(obj["type"], Square(*obj["at"]))
    state.meta["hazards"] = list(layout.get("hazards", []))
    state.meta["layout"] = layout_id


def _new_player(ruleset: Ruleset, seat: PlayerSetup) -> Player:
    return Player(seat.label, seat.seat, _side_of(ruleset, seat), _player_stats(ruleset, seat.stats, seat.label),
                  _owned_piles(ruleset, {}, seat.label))


def _owned_piles(ruleset: Ruleset, given: dict[str, int], label: str) -> dict[str, int]:
    """The coins in each pile a player holds (`owner player`): its `start`, or what the setup gives."""
    words = ruleset.words
    piles = {pile: words.pile_starts.get(pile, 0) for pile in words.owned_piles}
    unknown = [pile for pile in given if pile not in piles]
    if unknown:
        raise SetupError(f"no pile `{unknown[0]}` each player holds in the loaded packs", label, unknown[0],
                         "setup/unknown_pile")
    return {**piles, **given}


def _shared_piles(ruleset: Ruleset, setup: BoutSetup, players: int) -> dict[str, int]:
    """The coins in each shared pile (the reserve apart): its `start` (each player's share of it
    where it is `per player`), or what the setup gives."""
    words = ruleset.words
    piles = {pile: words.pile_starts.get(pile, 0) * (players if pile in words.per_player else 1)
             for pile in words.piles if pile != words.reserve}
    unknown = [pile for pile in setup.piles if pile not in piles]
    if unknown:
        raise NexusError(Diagnostic("setup/unknown_pile", f"no shared pile `{unknown[0]}` in the loaded packs", "<setup>",
                                    hint=did_you_mean(unknown[0], list(piles))))
    return {**piles, **setup.piles}


def _player_stats(ruleset: Ruleset, given: dict[str, int], label: str,
                  profile: Mapping[str, Any] | None = None) -> dict[str, int]:
    """The stats each player holds (`owner player`): a stat its setup does not give starts at its
    `profile` field of the player's profile (the data item its setup names) where that has it."""
    words = ruleset.words
    from_profile = {stat: value for stat, field_name in words.profiled.items()
                    if stat in words.player_stats and stat not in given
                    and isinstance(value := (profile or {}).get(field_name), int) and not isinstance(value, bool)}
    return _stats_set(ruleset, words.player_stats, {**from_profile, **given}, label)


def _side_of(ruleset: Ruleset, spec: PieceSetup | PlayerSetup) -> str:
    """The setup's side; else the group of seats its seat is in (the `sides` rule param, a side
    named by its seats joined: `north_south`); else a side of its own, named by its label."""
    if spec.side:
        return spec.side
    for group in ruleset.settings.get("sides", ()):
        if spec.seat in group:
            return "_".join(group)
    return spec.label


def _plain_stats(ruleset: Ruleset, spec: PieceSetup) -> dict[str, int]:
    """The piece's plain stats (those each player holds are its player's)."""
    words = ruleset.words
    return _stats_set(ruleset, [stat for stat in words.plain if stat not in words.player_stats],
                      {stat: value for stat, value in spec.stats.items() if stat not in words.player_stats}, spec.label)


def _stats_set(ruleset: Ruleset, declared: Sequence[str], given: dict[str, int], label: str) -> dict[str, int]:
    """Each stat at its start, or at the setup's value within its bounds; a stat not declared refused."""
    words = ruleset.words
    stats = {stat: words.starts[stat] for stat in declared}
    for stat, value in declared_only(given, stats, "stat", label, "stats").items():
        low, high = words.bounds[stat]
        stats[stat] = min(max(value, low), high)
    return stats


def _shuffle_decks(ruleset: Ruleset, dice: Dice, state: BoutState, setup: BoutSetup) -> None:
    """Every deck shuffled with the seed; a scenario may stack cards on top, top card first."""
    for deck, zone in ruleset.words.zones.items():
        if zone.owner is not None:
            continue
        cards = [d.id for d in ruleset.declarations(zone.holds)] if zone.holds else []
        forced = setup.zones.get(deck)
        on_top = setup.decks.get(deck, []) + (forced if isinstance(forced, list) else [])
        stacked = [c for c in on_top if c in cards]
        rest = [c for c in cards if c not in stacked]
        dice.shuffle("shuffle", rest, False)  # with the bout's own dice, not logged
        state.decks[deck] = stacked + rest
    dice.drain_history()
    # Cards promised to a hand leave the deck after the shuffle, so the seed deals the rest as before.
    dealt = [card for spec in setup.pieces for card in spec.dealt]
    unknown = [card for card in dealt if not _hand_card(ruleset, card)]
    if unknown:
        raise NexusError(Diagnostic("setup/unknown_card", f"no {_card_word(ruleset)} `{unknown[0]}` in the loaded packs",
                                    "<setup>"))
    if dealt:
        for name, zone in ruleset.words.zones.items():
            if zone.fills_hands and name in state.decks:
                state.decks[name] = [card for card in state.decks[name] if card not in dealt]


def _place_cards(ruleset: Ruleset, state: BoutState, setup: BoutSetup) -> None:
    """Each player's (or side's) zones, empty; then the cards a setup places (`zones`), taken out of
    the zones the shuffle put them in."""
    sides = list(dict.fromkeys(player.side for player in state.players.values()))
    for name, declared in ruleset.words.zones.items():
        if declared.owner is not None:
            owners = list(state.players) if declared.owner == "player" else sides
            state.owned[name] = {owner: [] for owner in owners}
    for name, placed in setup.zones.items():
        zone = ruleset.words.zones.get(name)
        if zone is None:
            raise NexusError(Diagnostic("setup/unknown_zone", f"no zone `{name}` in the loaded packs", "<setup>",
                                        hint=did_you_mean(name, list(ruleset.words.zones))))
        if zone.owner is None:
            assert isinstance(placed, list)
            if not zone.holds:  # a zone filled at the start has its placed cards on top already
                _take_out(state, placed)
                state.decks[name] = list(placed)
            continue
        if not isinstance(placed, dict):
            raise NexusError(Diagnostic("setup/bad_zone", f"each {zone.owner} has a zone `{name}`: list its cards "
                                                          f"by owner (`{name}: {{<owner>: [...]}}`)", "<setup>"))
        for owner, cards in placed.items():
            if owner not in state.owned[name]:
                raise NexusError(Diagnostic("setup/unknown_owner", f"`{owner}` has no zone `{name}`", "<setup>",
                                            hint=did_you_mean(owner, list(state.owned[name]))))
            _take_out(state, cards)
            state.owned[name][owner] = list(cards)


def _take_out(state: BoutState, cards: list[str]) -> None:
    """The cards out of the shared zones the shuffle put them in."""
    leaving = set(cards)
    for name, held in state.decks.items():
        state.decks[name] = [card for card in held if card not in leaving]
