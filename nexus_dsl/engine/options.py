"""The options of a named decision (`ask`): what a player may answer, as script values.

An option has a name and named values (`option("allocate", "ratio_to", "ap")`); the
player picks it as a control action of that name and values, so agents, scenarios and the editor
see the decision as they see every other. An option named `pass` is the answer of passing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The option whose pick is a pass (an action of the kind `pass`, with no name).
PASSING = "pass"


@dataclass(frozen=True)
class Option:
    name: str
    values: tuple[tuple[str, Any], ...] = ()

    # Written out, the dataclass's own `__init__` would do: the compiled engine then makes an option
    # with compiled code, not the interpreted method the decorator generates (`board.Square` says more).
    def __init__(self, name: str, values: tuple[tuple[str, Any], ...] = ()) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "values", values)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Option, (self.name, self.values))

    def value(self, key: str) -> Any:
        """The option's value of that name, or None."""
        return next((value for name, value in self.values if name == key), None)
