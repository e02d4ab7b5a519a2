"""The cubie model: where each corner and edge sits and how it is turned; moves; input parsing.

A `CubieCube` lists, for each position, the cubie there (`cp`, `ep`: cubie numbers, which are
their solved positions) and its orientation (`co` twist 0-2, `eo` flip 0-1). `a * b` is the
state reached by applying the moves of `b` after those of `a`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from puzzlesearch.cube.model.constants import (
    CORNER_NAMES,
    EDGE_NAMES,
    FACES,
    N_CORNERS,
    N_EDGES,
    N_MOVES,
    QUARTER_TURNS,
)
from puzzlesearch.cube.model.facelets import N_FACELETS, facelet_tokens, is_facelet_text
from puzzlesearch.errors import PuzzleError

N_TOKENS = N_EDGES + N_CORNERS


@dataclass(frozen=True)
class CubieCube:
    """Corner and edge permutation + orientation (tuples, so cubes are hashable)."""

    cp: tuple[int, ...]
    co: tuple[int, ...]
    ep: tuple[int, ...]
    eo: tuple[int, ...]

    def __mul__(self, other: CubieCube) -> CubieCube:
        """The state after applying `other` (as a move sequence) to this state."""
        cp = tuple(self.cp[j] for j in other.cp)
        co = tuple((self.co[j] + t) % 3 for j, t in zip(other.cp, other.co))
        ep = tuple(self.ep[j] for j in other.ep)
        eo = tuple((self.eo[j] + f) % 2 for j, f in zip(other.ep, other.eo))
        return CubieCube(cp, co, ep, eo)

    def inverse(self) -> CubieCube:
        """The cube c with self * c = solved."""
        cp, co, ep, eo = [0] * N_CORNERS, [0] * N_CORNERS, [0] * N_EDGES, [0] * N_EDGES
        for i, (j, t) in enumerate(zip(self.cp, self.co)):
            cp[j], co[j] = i, (-t) % 3
        for i, (j, f) in enumerate(zip(self.ep, self.eo)):
            ep[j], eo[j] = i, f
        return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))

    def apply(self, moves: Sequence[int]) -> CubieCube:
        """The state after the given move numbers."""
        cube = self
        for m in moves:
            cube = cube * MOVE_CUBES[m]
        return cube

    @property
    def is_solved(self) -> bool:
        return self == SOLVED

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """cp, co, ep, eo as int64 arrays of shape (1, n) for the coordinate functions."""
        return tuple(np.array([x], dtype=np.int64) for x in (self.cp, self.co, self.ep, self.eo))

    def to_text(self) -> str:
        """The 20-token input format."""
        edges = [EDGE_NAMES[c][::-1] if f else EDGE_NAMES[c] for c, f in zip(self.ep, self.eo)]
        corners = []
        for c, t in zip(self.cp, self.co):
            name = CORNER_NAMES[c]
            corners.append("".join(name[(k - t) % 3] for k in range(3)))
        return " ".join(edges + corners)

    def __str__(self) -> str:
        return self.to_text()


SOLVED = CubieCube(tuple(range(8)), (0,) * 8, tuple(range(12)), (0,) * 12)

# ------------------------------------------------------------------ parsing the 20-cubie format

_EDGE_BY_LETTERS = {frozenset(n): i for i, n in enumerate(EDGE_NAMES)}
_CORNER_BY_LETTERS = {frozenset(n): i for i, n in enumerate(CORNER_NAMES)}


def _edge_cubie(token: str, k: int) -> tuple[int, int]:
    """(cubie, flip) of edge token number k, or a PuzzleError naming it."""
    where = f"token {k + 1} {token!r} (edge position {EDGE_NAMES[k]})"
    if len(token) != 2 or frozenset(token) not in _EDGE_BY_LETTERS:
        raise PuzzleError(f"{where} is not an edge cubie (one of {' '.join(EDGE_NAMES)}, either order)")
    cubie = _EDGE_BY_LETTERS[frozenset(token)]
    return cubie, int(token != EDGE_NAMES[cubie])


def _corner_cubie(token: str, k: int) -> tuple[int, int]:
    """(cubie, twist) of corner token number k (0-7), or a PuzzleError naming it."""
    where = f"token {N_EDGES + k + 1} {token!r} (corner position {CORNER_NAMES[k]})"
    if len(token) != 3 or frozenset(token) not in _CORNER_BY_LETTERS:
        raise PuzzleError(f"{where} is not a corner cubie (one of {' '.join(CORNER_NAMES)}, rotated)")
    cubie = _CORNER_BY_LETTERS[frozenset(token)]
    name = CORNER_NAMES[cubie]
    if token not in (name, name[1:] + name[0], name[2] + name[:2]):
        raise PuzzleError(f"{where} has its stickers in mirror order: no real corner looks like that")
    return cubie, next(i for i, ch in enumerate(token) if ch in "UD")


def parity(perm: Sequence[int]) -> int:
    """0 for an even permutation, 1 for odd."""
    seen, odd = set(), 0
    for start in range(len(perm)):
        n = 0
        j = start
        while j not in seen:
            seen.add(j)
            j = perm[j]
            n += 1
        if n:
            odd ^= (n - 1) & 1
    return odd


def _check_complete(perm: list[int], names: list[str], kind: str) -> None:
    """Each cubie exactly once, else an error naming the duplicate and the missing one."""
    for c in range(len(names)):
        where = [k for k, x in enumerate(perm) if x == c]
        if len(where) > 1:
            missing = [names[x] for x in range(len(names)) if x not in perm]
            offset = 0 if kind == "edge" else N_EDGES
            tokens = " and ".join(str(offset + k + 1) for k in where)
            raise PuzzleError(
                f"{kind} cubie {names[c]} appears {len(where)} times (tokens {tokens}); missing: {' '.join(missing)}"
            )


def parse_cubies(text: str) -> CubieCube:
    """Parse and validate one cube in the 20-token format (letters case-insensitive)."""
    tokens = text.upper().split()
    if len(tokens) != N_TOKENS:
        raise PuzzleError(f"cube has {len(tokens)} tokens, expected {N_TOKENS} (12 edges then 8 corners)")
    for k, tok in enumerate(tokens):
        bad = [ch for ch in tok if ch not in FACES]
        if bad:
            raise PuzzleError(f"token {k + 1} {tok!r} has {bad[0]!r}, not a face letter (URFDLB)")
    edges = [_edge_cubie(tok, k) for k, tok in enumerate(tokens[:N_EDGES])]
    corners = [_corner_cubie(tok, k) for k, tok in enumerate(tokens[N_EDGES:])]
    ep, eo = [c for c, _ in edges], [f for _, f in edges]
    cp, co = [c for c, _ in corners], [t for _, t in corners]
    _check_complete(ep, EDGE_NAMES, "edge")
    _check_complete(cp, CORNER_NAMES, "corner")
    if sum(eo) % 2:
        raise PuzzleError(f"edge flips sum to {sum(eo)}, must be even (one edge is flipped)")
    if sum(co) % 3:
        raise PuzzleError(f"corner twists sum to {sum(co)}, must be 0 mod 3 (a corner is twisted)")
    pe, pc = parity(ep), parity(cp)
    if pe != pc:
        names = ("even", "odd")
        raise PuzzleError(
            f"edge permutation is {names[pe]} but corner permutation is {names[pc]}: "
            "they must be equal (two cubies are swapped)"
        )
    return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))


def from_facelets(text: str) -> CubieCube:
    """A cube from its 54-facelet URFDLB string (validated like the 20-token format)."""
    tokens = facelet_tokens(text)
    try:
        return parse_cubies(tokens)
    except PuzzleError as exc:
        raise PuzzleError(f"facelet string (read as cubies {tokens}): {exc}") from None


# ------------------------------------------------------------------ moves


def _power(cube: CubieCube, n: int) -> CubieCube:
    out = SOLVED
    for _ in range(n):
        out = out * cube
    return out


QUARTER_CUBES = {face: parse_cubies(text) for face, text in QUARTER_TURNS.items()}
MOVE_CUBES = [_power(QUARTER_CUBES[FACES[m // 3]], m % 3 + 1) for m in range(N_MOVES)]

# The same moves as arrays (move x position), for table building and the numba kernels.
MOVE_CP = np.array([c.cp for c in MOVE_CUBES], dtype=np.int64)
MOVE_CO = np.array([c.co for c in MOVE_CUBES], dtype=np.int64)
MOVE_EP = np.array([c.ep for c in MOVE_CUBES], dtype=np.int64)
MOVE_EO = np.array([c.eo for c in MOVE_CUBES], dtype=np.int64)

# ------------------------------------------------------------------ move sequences

_MOVE_RE = re.compile(r"([URFDLB])(2'|2|'|’|\+|-|1|3)?", re.IGNORECASE)
_SUFFIX_TURNS = {None: 1, "1": 1, "+": 1, "2": 2, "2'": 2, "3": 3, "'": 3, "’": 3, "-": 3}


def parse_moves(text: str) -> list[int]:
    """Move numbers of `R U2 F'`, `D+ L2 U-` or `F3R1U3` (case-insensitive, spaces optional)."""
    moves = []
    for word in re.finditer(r"\S+", text):
        pos = word.start()
        while pos < word.end():
            m = _MOVE_RE.match(text, pos, word.end())
            if not m:
                raise PuzzleError(_bad_move(text, word, pos))
            moves.append(3 * FACES.index(m.group(1).upper()) + _SUFFIX_TURNS[m.group(2)] - 1)
            pos = m.end()
    return moves


def _bad_move(text: str, word: re.Match, pos: int) -> str:
    """The error for an unreadable move: the whole word, and the character if inside it."""
    inside = f" (cannot read {text[pos]!r} at character {pos + 1})" if pos > word.start() else ""
    return f"move {word.group()!r} at character {word.start() + 1} is not a face turn like R, U2, F', D+, L3{inside}"


def _looks_like_cubie(token: str) -> bool:
    """A word of 2 or 3 letters (a cubie token, possibly misspelt)."""
    return 2 <= len(token) <= 3 and token.isalpha()


def is_cubie_text(text: str) -> bool:
    """True for the 20-token format: two or more words, most of them (over half) 2-3 letters.

    Anything else is a scramble, so `RUF`, `ru` and `R U2 Fx` are moves (the last an error
    naming `Fx`), while a cubie line with a few bad tokens still gets cubie errors.
    """
    tokens = text.split()
    return len(tokens) >= 2 and 2 * sum(map(_looks_like_cubie, tokens)) > len(tokens)


LOWER_FACES = re.compile(f"[{FACES.lower()}]")
FACELET_TYPO_LENGTH = 30  # one word of more face letters than this (and not 54) is a mistyped facelet string


def _facelet_typo(text: str) -> str | None:
    """The error for one word of only face letters, longer than a scramble is written but not 54 facelets."""
    word = text.strip()
    if len(word.split()) == 1 and len(word) > FACELET_TYPO_LENGTH and set(word) <= set(FACES):
        return (
            f"{len(word)} face letters in one word: a facelet string has {N_FACELETS} (a typo?); "
            "write a scramble with spaces between the moves"
        )
    return None


def parse_cube(text: str) -> CubieCube:
    """A cube from the 20-token format, a 54-facelet string, or a scramble applied to the solved cube.

    Scrambles must use upper-case face letters: in standard notation `r` is a wide turn
    (two layers), which these solvers do not take, so it is refused rather than read as R.
    """
    if not text.strip():
        raise PuzzleError("empty cube: give 20 cubie tokens, 54 facelets or a scramble like R U2 F'")
    if is_cubie_text(text):
        return parse_cubies(text)
    if is_facelet_text(text):
        return from_facelets(text)
    if typo := _facelet_typo(text):
        raise PuzzleError(typo)
    lower = LOWER_FACES.search(text)
    if lower:
        letter = lower.group()
        raise PuzzleError(
            f"move {letter!r} at character {lower.start() + 1}: lower-case face letters are wide "
            f"turns in standard notation ({letter} = {letter.upper()}w, two layers), which the "
            f"solvers do not take; write {letter.upper()} for a face turn"
        )
    return SOLVED.apply(parse_moves(text))


# ------------------------------------------------------------------ random cubes


def random_cube(rng) -> CubieCube:
    """A uniformly random solvable cube drawn with `rng` (a random.Random)."""
    while True:
        cp = list(range(N_CORNERS))
        ep = list(range(N_EDGES))
        rng.shuffle(cp)
        rng.shuffle(ep)
        if parity(cp) == parity(ep):
            break
    eo = [rng.randrange(2) for _ in range(N_EDGES - 1)]
    co = [rng.randrange(3) for _ in range(N_CORNERS - 1)]
    eo.append(sum(eo) % 2)
    co.append((-sum(co)) % 3)
    return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))
