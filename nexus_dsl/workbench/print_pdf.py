"""SVG pages made into one PDF, with CairoSVG over the cairo library.

The pages are the SVG the editor already draws (card sheets from `card_svg`, barge pages from
`barge_page`), so the printed faces cannot drift from the editor's. Cairo's PDF surface keeps text
as text (fonts embedded as subsets, with the map back to characters, so the PDF can be searched
and copied from) and sizes exact: a page drawn 210 x 297 mm is a 595.3 x 841.9 pt page.

CairoSVG converts one SVG into one document; to put every page into one PDF with its fonts
embedded once, each page is drawn onto a shared cairo PDF surface, sized to that page, and the
surface is finished after the last. The one hook used for that, `_create_surface`, is CairoSVG's
way for a surface class to supply its cairo surface (pyproject.toml pins CairoSVG below 3).

SVG is parsed by CairoSVG in its safe mode (the default): no external files, no entities.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from typing import Any, Iterable

__all__ = ["PrintUnavailable", "pdf_of"]


class PrintUnavailable(RuntimeError):
    """The PDF cannot be made on this machine: the cairo library is missing."""


def _cairo() -> tuple[Any, Any, Any]:
    """cairocffi and CairoSVG's surface and parser modules, imported only when a PDF is made."""
    try:
        import cairocffi
        from cairosvg import parser, surface
    except (ImportError, OSError) as error:  # cairocffi raises OSError when libcairo.so cannot be found
        raise PrintUnavailable(
            "making a PDF needs the cairo library (Debian: `apt-get install libcairo2`; `make test` installs it): "
            f"{error}") from None
    return cairocffi, parser, surface


def pdf_of(pages: Iterable[ET.Element], title: str = "") -> bytes:
    """Every page (an SVG element sized in mm) as one page of a PDF, in order."""
    cairocffi, parser, surface = _cairo()
    pdf_surface: Any = surface.PDFSurface

    class OnePage(pdf_surface):  # CairoSVG ships no types: its class is Any to mypy
        """A page drawn onto the shared document (given as `output`) instead of a new one."""

        def _create_surface(self, width: float, height: float) -> tuple[Any, float, float]:
            self.output.set_size(width, height)
            return self.output, width, height

    buffer = io.BytesIO()
    document = cairocffi.PDFSurface(buffer, 1, 1)
    if title:
        document.set_metadata(cairocffi.PDF_METADATA_TITLE, title)
    document.set_metadata(cairocffi.PDF_METADATA_CREATOR, "nexus print")
    try:
        for page in pages:
            tree = parser.Tree(bytestring=ET.tostring(page, encoding="utf-8"))
            # 96 dpi: CairoSVG's pixel; a page sized in mm converts to exact points whatever the dpi.
            OnePage(tree, document, dpi=96)
            document.show_page()
    finally:  # finished while the buffer is open, even after a failure: cairo writes its last bytes there
        document.finish()
    return buffer.getvalue()
