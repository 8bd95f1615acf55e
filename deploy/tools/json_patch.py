"""JSON patch (RFC 6902) on plain Python data, as kustomize applies a `patches:` entry that is a
list of operations: add, remove, replace, move, copy and test, with JSON pointers (RFC 6901)."""

import copy


class PatchError(ValueError):
    pass


def apply(document, operations: list):
    """A patched deep copy of `document`; raises PatchError naming the failing operation."""
    result = copy.deepcopy(document)
    for index, operation in enumerate(operations):
        try:
            result = _apply_one(result, operation)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise PatchError(f"operation {index} ({operation.get('op')} {operation.get('path')}): "
                             f"{error}") from None
    return result


def _apply_one(document, operation: dict):
    op, path = operation["op"], operation["path"]
    if op == "add":
        return _add(document, path, copy.deepcopy(operation["value"]))
    if op == "remove":
        return _remove(document, path)[0]
    if op == "replace":
        document = _remove(document, path)[0]
        return _add(document, path, copy.deepcopy(operation["value"]))
    if op == "move":
        document, value = _remove(document, operation["from"])
        return _add(document, path, value)
    if op == "copy":
        return _add(document, path, copy.deepcopy(_get(document, operation["from"])))
    if op == "test":
        actual = _get(document, path)
        if actual != operation["value"]:
            raise ValueError(f"test failed: found {actual!r}, expected {operation['value']!r}")
        return document
    raise ValueError(f"unknown op {op!r}")


def _tokens(pointer: str) -> list:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON pointer starts with '/': {pointer!r}")
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _index(container: list, token: str, allow_end: bool) -> int:
    if token == "-" and allow_end:
        return len(container)
    if not token.isdigit() or (len(token) > 1 and token.startswith("0")):
        raise ValueError(f"bad array index {token!r}")
    position = int(token)
    if position > len(container) or (position == len(container) and not allow_end):
        raise IndexError(f"array index {position} out of range (length {len(container)})")
    return position


def _parent(document, tokens: list):
    node = document
    for token in tokens[:-1]:
        node = node[_index(node, token, False)] if isinstance(node, list) else node[token]
    return node


def _get(document, pointer: str):
    tokens = _tokens(pointer)
    if not tokens:
        return document
    parent, last = _parent(document, tokens), tokens[-1]
    return parent[_index(parent, last, False)] if isinstance(parent, list) else parent[last]


def _add(document, pointer: str, value):
    tokens = _tokens(pointer)
    if not tokens:
        return value
    parent, last = _parent(document, tokens), tokens[-1]
    if isinstance(parent, list):
        parent.insert(_index(parent, last, True), value)
    elif isinstance(parent, dict):
        parent[last] = value
    else:
        raise TypeError(f"cannot add into a {type(parent).__name__}")
    return document


def _remove(document, pointer: str):
    """The document without the value at `pointer`, and that value."""
    tokens = _tokens(pointer)
    if not tokens:
        raise ValueError("cannot remove the whole document")
    parent, last = _parent(document, tokens), tokens[-1]
    if isinstance(parent, list):
        return document, parent.pop(_index(parent, last, False))
    return document, parent.pop(last)
