"""tree-sitter-bash trees to the neutral model.

The tree is flattened into a stream of commands and operators, then regrouped by the shell's
own precedence (pipes bind tighter than ``&&``/``||``, which bind tighter than ``;``, ``&`` and
newline). tree-sitter-bash nests ``a && b 2>&1 | c`` as ``(a && b 2>&1) | c`` and lets a
here-document swallow the rest of its line; regrouping the flat stream undoes both.
"""

from __future__ import annotations

import re
from typing import Any

from ._flat import Attach, NegationToken, OperatorToken, Pipe, Token, Unit, attach, lone, regroup, separate
from ._grammars import bash_parser
from ._heredoc import end_problem
from ._misread import repaired
from ._model import Command, Opaque, Redirect, Script, Span, Word, compound_command, simple_command
from ._offsets import IDENTITY, OffsetMap, decode
from ._plain import plain_script
from ._quoting import BASH_SPECIAL, bash_value
from ._vocabulary import CommandKind, OpaqueKind, Operator
from .errors import NestingTooDeep

MAX_DEPTH = 64

_STATEMENTS = frozenset({
    "command", "list", "pipeline", "redirected_statement", "negated_command", "subshell",
    "compound_statement", "if_statement", "while_statement", "for_statement",
    "c_style_for_statement", "case_statement", "function_definition", "test_command",
    "declaration_command", "unset_command", "variable_assignment", "variable_assignments",
})
_CONTAINERS = frozenset({"do_group", "elif_clause", "else_clause", "case_item", "ERROR"})
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_NOT_ARGUMENTS = _REDIRECTS | {"variable_assignment", "comment"}
_OPERATORS: dict[str, Operator | Pipe] = {
    ";": ";", "&": "&", "&&": "&&", "||": "||", "|": "|", "|&": "|&", "\n": "\n",
    ";;": ";", ";&": ";", ";;&": ";",  # `case` item terminators end a statement
}
_SUBSTITUTIONS: dict[str, OpaqueKind] = {
    "command_substitution": "substitution", "process_substitution": "process-substitution",
}
_COMPOUND_KINDS: dict[str, CommandKind] = {
    "subshell": "subshell", "if_statement": "if", "case_statement": "case", "while_statement": "while",
    "for_statement": "for", "c_style_for_statement": "for", "function_definition": "function",
}
_new = tuple.__new__
# What :meth:`_Converter.flatten` does with a node, by its type (in the order the types were once
# tested: a type in two sets takes the first one's action).
_SIMPLE, _DESCEND, _NEGATED, _REDIRECTED, _OPERATOR, _COMPOUND, _COMMENT, _WORD_LIKE = range(8)
_FLATTEN: dict[str, int] = {
    **dict.fromkeys(_STATEMENTS, _COMPOUND), **dict.fromkeys(_CONTAINERS, _DESCEND),
    **dict.fromkeys(_OPERATORS, _OPERATOR), "negated_command": _NEGATED, "redirected_statement": _REDIRECTED,
    "list": _DESCEND, "pipeline": _DESCEND, "command": _SIMPLE, "variable_assignment": _SIMPLE,
    "variable_assignments": _SIMPLE, "comment": _COMMENT,
}


def parse_bash(text: str, offsets: OffsetMap | None = None, depth: int = 0, data: bytes | None = None) -> Script:
    """Parse ``text`` (UTF-8 ``data``, when the caller has it) as bash into the neutral model,
    spans mapped through ``offsets``."""
    if data is None:
        data = text.encode("utf-8", "surrogatepass")
    ascii_text = len(data) == len(text)
    if offsets is None:
        offsets = IDENTITY if ascii_text else OffsetMap(text, data)
    if ascii_text:
        plain = plain_script(text, offsets)  # `pytest -q tests`: one reading, without the grammar
        if plain is not None:
            return plain
    return parse_tree(text, offsets, depth, data)


def parse_tree(text: str, offsets: OffsetMap, depth: int, data: bytes) -> Script:
    """Parse ``text`` with the grammar (what :func:`parse_bash` does with all but plain words)."""
    ascii_text = len(data) == len(text)
    parser = bash_parser()
    source = data if ascii_text else _ascii_stand_in(data)
    if source[-1:] in _ENDS_LINE:
        tree = parser.parse(source)
    else:  # see _ENDS_LINE
        tree = parser.parse(source + b"\n")
        if tree.root_node.has_error:
            tree = parser.parse(source)  # the place of a syntax error is reported where the text ends
        else:
            source += b"\n"
    source, tree, negations = repaired(source, tree, parser.parse)
    converter = _Converter(text, data, offsets, depth, negations)
    try:
        return converter.program(tree.root_node)
    except RecursionError:  # NestingTooDeep included
        return Script((), f"constructs nest deeper than {MAX_DEPTH} levels", Span(offsets(0), offsets(len(data))))


