// The rule-script editor: a text area laid exactly over a coloured copy of its own text.
//
// Python sends `data`: the text, a revision number (raised only when the app itself replaces the
// text, so a rerun never overwrites what the designer is typing), the token rules of the language
// (the grammar's terminals, from nexus_dsl.workbench.highlight.editor_lexer), the problems found
// in the last text it checked, and a label. The editor colours the text as it is typed and reports
// it with setStateValue("text", ...) once typing pauses, when it loses focus, and on Ctrl+Enter or
// Ctrl+S; Python then checks it and sends the problems back, which are drawn on their lines.
//
// Help while writing (when the page sends `words_key`): resting the pointer on a word shows its
// meanings (`words[word]`, from nexus_dsl.assist) in a tooltip. The meanings come once per version
// (`words`, with the first rerun of `words_key` in a session) and are kept here by version for the
// page's lifetime (`WORDS`, which outlives a rerun and the editor's own element); given a version
// it does not hold, the editor asks for it with setStateValue("want_words", ...). Ctrl+Space, or a
// pause while typing a word, reports the text and the cursor with setStateValue("ask", ...); the page
// answers on that rerun (`completions`, for the request's id) and the list shows the words still
// matching what has been typed since. Arrow keys choose, Enter or Tab inserts, Escape closes.
// Nothing here decides what is valid where: the list only narrows Python's answer by the word typed.

const INDENT = "    ";
const PAUSE_MS = 350;
const MIN_LINES = 14;
const MAX_LINES = 32;
const HOVER_MS = 300;
const MIN_TYPED = 2; // letters of a word typed before a pause asks for completions
const SHOWN_ENTRIES = 3; // meanings of a word in its tooltip
const WORD_CHAR = /[A-Za-z0-9_]/;
const KEPT_VERSIONS = 2; // versions of the meanings kept (the ruleset now, and the one before)
// The meanings by version, shared by every editor of the page.
const WORDS = globalThis.nxEditorWords || (globalThis.nxEditorWords = new Map());

// The meanings of `data.words_key`: those sent with it, else those kept; asked for when neither.
function wordsOf(data, memory, setStateValue) {
  const version = data.words_key;
  if (!version) return null;
  if (data.words) {
    WORDS.delete(version);
    WORDS.set(version, data.words);
    while (WORDS.size > KEPT_VERSIONS) WORDS.delete(WORDS.keys().next().value);
  }
  const words = WORDS.get(version) || null;
  if (!words && memory.wanted !== version) {
    memory.wanted = version;
    setStateValue("want_words", { version, at: Date.now() });
  }
  return words;
}

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

