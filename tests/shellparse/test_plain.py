"""A command line of plain words and operators is read without the grammar, into the model the grammar gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shellparse._bash import parse_tree
from shellparse._offsets import IDENTITY, OffsetMap
from shellparse._plain import plain_script
from tests.shellparse.corpus_file import commands

_WORDS = st.sampled_from(["pytest", "-q", "tests/unit", "CI=1", "A_B=x=y", "x+=1", "--tb=short", "a#b", "#c",
                          "time", "if", "done", "!", "{", "}", "-", "--", ".", "..", "@x", "%1", "a,b", "1", "0x",
                          "=", "=a", "a=", "_=", "tests/test_a.py::test_b", "x:y", "'q'", "$x", "*.py", "~/a",
                          "a\\b", "é", "a;b", "2>&1", "coproc", "[[", "function", "x#", "a=#", "-#", "1#2", "a.b#",
                          "a@b", "a%b", "a:", ":a", "2>&1", ">f", "> out.log", "2>/dev/null",
                          "&>f", "&>> f", ">>f", "<input.txt", "0<f", "0>f", "10>f", "1>&2", ">&2", "2>&-", "<&3",
                          "<<EOF", "<>f", ">|f", "2> f#x", ">a=b", ">x:y", "'a b'", "'#'", "a'b c'd", "''",
                          "'x'y", "'$x'", "'\"'", "A='x y'", "'A'=1", "'a;b && c'", "'if'", "'a'#", "#'a'", "'\\'",
                          "> 'out log'", "x'", "'~/a'", "'*.py'", "'{a,b}'", "2&>f", "- 2>&1"])
_BLANKS = st.sampled_from([" ", "  ", "\t", " \t "])
_OPERATORS = st.sampled_from([" && ", "&&", " || ", "||", "; ", ";", " | ", "|", " ;", " & ", "&", ";;", "\n", " |& "])


@st.composite
def _lines(draw: st.DrawFn) -> str:
    words = draw(st.lists(_WORDS, min_size=1, max_size=8))
    text = draw(st.sampled_from(["", " ", "\t"]))
    for index, word in enumerate(words):
        text += (draw(_BLANKS | _OPERATORS) if index else "") + word
    return text + draw(st.sampled_from(["", " ", "\t"]))


_NAMES = st.sampled_from(["pytest", "a", "npm", "CI=1 a", "A='x y' b", ">f a", "2>&1 a", "1", "x.y", "./t"])
_ARGUMENTS = st.sampled_from(["-q", "tests/unit", "x+=1", "--tb=short", "a#b", "1", "-", "--", "x:y", "2>&1", ">f",
                              "> out.log", "&>f", ">>f", "<input.txt", "1>&2", ">&2", "2> f#x", "'a b'", "'#'",
                              "a'b c'd", "''", "'$x'", "'a;b && c'", "'if'", "-k 'a or b'", "a='b'c", ">'f'", "'1'>f",
                              "2>'&1'", "'2'>&1", "' '", "10>f", "3<f", "&>>f", "=", "@", "%", "9", "2&>f", "0>f"])
_JOINS = st.sampled_from([" && ", "&&", " || ", "; ", ";", " | ", "|", " ;"])


@st.composite
def _commands(draw: st.DrawFn) -> str:
    """Lines that start each command with a name, so that most are plain (``_lines`` mostly declines)."""
    text = ""
    for index in range(draw(st.integers(1, 3))):
        text += (draw(_JOINS) if index else "") + draw(_NAMES)
        for argument in draw(st.lists(_ARGUMENTS, max_size=4)):
            text += draw(_BLANKS) + argument
    return text


@settings(max_examples=500)
@given(_lines() | _commands())
def test_plain_words_read_as_the_grammar_reads_them(text: str) -> None:
    """Where the plain reading applies, it gives exactly the grammar's model; where it does not
    (quotes, expansions, reserved words, `#` starting a word …), it declines."""
    data = text.encode("utf-8")
    plain = plain_script(text, IDENTITY) if len(data) == len(text) else None
    if plain is not None:
        assert plain == parse_tree(text, IDENTITY, 0, data)


@settings(max_examples=300)
@given(_lines() | _commands())
def test_plain_words_in_a_command_string_keep_their_outer_places(text: str) -> None:
    """In a command string (`bash -c '…'`), the plain reading maps every span as the grammar's does."""
    data = text.encode("utf-8")
    if len(data) != len(text):
        return
    offsets = OffsetMap(text, data, outer=[10 + 2 * index for index in range(len(text) + 1)])
    plain = plain_script(text, offsets)
    if plain is not None:
        assert plain == parse_tree(text, offsets, 0, data)