_ENDS_LINE = (b"", b"\n", b"\\")
"""How a text may end that is parsed as it is. Any other text is parsed with a newline after it,
which bash reads the same (the end of the text ends the line), and tree-sitter-bash much faster: a
pipeline of three or more commands at the very end of the text costs it twenty times a parse
(``a | b | c``: 50 µs, ``a | b | c`` and a newline: 3 µs). A text ending in a backslash is parsed as
it is, where a newline would make it a line continuation, and so is one the grammar finds a syntax
error in (whose place is reported where the text ends)."""
_HIGH_BYTES_TO_X = bytes(range(0x80)) + b"x" * 0x80


def _ascii_stand_in(data: bytes) -> bytes:
    """The UTF-8 ``data`` with every non-ASCII character replaced by letters of the same UTF-8 length.

    tree-sitter-bash's scanner passes the character after `{` to C's ``isdigit``, which reads
    outside its table for code points above 255 and can crash the process
    (tree-sitter/tree-sitter-bash#337). To bash, non-ASCII characters are ordinary word
    characters, as letters are, so the tree keeps its shape; byte offsets stay the same, and
    every word is read back from the real text. (Every byte of a non-ASCII character's UTF-8
    form is 0x80 or above, and no ASCII character's is: replacing those bytes one by one does it.)
    """
    return data.translate(_HIGH_BYTES_TO_X)


