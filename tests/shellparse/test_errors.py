"""shellparse's exceptions: one module, one drawn hierarchy, each also a standard exception."""

from __future__ import annotations

import inspect

import pytest

import shellparse
from shellparse import errors, parse


def test_every_error_is_drawn_exported_and_has_a_standard_base() -> None:
    """Each class of `shellparse.errors` appears in its docstring's drawing, is exported by
    `shellparse`, and subclasses both `ShellparseError` and a standard-library exception."""
    classes = [getattr(errors, name) for name in errors.__all__]
    assert {cls.__name__ for cls in classes} == {
        name for name, value in vars(errors).items() if inspect.isclass(value) and issubclass(value, Exception)}
    drawing = errors.__doc__ or ""
    for cls in classes:
        assert cls.__name__ in drawing, f"{cls.__name__} is missing from the drawing"
        assert getattr(shellparse, cls.__name__) is cls
        assert issubclass(cls, errors.ShellparseError)
        if cls is not errors.ShellparseError:
            assert any(base.__module__ == "builtins" and base is not Exception for base in cls.__mro__[1:])


@pytest.mark.parametrize("call", [
    lambda: shellparse.analyze("pytest", shell="fish"),
    lambda: shellparse.analyze("pytest", shell="fish", cache=False),
    lambda: parse("pytest", shell="zsh"),
])
def test_unknown_shell_is_a_value_error(call: object) -> None:
    """A `shell` outside `SHELLS` raises `UnknownShell`, which `except ValueError` also catches."""
    with pytest.raises(errors.UnknownShell, match="shell must be one of bash, pwsh") as raised:
        call()  # type: ignore[operator]
    assert isinstance(raised.value, ValueError)


def test_unknown_policy_is_a_value_error() -> None:
    """A `policy` outside `POLICIES` raises `UnknownPolicy`, a `ValueError`."""
    with pytest.raises(errors.UnknownPolicy, match="policy must be one of seed, strict"):
        shellparse.analyze("pytest", policy="lenient")
    with pytest.raises(ValueError):
        shellparse.analyze("pytest", policy="lenient", cache=False)


@pytest.mark.parametrize("command", [b"pytest", None, 42, ["pytest"]])
def test_a_command_that_is_not_text_is_a_type_error(command: object) -> None:
    """A command that is not a `str` raises `NotACommand`, a `TypeError`, from both entry points."""
    with pytest.raises(errors.NotACommand, match="command must be a str"):
        shellparse.analyze(command)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse(command)  # type: ignore[arg-type]


def test_too_deep_nesting_never_escapes() -> None:
    """`NestingTooDeep` stays inside the parsers: the caller gets a fail-closed parse error."""
    analysis = shellparse.analyze("echo $(" * 200 + "pytest" + ")" * 200, cache=False)
    assert analysis.parse_error is not None and "nest deeper" in analysis.parse_error
    assert not analysis.witness_eligible