def test_the_plain_reading_declines_what_it_does_not_know() -> None:
    """Reserved words, expansions (double-quoted too), a `#` starting a word and operators go to the grammar."""
    for text in ("time pytest", "if true", 'pytest "a $b"', "pytest $X", "pytest 'a\nb'", "pytest #c", "a & b",
                 "a |& b", "! pytest", "pytest\n", "", "   ", "a;", "a && if true", "a ;; b"):
        assert plain_script(text, IDENTITY) is None, text
    assert plain_script("CI=1 pytest -q a#b", IDENTITY) is not None
    assert plain_script("cd api && npm test | tail -20; echo ok || true", IDENTITY) is not None
    assert plain_script("npm test 2>&1 | tail -20 && pytest -q > out.log", IDENTITY) is not None
    assert plain_script("git commit -m 'fix: a; b' && pytest -k 'a or b'", IDENTITY) is not None
    for text in ("a 2>&-", "a 0<f", "a > f b", "> f", "a <<EOF", "a >| f", "a <&3"):
        assert plain_script(text, IDENTITY) is None, text


def test_every_plain_corpus_command_reads_as_the_grammar_reads_it() -> None:
    """Each bash command of the corpus the plain reading takes (most of them) gets the grammar's model."""
    taken = 0
    for text in commands("bash"):
        data = text.encode("utf-8", "surrogatepass")
        plain = plain_script(text, IDENTITY) if len(data) == len(text) else None
        if plain is not None:
            taken += 1
            assert plain == parse_tree(text, IDENTITY, 0, data), text
    assert taken >= 500


_QUOTED_WORDS = st.sampled_from(['"q"', '"a b"', '""', '"it\'s"', "'say \"x\"'", "\"a\"'b'", 'A="x y"', '--n="x y"',
                                 '>"f g"', '"#x"', 'a"b"#c', '"*.py"', '"a!b"', '"a\\b"', '"$x"', '"`x`"', '"a',
                                 'b"', '"if"', '"{a,b}"', '"~/a"', '"a;b && c"', '"-"', '"2">f', '2>"&1"', '"x"=1',
                                 '""x', '="a"', '"a\tb"', '"(x)"', 'pytest', '-k', 'CI=1', '2>&1', "'a b'"])


@settings(max_examples=300)
@given(st.lists(_QUOTED_WORDS, min_size=1, max_size=6), st.sampled_from([" ", " && ", "; ", " | "]))
def test_double_quoted_words_read_as_the_grammar_reads_them(words: list[str], join: str) -> None:
    """Double-quoted words without `$`, backquotes or backslashes are plain, with the grammar's
    values and spans (in a command string too); any other double-quoted word goes to the grammar."""
    text = "x " + join.join(words)
    data = text.encode("utf-8")
    outer = OffsetMap(text, data, outer=[10 + 2 * index for index in range(len(text) + 1)])
    for offsets in (IDENTITY, outer):
        plain = plain_script(text, offsets)
        if plain is not None:
            assert plain == parse_tree(text, offsets, 0, data)
    assert plain_script('git commit -m "fix: a b" && A="x y" pytest -k "a or b"', IDENTITY) is not None
    for declined in ('echo "$x"', 'echo "`x`"', 'echo "a\\b"', 'echo "a'):
        assert plain_script(declined, IDENTITY) is None, declined
