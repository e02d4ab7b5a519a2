"""Move notation out (standard `R U2 F'` or contest `F3R1U3`), merging, and test-file reading."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from puzzlesearch.cube.model.constants import FACES, MOVE_NAMES
from puzzlesearch.cube.model.cubie import CubieCube, parse_cube
from puzzlesearch.errors import PuzzleError

FORMATS = ("standard", "contest")
METRICS = ("htm", "qtm")  # half-turn metric (every move counts 1), quarter-turn metric (a half turn counts 2)
HALF_TURN = 1  # m % 3 of a half turn (U2, R2 ...)


def move_cost(m: int, metric: str) -> int:
    """What one move counts in a metric."""
    return 2 if metric == "qtm" and m % 3 == HALF_TURN else 1


def metric_length(moves: Sequence[int], metric: str = "htm") -> int:
    """The length of a move sequence in a metric."""
    return sum(move_cost(m, metric) for m in moves)


def format_moves(moves: Sequence[int], style: str = "standard") -> str:
    """`R U2 F'` (standard) or `R1U2F3` (contest: face + clockwise quarter turns)."""
    if style == "standard":
        return " ".join(MOVE_NAMES[m] for m in moves)
    if style == "contest":
        return "".join(f"{FACES[m // 3]}{m % 3 + 1}" for m in moves)
    raise PuzzleError(f"unknown move format {style!r}: use one of {', '.join(FORMATS)}")


def merge_moves(moves: Sequence[int]) -> list[int]:
    """Combine turns of the same face, also across commuting opposite-face turns (U D U' -> D)."""
    out: list[int] = []
    for m in moves:
        face, turns = m // 3, m % 3 + 1
        k = len(out) - 1
        if k >= 0 and out[k] // 3 != face and out[k] // 3 % 3 == face % 3:
            k -= 1  # look past one turn of the opposite face
        if k >= 0 and out[k] // 3 == face:
            total = (out[k] % 3 + 1 + turns) % 4
            if total:
                out[k] = 3 * face + total - 1
            else:
                del out[k]
        else:
            out.append(m)
    return out


def read_cubes(path) -> list[tuple[int, str]]:
    """(line number, text) of each cube line of a file; '#' comments and blank lines skipped."""
    p = Path(path)
    if p.is_dir():
        raise PuzzleError(f"cube file {p} is a directory, not a file")
    if not p.is_file():
        raise PuzzleError(f"cube file {p} does not exist")
    out = []
    for n, line in enumerate(_text_lines(p), 1):
        text = line.split("#", 1)[0].strip()
        if text:
            out.append((n, text))
    return out


def _text_lines(p: Path) -> list[str]:
    """The lines of a UTF-8 file, or a PuzzleError naming the first line that is not UTF-8."""
    data = p.read_bytes()
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        line = len((data[: exc.start].decode("utf-8") + "x").splitlines())
        raise PuzzleError(
            f"cube file {p} line {line} is not UTF-8 text (byte 0x{data[exc.start]:02x}): "
            "save it as UTF-8 or plain ASCII"
        ) from None


def parse_line(text: str, where: str = "") -> CubieCube:
    """parse_cube with the line named in the error."""
    try:
        return parse_cube(text)
    except PuzzleError as exc:
        raise PuzzleError(f"{where}: {exc}" if where else str(exc)) from None
