"""Checks on what users hand the applications: flags, text files, YAML.

Everything here turns bad input into one readable line (naming the flag or the
file, the field and what was expected) before anything is allocated or created;
the commands print it and exit with status 2.

Limits (documented in the README and ``--help``):

- ``MAX_PLAYERS`` seats in a game (``--players``); a 100-player Grand Melee takes
  0.4 s a game, 1,000 players is already far past anything played.
- ``MAX_WORKERS`` worker processes (``--workers``): each is a process with its own
  copy of the engine (about 170 MB measured for a 4-player batch), so 256 of them
  already need ~43 GB; more workers than cores only slow a batch down (the
  default is one per core). A fixed cap, not a multiple of the cores, so that a
  command line means the same on every machine.
- ``MAX_GAMES`` games in a batch: the store's ``game`` column is a 32-bit integer.
- text inputs (decklists, scenarios, configurations, replays) at most
  ``MAX_FILE_BYTES``; YAML nested at most ``MAX_YAML_DEPTH`` deep, without
  anchors/aliases (``&a`` / ``*a``: a few lines of them can stand for billions
  of values).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_PLAYERS = 1000
MAX_WORKERS = 256
MAX_GAMES = 2**31 - 1
MAX_TURNS = 1_000_000
MAX_SEED = 2**64 - 1
MAX_FILE_BYTES = 16 * 2**20
MAX_YAML_DEPTH = 64
INT32 = (-(2**31), 2**31 - 1)


class InputError(ValueError):
    """Bad input; the message is one line naming the file or flag and what was expected."""


def int_arg(low: int, high: int | None = None, what: str = "") -> Callable[[str], int]:
    """An argparse ``type`` for whole numbers in ``low .. high``; the message says the range."""

    def parse(text: str) -> int:
        expected = (
            f"a whole number from {low:,} to {high:,}"
            if high is not None
            else (f"a whole number >= {low:,}")
        )
        if what:
            expected += f" ({what})"
        try:
            value = int(text.strip().replace("_", ""), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text}")
        return value

    parse.__name__ = "whole number"
    return parse


def read_text(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """A text file's contents; :class:`InputError` (naming the file) for a missing file,
    a folder, a file over ``max_bytes``, a binary file or one that is not UTF-8."""
    p = Path(path)
    try:
        if p.is_dir():
            raise InputError(f"{path}: is a folder, not a file")
        size = p.stat().st_size
        if size > max_bytes:
            raise InputError(f"{path}: {size:,} bytes, more than the {max_bytes:,} allowed")
        with p.open("rb") as f:  # (a device or a pipe has no size: read at most the limit)
            data = f.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise InputError(f"{path}: more than the {max_bytes:,} bytes allowed")
    except OSError as e:
        raise InputError(f"{path}: cannot read file ({e.strerror or e})") from None
    if b"\0" in data:
        raise InputError(f"{path}: a binary file, not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})"
        ) from None


def load_yaml(text: str, where: str) -> Any:
    """``yaml.safe_load`` with bounds: at most ``MAX_YAML_DEPTH`` levels of nesting and
    no anchors or aliases; :class:`InputError` naming the file (and line) otherwise."""
    import yaml

    class Loader(yaml.SafeLoader):
        depth = 0

        def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
            if self.check_event(yaml.AliasEvent):
                mark = self.peek_event().start_mark
                raise InputError(f"{where}:{mark.line + 1}: YAML aliases (*name) are not supported")
            event = self.peek_event()
            if getattr(event, "anchor", None):
                raise InputError(
                    f"{where}:{event.start_mark.line + 1}: YAML anchors (&name) are not supported"
                )
            self.depth += 1
            if self.depth > MAX_YAML_DEPTH:
                raise InputError(
                    f"{where}:{event.start_mark.line + 1}: nested more than {MAX_YAML_DEPTH} deep"
                )
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 (a SafeLoader subclass)
    except yaml.YAMLError as e:
        raise InputError(f"{where}: malformed YAML: {' '.join(str(e).split())}") from None
    except RecursionError:
        raise InputError(f"{where}: nested too deep") from None


def int_fields(data: Any, prefix: str = "") -> list[tuple[str, int]]:
    """Every whole number in nested YAML data with its field path (``a.b[2].c``);
    booleans are not numbers here."""
    out: list[tuple[str, int]] = []
    stack: list[tuple[str, Any]] = [(prefix, data)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            out.append((path or "(top level)", v))
        elif isinstance(v, dict):
            stack += [(f"{path}.{k}" if path else str(k), x) for k, x in v.items()]
        elif isinstance(v, list):
            stack += [(f"{path}[{k}]", x) for k, x in enumerate(v)]
    return out
