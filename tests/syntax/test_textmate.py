"""The TextMate grammar colours every token as the parser's lexer reads it, on every content script.

The grammar is run on the engine VS Code runs it on: `vscode-textmate` over `vscode-oniguruma`
(Oniguruma compiled to WASM), installed with `npm ci` from `textmate_node/package-lock.json` into
`build/textmate_node/<hash of the lock>/` (once: a later run finds it there). `textmate_node/tokenize.mjs`
tokenizes every file in one Node.js process, line by line with the rule stack carried from line to
line, as VS Code does. Each character then has the scopes the engine gives it, compared with the
scope `textmate.scope_of` agrees for the token Lark's lexer puts it in. Node.js and npm are needed
(`make node`, which `make test` runs): without them the test fails, it is not skipped.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from nexus_dsl.cli import main
from nexus_dsl.textmate import GRAMMAR_PATH, KEYWORD_SCOPE, KIND_SCOPE, SCOPE_NAME, scope_of, textmate_json
from nexus_dsl.workbench.highlight import token_spans

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((REPO / "content").rglob("*.nexus"))
NODE_PROJECT = Path(__file__).resolve().parent / "textmate_node"
INSTALLS = REPO / "build" / "textmate_node"
# The line breaks of VS Code's text model: they belong to no line, so no token colours them.
LINE_BREAK = re.compile(r"\r\n|\r|\n")

TRICKY = [
    'roll check 4+  # a threshold before a comment\n',
    'roll check 4+;\n',
    'roll check 4+',
    'x = 3cost + costly - cost_of; y = "cost # not a comment"\n',
    'slide_roll by +2SDS; slide_roll by -SDS; SD SDX\n',
    'let a = 1 .. 5 ~ § \x01 more\n',
    'window after_attack_succeeds by self\nwindow w "W" {}\n',
    'if true and not false { log none } elif x >= 2 { }\r\n',
    'roll check 5+\r\nx = "a\\"b" # done\r\n',
    '"unterminated string\n',
    'name_\u00e9t\u00e9 = "\U0001f3b2 dice" + \U0001f3b2 # \U0001f3b2\n',
    'e\u0301 = 1; \u00a0x = 2\n',
    '\ufeffgame g "G" {}\n',
    # Breaks to Python's str.splitlines, none to the parser or to VS Code.
    'x = 1\v+ 2 # a\x85b\u2028c\x1c\n"d\u2029e"\f\x00\n',
    '"a\\nb" "c\\\\" "\\q"\n',
    '007 1+2 3+ # x\n12+;\nroll 4+\t#c\nroll 4+x\nroll 4+  \n{ roll 4+}\n',
    '+SDS -3SDS SDS +4SDS SD_ xSD SD\n',
    'if_ ifx cost_ card1 trait_ability trait_abilityx\n',
]
KEYWORDS = 'command hit "Hit" {\n    cost 2 AP\n}\n'
# A lone `\r`: a space to the parser, a line break to VS Code (docs/editors.md). Each text, and the
# offsets whose colour differs for it: a comment or a string holding one ends there in the editor,
# and `4+` before one is a threshold there (a line's end), a sum to the parser.
LONE_CR = {
    'x = 1 # a\rb\n': [10],
    'x = "a\rb"\n': [4, 5, 7, 8],
    'x = 4+\r1\n': [5],
}


def _node_tools() -> tuple[str, str]:
    """The paths of `node` and `npm`: the test fails, naming the fix, when either is missing."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.fail("the TextMate grammar is checked on vscode-textmate, which needs Node.js and npm on the PATH: "
                    "run `make node` (apt-get install nodejs npm)")
    return node, npm


def _npm_install(npm: str) -> Path:
    """The folder holding the lock file's node_modules, installed with `npm ci` on the first run."""
    manifest = [(NODE_PROJECT / name).read_bytes() for name in ("package.json", "package-lock.json")]
    target = INSTALLS / hashlib.sha256(b"\0".join(manifest)).hexdigest()[:16]
    if (target / "node_modules").is_dir():
        return target
    INSTALLS.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".installing-", dir=INSTALLS))
    work.chmod(0o755)  # mkdtemp's folder is its owner's only; the install is not
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(NODE_PROJECT / name, work / name)
    done = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
                          cwd=work, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        pytest.fail(f"`npm ci` in {NODE_PROJECT.relative_to(REPO)} failed:\n{done.stdout}{done.stderr}")
    try:
        work.rename(target)  # whole or not at all: a run that stops half-way leaves no install behind
    except OSError:  # another run installed it meanwhile
        shutil.rmtree(work, ignore_errors=True)
    return target


