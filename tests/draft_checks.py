"""A check the Commander Draft tests share: the decks a `melee draft --out` file holds."""

from __future__ import annotations

from typing import Any

from ecs import draft as D
from ecs.cards import load_pool
from ecs.deck_rules import check_deck


def assert_decks_legal(data: dict[str, Any], **flags: bool) -> None:
    """Every deck of the file is a legal Commander Draft deck for its player's pool
    (ecs.deck_rules; ``flags``: the set's piper / masters / faceless options)."""
    db = load_pool()
    for d in data["decks"]:
        pool = data["pools"][d["player"]]["cards"]
        deck = D.Deck(d["player"], d["main"], commander=d["commander"], colors=d["colors"])
        assert check_deck(deck, "commander-draft", db, pool=pool, colors=d["colors"], **flags) == []
