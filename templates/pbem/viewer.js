// pbem's viewer (issue 25): step through a game's files and events over the ruleset's own drawing of the
// board. The archive runs it inline (a file has no server); the play page loads it as viewer.js (its CSP
// allows only its own scripts). It knows no ruleset: a board is a [data-board] drawing, a piece a
// [data-piece] element with its data-side, an event an li.event whose data-pieces name the pieces it
// involves, and the frames the JSON of pbem/reports/frames.py: per file, the markup of each piece that
// changed and the ids of those gone. Without scripts none of this exists and the page reads as before.
"use strict";
var pbemViewer = (function () {
  const SVG = "http://www.w3.org/2000/svg";

  function Frames(list) {
    const seqs = list.map((f) => f.seq);
    const full = [];  // full[i]: id -> markup after frame i, made when first asked for
    function at(i) {
      for (let k = full.length; k <= i; k++) {
        const state = Object.assign({}, k ? full[k - 1] : {});
        for (const id of list[k].gone) delete state[id];
        Object.assign(state, list[k].set);
        full.push(state);
      }
      return full[i];
    }
    return {seqs, at, index: (seq) => seqs.indexOf(seq), length: list.length};
  }

  // Redraw the pieces of `board` as they stood after frame `to`: only those that differ from what it shows.
  function show(board, frames, to) {
    const from = board.pbemShown;
    if (from === to || from === undefined) return;
    const a = frames.at(from), b = frames.at(to);
    const holder = board.querySelector("[data-pieces]") || board;
    for (const id of new Set(Object.keys(a).concat(Object.keys(b)))) {
      if (a[id] === b[id]) continue;
      const old = board.querySelector(`[data-piece="${CSS.escape(id)}"]`);
      if (b[id] === undefined) { if (old) old.remove(); continue; }
      const parse = document.createElementNS(SVG, "g");
      parse.innerHTML = b[id];
      const fresh = parse.firstElementChild;
      if (old) old.replaceWith(fresh); else holder.appendChild(fresh);
    }
    board.pbemShown = to;
  }

  function element(tag, attrs, text) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // The bar: file and event buttons, the file number, a slider, and the event now shown (its own <li>'s
  // text and dice, cloned). `boardFor(seq)` is the board that shows file `seq`; `home(board)` the frame it
  // was drawn at (an archive's turn shows its last file; the play page its newest).
  function Viewer(data, options) {
    const frames = Frames(data.frames);
    const steps = [];  // {i: frame index, li: the event's <li> or null}
    data.frames.forEach((f, i) => {
      const lis = document.querySelectorAll(`#file-${f.seq} li.event`);
      if (!lis.length) steps.push({i, li: null});
      for (const li of lis) steps.push({i, li});
    });
    const bar = element("div", {id: options.id, class: "viewer", role: "region", "aria-label": options.label});
    const row = element("div", {class: "viewer-row"});
    const buttons = {};
    for (const [key, text, title] of [["prevFile", "« File", "Previous file (Shift+←)"],
      ["prevEvent", "‹ Event", "Previous event (←)"], ["nextEvent", "Event ›", "Next event (→)"],
      ["nextFile", "File »", "Next file (Shift+→)"]]) {
      buttons[key] = element("button", {type: "button", class: "viewer-" + key, title}, text);
      row.appendChild(buttons[key]);
    }
    const first = frames.seqs[0], last = frames.seqs[frames.length - 1];
    const number = element("input", {type: "number", class: "viewer-file", min: first, max: last,
      "aria-label": "File number"});
    const slider = element("input", {type: "range", class: "viewer-slider", min: 0, max: Math.max(0, steps.length - 1),
      value: 0, "aria-label": "Step through every event"});
    const where = element("span", {class: "viewer-where", "aria-live": "polite"});
    row.append(element("label", {}, "File "), number, element("span", {}, `of ${first}–${last}`), slider);
    const now = element("div", {class: "viewer-now"});
    bar.append(row, where, now);
    let at = -1, active = null;

    function go(n, scroll) {
      if (!steps.length) return;
      n = Math.max(0, Math.min(steps.length - 1, n));
      const step = steps[n], seq = frames.seqs[step.i];
      const board = options.boardFor(seq);
      if (active && active !== board) {
        show(active, frames, options.home(active));
        markYou(active);
        for (const mark of active.querySelectorAll("[data-event]")) mark.classList.remove("pbem-quiet");
      }
      if (board) { show(board, frames, step.i); markYou(board); }
      active = board;
      // A board's marks of what happened (data-event: the event's place in its turn) show the step's alone.
      const scope = board && board.closest("section.turn");
      if (scope) {
        const index = step.li ? Array.prototype.indexOf.call(scope.querySelectorAll("li.event"), step.li) : -1;
        for (const mark of board.querySelectorAll("[data-event]")) {
          mark.classList.toggle("pbem-quiet", Number(mark.dataset.event) !== index);
        }
      }
      for (const el of document.querySelectorAll(".pbem-lit, .pbem-current")) el.classList.remove("pbem-lit", "pbem-current");
      const named = step.li && step.li.dataset.pieces ? step.li.dataset.pieces.split(" ") : [];
      let lit = null;
      for (const id of named) {
        const piece = board && board.querySelector(`[data-piece="${CSS.escape(id)}"]`);
        if (piece) { piece.classList.add("pbem-lit"); lit = lit || piece; }
      }
      const inFile = steps.filter((s) => s.i === step.i);
      const article = document.getElementById(`file-${seq}`);
      const heading = article ? article.querySelector("h3").textContent : `As it stood after file ${seq}`;
      where.textContent = step.li ? `event ${inFile.indexOf(step) + 1} of ${inFile.length} — ${heading}`
        : article ? `${heading}: nothing happened on the board` : heading;
      if (step.li) {
        step.li.classList.add("pbem-current");
        const copy = step.li.cloneNode(true);
        copy.removeAttribute("id");
        copy.classList.remove("pbem-current");
        const list = element("ol", {class: "events"});
        list.appendChild(copy);
        now.replaceChildren(list);
      } else {
        now.replaceChildren();
      }
      number.value = seq;
      slider.value = n;
      at = n;
      bar.dataset.seq = seq;
      bar.dataset.step = n;
      if (options.onShow) options.onShow({index: step.i, last: step.i === frames.length - 1, lit, board});
      else if (scroll !== false) (lit || board || article || bar).scrollIntoView({block: "center", inline: "center"});
    }
    const fileStart = (i) => steps.findIndex((s) => s.i === i);
    function nextFile() { const i = at < 0 ? -1 : steps[at].i; const n = fileStart(i + 1); if (n >= 0) go(n); }
    function prevFile() {
      if (at < 0) return go(0);
      const i = steps[at].i, start = fileStart(i);
      go(at > start ? start : Math.max(0, fileStart(Math.max(0, i - 1))));
    }
    buttons.nextEvent.addEventListener("click", () => go(at + 1));
    buttons.prevEvent.addEventListener("click", () => go(at - 1));
    buttons.nextFile.addEventListener("click", nextFile);
    buttons.prevFile.addEventListener("click", prevFile);
    slider.addEventListener("input", () => go(Number(slider.value)));
    number.addEventListener("change", () => {
      const i = frames.index(Number(number.value));
      if (i >= 0) go(fileStart(i)); else where.textContent = `no file ${number.value} to show (files ${first}–${last})`;
    });
    document.addEventListener("keydown", (event) => {
      if (event.target && /INPUT|TEXTAREA|SELECT/.test(event.target.tagName)) return;
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      event.preventDefault();
      const forward = event.key === "ArrowRight";
      if (event.shiftKey) { if (forward) nextFile(); else prevFile(); } else go(at + (forward ? 1 : -1));
    });
    return {bar, go, steps, frames, fileStart, show: (board, i) => show(board, frames, i)};
  }

  // Each side's view: that player's side named "you" wherever a [data-side] names it, his pieces marked,
  // and the boards turned half round when his pieces stand in their upper half (the enemy ahead of him).
  function sideSwitch(players, viewer) {
    const box = element("fieldset", {class: "viewer-sides"});
    box.appendChild(element("legend", {}, "Seen by"));
    const choices = [{side: "", text: "neither (north up)"}].concat(
      players.map((p) => ({side: p.side, text: `${p.name} (${p.side})`})));
    for (const c of choices) {
      const label = element("label");
      const radio = element("input", {type: "radio", name: "pbem-side", value: c.side});
      if (!c.side) radio.checked = true;
      radio.addEventListener("change", () => setSide(c.side));
      label.append(radio, " " + c.text);
      box.appendChild(label);
    }
    viewer.bar.querySelector(".viewer-row").appendChild(box);
  }

  // Whether the side's pieces stand above the others' on the first board holding both (north up).
  function upper(side) {
    const middle = (pieces) => {
      let y = 0;
      for (const piece of pieces) { const b = piece.getBBox(); y += b.y + b.height / 2; }
      return y / pieces.length;
    };
    for (const board of document.querySelectorAll("[data-board]")) {
      const all = Array.prototype.slice.call(board.querySelectorAll("[data-piece][data-side]"));
      const mine = all.filter((p) => p.dataset.side === side), theirs = all.filter((p) => p.dataset.side !== side);
      if (mine.length && theirs.length) return middle(mine) < middle(theirs);
    }
    return false;
  }

  let seenBy = "";
  function markYou(root) {
    for (const el of root.querySelectorAll("[data-side]")) el.classList.toggle("pbem-you", !!seenBy && el.dataset.side === seenBy);
  }

  // `turn`: false on the play page, whose pan and zoom read the board's own coordinates.
  function setSide(side, turn) {
    seenBy = side || "";
    if (side) document.body.dataset.viewSide = side; else delete document.body.dataset.viewSide;
    markYou(document);
    if (turn === false) return;
    const turned = !!side && upper(side);
    document.body.classList.toggle("pbem-turned", turned);
    // A drawing shared by <use> (a grid drawn once) is styled where it is defined: its words are kept upright there.
    for (const use of document.querySelectorAll("[data-board] use[href]")) {
      const shared = document.getElementById(use.getAttribute("href").slice(1));
      if (shared) shared.classList.toggle("pbem-turned-words", turned);
    }
  }

  function readJson(id) {
    const block = document.getElementById(id);
    return block ? JSON.parse(block.textContent) : null;
  }

  // The archive: every turn's section draws its last file; a file is shown on its own turn's board.
  function archive() {
    const data = readJson("pbem-frames");
    if (!data || !data.frames.length) return null;
    const sections = Array.prototype.slice.call(document.querySelectorAll("section.turn"));
    const home = new Map();
    const frames = Frames(data.frames);
    for (const s of sections) {
      const board = s.querySelector("[data-board]");
      if (!board) continue;
      board.pbemShown = frames.index(Number(s.dataset.last));
      home.set(board, board.pbemShown);
    }
    const viewer = Viewer(data, {
      id: "viewer", label: "Step through the game, file by file and event by event",
      boardFor: (seq) => { const a = document.getElementById(`file-${seq}`); const s = a && a.closest("section.turn"); return s && s.querySelector("[data-board]"); },
      home: (board) => home.get(board),
    });
    sideSwitch(data.players, viewer);
    const toc = document.querySelector("nav.toc");
    toc.parentNode.insertBefore(viewer.bar, toc.nextSibling);
    document.body.classList.add("pbem-viewing");
    const wanted = /^#file-(\d+)$/.exec(location.hash);
    if (wanted && viewer.frames.index(Number(wanted[1])) >= 0) viewer.go(viewer.fileStart(viewer.frames.index(Number(wanted[1]))));
    return viewer;
  }

  // The play page: the one board draws the newest state; the frames run from before the player's last file.
  function since(board, mount, onShow) {
    const data = readJson("pbem-since-frames");
    if (!data || !data.frames.length || !board) return null;
    board.pbemShown = data.frames.length - 1;
    const viewer = Viewer(data, {
      id: "since-viewer", label: "Step through what happened since your last file",
      boardFor: () => board, home: () => data.frames.length - 1, onShow,
    });
    mount.appendChild(viewer.bar);
    return viewer;
  }

  return {archive, since, setSide};
})();
