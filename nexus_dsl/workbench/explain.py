"""Why a line of a bout's log happened, in a designer's words: the script declarations and the
statements under way when the bout wrote it (`engine/causes.py`), each with its file, line and the
script's own text, the values its effect was given, and the dice the line rolled.

A bout keeps causes only when played to be explained (`Bout(..., explain=True)`): the test run,
the playtest and `nexus play --explain` play so. A line with no cause was written by the game's
own sequence (a round starting), or is a player's decision (a command chosen).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..engine.bout import Event
from ..engine.causes import Cause
from ..model.ruleset import Ruleset
from ..narrate import GameTerms, describe

# Lines that are a player's decision: their reason is the player's choice, whatever ran around it.
DECIDED = frozenset({"command", "card", "ability", "allocate"})
# What the game's own sequence is written in: a line whose innermost statement is a procedure's
# happened because the game's structure goes so (a round starting, the order of play).
SEQUENCING = frozenset({"procedure"})


@dataclass(frozen=True)
class Because:
    """One statement under way: the declaration (kind, id, name) it belongs to, where it is, the
    script's text of its line, and the values its effect was given."""

    kind: str | None
    ident: str | None
    name: str | None
    file: str
    line: int
    column: int
    effect: str
    values: tuple[str, ...]
    text: str  # the script's line, as written (stripped); empty when the source is not at hand

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    @property
    def label(self) -> str:
        """`rule Crowd Pleaser`, `turning point Fan Favourite`: its kind and name (else its id)."""
        return _label(self.kind, self.name, self.ident)

    @property
    def openable(self) -> bool:
        """Whether the card editor can open its declaration (it has an id)."""
        return self.kind is not None and self.ident is not None


@dataclass(frozen=True)
class Explanation:
    """A line of the log, why it happened (`reason`, one sentence), the statements under way
    (outermost first), the one the reason names (`main`: the one it happened because of, by
    `said_because`; the innermost when only the game's sequence ran; None for none), and the dice
    it rolled."""

    seq: int
    line: str
    reason: str
    causes: tuple[Because, ...]
    main: Because | None
    dice: tuple[str, ...]
    explained: bool  # whether the bout kept causes at all (else `reason` says it cannot tell)

    def lines(self) -> list[str]:
        """The explanation as text (`nexus play --explain`): why, with the values of the statement
        it names; the statements it ran within; the dice the line rolled."""
        main = self.main
        values = f" ({', '.join(main.values)})" if main is not None and main.values else ""
        out = [f"why: {self.reason}{values}"]
        within = [cause for cause in self.causes if cause is not main]
        if within:
            out.append("within: " + " → ".join(f"{cause.label} ({cause.where})" for cause in within))
        if self.dice:
            out.append("dice: " + ", ".join(self.dice))
        return out


def because_of(cause: Cause, sources: Mapping[str, str], root: str | Path | None = None) -> Because:
    """A cause in the words `Because` keeps, with its line's text read from the ruleset's sources;
    its file named from `root` (the content root) when it lies under it."""
    declaration = cause.declaration
    pos = cause.node.pos
    text = ""
    source = sources.get(pos.file)
    if source is not None and pos.line > 0:
        lines = source.splitlines()
        if pos.line <= len(lines):
            text = _without_comment(lines[pos.line - 1]).strip()
    return Because(declaration.kind if declaration is not None else None,
                   declaration.id if declaration is not None else None,
                   declaration.name if declaration is not None else None,
                   _from_root(pos.file, root), pos.line, pos.column, cause.verb, cause.values, text)


