"""Settings: the package's schemas are the one source of defaults and bounds.

How a value reaches a job (the same path for every stage):

    config.yaml + --config ──validate_config──> config (defaults filled, bounds checked)
        ──StageSettings.from_config(section)──> settings object (only the keys the job uses)
        ──to_json()──> rule param ──`--settings JSON`──> StageSettings.from_json ──> command

The schemas ship inside the package (`puzzlesearch/schemas/*.schema.yaml`, read with
importlib.resources; `workflow/schemas` is a link to them), so an installed package
validates exactly as the workflow does. A settings class is a frozen dataclass whose
field defaults are read from the schema: no default or bound is written twice.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
import re
from importlib import resources
from typing import Any, ClassVar

import yaml
from jsonschema import Draft202012Validator, validators

from puzzlesearch.errors import ConfigError

MAIN_SCHEMA = "config"
QUOTES = ("'", '"')  # a --set value starting with one is read as YAML even for a text key
# YAML 1.1 reads 1e308 (no dot) as a string; a value of this form is read as a float instead.
EXPONENT_FLOAT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+")


def _with_defaults(validator_class):
    """Extend a jsonschema validator so that it fills in `default` values."""
    validate_props = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for prop, sub in properties.items():
                if isinstance(sub, dict) and "default" in sub:
                    instance.setdefault(prop, copy.deepcopy(sub["default"]))
        yield from validate_props(validator, properties, instance, schema)

    strict = validator_class.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    return validators.extend(validator_class, {"properties": set_defaults}, type_checker=strict)


# jsonschema counts 7.0 as an integer; a numba kernel does not: integers must be ints.
DefaultingValidator = _with_defaults(Draft202012Validator)


@functools.cache
def schema_names() -> tuple[str, ...]:
    """Schema names shipped in the package: the main one first, then the sections."""
    folder = resources.files("puzzlesearch") / "schemas"
    names = sorted(p.name.removesuffix(".schema.yaml") for p in folder.iterdir() if p.name.endswith(".schema.yaml"))
    return (MAIN_SCHEMA, *[n for n in names if n != MAIN_SCHEMA])


@functools.cache
def _schema_text(name: str) -> str:
    return (resources.files("puzzlesearch") / "schemas" / f"{name}.schema.yaml").read_text(encoding="utf-8")


@functools.cache
def _parsed_schema(name: str) -> dict:
    """A shipped schema, parsed by libyaml when PyYAML has it (every job process reads them: ~10x faster)."""
    return yaml.load(_schema_text(name), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def schema(name: str) -> dict:
    """A schema shipped in the package (a fresh copy)."""
    return copy.deepcopy(_parsed_schema(name))


def section_schema(section: str) -> dict:
    """The schema of one config section (e.g. 'bee'), from `<section>.schema.yaml` or the main one."""
    name = section if section in schema_names() else MAIN_SCHEMA
    return schema(name)["properties"][section]


@functools.cache
def _section_defaults(section: str) -> dict:
    data: dict = {}
    DefaultingValidator(section_schema(section)).validate(data)
    return data


def section_defaults(section: str) -> dict:
    """A config section with every default filled in (a fresh copy)."""
    return copy.deepcopy(_section_defaults(section))


def _message(err) -> str:
    return err.message if len(err.message) <= 160 else err.message[:157] + "..."


def validate_config(config: Any, source: str = "config.yaml") -> dict:
    """Fill defaults and validate `config` in place; ConfigError names the key."""
    if config is None:
        config = {}
    if not isinstance(config, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of sections")
    for name in schema_names():
        _validate(config, schema(name), f"{source}: config key ", "")
    return config


def yaml_value(text: str):
    """A value typed as text, read as YAML (and 1e308, a string to YAML 1.1, as a float)."""
    value = yaml.safe_load(text)
    if isinstance(value, str) and EXPONENT_FLOAT.fullmatch(value.strip()):
        return float(value)
    return value


def _check_finite(data, where: str, key: str) -> None:
    """Refuse NaN and infinities anywhere in `data` (NaN passes every schema bound)."""
    if isinstance(data, float) and not math.isfinite(data):
        raise ConfigError(f"{where}{key or '(top level)'}: {data} is not a finite number")
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        _check_finite(v, where, f"{key}.{k}" if key and not key.endswith(".") else f"{key}{k}")


def _validate(data: dict, sch: dict, where: str, prefix: str) -> None:
    """Validate with defaults; strings that should be other types are read as YAML first."""
    while True:
        errors = sorted(DefaultingValidator(sch).iter_errors(data), key=lambda e: list(e.path))
        if not errors:
            _check_finite(data, where, prefix)
            return
        if not any([_coerce(data, err) for err in errors]):
            err = errors[0]
            key = ".".join(str(p) for p in err.absolute_path)
            key = prefix + key if key else (prefix.rstrip(".") or "(top level)")
            raise ConfigError(f"{where}{key}: {_message(err)}")


def _coerce(config: dict, err) -> bool:
    """Replace a string where the schema wants another type by its YAML value, if that fits.

    Snakemake reads nested `--config` values as strings (`boggle='{seeds: 20}'` gives
    seeds '20'), so a string is read as YAML once more before it counts as an error.
    """
    if err.validator not in ("type", "enum") or not isinstance(err.instance, str) or not err.absolute_path:
        return False
    try:
        value = yaml_value(err.instance)
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


def default(section: str, key: str):
    """A dataclass field whose default is the schema's default of `section.key`."""
    value = section_defaults(section)[key]
    if isinstance(value, (list, dict)):
        return dataclasses.field(default_factory=lambda: copy.deepcopy(value))
    return dataclasses.field(default=value)


