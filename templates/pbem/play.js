// pbem play: the decision as clicks over the report's board drawing (issue 25). Plain modern JavaScript,
// no library, no build. It only talks to the page's own server (the CSP allows nothing else) and
// knows no ruleset: it draws the options the ruleset's play_options offers, as data.
"use strict";
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
let picks = [];
let built = "";  // the order text the clicks built (the player may edit it)

async function call(route, body) {
  const response = await fetch(route, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body || {}),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// The ruleset's own drawing (its board template): War Galley's svg#map, the fleets' table; a piece is its
// counter (data-galley) or base (data-id), named by an option's "galley" or "piece".
const boardSvg = () => document.querySelector("#board svg[viewBox]");  // the board itself, not a swatch
const pieceOf = (id) => document.querySelector(
  `#board g.counter[data-galley="${CSS.escape(id)}"], #board g.element[data-id="${CSS.escape(id)}"]`);
const PIECES = "g.counter, g.element";

function overlay() {
  let g = $("play-overlay");
  if (!g) {
    g = document.createElementNS(SVG, "g");
    g.id = "play-overlay";
    // under the counters: a lit end position or a drawn path never hides a galley (its list button stays)
    const parent = $("map-body") || boardSvg();
    parent.insertBefore(g, parent.querySelector(":scope > g.counters"));
  }
  return g;
}

function clearMap() {
  overlay().replaceChildren();
  for (const c of document.querySelectorAll(".clickable, .chosen")) {
    c.classList.remove("clickable", "chosen");
  }
}

function pick(key) { picks.push(key); refresh(); }

function offerShape(option) {
  const g = document.createElementNS(SVG, "g");
  g.setAttribute("class", "offer " + option.kind);
  g.dataset.key = option.key;
  const hull = document.createElementNS(SVG, "polygon");
  hull.setAttribute("points", option.shape.points);
  const title = document.createElementNS(SVG, "title");
  title.textContent = option.label;
  const cost = document.createElementNS(SVG, "text");
  cost.setAttribute("x", option.shape.x);
  cost.setAttribute("y", option.shape.y);
  cost.setAttribute("dy", "3");
  cost.textContent = option.kind === "target" ? option.action : String(option.cost);
  g.append(title, hull, cost);
  g.addEventListener("click", (e) => { e.stopPropagation(); pick(option.key); });
  return g;
}

async function render(answer) {
  clearMap();
  $("prompt").textContent = answer.prompt;
  $("steps").replaceChildren(...answer.steps.map((s) => { const li = document.createElement("li"); li.textContent = s; return li; }));
  const list = [];
  const layer = overlay();
  for (const path of answer.paths) {
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", path);
    line.setAttribute("class", "planned");
    layer.appendChild(line);
  }
  for (const option of answer.options) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = option.kind;
    button.dataset.key = option.key;
    button.textContent = option.label;
    button.addEventListener("click", () => pick(option.key));
    list.push(button);
    const piece = option.galley || option.piece;
    if (piece) {
      const counter = pieceOf(piece);
      if (counter) { counter.classList.add("clickable"); counter.dataset.key = option.key; }
    }
    if (option.shape) {
      const shape = offerShape(option);
      layer.prepend(shape);  // the cheapest on top: a hex shows the least it costs to end there
      button.addEventListener("mouseenter", () => shape.classList.add("lit"));
      button.addEventListener("mouseleave", () => shape.classList.remove("lit"));
    }
  }
  $("options").replaceChildren(...list);
  if (answer.card) await card(answer.card.galley);
  if (picks.length) {
    const chosen = answer.card && pieceOf(answer.card.galley);
    if (chosen) chosen.classList.add("chosen");
  }
  built = answer.order || "";
  $("orders").value = built;
  await check();
}

// body[data-busy] while an answer is on its way: what a player (or a test) waits out before the next click
async function refresh() {
  document.body.dataset.busy = "1";
  try {
    await render(await call("api/options", {picks}));
  } catch (error) {
    picks.pop();
    $("verdict").textContent = error.message;
    $("verdict").className = "verdict refused";
  } finally {
    delete document.body.dataset.busy;
  }
}

function lines() { return $("orders").value.split("\n").filter((l) => l.trim()); }

async function check() {
  const verdict = $("verdict");
  if (!lines().length) { verdict.textContent = ""; $("send").disabled = !status.yours || status.decide; return; }
  try {
    const answer = await call("api/check", {orders: lines()});
    verdict.textContent = "accepted by the rules: " + answer.orders.join("; ");
    verdict.className = "verdict ok";
    $("send").disabled = false;
  } catch (error) {
    verdict.textContent = "refused: " + error.message;
    verdict.className = "verdict refused";
    $("send").disabled = true;
  }
}

function showCard(answer) {
  $("card").textContent = answer.text || JSON.stringify(answer.data, null, 1);
}

async function card(subject) {
  try { showCard(await call("api/card", {subject})); } catch (error) { $("card").textContent = error.message; }
}

