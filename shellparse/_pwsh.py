"""tree-sitter-pwsh trees to the neutral model.

PowerShell's grammar is richer than bash's, but for exit attribution the same shape matters:
statements joined by ``;``, newline, ``&&`` and ``||``; pipelines joined by ``|``; commands with
arguments and redirections; and code that runs in its own context (script blocks ``{ … }``,
subexpressions ``$( … )``, ``@( … )`` and parenthesised pipelines).

Known grammar gap, worked around here: a bare ``--`` argument (``npm test -- --watch``) is a
syntax error for both PyPI PowerShell grammars. It is replaced by a placeholder of the same
length before parsing; words are always read back from the original text.
"""

from __future__ import annotations

import re
from typing import Any

from ._flat import Token, Unit, operator, regroup, separate
from ._grammars import pwsh_parser
from ._model import Command, Opaque, Redirect, Script, Span, Word, compound_command, simple_command
from ._offsets import IDENTITY, OffsetMap, decode
from ._quoting import pwsh_literal_string, pwsh_value
from ._vocabulary import CommandKind, OpaqueKind
from .errors import NestingTooDeep

MAX_DEPTH = 64

_DOUBLE_DASH = re.compile(rb"(?<![^\s])--(?=$|[\s;|)}])", re.MULTILINE)

_CONTAINERS = frozenset({
    "statement_list", "ERROR", "statement_block", "else_clause", "elseif_clause", "elseif_clauses",
    "finally_clause", "catch_clause", "catch_clauses", "switch_body", "switch_clauses",
    "switch_clause", "while_condition", "for_initializer", "for_condition", "for_iterator",
    "named_block_list", "named_block", "script_block", "script_block_body", "switch_condition",
})
_COMPOUND_KINDS: dict[str, CommandKind] = {
    "if_statement": "if", "foreach_statement": "for", "for_statement": "for",
    "while_statement": "while", "do_statement": "while", "switch_statement": "case",
    "try_statement": "try", "function_statement": "function", "trap_statement": "block",
    "data_statement": "block", "class_statement": "block", "enum_statement": "block",
    "parallel_statement": "block", "sequence_statement": "block", "inlinescript_statement": "block",
}
_OPAQUE_KINDS: dict[str, OpaqueKind] = {
    "script_block_expression": "script-block", "sub_expression": "subexpression",
    "array_expression": "subexpression", "parenthesized_expression": "subexpression",
}
_SKIP = frozenset({"comment", "command_argument_sep", "using_statement", "requires_statement"})


def parse_pwsh(text: str, offsets: OffsetMap | None = None, depth: int = 0, data: bytes | None = None) -> Script:
    """Parse ``text`` (UTF-8 ``data``, when the caller has it) as PowerShell into the neutral
    model, spans mapped through ``offsets``."""
    if data is None:
        data = text.encode("utf-8", "surrogatepass")
    ascii_text = len(data) == len(text)
    if offsets is None:
        offsets = IDENTITY if ascii_text else OffsetMap(text, data)
    tree = pwsh_parser().parse(_DOUBLE_DASH.sub(b"__", data) if b"--" in data else data)
    converter = _Converter(text, data, offsets, depth)
    try:
        script = converter.script(tree.root_node.children)
    except RecursionError:  # NestingTooDeep included
        return Script((), f"constructs nest deeper than {MAX_DEPTH} levels", Span(offsets(0), offsets(len(data))))
    if tree.root_node.has_error:
        message, span = converter.first_error(tree.root_node)
        return script._replace(error=message, error_span=span)
    return script