def parse_sets(items: list[str], keys, flag: str = "--set", text_keys: tuple[str, ...] = ()) -> dict:
    """`KEY=VALUE` strings as a dict (dotted keys for nested values, VALUE read as YAML).

    The VALUE of a key in `text_keys` is text as typed (`exclude=no` is the letters N and
    O, not YAML false) unless it is quoted.
    """
    out: dict = {}
    for item in items:
        key, eq, text = item.partition("=")
        key = key.strip()
        top = key.split(".")[0]
        if not eq or top not in keys:
            raise ConfigError(f"{flag} {item!r}: expected KEY=VALUE with KEY one of {', '.join(keys)}")
        if key in text_keys and not text.strip().startswith(QUOTES):
            text = json.dumps(text.strip())
        try:
            value = yaml_value(text) if text.strip() else ""
        except yaml.YAMLError:
            raise ConfigError(f"{flag} {item!r}: {text!r} is not a valid value (YAML)") from None
        holder = out
        *parents, last = key.split(".")
        for part in parents:
            holder = holder.setdefault(part, {})
            if not isinstance(holder, dict):
                raise ConfigError(f"{flag} {item!r}: {part} is not a mapping")
        holder[last] = value
    return out


def _merge(base: dict, extra: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in extra.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


class Settings:
    """Mixin for a stage's frozen settings dataclass (fields = keys of one config section).

    Subclasses set SECTION; field defaults come from `default(SECTION, key)`. The values
    are checked against the schema on construction, then by `check()` (cross-key rules).
    """

    SECTION: ClassVar[str]
    # Schema key of a field when it differs from the field name.
    SCHEMA_KEYS: ClassVar[dict[str, str]] = {}
    # Keys whose `--set` values are text as typed (see parse_sets).
    TEXT_KEYS: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        data = self.to_dict()
        _validate(data, self.sub_schema(), "config key ", f"{self.SECTION}.")
        self.check()

    def check(self) -> None:
        """Cross-key rules (raise ConfigError naming the key); none by default."""

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def sub_schema(cls) -> dict:
        """The section schema restricted to this class's keys."""
        props = section_schema(cls.SECTION)["properties"]
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {k: props[cls.SCHEMA_KEYS.get(k, k)] for k in cls.keys()},
        }

    @classmethod
    def from_dict(cls, data: dict, where: str = "config key "):
        """Settings from a dict of some of the keys (the others take the schema defaults)."""
        if not isinstance(data, dict):
            raise ConfigError(f"{where}{cls.SECTION}: expected a mapping, got {type(data).__name__}")
        data = copy.deepcopy(data)
        unknown = sorted(set(data) - set(cls.keys()))
        if unknown:
            raise ConfigError(
                f"{where}{cls.SECTION}.{unknown[0]}: not a setting of this step (have {', '.join(cls.keys())})"
            )
        _validate(data, cls.sub_schema(), where, f"{cls.SECTION}.")
        return cls(**data)

    @classmethod
    def from_config(cls, section: dict | None):
        """Settings from a validated config section (keys of other steps ignored)."""
        section = section or {}
        return cls.from_dict({k: section[k] for k in cls.keys() if k in section})

    @classmethod
    def from_json(cls, text: str, flag: str = "--settings"):
        """Settings from the JSON a rule passes (`--settings JSON`)."""
        try:
            data = json.loads(text)
        except ValueError:
            raise ConfigError(f"{flag}: not a JSON object: {text[:60]!r}") from None
        return cls.from_dict(data, where=f"{flag} ")

    def to_dict(self) -> dict:
        """Plain JSON-able values (tuples as lists)."""
        return json.loads(json.dumps(dataclasses.asdict(self)))

    def to_json(self) -> str:
        """One line of JSON with sorted keys: the rule param and the command's --settings."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def with_sets(self, items: list[str], flag: str = "--set"):
        """A copy with `KEY=VALUE` overrides applied (checked like the config)."""
        if not items:
            return self
        data = _merge(self.to_dict(), parse_sets(items, self.keys(), flag, self.TEXT_KEYS))
        try:
            return type(self).from_dict(data, where=f"{flag} ")
        except ConfigError as exc:
            raise ConfigError(str(exc)) from None

    def replace(self, **changes):
        """A copy with some keys changed (None values ignored), checked again."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})
