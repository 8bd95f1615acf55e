"""Tables for the terminal (aligned columns) and for RESULTS.md (Markdown)."""

# Columns holding names rather than numbers: left-aligned in the terminal.
TEXT_COLUMNS = {"section", "body", "target", "shape", "route", "leg", "request", "item", "value",
                "Accept-Encoding", "protocol", "cipher", "listener", "upstream"}


def text_table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(header), *(len(row[index]) for row in rows)) if rows else len(header)
              for index, header in enumerate(headers)]
    left = [header in TEXT_COLUMNS for header in headers]
    lines = ["  ".join(cell.ljust(width) if left[index] else cell.rjust(width)
                       for index, (cell, width) in enumerate(zip(line, widths)))
             for line in [headers, *rows]]
    return "\n".join(lines)


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
