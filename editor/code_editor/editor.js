// The rule-script editor: a text area laid exactly over a coloured copy of its own text.
//
// Python sends `data`: the text, a revision number (raised only when the app itself replaces the
// text, so a rerun never overwrites what the designer is typing), the token rules of the language
// (the grammar's terminals, from nexus_dsl.workbench.highlight.editor_lexer), the problems found
// in the last text it checked, and a label. The editor colours the text as it is typed and reports
// it with setStateValue("text", ...) once typing pauses, when it loses focus, and on Ctrl+Enter or
// Ctrl+S; Python then checks it and sends the problems back, which are drawn on their lines.

const INDENT = "    ";
const PAUSE_MS = 350;
const MIN_LINES = 14;
const MAX_LINES = 32;

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function compile(lexer) {
  return {
    rules: lexer.rules.map((rule) => ({ cls: rule.cls, re: new RegExp(rule.pattern, "y"), words: rule.words })),
    unreadable: lexer.unreadable,
  };
}

// The same loop as lex_with() in highlight.py: the first rule that matches a non-empty text wins.
function tokenize(compiled, text) {
  const spans = [];
  let at = 0;
  while (at < text.length) {
    let matched = false;
    for (const rule of compiled.rules) {
      rule.re.lastIndex = at;
      const found = rule.re.exec(text);
      if (found && found[0].length > 0) {
        const word = found[0];
        const cls = Object.prototype.hasOwnProperty.call(rule.words, word) ? rule.words[word] : rule.cls;
        spans.push([at, at + word.length, cls]);
        at += word.length;
        matched = true;
        break;
      }
    }
    if (!matched) {
      spans.push([at, at + 1, compiled.unreadable]);
      at += 1;
    }
  }
  return spans;
}

function colouredHtml(compiled, text) {
  const pieces = tokenize(compiled, text).map(([start, end, cls]) => {
    const piece = escapeHtml(text.slice(start, end));
    return cls === "plain" ? piece : `<span class="t-${cls}">${piece}</span>`;
  });
  // A trailing newline gives the last (possibly empty) line its height, as in the text area.
  return pieces.join("") + "\n";
}

