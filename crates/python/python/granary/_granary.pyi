"""The native half of `granary` (Rust, pyo3). Use the `granary` package's classes instead."""

from typing import Callable, List, Optional

class TableError(Exception):
    """Tables missing or damaged, or a build or search that failed."""

Options = dict  # {"game": str, "pits": int | None, "seeds": int | None, "rules": str | None, ...}
Progress = Callable[[str, str], None]

def show(options: Options, position: Optional[str], moves: List[str]) -> str: ...
def query(directory: str, options: Options, position: Optional[str], moves: List[int]) -> str: ...
def values(directory: str, options: Options, positions: List[str]) -> List[int]: ...
def solve(
    directory: str,
    options: Options,
    position: Optional[str],
    moves: List[int],
    threads: Optional[int],
    table_seeds: Optional[int],
    progress: Optional[Progress],
    journal: Optional[str],
) -> str: ...
def build(
    directory: str,
    options: Options,
    max_seeds: int,
    threads: Optional[int],
    memory: Optional[int],
    progress: Optional[Progress],
) -> str: ...
def catalogue() -> str: ...
