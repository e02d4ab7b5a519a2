"""The project's config.yaml, for interactive commands (the pipeline passes settings instead).

A command run inside a puzzlesearch project (a folder with `Snakefile` and `config.yaml`,
found upward from the working folder) reads that project's config.yaml; anywhere else it
reads nothing and uses the schema defaults and the embedded word lists. Pipeline commands
(`--settings JSON`) never read a config file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from puzzlesearch.errors import ConfigError
from puzzlesearch.settings import validate_config

CONFIG_FILE = "config.yaml"
PROJECT_MARKERS = ("Snakefile", CONFIG_FILE)
# Lexicons when no project config is read (a command run outside a project folder).
FALLBACK_LEXICONS = {"default": "builtin:en", "arabic": {"source": "builtin:ar", "alphabet": "arabic"}}

__all__ = ["CONFIG_FILE", "load_config", "project_root", "validate_config"]


def project_root(start: str | Path | None = None) -> Path | None:
    """The nearest folder upward holding a puzzlesearch project (Snakefile and config.yaml), or None."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if all((folder / marker).is_file() for marker in PROJECT_MARKERS):
            return folder
    return None


def read_yaml(path: Path) -> Any:
    """A YAML file's content; ConfigError names the file and line."""
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{path}:{where} is not valid YAML") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None


def load_config(path: str | Path | None = None) -> tuple[dict, Path | None]:
    """The validated config and the project folder it belongs to (None outside a project).

    With `path`, that file is read (its folder counts as the project folder).
    """
    if path is not None:
        path = Path(path)
        if not path.is_file():
            raise ConfigError(f"--config {path}: no such file")
        root: Path | None = path.resolve().parent
    else:
        root = project_root()
        path = root / CONFIG_FILE if root else None
    config: Any = {"lexicons": dict(FALLBACK_LEXICONS)}
    if path is not None:
        config = read_yaml(path) or {}
    return validate_config(config, str(path or "defaults")), root
