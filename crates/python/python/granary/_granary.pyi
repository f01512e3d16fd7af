"""The native half of `granary` (Rust, pyo3). Use the `granary` package's classes instead.

Answers are the engine's, as Python objects: dicts, lists, ints, floats, strings and None, as
its JSON has them."""

from typing import Any, Callable, Dict, List, Optional, Tuple, Union

class TableError(Exception):
    """Tables missing or damaged, or a build or search that failed."""

__version__: str
DEFAULT_SEARCH_SECONDS: float
DEFAULT_TIME: float
REVIEW_TIME: float
Options = dict  # {"game": str, "pits": int | None, "seeds": int | None, "rules": str | None, ...}
Progress = Callable[[str, Dict[str, Any]], None]
Answer = Dict[str, Any]
# A review's progress: (done, total, ply), the ply a dict.
ReviewProgress = Callable[[int, int, Dict[str, Any]], None]
# Labels as bytes: values (int16 LE), covered (bool), and with moves (move values, legal).
# label_pits takes its pit counts as uint64 LE bytes.
Labels = Tuple[bytes, bytes, Optional[Tuple[bytes, bytes]]]

def show(options: Options, position: Optional[str], moves: List[str]) -> Answer: ...
# A Query, or beyond the exact reach (with a time or nodes) of an estimate: the
# engine's `estimate`, `best`, `pv`, `moves` and `beyond` (no `value`).
def query(
    directory: str,
    options: Options,
    position: Optional[str],
    moves: List[int],
    search_seconds: Optional[float],
    time: Optional[float],
    nodes: Optional[int],
) -> Answer: ...
# A RecordReview; beyond the exact reach (with a time or nodes a ply) a ply is
# `estimated`: the engine's `estimate`, `estimated_best`, `estimate_played`, `estimated_loss`.
def review(
    directory: str,
    options: Options,
    position: Optional[str],
    moves: List[Union[int, str]],
    search_seconds: Optional[float],
    time: Optional[float],
    nodes: Optional[int],
    progress: Optional[ReviewProgress],
) -> Answer: ...
def review_record(
    directory: str,
    text: str,
    search_seconds: Optional[float],
    time: Optional[float],
    nodes: Optional[int],
    progress: Optional[ReviewProgress],
) -> Answer: ...
def record_read(text: str) -> Answer: ...
def record_new(
    options: Options,
    position: Optional[str],
    moves: List[Union[int, str]],
    tags: List[Tuple[str, str]],
    comments: List[str],
) -> Answer: ...
def choose(
    directory: str,
    options: Options,
    position: Optional[str],
    moves: List[int],
    search_seconds: Optional[float],
    time: float,
    nodes: Optional[int],
) -> Answer: ...
def position_of_counts(
    options: Options, south: List[int], north: List[int], stores: Tuple[int, int], to_move: int
) -> str: ...
def open_tablebase(directory: str, create: bool) -> None: ...
def label_pits(
    directory: str, options: Options, pits: bytes, to_move: bytes, with_moves: bool
) -> Labels: ...
def label_text(
    directory: str, options: Options, positions: List[str], with_moves: bool
) -> Tuple[int, Labels]: ...
def solve(
    directory: str,
    options: Options,
    position: Optional[str],
    moves: List[int],
    threads: Optional[int],
    table_seeds: Optional[int],
    progress: Optional[Progress],
    journal: Optional[str],
) -> Answer: ...
def build(
    directory: str,
    options: Options,
    max_seeds: int,
    threads: Optional[int],
    memory: Optional[int],
    progress: Optional[Progress],
) -> Answer: ...
def catalogue() -> List[Answer]: ...
def bao_prove(
    options: Options,
    start: Optional[str],
    moves: List[str],
    depth: int,
    progress: Optional[Progress],
) -> Answer: ...
def bao_prove_pns(options: Options, start: Optional[str], moves: List[str], nodes: int) -> Answer: ...
def bao_choose(
    options: Options, start: Optional[str], moves: List[str], seconds: float
) -> Optional[Answer]: ...
def bao_hint(options: Options, start: Optional[str], moves: List[str]) -> List[Tuple[str, float]]: ...
