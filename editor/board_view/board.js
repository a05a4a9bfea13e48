// The board view: an SVG picture whose `data-target` elements answer clicks.
//
// Python sends `data`: the picture (SVG text from nexus_dsl.workbench.board_svg, its texts already
// escaped), the targets that may be clicked, those drawn as selected, the marks (target -> a tint
// class), and the sequence number of the last click the page received. A click on a selectable
// target reports {target, seq} with setStateValue("click", ...); seq grows with every click so the
// same square clicked twice is two clicks.

const SVG_NS = "http://www.w3.org/2000/svg";
const PENDING_LIMIT_MS = 8000;

// The box an outline is drawn around: the element's own geometry when it is a rectangle (a square),
// else what the browser measures.
function boxOf(element) {
  const width = parseFloat(element.getAttribute("width"));
  if (element.tagName === "rect" && width > 0) {
    return { x: parseFloat(element.getAttribute("x")), y: parseFloat(element.getAttribute("y")),
      width, height: parseFloat(element.getAttribute("height")) };
  }
  try {
    return element.getBBox();
  } catch (error) {
    return null; // not rendered yet (a hidden tab): no outline rather than a wrong one
  }
}

function outline(layer, element, cls) {
  const box = element && boxOf(element);
  if (!box || !box.width) return;
  const rect = document.createElementNS(SVG_NS, "rect");
  for (const [name, value] of Object.entries({ x: box.x + 2, y: box.y + 2, width: box.width - 4,
    height: box.height - 4, rx: 4 })) {
    rect.setAttribute(name, String(value));
  }
  rect.setAttribute("class", cls);
  rect.dataset.of = element.getAttribute("data-target");
  layer.appendChild(rect);
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const root = parentElement.querySelector(".nx-board");
  const picture = root.querySelector(".nx-picture");
  // What must outlive a rerun lives on the element: the function runs again with every rerun.
  const memory = root.nxMemory || (root.nxMemory = { svg: null, seq: 0, timer: null });

  if (memory.svg !== data.svg) {
    picture.innerHTML = data.svg;
    memory.svg = data.svg;
  }
  memory.seq = Math.max(memory.seq, data.seq || 0);
  root.classList.remove("nx-pending");
  clearTimeout(memory.timer);

  const svg = picture.querySelector("svg");
  if (!svg) return;
  const selectable = new Set(data.selectable);
  const first = new Map(); // a square and the object on it share a target: outline the square
  for (const element of svg.querySelectorAll("[data-target]")) {
    const target = element.getAttribute("data-target");
    const active = selectable.has(target);
    element.classList.toggle("nx-selectable", active);
    if (active) {
      element.setAttribute("tabindex", "0");
      element.setAttribute("role", "button");
    } else {
      element.removeAttribute("tabindex");
      element.removeAttribute("role");
    }
    if (!first.has(target)) first.set(target, element);
  }

  const old = svg.querySelector("g.nx-overlay");
  if (old) old.remove();
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "nx-overlay");
  svg.appendChild(layer);
  for (const [target, mark] of Object.entries(data.marks)) outline(layer, first.get(target), `nx-mark nx-mark-${mark}`);
  for (const target of data.selected) outline(layer, first.get(target), "nx-selected");

  const report = (element) => {
    memory.seq += 1;
    root.classList.add("nx-pending");
    memory.timer = setTimeout(() => root.classList.remove("nx-pending"), PENDING_LIMIT_MS);
    setStateValue("click", { target: element.getAttribute("data-target"), seq: memory.seq });
  };
  svg.onclick = (event) => {
    const hit = event.target.closest("[data-target]");
    if (hit && hit.classList.contains("nx-selectable")) report(hit);
  };
  svg.onkeydown = (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const hit = event.target.closest("[data-target]");
    if (hit && hit.classList.contains("nx-selectable")) {
      event.preventDefault();
      report(hit);
    }
  };
}