function onKey(event, area, memory, send, completion) {
  if (completion.handles(event)) return;
  if (event.ctrlKey && (event.key === " " || event.code === "Space")) {
    event.preventDefault();
    completion.ask();
    return;
  }
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

// The word (letters, digits, _) that ends at `offset`, and where it starts.
function wordBefore(text, offset) {
  let start = offset;
  while (start > 0 && WORD_CHAR.test(text[start - 1])) start -= 1;
  return { start, word: text.slice(start, offset) };
}

function wordAt(line, column) {
  let start = column;
  let end = column;
  while (start > 0 && WORD_CHAR.test(line[start - 1])) start -= 1;
  while (end < line.length && WORD_CHAR.test(line[end])) end += 1;
  return { start, end, word: /^[A-Za-z_]/.test(line.slice(start, end)) ? line.slice(start, end) : "" };
}

// Whether the end of a line's beginning is inside quoted text or a comment (as assist.py reads it).
function inTextOrComment(lineBefore) {
  let quoted = false;
  for (let i = 0; i < lineBefore.length; i += 1) {
    const char = lineBefore[i];
    if (char === '"' && (!quoted || lineBefore[i - 1] !== "\\")) quoted = !quoted;
    else if (char === "#" && !quoted) return true;
  }
  return quoted;
}

function entryHtml(entry) {
  const where = entry.where ? ` · ${escapeHtml(entry.where)}` : "";
  const example = entry.example ? `<div class="nx-h-example">e.g. <code>${escapeHtml(entry.example)}</code></div>` : "";
  return `<div class="nx-h-entry"><div class="nx-h-signature">${escapeHtml(entry.signature)}</div>` +
    `<div class="nx-h-kind">${escapeHtml(entry.kind)}${where}</div>` +
    (entry.doc ? `<div class="nx-h-doc">${escapeHtml(entry.doc)}</div>` : "") + example + "</div>";
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
  const code = root.querySelector(".nx-code");
  const tooltip = root.querySelector(".nx-hover");
  const list = root.querySelector(".nx-complete");
  // What must outlive a rerun lives on the element: the function runs again with every rerun.
  const memory = root.nxMemory || (root.nxMemory = {
    revision: null, sent: null, timer: null, lexerKey: null, hoverTimer: null, wanted: null,
    asked: 0, askedAt: null, items: [], chosen: 0, open: false,
  });
  const words = wordsOf(data, memory, setStateValue);

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

  // ---- help while writing
  function metrics() {
    const style = getComputedStyle(area);
    const probe = memory.probe || (memory.probe = Object.assign(document.createElement("span"), { textContent: "0".repeat(20) }));
    if (!probe.isConnected) coloured.appendChild(probe);
    const charWidth = probe.getBoundingClientRect().width / 20 || 7.8;
    probe.remove();
    return { line: parseFloat(style.lineHeight) || 20, char: charWidth, top: parseFloat(style.paddingTop) || 8,
             left: parseFloat(style.paddingLeft) || 12 };
  }

  // Where a character of the text is drawn, relative to the editor's root element.
  function placeOf(lineIndex, column) {
    const m = metrics();
    const codeBox = code.getBoundingClientRect();
    const rootBox = root.getBoundingClientRect();
    return {
      left: codeBox.left - rootBox.left + m.left + column * m.char - area.scrollLeft,
      top: codeBox.top - rootBox.top + m.top + (lineIndex + 1) * m.line - area.scrollTop,
    };
  }

  function hideTooltip() {
    clearTimeout(memory.hoverTimer);
    tooltip.hidden = true;
  }

  function showTooltipAt(clientX, clientY) {
    const m = metrics();
    const box = area.getBoundingClientRect();
    const lineIndex = Math.floor((clientY - box.top - m.top + area.scrollTop) / m.line);
    const column = Math.floor((clientX - box.left - m.left + area.scrollLeft) / m.char);
    const lines = area.value.split("\n");
    if (lineIndex < 0 || lineIndex >= lines.length || column < 0 || column >= lines[lineIndex].length) return hideTooltip();
    const found = wordAt(lines[lineIndex], column);
    const entries = found.word && words[found.word];
    if (!entries || inTextOrComment(lines[lineIndex].slice(0, found.start))) return hideTooltip();
    const shown = entries.slice(0, SHOWN_ENTRIES).map(entryHtml).join("");
    const more = entries.length > SHOWN_ENTRIES ? `<div class="nx-h-more">and ${entries.length - SHOWN_ENTRIES} more meanings</div>` : "";
    tooltip.innerHTML = `<div class="nx-h-word">${escapeHtml(found.word)}</div>${shown}${more}`;
    const place = placeOf(lineIndex, found.start);
    tooltip.style.left = `${Math.max(0, place.left)}px`;
    tooltip.style.top = `${place.top + 2}px`;
    tooltip.hidden = false;
  }

  function closeList() {
    memory.open = false;
    list.hidden = true;
  }

  // The request's answer narrowed to the word now before the cursor; closed when there is none.
  function drawList() {
    if (!memory.open) return closeList();
    const { start, word } = wordBefore(area.value, area.selectionStart);
    if (start !== memory.askedAt.start || area.selectionStart !== area.selectionEnd) return closeList();
    const answer = data.completions;
    if (!answer || answer.id !== memory.asked) {
      list.hidden = true; // the answer is on its way: typing goes on meanwhile
      return;
    }
    memory.items = answer.items.filter((item) => item.label.startsWith(word) && item.label !== word);
    if (!memory.items.length) return closeList();
    memory.chosen = Math.min(memory.chosen, memory.items.length - 1);
    list.innerHTML = memory.items.map((item, index) =>
      `<li role="option" data-index="${index}" aria-selected="${index === memory.chosen}" class="${index === memory.chosen ? "chosen" : ""}">` +
      `<span class="nx-c-label">${escapeHtml(item.label)}</span><span class="nx-c-detail">${escapeHtml(item.detail)}</span></li>`).join("");
    const text = area.value;
    const lineIndex = text.slice(0, start).split("\n").length - 1;
    const place = placeOf(lineIndex, start - lineStart(text, start));
    list.style.left = `${Math.max(0, place.left)}px`;
    list.style.top = `${place.top + 2}px`;
    list.hidden = false;
    const chosen = list.querySelector(".chosen");
    if (chosen) chosen.scrollIntoView({ block: "nearest" });
  }

  function accept(index) {
    const item = memory.items[index];
    if (!item) return;
    const { start } = wordBefore(area.value, area.selectionStart);
    area.setSelectionRange(start, area.selectionStart);
    closeList();
    insert(area, item.insert);
    clearTimeout(memory.timer); // a word just inserted asks for nothing more: its text is sent
    memory.timer = setTimeout(send, PAUSE_MS);
  }

  const completion = {
    ask() {
      if (!words) return;
      clearTimeout(memory.timer);
      const text = area.value;
      const caret = area.selectionStart;
      memory.asked += 1;
      memory.askedAt = wordBefore(text, caret);
      memory.open = true;
      memory.chosen = 0;
      memory.sent = text; // the request carries the text: the page takes it as typed
      const line = text.slice(0, caret).split("\n").length;
      setStateValue("ask", { id: memory.asked, text, line, column: caret - lineStart(text, caret) + 1 });
      drawStatus();
    },
    handles(event) {
      if (!memory.open || list.hidden) return false;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        memory.chosen = (memory.chosen + step + memory.items.length) % memory.items.length;
        drawList();
        return true;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        accept(memory.chosen);
        return true;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        closeList();
        return true;
      }
      return false;
    },
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
    const columns = Math.floor((area.clientWidth - 24) / metrics().char); // the characters a line shows
    const caretLine = area.value.slice(0, area.selectionStart).split("\n").length;
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
        // At the end of its line when it fits in the editor's width; else wrapped under the line
        // the cursor is on, and cut short (whole in the gutter's tooltip) on the others.
        const room = columns - after;
        const message = escapeHtml(problem.message);
        if (problem.message.length <= room) {
          html.push(`<div class="nx-lens ${kind}" style="top:${top};left:${after}ch">${message}</div>`);
        } else if (problem.line === caretLine && !stale) {
          html.push(`<div class="nx-lens nx-lens-under ${kind}" style="top:calc(${problem.line} * var(--nx-line));left:${area.scrollLeft}px;width:${area.clientWidth - 36}px">${message}</div>`);
        } else {
          html.push(`<div class="nx-lens nx-lens-cut ${kind}" style="top:${top};left:${after}ch;width:${Math.max(8, room)}ch">${message}</div>`);
        }
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

  area.oninput = (event) => {
    draw();
    hideTooltip();
    if (memory.open) drawList();
    clearTimeout(memory.timer);
    // A pause in the middle of a word asks for its completions (which sends the text too).
    const typedWord = event && event.inputType === "insertText" && wordBefore(area.value, area.selectionStart).word;
    const asks = words && !memory.open && typedWord && typedWord.length >= MIN_TYPED && /^[A-Za-z_]/.test(typedWord);
    memory.timer = setTimeout(asks ? completion.ask : send, PAUSE_MS);
  };
  area.onkeydown = (event) => {
    hideTooltip();
    onKey(event, area, memory, send, completion);
  };
  area.onblur = () => {
    setTimeout(closeList, 150); // a click on the list lands first
    send();
  };
  area.onscroll = () => {
    follow();
    closeList();
  };
  area.onkeyup = (event) => {
    drawStatus();
    if (event.key.startsWith("Arrow")) drawMarks(area.value.split("\n")); // the line whose problem is shown whole
    if (event.key === "ArrowLeft" || event.key === "ArrowRight" || event.key === "Home" || event.key === "End") drawList();
  };
  area.onclick = () => {
    drawStatus();
    closeList();
    drawMarks(area.value.split("\n"));
  };
  if (words) {
    area.onmousemove = (event) => {
      clearTimeout(memory.hoverTimer);
      const { clientX, clientY } = event;
      memory.hoverTimer = setTimeout(() => showTooltipAt(clientX, clientY), HOVER_MS);
    };
    area.onmouseleave = hideTooltip;
  }
  list.onmousedown = (event) => {
    const item = event.target.closest("li");
    if (!item) return;
    event.preventDefault();
    accept(Number(item.dataset.index));
  };
  draw();
  drawList();
}
