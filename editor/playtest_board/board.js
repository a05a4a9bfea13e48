// A board picture that reports clicks. Python sends `data`: the SVG, the targets that may be
// clicked (`selectable`), those selected, and hover titles (`marks`). A click is reported with
// setStateValue("click", {target, seq}); `seq` grows with every click, so each is taken once.

function targetOf(element) {
  const named = element.closest("[data-target]");
  if (named) return named.getAttribute("data-target");
  const piece = element.closest("g.helot[data-label]");
  if (piece) return `piece:${piece.getAttribute("data-label")}`;
  const square = element.closest("[data-col][data-row]");
  if (square) return `sq:${square.getAttribute("data-col")},${square.getAttribute("data-row")}`;
  return null;
}

function elementsFor(root, target) {
  const found = Array.from(root.querySelectorAll(`[data-target="${CSS.escape(target)}"]`));
  if (target.startsWith("piece:")) {
    found.push(...root.querySelectorAll(`g.helot[data-label="${CSS.escape(target.slice(6))}"]`));
  } else if (target.startsWith("sq:")) {
    const [col, row] = target.slice(3).split(",");
    found.push(...root.querySelectorAll(`rect.square[data-col="${col}"][data-row="${row}"]`));
  }
  return found;
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const root = parentElement.querySelector(".pt-board");
  if (root.dataset.svg !== data.svg) {
    root.innerHTML = data.svg;
    root.dataset.svg = data.svg;
  }
  for (const element of root.querySelectorAll(".pt-selectable, .pt-selected")) {
    element.classList.remove("pt-selectable", "pt-selected");
    element.removeAttribute("tabindex");
  }
  const selectable = new Set(data.selectable);
  for (const target of data.selectable) {
    for (const element of elementsFor(root, target)) {
      element.classList.add("pt-selectable");
      element.setAttribute("tabindex", "0");
      const mark = data.marks[target];
      if (mark) element.setAttribute("aria-label", mark);
    }
  }
  for (const target of data.selected) {
    for (const element of elementsFor(root, target)) element.classList.add("pt-selected");
  }
  root.onclick = (event) => {
    const target = targetOf(event.target);
    if (target && selectable.has(target)) {
      setStateValue("click", { target, seq: Date.now() });
    }
  };
}
