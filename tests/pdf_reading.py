"""Reading back the PDFs `nexus print` writes (pypdf): page sizes in points, each page's text, and the
straight strokes drawn on a page in page coordinates, from which the crop marks are found."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pypdf import PageObject, PdfReader

MM = 72 / 25.4  # points in a millimetre
CROP_MARK = 4.0 * MM  # a crop mark's length (card_svg.CROP_MARK)


def pages_of(path: Path) -> list[PageObject]:
    return list(PdfReader(path).pages)


def size_of(page: PageObject) -> tuple[float, float]:
    """The page's width and height in points."""
    box = page.mediabox
    return float(box.width), float(box.height)


def text_of(page: PageObject) -> str:
    """The page's text with its lines' spacing evened out, so a printed line is found as written."""
    return " ".join(page.extract_text().split())


def strokes(page: PageObject) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Every straight segment of the page's paths (a `m` then `l`), its ends in page points: the
    content stream's coordinates put through the transformation in force where each is drawn."""
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    last: list[tuple[float, float]] = []

    def visit(operator: bytes, operands: list[Any], cm: list[float], _tm: list[float]) -> None:
        if operator not in (b"m", b"l"):
            return
        x, y = float(operands[0]), float(operands[1])
        point = (cm[0] * x + cm[2] * y + cm[4], cm[1] * x + cm[3] * y + cm[5])
        if operator == b"l" and last:
            segments.append((last[-1], point))
        last[:] = [point]

    page.extract_text(visitor_operand_before=visit)
    return segments


def crop_marks(page: PageObject) -> tuple[list[float], list[float]]:
    """Where the crop marks cut: the x of every vertical mark and the y of every horizontal one,
    each once, in points from the page's left and bottom. A crop mark is a straight stroke exactly
    CROP_MARK long; nothing else on a sheet is."""
    xs: set[float] = set()
    ys: set[float] = set()
    for (x1, y1), (x2, y2) in strokes(page):
        if abs(x1 - x2) < 0.01 and abs(abs(y1 - y2) - CROP_MARK) < 0.05:
            xs.add(round(x1, 2))
        elif abs(y1 - y2) < 0.01 and abs(abs(x1 - x2) - CROP_MARK) < 0.05:
            ys.add(round(y1, 2))
    return sorted(xs), sorted(ys)
