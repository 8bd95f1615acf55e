"""Writes gateway configs as block-style YAML (README, "Configuration") from plain dicts and lists.

Simple words (`none`, `1s`, `/graphql`, `GET`) are written plain, as a person would; every
other string is double-quoted with JSON escapes, which YAML reads the same way, so values such
as `${VAR}` or `http://…` survive without surprises. Numbers and booleans stay plain.
"""

import json
import re

# Plain scalars that YAML would read as something other than the same string.
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"}
_PLAIN = re.compile(r"^[A-Za-z/_][A-Za-z0-9_./*-]*$|^[0-9]+(ms|s|m|h|KiB|MiB|GiB)$")


def to_yaml(value, indent: int = 0) -> str:
    return "".join(_lines(value, indent))


def _scalar(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text
    return json.dumps(text)


def _key(key) -> str:
    text = str(key)
    plain = text and all(ch.isalnum() or ch in "_-." for ch in text)
    return text if plain else json.dumps(text)


def _lines(value, indent: int):
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            yield pad + "{}\n"
            return
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                yield f"{pad}{_key(key)}:\n"
                yield from _lines(item, indent + 2)
            else:
                yield f"{pad}{_key(key)}: {_inline(item)}\n"
    elif isinstance(value, list):
        if not value:
            yield pad + "[]\n"
            return
        for item in value:
            if isinstance(item, dict) and item:
                nested = list(_lines(item, indent + 2))
                yield f"{pad}- {nested[0].lstrip()}"
                yield from nested[1:]
            elif isinstance(item, list) and item:
                yield f"{pad}-\n"
                yield from _lines(item, indent + 2)
            else:
                yield f"{pad}- {_inline(item)}\n"
    else:
        yield pad + _scalar(value) + "\n"


def _inline(value) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return _scalar(value)