class _Converter:
    __slots__ = ("ascii", "data", "depth", "identity", "offsets", "source")

    def __init__(self, text: str, data: bytes, offsets: OffsetMap, depth: int):
        self.source = text
        self.data = data
        self.offsets = offsets
        self.depth = depth
        self.ascii = len(data) == len(text)
        """No character outside ASCII: byte offsets are offsets into ``source``."""
        self.identity = offsets.identity

    def span(self, node: Any) -> Span:
        if self.identity:
            return Span(start=node.start_byte, end=node.end_byte)
        return self.offsets.span(node.start_byte, node.end_byte)

    def text(self, node: Any) -> str:
        if self.ascii:
            return self.source[node.start_byte : node.end_byte]
        return decode(self.data, node.start_byte, node.end_byte)

    def word(self, node: Any, opaque: list[Opaque]) -> Word:
        text = self.text(node)
        if node.child_count and ("$" in text or "{" in text or "(" in text):
            self.collect(node, opaque)
        return Word(text=text, value=pwsh_value(text), span=self.span(node))

    def collect(self, node: Any, opaque: list[Opaque]) -> None:
        stack = [node]
        while stack:
            current = stack.pop()
            kind = _OPAQUE_KINDS.get(current.type)
            if kind is not None:
                opaque.append(Opaque(kind, self.span(current), self.nested(current.children)))
                continue
            stack.extend(reversed(current.children))

    def nested(self, nodes: list[Any]) -> Script:
        if self.depth >= MAX_DEPTH:
            raise NestingTooDeep
        self.depth += 1
        try:
            return self.script(nodes)
        finally:
            self.depth -= 1

    def first_error(self, root: Any) -> tuple[str, Span]:
        stack = [root]
        while stack:
            node = stack.pop()
            if node.is_missing:
                where = self.offsets(node.start_byte)
                return f"syntax error: missing {node.type!r}", Span(where, where)
            if node.type == "ERROR":
                lines = self.text(node).strip().splitlines()
                near = lines[0][:40] if lines else ""
                return f"syntax error near {near!r}", self.span(node)
            stack.extend(child for child in reversed(node.children) if child.has_error)
        return "syntax error", self.span(root)

    def script(self, nodes: list[Any]) -> Script:
        items: list[Token] = []
        stack: list[Any] = list(reversed(nodes))
        while stack:
            node = stack.pop()
            kind = node.type
            if kind in ("pipeline", "pipeline_chain") or kind in _CONTAINERS:
                stack.extend(reversed(node.children))
            elif kind == "pipeline_chain_tail":
                for child in node.children:
                    if child.type in ("&&", "||"):
                        items.append(operator(child.type, self.span(child)))
                    else:
                        stack.append(child)
            elif kind in ("|", ";", "&", "&&", "||") and not node.is_named:
                items.append(operator(kind, self.span(node)))
            elif kind == "empty_statement":
                items.append(operator(";", self.span(node)))
            elif kind in _SKIP or not node.is_named:
                continue
            else:
                command = self.unit(node)
                separate(items, command.span.start)
                items.append(Unit(command))
        return regroup(items)

    def unit(self, node: Any) -> Command:
        kind = node.type
        span = self.span(node)
        if kind == "command":
            return self.command(node)
        if kind == "flow_control_statement":
            opaque: list[Opaque] = []
            words = [Word(self.text(node.children[0]), self.text(node.children[0]).lower(),
                          self.span(node.children[0]))]
            words += [self.word(child, opaque) for child in node.children[1:] if child.is_named]
            return simple_command(tuple(words), span, opaque=tuple(opaque))
        if kind == "assignment_expression":
            target = node.children[0] if node.children else node
            value = [child for child in node.children if child.type == "assignment_value"]
            body = self.nested(value[0].children) if value else None
            return compound_command("assignment", body, span,
                                    assignments=(Word(self.text(target), None, self.span(target)),))
        compound = _COMPOUND_KINDS.get(kind)
        if compound is not None:
            names: tuple[Word, ...] = ()
            if kind == "function_statement":
                found = [child for child in node.children if child.type == "function_name"]
                names = tuple(Word(self.text(n), self.text(n), self.span(n)) for n in found[:1])
            return compound_command(compound, self.nested(node.children), span, words=names)
        opaque = []
        self.collect(node, opaque)
        text = self.text(node)
        return compound_command("expression", None, span, opaque=tuple(opaque),
                                literal=not opaque and pwsh_literal_string(text.strip()))

    def command(self, node: Any) -> Command:
        words: list[Word] = []
        redirects: list[Redirect] = []
        opaque: list[Opaque] = []
        body = None
        for child in node.children:
            kind = child.type
            if kind == "command_name":
                words.append(self.word(child, opaque))
            elif kind == "command_name_expr":
                inner = child.children[0] if child.child_count == 1 else child
                if inner.type == "script_block_expression":
                    body = self.nested(inner.children)
                else:
                    words.append(self.word(inner, opaque))
            elif kind == "command_invocation_operator":
                if self.text(child).strip() == ".":  # dot-sourcing runs a script in this scope
                    words.append(Word(".", ".", self.span(child)))
            elif kind == "command_elements":
                for element in child.children:
                    element_kind = element.type
                    if element_kind in _SKIP:
                        continue
                    if element_kind == "redirection":
                        redirects.append(self.redirection(element, opaque))
                    elif element_kind == "redirections":
                        redirects.extend(self.redirection(r, opaque) for r in element.children
                                         if r.type == "redirection")
                    elif element_kind == "stop_parsing":
                        text = self.text(element)
                        words.append(Word(text, text, self.span(element)))
                    else:
                        words.append(self.word(element, opaque))
        if body is not None:
            return compound_command("block", body, self.span(node), redirects=tuple(redirects), opaque=tuple(opaque))
        return simple_command(tuple(words), self.span(node), redirects=tuple(redirects), opaque=tuple(opaque))

    def redirection(self, node: Any, opaque: list[Opaque]) -> Redirect:
        op = ""
        target = None
        for child in node.children:
            if child.type in ("file_redirection_operator", "merging_redirection_operator"):
                op = self.text(child).strip()
            elif child.type == "redirected_file_name":
                parts = [part for part in child.children if part.type != "command_argument_sep"]
                if parts:
                    first, last = parts[0], parts[-1]
                    text = decode(self.data, first.start_byte, last.end_byte)
                    if "$(" in text:
                        self.collect(child, opaque)
                    target = Word(text, pwsh_value(text), self.offsets.span(first.start_byte, last.end_byte))
        fd = op[0] if op[:1].isdigit() or op[:1] == "*" else None
        return Redirect(op, fd, target, self.span(node))
