"""The advisor's exceptions: one module, one tree, each drawn and with its standard-library base."""

from __future__ import annotations

import inspect

import advisor.errors as errors


def test_every_advisor_exception_is_drawn_exported_and_has_a_standard_base() -> None:
    """Each class of `advisor.errors` is in its `__all__` and its docstring's drawing, subclasses `AdvisorError`,
    and also a standard-library exception (so `except ValueError` catches a bad setting)."""
    classes = [value for value in vars(errors).values() if inspect.isclass(value) and issubclass(value, Exception)]
    assert sorted(cls.__name__ for cls in classes) == sorted(errors.__all__)
    drawing = errors.__doc__ or ""
    for cls in classes:
        assert cls.__name__ in drawing, f"{cls.__name__} is missing from the drawing"
        assert issubclass(cls, errors.AdvisorError)
        if cls is not errors.AdvisorError:
            assert any(base.__module__ == "builtins" and base is not Exception for base in cls.__mro__[1:]), cls


def test_refusals_carry_what_their_handlers_need() -> None:
    """A refused turn says whether an automatic trigger backs off; an unjudged stop whether the file was readable."""
    assert errors.TurnRefused("no model", backoff=True).backoff and not errors.TurnRefused("busy").backoff
    assert errors.Unjudged("unreadable", unreadable=True).unreadable
    assert isinstance(errors.BudgetRefused("spent"), errors.OrchestrationError)
    assert isinstance(errors.ToolFailure("outside the workspace"), errors.AdvisorError)
