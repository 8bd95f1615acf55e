"""Fills the {{NAME}} placeholders of the config templates in Benchmarks/conf/."""

import re
from pathlib import Path

CONF_DIR = Path(__file__).resolve().parent.parent / "conf"

_PLACEHOLDER = re.compile(r"\{\{([A-Z0-9_]+)\}\}")


def render(template_name: str, values: dict) -> str:
    """The template's text with every placeholder replaced; a placeholder without a value is an error,
    so a template and the code that fills it cannot silently drift apart."""
    text = (CONF_DIR / template_name).read_text()

    def substitute(match: re.Match) -> str:
        name = match.group(1)
        if name not in values:
            raise KeyError(f"{template_name}: no value for {{{{{name}}}}}")
        return str(values[name])

    return _PLACEHOLDER.sub(substitute, text)


def render_to(template_name: str, values: dict, destination: Path) -> Path:
    destination.write_text(render(template_name, values))
    return destination
