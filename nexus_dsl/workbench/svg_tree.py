"""A small SVG writer over `xml.etree.ElementTree`: the pictures the workbench draws (the board, the
body figure) are built as element trees and serialised by it, which escapes every text and attribute
value, so a name from a pack cannot add markup to the picture (nor, through `xml_text`, a character
XML cannot hold)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Iterable, Mapping

from .xml_text import xml_text

SVG_NS = "http://www.w3.org/2000/svg"


def named(attributes: Mapping[str, Any]) -> dict[str, str]:
    """Attribute names use `_` for `-` (`data_col` -> `data-col`, `class_` -> `class`); None is left out."""
    return {name.rstrip("_").replace("_", "-"): xml_text(str(value)) for name, value in attributes.items()
            if value is not None}


def element(tag: str, text: str | None = None, **attributes: Any) -> ET.Element:
    made = ET.Element(tag, named(attributes))
    made.text = None if text is None else xml_text(text)
    return made


def group(children: Iterable[ET.Element], **attributes: Any) -> ET.Element:
    made = ET.Element("g", named(attributes))
    made.extend(children)
    return made


def svg_text(root: ET.Element) -> str:
    """The document as text, without an XML declaration (it is embedded in a page)."""
    return ET.tostring(root, encoding="unicode")