function lineStart(text, offset) {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

function lineEnd(text, offset) {
  const end = text.indexOf("\n", offset);
  return end === -1 ? text.length : end;
}

// Replaces the selection through the browser's editing command, so Ctrl+Z undoes it.
function insert(area, text) {
  if (!document.execCommand("insertText", false, text)) {
    area.setRangeText(text, area.selectionStart, area.selectionEnd, "end");
    area.dispatchEvent(new Event("input"));
  }
}

function indentLines(area, outdent) {
  const text = area.value;
  const from = lineStart(text, area.selectionStart);
  const to = lineEnd(text, Math.max(area.selectionStart, area.selectionEnd - 1));
  const lines = text.slice(from, to).split("\n");
  const changed = lines.map((line) => {
    if (!outdent) return INDENT + line;
    const spaces = line.match(/^ {0,4}/)[0].length;
    return line.slice(spaces);
  });
  area.setSelectionRange(from, to);
  insert(area, changed.join("\n"));
  area.setSelectionRange(from, from + changed.join("\n").length);
}

function onKey(event, area, memory, send) {
  if (event.key === "Escape") {
    memory.releaseTab = true; // Esc, then Tab, leaves the editor: Tab alone indents
    return;
  }
  if ((event.ctrlKey || event.metaKey) && (event.key === "Enter" || event.key === "s")) {
    event.preventDefault();
    send();
    return;
  }
  const text = area.value;
  const { selectionStart: start, selectionEnd: end } = area;
  if (event.key === "Tab" && !memory.releaseTab) {
    event.preventDefault();
    if (event.shiftKey || text.slice(start, end).includes("\n")) {
      indentLines(area, event.shiftKey);
    } else {
      const column = start - lineStart(text, start);
      insert(area, " ".repeat(INDENT.length - (column % INDENT.length)));
    }
    return;
  }
  memory.releaseTab = false;
  if (event.key === "Enter" && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    const before = text.slice(lineStart(text, start), start);
    const indent = before.match(/^[ \t]*/)[0];
    const opens = /\{\s*$/.test(before);
    const closesNext = /^\s*\}/.test(text.slice(end, lineEnd(text, end)));
    if (opens && closesNext) {
      insert(area, "\n" + indent + INDENT + "\n" + indent);
      const caret = start + 1 + indent.length + INDENT.length;
      area.setSelectionRange(caret, caret);
    } else {
      insert(area, "\n" + indent + (opens ? INDENT : ""));
    }
    return;
  }
  if (event.key === "}" && start === end) {
    const before = text.slice(lineStart(text, start), start);
    if (before.length >= INDENT.length && /^ +$/.test(before)) {
      event.preventDefault();
      area.setSelectionRange(start - INDENT.length, start);
      insert(area, "}");
    }
  }
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const root = parentElement.querySelector(".nx-editor");
  const area = root.querySelector("textarea");
  const layer = root.querySelector(".nx-layer");
  const coloured = root.querySelector(".nx-coloured");
  const marks = root.querySelector(".nx-marks");
  const gutter = root.querySelector(".nx-gutter-inner");
  const status = root.querySelector(".nx-status");
  const frame = root.querySelector(".nx-frame");
  // What must outlive a rerun lives on the element: the function runs again with every rerun.
  const memory = root.nxMemory || (root.nxMemory = { revision: null, sent: null, timer: null, lexerKey: null });

  root.querySelector(".nx-label").textContent = data.label || "";
  area.setAttribute("aria-label", data.label || "script");
  const lexerKey = JSON.stringify(data.lexer);
  if (memory.lexerKey !== lexerKey) {
    memory.compiled = compile(data.lexer);
    memory.lexerKey = lexerKey;
  }
  if (memory.revision !== data.revision) {
    area.value = data.text;
    memory.revision = data.revision;
    memory.sent = data.text;
  }

  const send = () => {
    clearTimeout(memory.timer);
    if (area.value !== memory.sent) {
      memory.sent = area.value;
      setStateValue("text", area.value);
    }
    drawStatus();
  };

  function drawStatus() {
    const text = area.value;
    const caret = area.selectionStart;
    const line = text.slice(0, caret).split("\n").length;
    const column = caret - lineStart(text, caret) + 1;
    const errors = data.errors.filter((e) => e.severity === "error").length;
    const warnings = data.errors.length - errors;
    let verdict;
    if (text !== data.text) verdict = "checking…";
    else if (errors) verdict = `${errors} error${errors > 1 ? "s" : ""}`;
    else verdict = "no errors";
    if (warnings && text === data.text) verdict += `, ${warnings} warning${warnings > 1 ? "s" : ""}`;
    status.textContent = `Line ${line}, column ${column} · ${verdict}`;
    status.dataset.state = text !== data.text ? "checking" : errors ? "errors" : "ok";
  }

  function drawMarks(lines) {
    const stale = area.value !== data.text; // problems belong to the text last checked
    marks.classList.toggle("stale", stale);
    const shown = new Set();
    const html = [];
    for (const problem of data.errors) {
      if (!problem.line || problem.line > lines.length) continue;
      const top = `calc(${problem.line - 1} * var(--nx-line))`;
      const kind = problem.severity === "error" ? "error" : "warning";
      if (!shown.has(problem.line)) {
        html.push(`<div class="nx-bad-line ${kind}" style="top:${top}"></div>`);
      }
      if (problem.column) {
        const width = Math.max(1, (problem.end_column || 0) - problem.column);
        html.push(`<div class="nx-squiggle ${kind}" style="top:${top};left:${problem.column - 1}ch;width:${width}ch"></div>`);
      }
      if (!shown.has(problem.line)) {
        const after = lines[problem.line - 1].length + 3;
        html.push(`<div class="nx-lens ${kind}" style="top:${top};left:${after}ch">${escapeHtml(problem.message)}</div>`);
        shown.add(problem.line);
      }
    }
    marks.innerHTML = html.join("");
    const byLine = new Map();
    for (const problem of data.errors) {
      if (problem.line) byLine.set(problem.line, (byLine.has(problem.line) ? byLine.get(problem.line) + "\n" : "") + problem.message);
    }
    gutter.innerHTML = lines
      .map((_, index) => {
        const message = byLine.get(index + 1);
        return message && !stale
          ? `<div class="nx-number bad" title="${escapeHtml(message)}">${index + 1}</div>`
          : `<div class="nx-number">${index + 1}</div>`;
      })
      .join("");
  }

  function draw() {
    const text = area.value;
    const lines = text.split("\n");
    coloured.innerHTML = colouredHtml(memory.compiled, text);
    const shownLines = Math.min(MAX_LINES, Math.max(MIN_LINES, lines.length + 1));
    frame.style.height = `calc(${shownLines} * var(--nx-line) + 2 * var(--nx-pad))`;
    drawMarks(lines);
    drawStatus();
    follow();
  }

  function follow() {
    layer.style.transform = `translate(${-area.scrollLeft}px, ${-area.scrollTop}px)`;
    gutter.style.transform = `translateY(${-area.scrollTop}px)`;
  }

  area.oninput = () => {
    draw();
    clearTimeout(memory.timer);
    memory.timer = setTimeout(send, PAUSE_MS);
  };
  area.onkeydown = (event) => onKey(event, area, memory, send);
  area.onblur = send;
  area.onscroll = follow;
  area.onkeyup = drawStatus;
  area.onclick = drawStatus;
  draw();
}
