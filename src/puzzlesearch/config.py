"""Project configuration: config.yaml validated against workflow/schemas/*.schema.yaml.

The Snakefile and the CLI use the same function, so both see the same defaults.
`config.schema.yaml` names the top-level sections; each stage adds its own
`<section>.schema.yaml` describing only its section.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, validators

from puzzlesearch.errors import ConfigError

CONFIG_FILE = "config.yaml"
SCHEMA_DIR = Path("workflow") / "schemas"
MAIN_SCHEMA = "config.schema.yaml"
# Lexicons when no config.yaml is found (a command run outside a project folder).
FALLBACK_LEXICONS = {"default": "builtin:en", "arabic": {"source": "builtin:ar", "alphabet": "arabic"}}


def _with_defaults(validator_class):
    """Extend a jsonschema validator so that it fills in `default` values."""
    validate_props = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for prop, sub in properties.items():
                if isinstance(sub, dict) and "default" in sub:
                    instance.setdefault(prop, _copy(sub["default"]))
        yield from validate_props(validator, properties, instance, schema)

    return validators.extend(validator_class, {"properties": set_defaults})


def _copy(value):
    return yaml.safe_load(yaml.safe_dump(value))


DefaultingValidator = _with_defaults(Draft202012Validator)


def schema_files(root: Path) -> list[Path]:
    """The main schema first, then the per-section schemas in name order."""
    folder = Path(root) / SCHEMA_DIR
    main = folder / MAIN_SCHEMA
    rest = sorted(p for p in folder.glob("*.schema.yaml") if p.name != MAIN_SCHEMA)
    return ([main] if main.exists() else []) + rest


def validate_config(config: dict, root: str | Path = ".", source: str = CONFIG_FILE) -> dict:
    """Fill defaults and validate `config` in place; raise ConfigError naming the key."""
    if config is None:
        config = {}
    if not isinstance(config, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of sections")
    for path in schema_files(Path(root)):
        schema = yaml.safe_load(path.read_text())
        while True:
            errors = sorted(DefaultingValidator(schema).iter_errors(config), key=lambda e: list(e.path))
            if not errors:
                break
            if not any([_coerce(config, err) for err in errors]):
                err = errors[0]
                key = ".".join(str(p) for p in err.absolute_path) or "(top level)"
                raise ConfigError(f"{source}: config key {key}: {err.message}")
    return config


def _coerce(config: dict, err) -> bool:
    """Replace a string where the schema wants another type by its YAML value, if that fits.

    Snakemake reads nested `--config` values as strings (`boggle='{seeds: 20}'` gives
    seeds '20'), so a string is read as YAML once more before it counts as an error.
    """
    if err.validator not in ("type", "enum") or not isinstance(err.instance, str) or not err.absolute_path:
        return False
    try:
        value = yaml.safe_load(err.instance)
    except yaml.YAMLError:
        return False
    if isinstance(value, str) or not Draft202012Validator({err.validator: err.validator_value}).is_valid(value):
        return False
    *parents, last = err.absolute_path
    holder = config
    for part in parents:
        holder = holder[part]
    holder[last] = value
    return True


EFFECTIVE_CONFIG = ".puzzlesearch-config.yaml"


def write_effective_config(config: dict, root: str | Path) -> Path:
    """Write the config Snakemake runs with (config.yaml plus --config/--configfile).

    Every rule passes this file to `puzzlesearch --config`, so the commands see exactly
    the workflow's config, overrides included. Rewritten only when it changes.
    """
    path = Path(root) / EFFECTIVE_CONFIG
    text = "# written by the Snakefile: the effective config of the last snakemake run\n"
    text += yaml.safe_dump(json.loads(json.dumps(config)), sort_keys=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        from puzzlesearch.io import write_text

        write_text(text, path)
    return path


def find_root(start: str | Path | None = None) -> Path:
    """The project folder: the nearest folder upward holding config.yaml, else cwd."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / CONFIG_FILE).exists():
            return folder
    return here


def schema_root(*starts: Path) -> Path:
    """The nearest folder (upward from each start, then the source tree) with the schemas."""
    package_tree = Path(__file__).resolve().parents[2]  # <project>/src/puzzlesearch/config.py
    for start in (*starts, package_tree):
        here = Path(start).resolve()
        for folder in (here, *here.parents):
            if (folder / SCHEMA_DIR / MAIN_SCHEMA).exists():
                return folder
    raise ConfigError(f"cannot find {SCHEMA_DIR / MAIN_SCHEMA} to validate the config against")


def load_config(path: str | Path | None = None) -> tuple[dict, Path]:
    """Read and validate config.yaml; return (config, project root for results/)."""
    if path is None:
        root = find_root()
        path = root / CONFIG_FILE
    else:
        path = Path(path)
        if not path.exists():
            raise ConfigError(f"--config {path}: no such file")
        root = path.resolve().parent
    config: Any = {"lexicons": dict(FALLBACK_LEXICONS)}  # no config.yaml: the embedded lists
    if path.exists():
        try:
            config = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" line {mark.line + 1}" if mark else ""
            raise ConfigError(f"{path}:{where} is not valid YAML") from None
    return validate_config(config, schema_root(root, Path.cwd()), str(path)), root
