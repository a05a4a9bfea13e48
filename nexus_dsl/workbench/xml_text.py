"""Text a picture's XML can hold, whatever a pack's names and texts contain.

ElementTree escapes markup (`<`, `&`, quotes) but writes a control character as it is, and XML 1.0
cannot hold one: a card named with a stray U+0001 would make the editor's SVG, and the PDF drawn
from it, unreadable as a whole. Such a character is drawn as U+FFFD instead, visible where it was.
"""

from __future__ import annotations

import re

__all__ = ["xml_text"]

# What XML 1.0 refuses: the C0 controls other than tab, line feed and carriage return, lone
# surrogates, and the two non-characters U+FFFE and U+FFFF.
_NOT_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """`text` with every character XML 1.0 cannot hold replaced by U+FFFD."""
    return _NOT_IN_XML.sub("\ufffd", text)