def explain(event: Event, ruleset: Ruleset, terms: GameTerms | None = None,
            root: str | Path | None = None) -> Explanation:
    """Why `event` happened, from the causes its bout kept; files under `root` (the editor's content
    root) named from it (`base/turning_points/crowd.nexus`), others as the ruleset names them."""
    terms = terms or GameTerms.of(ruleset)
    line = (describe(event, terms) or event.type).strip()
    dice = tuple(_die(roll) for roll in event.data.get("dice") or ())
    if event.cause is None:
        return Explanation(event.seq, line, "this bout was not played to be explained (no causes were kept)",
                           (), None, dice, False)
    causes = tuple(because_of(cause, ruleset.sources, root) for cause in event.cause)
    index = said_because([cause.kind for cause in causes])
    main = causes[index] if index is not None else (causes[-1] if causes else None)
    return Explanation(event.seq, line, _reason(event, terms, main), causes, main, dice, True)


@dataclass(frozen=True, eq=False)
class LogLine:
    """One line of a log as a page shows it: its words (`narrate.describe`) beside the event it
    tells, which keeps the causes an explained bout recorded, so the line can be explained
    (`explain(line.event, ruleset)`) when it is chosen, and only then."""

    text: str
    event: Event

    @property
    def seq(self) -> int:
        return self.event.seq

    @property
    def tag(self) -> str | None:
        """The declaration the line happened because of, by kind and name (`turning point Fan
        Favourite`): the innermost under way that is not a procedure sequencing the game; None for a
        player's decision, a line of the game's own sequence, or a bout not played to be explained.
        Read from the kept causes alone (no script text), so every line of a long log can carry it."""
        causes = self.event.cause or ()
        index = said_because([cause.declaration.kind if cause.declaration is not None else None for cause in causes])
        if index is None:
            return None
        main = causes[index]
        if self.event.type in DECIDED and main.verb == "ask":
            return None
        declaration = main.declaration
        if declaration is None:
            return _label(None, None, None)
        return _label(declaration.kind, declaration.name, declaration.id)


def told(events: Iterable[Event], terms: GameTerms) -> tuple[LogLine, ...]:
    """Each event told in words, paired with the event (a line `describe` leaves untold is left out,
    as `narrate` leaves it out)."""
    lines = []
    for event in events:
        text = describe(event, terms)
        if text is not None:
            lines.append(LogLine(text, event))
    return tuple(lines)


def explain_all(events: Sequence[Event], ruleset: Ruleset) -> list[Explanation]:
    terms = GameTerms.of(ruleset)
    return [explain(event, ruleset, terms) for event in events]


def _reason(event: Event, terms: GameTerms, main: Because | None) -> str:
    actor = event.data.get(terms.actor)
    if event.type in DECIDED and (main is None or main.kind in SEQUENCING or main.effect == "ask"):
        who = f"{actor}'s player" if actor else "a player"
        asked = f" (asked by {main.label} at {main.where})" if main is not None and main.effect == "ask" else ""
        return f"{who} chose it{asked}"
    if main is None:
        return "the game's own sequence (no script was running)"
    said = f"{main.label}, at {main.where}: `{main.text or main.effect}`"
    return f"the game's sequence: {said}" if main.kind in SEQUENCING else said


def said_because(kinds: Sequence[str | None]) -> int | None:
    """Which of the statements under way (outermost first, given by their declarations' kinds) a
    line happened because of: the innermost that is not a procedure sequencing the game; None when
    only the game's sequence ran. The one rule both the explanation and a line's tag follow."""
    for index in range(len(kinds) - 1, -1, -1):
        if kinds[index] not in SEQUENCING:
            return index
    return None


def _label(kind: str | None, name: str | None, ident: str | None) -> str:
    return f"{(kind or 'script').replace('_', ' ')} {name or ident or '?'}"


def _from_root(file: str, root: str | Path | None) -> str:
    if root is None:
        return file
    try:
        return Path(file).relative_to(root).as_posix()
    except ValueError:  # not under the root (or not a path: a test's `<scenario>`)
        return file


def _without_comment(line: str) -> str:
    """A script's line without its trailing `# comment` (a `#` inside a string stays)."""
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return line[:index]
    return line


def _die(roll: dict[str, Any]) -> str:
    return f"{roll.get('purpose', 'die')} d{roll.get('sides', '?')}: {roll.get('value', '?')}"