class _Converter:
    __slots__ = ("ascii", "carriage_returns", "data", "depth", "identity", "limit", "negations", "offsets", "problem",
                 "shift", "source")

    def __init__(self, text: str, data: bytes, offsets: OffsetMap, depth: int,
                 negations: dict[int, tuple[int, int]] | None = None):
        self.source = text
        self.negations = negations
        """The ``!`` before each group tree-sitter-bash could not read as negated (see :mod:`._misread`)."""
        self.data = data
        self.offsets = offsets
        self.depth = depth
        self.ascii = len(data) == len(text)
        """No character outside ASCII: byte offsets are offsets into ``source``."""
        self.identity = offsets.identity
        self.shift = None if offsets.identity else offsets.shift
        """The one number byte offsets before ``limit`` map by (a string copied from the outer text)."""
        self.limit = offsets.end
        self.carriage_returns = b"\r" in data
        self.problem: tuple[str, Span] | None = None
        """A syntax problem the grammar does not see (a here-document bash does not end where it does)."""

    # -- helpers ---------------------------------------------------------------------------

    def span(self, node: Any) -> Span:
        return self.byte_span(node.start_byte, node.end_byte)

    def byte_span(self, start: int, end: int) -> Span:
        """``self.offsets.span(start, end)``, its commonest cases first (the converter's hot path)."""
        if self.identity:
            return _new(Span, (start, end))
        shift = self.shift
        if shift is not None and start <= end <= self.limit and start < self.limit:
            return _new(Span, (start + shift, end + shift))
        return self.offsets.span(start, end)

    def text(self, node: Any) -> str:
        if self.ascii:
            return self.source[node.start_byte : node.end_byte]
        return decode(self.data, node.start_byte, node.end_byte)

    def word(self, node: Any, opaque: list[Opaque]) -> Word:
        # The hottest function of the analysis: node properties are read once each, and the
        # tuples are built without their generated constructors.
        start, end = node.start_byte, node.end_byte
        text = self.source[start:end] if self.ascii else decode(self.data, start, end)
        if node.child_count and ("$(" in text or "`" in text or "<(" in text or ">(" in text):
            self.collect(node, opaque)
        value = text if BASH_SPECIAL.search(text) is None else bash_value(text)
        if self.carriage_returns and value is not None and self.data[end : end + 1] == b"\r":
            # bash does not treat a carriage return as blank: `npm test\r` runs the script "test\r"
            # (a command line with Windows line endings). tree-sitter does.
            value += "\r"
        return _new(Word, (text, value, _new(Span, (start, end)) if self.identity else self.byte_span(start, end)))

    def collect(self, node: Any, opaque: list[Opaque]) -> None:
        """Add every substitution inside ``node`` to ``opaque``, with its body parsed."""
        stack = [node]
        while stack:
            current = stack.pop()
            kind = _SUBSTITUTIONS.get(current.type)
            if kind is not None:
                opaque.append(Opaque(kind, self.span(current), self.nested(current.children[1:-1])))
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

    # -- scripts -----------------------------------------------------------------------------

    def program(self, root: Any) -> Script:
        script = self.script(root.children)
        data = self.data
        if self.problem is None and (b"\r" in data or b"\x0b" in data or b"\x0c" in data) \
                and _CONTROL.search(data) is not None:
            self.problem = self.control_problem(root)
        if root.has_error:
            message, span = self.first_error(root)
            return script._replace(error=message, error_span=span)
        if self.problem is not None:
            message, span = self.problem
            return script._replace(error=message, error_span=span)
        return script

    def control_problem(self, root: Any) -> tuple[str, Span] | None:
        """A form feed, vertical tab or carriage return (not ending a line) outside quotes and
        comments: tree-sitter-bash reads it as a blank, bash as part of a word, so a `#` after it
        starts no comment (`pytest\\f# ; true` runs `pytest\\f#`, then `true`)."""
        for found in _CONTROL.finditer(self.data):
            at = found.start()
            node = root.descendant_for_byte_range(at, at + 1)
            while node is not None and node.type not in _LITERAL_TEXT:
                node = node.parent
            if node is None:
                name = _CONTROL_NAMES[self.data[at]]
                return f"bash reads a {name} as part of a word, not as a blank", self.byte_span(at, at + 1)
        return None

    def first_error(self, root: Any) -> tuple[str, Span]:
        stack = [root]
        while stack:
            node = stack.pop()
            if node.is_missing:
                where = self.offsets(node.start_byte)
                return f"syntax error: missing {node.type!r}", Span(where, where)
            if node.type == "ERROR":
                snippet = self.text(node).strip().splitlines()
                near = snippet[0][:40] if snippet else ""
                return f"syntax error near {near!r}", self.span(node)
            stack.extend(child for child in reversed(node.children) if child.has_error)
        return "syntax error", self.span(root)

    def script(self, nodes: list[Any]) -> Script:
        items: list[Token] = []
        error: list[tuple[str, Span]] = []
        if len(nodes) == 1 and nodes[0].type == "command" and _timed_compound(nodes[0]) is None:
            # One simple command, the commonest command line: no stream to regroup.
            stack: list[Any] = []
            command = self.simple(nodes[0], stack)
            if not stack:
                return lone(command)
            items.append(Unit(command))
            nodes = stack[::-1]
        self.flatten(nodes, items, error)
        return regroup(items, error[0] if error else None)  # the first syntax problem only

    def flatten(self, nodes: list[Any], items: list[Token], error: list[tuple[str, Span]]) -> None:
        # An explicit stack: `a && b && … ` nests one level per operator, far deeper than
        # Python's recursion limit allows for long chains. One table lookup says what a node is.
        stack: list[Any] = list(reversed(nodes))
        actions = _FLATTEN
        while stack:
            node = stack.pop()
            if node.__class__ is Attach:
                attach(items, node)
                continue
            kind = node.type
            action = actions.get(kind, _WORD_LIKE)
            if action == _DESCEND:
                stack.extend(reversed(node.children))
            elif action == _OPERATOR and not node.is_named:
                if kind == ";;" and self.depth == 0 and not error:
                    error.append(("syntax error near ';;'", self.span(node)))
                items.append(_new(OperatorToken, (_OPERATORS[kind], self.span(node))))
            elif action == _SIMPLE:
                timed = _timed_compound(node) if kind == "command" else None
                if timed is not None:  # `time ( … )`: the keyword times the compound; its status is the compound's
                    stack.append(timed)
                    continue
                self.emit(items, self.simple(node, stack))
            elif action == _REDIRECTED:
                self.redirected(node, items, stack)
            elif action == _COMPOUND:
                if self.negations and node.start_byte in self.negations:
                    separate(items, self.offsets(self.negations[node.start_byte][0]))
                    items.append(NegationToken(self.byte_span(*self.negations[node.start_byte])))
                self.emit(items, self.compound(node))
            elif action == _NEGATED:
                separate(items, self.offsets(node.start_byte))
                items.append(NegationToken(self.span(node.children[0])))
                stack.extend(reversed(node.children[1:]))
            elif kind == "file_redirect" and node.parent is not None and node.parent.type == "command_substitution":
                self.emit(items, self.bare_redirect(node))
            elif action != _COMMENT and node.is_named:
                # A word-like node where a statement was expected (for-loop values, case
                # patterns): it runs nothing itself, but substitutions inside it do.
                opaque: list[Opaque] = []
                self.collect(node, opaque)
                if opaque:
                    self.emit(items, simple_command((), self.span(node), opaque=tuple(opaque)))

    def bare_redirect(self, node: Any) -> Command:
        """``$(< file)``: a substitution that reads the file (bash's shortcut for ``$(cat file)``)."""
        found: list[Opaque] = []
        extra: list[Word] = []
        redirect = self.redirect(node, found, extra, [])
        return simple_command(tuple(extra), self.span(node), redirects=(redirect,), opaque=tuple(found))

    def emit(self, items: list[Token], command: Command) -> None:
        separate(items, command.span.start)
        items.append(Unit(command))

    def redirected(self, node: Any, items: list[Token], stack: list[Any]) -> None:
        body = None
        redirects: list[Redirect] = []
        opaque: list[Opaque] = []
        extra_words: list[Word] = []
        continuation: list[Any] = []
        for child in node.children:
            if child.type in _REDIRECTS:
                redirects.append(self.redirect(child, opaque, extra_words, continuation))
            elif body is None and child.is_named and child.type != "comment":
                body = child
        end = redirects[-1].span.end if redirects else self.span(node).end
        if body is None:  # a bare `> file`: a command of its own that truncates the file
            self.emit(items, simple_command(tuple(extra_words), Span(self.offsets(node.start_byte), end),
                                            redirects=tuple(redirects), opaque=tuple(opaque)))
        else:
            stack.extend(reversed(continuation))
            stack.append(_new(Attach, (tuple(redirects), tuple(opaque), end, tuple(extra_words))))
            stack.append(body)

    def check_heredoc_end(self, op: str, start: Any, body: Any, end: Any) -> None:
        """Record a problem when bash would not end this here-document where the grammar does."""
        data = self.data
        first = body.start_byte if body is not None else data.rfind(b"\n", 0, end.start_byte) + 1
        found = end_problem(data, strip_tabs=op == "<<-", start=start.start_byte, body=first,
                            end=(end.start_byte, end.end_byte))
        if found is not None:
            self.problem = (found, self.span(end))

    # -- commands ----------------------------------------------------------------------------

    def simple(self, node: Any, stack: list[Any]) -> Command:
        words: list[Word] = []
        assignments: list[Word] = []
        redirects: list[Redirect] = []
        opaque: list[Opaque] = []
        continuation: list[Any] = []
        for child in node.children if node.type != "variable_assignment" else (node,):
            kind = child.type
            if kind not in _NOT_ARGUMENTS:  # the command name and its arguments
                words.append(self.word(child, opaque))
            elif kind == "variable_assignment":
                assignments.append(self.word(child, opaque))
            elif kind != "comment":
                redirects.append(self.redirect(child, opaque, words, continuation))
        if continuation:
            stack.extend(reversed(continuation))
        # `simple_command`, inline: once per command
        return _new(Command, ("simple", tuple(words), tuple(assignments), tuple(redirects), tuple(opaque), None,
                              self.span(node), False))

    def redirect(self, node: Any, opaque: list[Opaque], extra_words: list[Word],
                 continuation: list[Any]) -> Redirect:
        fd = None
        op = ""
        target = None
        body = None
        end = node.end_byte
        start_node = body_node = None
        for child in node.children:
            kind = child.type
            if kind == "file_descriptor":
                fd = self.text(child)
            elif not child.is_named and not op:
                op = kind
            elif kind == "heredoc_start":
                target = Word(self.text(child), None, self.span(child))
                end = child.end_byte
                start_node = child
            elif kind == "heredoc_body":
                body = self.span(child)
                body_node = child
                if child.child_count:  # only an unquoted delimiter's body has expansions in it
                    content = self.text(child)
                    if "$" in content or "`" in content:
                        self.collect(child, opaque)
            elif kind == "heredoc_end":
                if start_node is not None and self.problem is None:
                    self.check_heredoc_end(op, start_node, body_node, child)
                continue
            elif kind in _REDIRECTS:
                # `cat <<EOF > out`: tree-sitter nests the second redirect in the first.
                extra = self.redirect(child, opaque, extra_words, continuation)
                continuation.append(Attach((extra,), (), extra.span.end))
            elif node.type == "heredoc_redirect" and (kind in _OPERATORS or kind in _STATEMENTS):
                # The rest of the here-document's line (`<<EOF && next`, `<<EOF | grep x`).
                continuation.append(child)
            elif target is None and child.is_named:
                target = self.word(child, opaque)
                end = child.end_byte
            elif child.is_named:
                extra_words.append(self.word(child, opaque))  # `echo a > f b`: `b` is an argument
        return _new(Redirect, (op, fd, target, self.offsets.span(node.start_byte, end), body))

    def compound(self, node: Any) -> Command:
        kind = node.type
        span = self.span(node)
        if kind in ("test_command", "declaration_command", "unset_command"):
            opaque: list[Opaque] = []
            words = [self.word(leaf, opaque) for leaf in _leaves(node)]
            return simple_command(tuple(words), span, opaque=tuple(opaque))
        children = node.children
        if kind == "compound_statement":
            if children and children[0].type == "((":
                opaque = []
                self.collect(node, opaque)
                return compound_command("arithmetic", None, span, opaque=tuple(opaque))
            return compound_command("group", self.nested(children[1:-1]), span)
        if kind == "subshell":
            return compound_command("subshell", self.nested(children[1:-1]), span)
        if kind == "while_statement" and children and children[0].type == "until":
            return compound_command("until", self.nested(children), span)
        if kind == "for_statement" and children and children[0].type == "select":
            return compound_command("select", self.nested(children), span)
        if kind == "function_definition":
            opaque = []
            names = [self.word(child, opaque) for child in children if child.type == "word"][:1]
            return compound_command("function", self.nested(children), span, words=tuple(names))
        return compound_command(_COMPOUND_KINDS[kind], self.nested(children), span, words=self.structure(node))

    def structure(self, node: Any) -> tuple[Word, ...]:
        """The words that give an ``if``, ``for`` or ``case`` its shape (see :class:`Command`)."""
        kind = node.type
        words: list[Word] = []
        if kind == "if_statement":
            for child in node.children:
                if child.type in ("elif_clause", "else_clause"):
                    words.extend(self.plain(part) for part in child.children if part.type in _IF_KEYWORDS)
                elif child.type in _IF_KEYWORDS:
                    words.append(self.plain(child))
        elif kind == "for_statement":
            children = node.children
            for index, child in enumerate(children):
                if child.type == "in" or node.field_name_for_child(index) in ("variable", "value"):
                    words.append(self.plain(child))
        elif kind == "case_statement":
            children = node.children
            for index, child in enumerate(children):
                if node.field_name_for_child(index) == "value":
                    words.append(self.plain(child))
                elif child.type == "case_item":
                    words.extend(self.plain(part) for index, part in enumerate(child.children)
                                 if part.type in _CASE_MARKS or child.field_name_for_child(index) == "value")
        return tuple(words)

    def plain(self, node: Any) -> Word:
        """A word read from its text alone: substitutions in it are not collected (their commands are
        converted where they run), so its value is ``None`` when it has any."""
        text = self.text(node)
        value = text if BASH_SPECIAL.search(text) is None else bash_value(text)
        return Word(text, value, self.span(node))