def engine_tokens(paths: list[Path]) -> list[list[dict[str, Any]]]:
    """Each file's tokens under the checked-in grammar, as vscode-textmate gives them, all in one Node.js run."""
    node, npm = _node_tools()
    install = _npm_install(npm)
    done = subprocess.run([node, str(NODE_PROJECT / "tokenize.mjs"), str(install), str(REPO / GRAMMAR_PATH),
                           *map(str, paths)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"vscode-textmate could not tokenize with {GRAMMAR_PATH}:\n{done.stderr[-4000:]}")
    results = json.loads(done.stdout)
    assert [result["file"] for result in results] == list(map(str, paths))
    return [result["tokens"] for result in results]


def engine_scopes(source: str, tokens: list[dict[str, Any]]) -> list[tuple[str, ...] | None]:
    """The scopes of each character of `source` under the engine (None: a line break, in no line)."""
    scopes: list[tuple[str, ...] | None] = [None] * len(source)
    for token in tokens:
        scopes[token["start"]:token["end"]] = [tuple(token["scopes"])] * (token["end"] - token["start"])
    return scopes


def lexer_scopes(source: str) -> list[str | None]:
    """The scope of each character of `source` as agreed for the token the parser's lexer reads it in."""
    scopes: list[str | None] = []
    for start, end, cls in token_spans(source):
        text = source[start:end]
        if cls == "plain":  # spaces, newlines and `;` runs: each character on its own
            scopes.extend(scope_of(cls, char) for char in text)
        else:
            scopes.extend([scope_of(cls, text)] * (end - start))
    return scopes


def wrong_offsets(source: str, tokens: list[dict[str, Any]]) -> list[tuple[int, tuple[str, ...] | None, tuple[str, ...]]]:
    """Where the engine's scopes differ from the lexer's, with both: every character but the line breaks."""
    found = engine_scopes(source, tokens)
    expected = lexer_scopes(source)
    assert len(found) == len(expected) == len(source)
    breaks = {i for match in LINE_BREAK.finditer(source) for i in range(match.start(), match.end())}
    wanted = [(SCOPE_NAME,) if scope is None else (SCOPE_NAME, scope) for scope in expected]
    return [(i, found[i], wanted[i]) for i in range(len(source)) if i not in breaks and found[i] != wanted[i]]


def differences(source: str, tokens: list[dict[str, Any]]) -> list[str]:
    """The first five differences, each with its character and line."""
    return [f"offset {i} ({source[i]!r}, line {source.count(chr(10), 0, i) + 1}): {found} != {wanted}"
            for i, found, wanted in wrong_offsets(source, tokens)[:5]]


@pytest.fixture(scope="module")
def tokenized(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """Every content script and every text above, read as the editor reads it and tokenized in one run."""
    folder = tmp_path_factory.mktemp("textmate")
    texts = ({f"tricky{i}": text for i, text in enumerate(TRICKY)} | {"keywords": KEYWORDS}
             | {f"lone_cr{i}": text for i, text in enumerate(LONE_CR)})
    files = {name: folder / f"{name}.nexus" for name in texts}
    for name, text in texts.items():
        files[name].write_bytes(text.encode("utf-8"))
    files |= {str(path.relative_to(REPO)): path for path in SCRIPTS}
    tokens = engine_tokens(list(files.values()))
    # Bytes decoded as they are: no newline translation, so a `\r` is where the editor sees it.
    return {name: (path.read_bytes().decode("utf-8"), found) for (name, path), found in zip(files.items(), tokens)}


def test_there_are_content_scripts():
    assert len(SCRIPTS) > 20


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(REPO / "content")))
def test_grammar_agrees_with_the_lexer_on_every_content_script(tokenized, path: Path):
    assert differences(*tokenized[str(path.relative_to(REPO))]) == []


@pytest.mark.parametrize("index", range(len(TRICKY)), ids=lambda i: repr(TRICKY[i][:30]))
def test_grammar_agrees_with_the_lexer_on_tricky_text(tokenized, index: int):
    assert differences(*tokenized[f"tricky{index}"]) == []


def test_keywords_kinds_and_names_get_their_scopes(tokenized):
    source, tokens = tokenized["keywords"]
    scopes = engine_scopes(source, tokens)
    assert scopes[0] == (SCOPE_NAME, KIND_SCOPE) and scopes[8] == (SCOPE_NAME, "variable.other.nexus")
    assert scopes[20 + 4] == (SCOPE_NAME, KEYWORD_SCOPE)  # `cost`
    assert scopes[14] == (SCOPE_NAME, "string.quoted.double.nexus")
    assert scopes[19] is None and scopes[20] == (SCOPE_NAME,)  # the line break, then an indent


@pytest.mark.parametrize("index", range(len(LONE_CR)), ids=lambda i: repr(list(LONE_CR)[i]))
def test_a_lone_carriage_return_breaks_the_line_in_the_editor_only(tokenized, index: int):
    # What no TextMate grammar can follow: each line is scanned on its own, whatever ended the one
    # before. The comparison finds exactly these characters; it hides nothing.
    source, tokens = tokenized[f"lone_cr{index}"]
    assert [i for i, _, _ in wrong_offsets(source, tokens)] == LONE_CR[source]


def test_the_checked_in_grammar_is_the_generated_one():
    checked_in = (REPO / GRAMMAR_PATH).read_text(encoding="utf-8")
    assert checked_in == textmate_json(), "run `make grammar` to write it anew"
    assert json.loads(checked_in)["scopeName"] == "source.nexus"


def test_nexus_grammar_prints_and_writes_it(tmp_path, capsys):
    assert main(["grammar", "--textmate"]) == 0
    assert capsys.readouterr().out == textmate_json()
    out = tmp_path / "nexus.tmLanguage.json"
    assert main(["grammar", "--textmate", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == textmate_json()
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # written all at once: no temporary left
