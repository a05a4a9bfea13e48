"""Card faces: the rules text players read, generated from the script so the two never drift.

`faces.py` makes a declaration's or a data item's face (`CardFace`); `english.py` says a script in
the game's own English from the templates of `phrases.py`. Their public names are importable from
here.
"""

from .english import Speaker
from .faces import (ASSUMED_MARK, CARD_NOTES, KIND_TITLES, CardFace, all_faces, barge_grid, card_fields, card_label,
                    card_lines, card_types, data_face, kind_title, script_face, show)

__all__ = ["ASSUMED_MARK", "CARD_NOTES", "KIND_TITLES", "CardFace", "Speaker", "all_faces", "barge_grid", "card_fields",
           "card_label", "card_lines", "card_types", "data_face", "kind_title", "script_face", "show"]
