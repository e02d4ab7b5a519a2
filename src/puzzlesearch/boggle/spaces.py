"""Search spaces: what a search state is and how it moves (free letters, or dice).

- `FreeSpace`: a state is the board's letters; moves change one cell to any letter or
  swap two cells.
- `DiceSpace`: a state is an arrangement of dice (which die in which slot, which face
  up); moves turn one die to another face or swap two dice (a set has exactly one die
  per cell).
Both give k random states, the boards (letters) of states, every one-move neighbour of
states, and one random move per state; `make_space` picks one by mode name.
"""

from __future__ import annotations

import numpy as np

from puzzlesearch.boggle.model import N_LETTERS, Shape, cell_pairs, parse_dice
from puzzlesearch.errors import PuzzleError

MODES = ("free", "dice")


class FreeSpace:
    """Any letter in any cell; moves: change one cell, swap two cells."""

    mode = "free"

    def __init__(self, shape: Shape, letters: np.ndarray | None = None):
        self.shape = shape
        self.letters_allowed = (
            np.arange(N_LETTERS, dtype=np.uint8) if letters is None else np.asarray(letters, np.uint8)
        )
        self.pairs = cell_pairs(shape.cells)

    def random(self, rng: np.random.Generator, k: int) -> np.ndarray:
        """k random states."""
        return self.letters_allowed[rng.integers(0, len(self.letters_allowed), size=(k, self.shape.cells))]

    def letters(self, states: np.ndarray) -> np.ndarray:
        """The boards (letters) of states."""
        return states

    def neighbours(self, states: np.ndarray, swaps: bool = True) -> np.ndarray:
        """Every one-move neighbour of each state (rows of all states stacked); cell changes only without `swaps`."""
        n, L = self.shape.cells, len(self.letters_allowed)
        k = len(states)
        singles = np.repeat(states, n * L, axis=0).reshape(k, n, L, n)
        cells = np.arange(n)
        singles[:, cells, :, cells] = self.letters_allowed[None, None, :]
        singles = singles.reshape(-1, n)
        if not swaps:
            return singles
        swapped = np.repeat(states, len(self.pairs), axis=0).reshape(k, len(self.pairs), n)
        i, j = self.pairs[:, 0], self.pairs[:, 1]
        rows = np.arange(len(self.pairs))
        a = swapped[:, rows, i].copy()
        swapped[:, rows, i] = swapped[:, rows, j]
        swapped[:, rows, j] = a
        return np.concatenate([singles, swapped.reshape(-1, n)])

    def mutate(self, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One random move per state: change a cell (half the time) or swap two cells."""
        out = states.copy()
        k, n = out.shape
        rows = np.arange(k)
        change = rng.random(k) < 0.5
        cell = rng.integers(0, n, size=k)
        letter = self.letters_allowed[rng.integers(0, len(self.letters_allowed), size=k)]
        out[rows[change], cell[change]] = letter[change]
        pair = self.pairs[rng.integers(0, len(self.pairs), size=k)]
        sw = rows[~change]
        a = out[sw, pair[~change, 0]].copy()
        out[sw, pair[~change, 0]] = out[sw, pair[~change, 1]]
        out[sw, pair[~change, 1]] = a
        return out


class DiceSpace:
    """An arrangement of dice: state = [die in slot 0..D-1, face up in slot 0..D-1]."""

    mode = "dice"

    def __init__(self, shape: Shape, dice):
        self.shape = shape
        self.dice = parse_dice(dice)
        self.n_dice, self.n_faces = self.dice.shape
        if self.n_dice != shape.cells:
            raise PuzzleError(
                f"dice set has {self.n_dice} dice; a {shape} board needs exactly {shape.cells} (one per cell)"
            )
        self.pairs = cell_pairs(self.n_dice)

    def random(self, rng: np.random.Generator, k: int) -> np.ndarray:
        """k random arrangements (a shuffle of the dice, a random face each)."""
        D = self.n_dice
        perm = np.argsort(rng.random((k, D)), axis=1).astype(np.uint8)
        faces = rng.integers(0, self.n_faces, size=(k, D)).astype(np.uint8)
        return np.concatenate([perm, faces], axis=1)

    def letters(self, states: np.ndarray) -> np.ndarray:
        """Board letters: the up face of the die in each of the first R*C slots."""
        n = self.shape.cells
        D = self.n_dice
        return self.dice[states[:, :n], states[:, D : D + n]]

    def neighbours(self, states: np.ndarray, swaps: bool = True) -> np.ndarray:
        """Every one-move neighbour: another face of one board die, or (with `swaps`) a swap of two slots."""
        n, D, F = self.shape.cells, self.n_dice, self.n_faces
        k = len(states)
        turns = np.repeat(states, n * F, axis=0).reshape(k, n, F, 2 * D)
        cells = np.arange(n)
        turns[:, cells, :, D + cells] = np.arange(F, dtype=np.uint8)[None, None, :]
        turns = turns.reshape(-1, 2 * D)
        if not swaps:
            return turns
        swapped = np.repeat(states, len(self.pairs), axis=0).reshape(k, len(self.pairs), 2 * D)
        rows = np.arange(len(self.pairs))
        for off in (0, D):
            i, j = self.pairs[:, 0] + off, self.pairs[:, 1] + off
            a = swapped[:, rows, i].copy()
            swapped[:, rows, i] = swapped[:, rows, j]
            swapped[:, rows, j] = a
        return np.concatenate([turns, swapped.reshape(-1, 2 * D)])

    def mutate(self, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One random move per state: turn a board die (half the time) or swap two slots."""
        out = states.copy()
        k = len(out)
        D, n = self.n_dice, self.shape.cells
        rows = np.arange(k)
        turn = rng.random(k) < 0.5
        cell = rng.integers(0, n, size=k)
        out[rows[turn], D + cell[turn]] = rng.integers(0, self.n_faces, size=int(turn.sum()))
        pair = self.pairs[rng.integers(0, len(self.pairs), size=k)]
        sw = rows[~turn]
        for off in (0, D):
            i, j = pair[~turn, 0] + off, pair[~turn, 1] + off
            a = out[sw, i].copy()
            out[sw, i] = out[sw, j]
            out[sw, j] = a
        return out


def make_space(shape: Shape, mode: str, dice=None):
    """The search space of a mode ('free' or 'dice')."""
    if mode == "free":
        return FreeSpace(shape)
    if mode == "dice":
        if dice is None:
            raise PuzzleError(f'dice mode: no dice set configured for {shape} (boggle.dice."{shape}")')
        return DiceSpace(shape, dice)
    raise PuzzleError(f"boggle mode {mode!r}: not one of {', '.join(MODES)}")
