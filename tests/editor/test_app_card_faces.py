"""Printed card faces in the editor: the content browser and the card editor's preview draw the face
as an SVG with its name and rules text, each with a button downloading it, and the browser offers
the faces of what it found as printable sheets."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from editor_app import open_page, texts

SVG = "{http://www.w3.org/2000/svg}"


def drawn_faces(at) -> dict[str, ET.Element]:
    """Every printed face the page shows, by its card's id."""
    found = re.findall(r'<svg xmlns="http://www.w3.org/2000/svg"[^>]*class="card-face[^"]*".*?</svg>', texts(at), re.S)
    faces = [ET.fromstring(svg) for svg in found]
    return {face.get("data-card", ""): face for face in faces}


def face_words(face: ET.Element) -> str:
    return " ".join(t.text or "" for t in face.iter(f"{SVG}text"))


def download_labels(at) -> dict[str, str]:
    return {element.proto.id: element.proto.label for element in at.get("download_button")}


def test_the_browser_draws_the_face_found_with_its_download_and_the_print_choice(app_env) -> None:
    at = open_page("browser.py")
    at.text_input(key="browser_query").input("loaded dice").run()
    assert not at.exception, at.exception
    faces = drawn_faces(at)
    assert set(faces) == {"loaded_dice"}
    words = face_words(faces["loaded_dice"])
    assert "Loaded Dice" in words and "1 cred" in words  # the name and its cost badge
    assert "Play: Before rolls, for your own" in words  # the first line of the rules text
    labels = list(download_labels(at).values())
    assert "Download face (SVG)" in labels
    assert "Print faces (1 item found, A4 sheets of nine)" in labels


def test_the_card_editor_previews_the_printed_face(app_env) -> None:
    at = open_page("browser.py")
    at.text_input(key="browser_query").input("haymaker").run()
    index = next(i for i, e in enumerate(at.expander) if "(haymaker)" in e.label)
    at.button(key=f"browser_open_{index}").click().run()
    assert not at.exception, at.exception
    faces = drawn_faces(at)
    assert set(faces) == {"haymaker"}
    words = face_words(faces["haymaker"])
    assert "Haymaker" in words and "5 PHYS" in words and "The attack does 4 more damage." in words
    assert "Download face (SVG)" in download_labels(at).values()
    assert "nexus-card" in texts(at)  # the rules as text beside it