_CONTROL = re.compile(rb"[\x0b\x0c]|\r(?!\n|\Z)")
"""Control characters bash does not read as blanks (a carriage return ending a line is read apart:
see :meth:`_Converter.word`)."""
_CONTROL_NAMES = {0x0B: "vertical tab", 0x0C: "form feed", 0x0D: "carriage return"}
_LITERAL_TEXT = frozenset({"string", "raw_string", "ansi_c_string", "translated_string", "heredoc_body",
                           "heredoc_content", "comment"})
"""Nodes whose text bash keeps as it is: a control character in them is data."""
_IF_KEYWORDS = frozenset({"if", "then", "elif", "else", "fi"})
_CASE_MARKS = frozenset({")", ";;", ";&", ";;&"})


def _timed_compound(node: Any) -> Any:
    """The subshell in ``time [-p] ( … )``, which tree-sitter reads as an argument of `time`."""
    children = node.children
    if len(children) < 2 or children[-1].type not in ("subshell", "compound_statement"):
        return None
    name = children[0]
    if name.type != "command_name" or name.text != b"time":
        return None
    if any(child.type != "word" or child.text != b"-p" for child in children[1:-1]):
        return None
    return children[-1]


def _leaves(node: Any) -> list[Any]:
    """Word-level parts of a test or declaration command, in order."""
    out: list[Any] = []
    stack = [node]
    word_like = ("word", "string", "raw_string", "concatenation", "number", "simple_expansion",
                 "expansion", "command_substitution", "variable_assignment", "variable_name",
                 "ansi_c_string", "regex", "extglob_pattern")
    while stack:
        current = stack.pop()
        if current.type in word_like or current.child_count == 0:
            if current.type != "comment":
                out.append(current)
            continue
        stack.extend(reversed(current.children))
    return out