async function send() {
  $("send").disabled = true;
  try {
    const answer = await call("api/send", {orders: lines(), note: $("note").value});
    $("sent").textContent = answer.said;
    document.body.dataset.sent = String(answer.file);
    picks = [];
    await loadStatus();
    refresh();
  } catch (error) {
    $("sent").textContent = "not sent: " + error.message;
    $("send").disabled = false;
  }
}

// --- pan and zoom: the SVG's viewBox ------------------------------------------------------------
let box = null;
function setBox(b) { box = b; boardSvg().setAttribute("viewBox", `${b[0]} ${b[1]} ${b[2]} ${b[3]}`); }
function zoom(factor, cx, cy) {
  const [x, y, w, h] = box;
  cx = cx ?? x + w / 2; cy = cy ?? y + h / 2;
  setBox([cx - (cx - x) * factor, cy - (cy - y) * factor, w * factor, h * factor]);
}
function panZoom() {
  const svg = boardSvg();
  if (!svg) return;  // no battle yet
  const full = svg.getAttribute("viewBox").split(" ").map(Number);
  setBox(full);
  const fleet = svg.querySelector("g.counters");  // War Galley's counters; the fleets' table is drawn whole  // start on the galleys, readable, not on empty sea
  const b = fleet && fleet.getBBox();
  if (b && b.width > 0) {
    const pad = 60, w = Math.max(b.width + 2 * pad, 500), h = Math.max(b.height + 2 * pad, 350);
    setBox([b.x + b.width / 2 - w / 2, b.y + b.height / 2 - h / 2, w, h]);
  }
  svg.removeAttribute("width"); svg.removeAttribute("height");
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    const scale = Math.max(box[2] / r.width, box[3] / r.height);
    zoom(e.deltaY > 0 ? 1.2 : 1 / 1.2, box[0] + (e.clientX - r.left) * scale, box[1] + (e.clientY - r.top) * scale);
  }, {passive: false});
  let drag = null;
  svg.addEventListener("pointerdown", (e) => { drag = {x: e.clientX, y: e.clientY, box: box.slice(), moved: false}; });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    const scale = Math.max(box[2] / r.width, box[3] / r.height);
    const dx = (e.clientX - drag.x) * scale, dy = (e.clientY - drag.y) * scale;
    if (Math.abs(dx) + Math.abs(dy) > 3 * scale) drag.moved = true;
    if (drag.moved) setBox([drag.box[0] - dx, drag.box[1] - dy, box[2], box[3]]);
  });
  svg.addEventListener("pointerup", () => { setTimeout(() => { drag = null; }, 0); });
  svg.addEventListener("click", (e) => {
    if (drag && drag.moved) return;
    const counter = e.target.closest(PIECES);
    if (!counter) return;
    if (counter.classList.contains("clickable")) pick(counter.dataset.key);
    else card(counter.dataset.galley || counter.dataset.id);
  });
  $("zoom-in").addEventListener("click", () => zoom(1 / 1.5));
  $("zoom-out").addEventListener("click", () => zoom(1.5));
  $("zoom-fit").addEventListener("click", () => setBox(full));
}

let status = {};
async function loadStatus() {
  const response = await fetch("api/status");
  status = await response.json();
  $("status").textContent = `${status.you}${status.side ? " (" + status.side + ")" : ""}: ${status.waiting}`;
  if (!status.clicks) $("prompt").textContent = status.not_offered;
  return status;
}

// The answer arrives by mail (pbem mail) or by hand into the folder: look every few seconds, redraw when it has.
async function watch() {
  const before = status.files;
  await loadStatus();
  if (status.files !== before && !document.body.dataset.sent) location.reload();
  if (status.files !== before && document.body.dataset.sent && status.yours) location.reload();
}

// "Since your last file", step by step (viewer.js): the board follows each file, the event's pieces lit and
// brought into view; back at the newest file the board is the decision's again, its clicks offered anew.
function replayed(shown) {
  document.body.dataset.replay = shown.last ? "" : "1";
  if (shown.lit && box) {
    const b = shown.lit.getBBox();
    const [x, y, w, h] = box;
    if (b.x < x || b.y < y || b.x + b.width > x + w || b.y + b.height > y + h) {
      setBox([b.x + b.width / 2 - w / 2, b.y + b.height / 2 - h / 2, w, h]);
    }
  }
  if (shown.last) refresh();
}

document.addEventListener("DOMContentLoaded", async () => {
  panZoom();
  if (window.pbemViewer) pbemViewer.since(boardSvg(), $("since-bar"), replayed);
  $("back").addEventListener("click", () => { picks.pop(); refresh(); });
  $("restart").addEventListener("click", () => { picks = []; refresh(); });
  $("orders").addEventListener("input", check);
  $("send").addEventListener("click", send);
  await loadStatus();
  if (window.pbemViewer && status.side) pbemViewer.setSide(status.side, false);  // your side named "you"
  await refresh();
  document.body.dataset.ready = "1";
  setInterval(watch, 5000);
});
