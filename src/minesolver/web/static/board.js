// One <canvas> per board: 200x200 boards redraw in a few milliseconds and no DOM
// node is made per cell.  A BoardView draws exactly what it is given (a position
// and, optionally, an analysis as the API serves them) and reports clicks and
// hovers as (row, col).  Flags boards add who claimed each mine and a square.
"use strict";

const NUMBER_COLOURS = [
  "#000", "#1a3fc4", "#19803a", "#c62020", "#1a1a7a",
  "#7a1a1a", "#147a7a", "#111", "#6e6e6e",
];
const COVERED = "#aeb5c0";
const COVERED_LIGHT = "#cfd4dc";
const COVERED_DARK = "#8a919c";
const OPEN = "#e6e8ec";
const GRID = "#9aa0a8";

// Mine probability -> colour: green (safe) through yellow to red (mine).  The
// square root spreads the low probabilities, where the interesting choices are.
function heat(p) {
  const hue = 120 * (1 - Math.sqrt(Math.min(1, Math.max(0, p))));
  return `hsl(${hue.toFixed(1)}, 72%, 52%)`;
}

// Front i's colour: golden-angle hues, so neighbouring indices differ a lot.
function frontColour(i) {
  return `hsl(${(i * 137.508 + 200) % 360}, 85%, 40%)`;
}

class BoardView {
  constructor(canvas, handlers = {}) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.handlers = handlers;
    this.view = null;
    this.cell = 24;
    this.lastDrag = -1;
    this.hovered = null;  // the cell under the pointer, whose tooltip a redraw refreshes
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    canvas.addEventListener("mousedown", (e) => this._down(e));
    canvas.addEventListener("mousemove", (e) => this._move(e));
    canvas.addEventListener("mouseleave", () => this._hover(null));
    window.addEventListener("mouseup", () => { this.lastDrag = -1; });
    window.addEventListener("resize", () => this.draw());
  }

  // view: {position, analysis, showProb, showFronts, highlight, mines, exploded,
  //        wrongFlags, clue, claimed, claimColours, claimNames, square}; every field
  //        but position is optional.  Flags: claimed[s] lists the mines seat s claimed,
  //        drawn in claimColours[s] ({fill, flag}) and named claimNames[s] on hover;
  //        square [r0, c0, r1, c1] is outlined (a bomb's square).
  set(view) {
    const a = view.analysis;
    const w = view.position.width;
    const index = (cells) => new Set((cells || []).map(([r, c]) => r * w + c));
    const ownerOf = new Map();
    (view.claimed || []).forEach((cells, seat) => {
      for (const [r, c] of cells) ownerOf.set(r * w + c, seat);
    });
    this.view = {
      ...view,
      safe: index(a && a.safe),
      certain: index(a && a.mine),
      highlightSet: index(view.highlight),
      mineSet: index(view.mines),
      wrongSet: index(view.wrongFlags),
      frontOf: this._fronts(a, w),
      ownerOf,
    };
    this.draw();
  }

  _fronts(a, w) {
    const map = new Map();
    if (!a || !a.fronts) return map;
    a.fronts.forEach((f, i) => {
      for (const [r, c] of f.cells) map.set(r * w + c, i);
      for (const [r, c] of f.clues) if (!map.has(r * w + c)) map.set(r * w + c, -1 - i);
    });
    return map;
  }

  // The cell size: the zoom chosen in the header, or ("auto") the size that fits
  // the board in its scroll box, never below 12 px so numbers stay readable and
  // 200x200 boards scroll rather than shrink to dots.
  _fit(width, height) {
    const zoom = document.getElementById("zoom");
    if (zoom && zoom.value !== "auto") return Number(zoom.value);
    const box = this.canvas.parentElement;
    const top = box.getBoundingClientRect().top;
    const availW = Math.max(200, box.clientWidth - 4);
    const availH = Math.max(200, window.innerHeight - Math.max(0, top) - 16);
    const size = Math.floor(Math.min(availW / width, availH / height));
    return Math.max(12, Math.min(32, size));
  }

  draw() {
    const v = this.view;
    if (!v) return;
    const { width, height, rows } = v.position;
    const cs = this._fit(width, height);
    this.cell = cs;
    const dpr = window.devicePixelRatio || 1;
    const cw = width * cs, ch = height * cs;
    if (this.canvas.width !== Math.round(cw * dpr) || this.canvas.height !== Math.round(ch * dpr)) {
      this.canvas.width = Math.round(cw * dpr);
      this.canvas.height = Math.round(ch * dpr);
      this.canvas.style.width = `${cw}px`;
      this.canvas.style.height = `${ch}px`;
    }
    this.canvas.dataset.cell = String(cs);
    this.canvas.dataset.rows = String(height);
    this.canvas.dataset.cols = String(width);
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = GRID;
    ctx.fillRect(0, 0, cw, ch);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = `bold ${Math.max(7, Math.round(cs * 0.68))}px system-ui, sans-serif`;
    const prob = v.showProb && v.analysis ? v.analysis.prob : null;
    for (let r = 0; r < height; r++) {
      const row = rows[r];
      for (let c = 0; c < width; c++) {
        this._cell(r, c, row[c], r * width + c, prob ? prob[r][c] : null, cs);
      }
    }
    if (v.showFronts) this._frontOutlines(width, cs);
    // chosen cells: a black ring inside a white one, unlike any front's colour
    for (const [colour, lw] of [["#fff", Math.max(4, cs / 5)], ["#000", Math.max(2, cs / 10)]]) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = lw;
      for (const i of v.highlightSet) this._outline(i, width, cs);
    }
    if (v.clue) {
      ctx.strokeStyle = "#e000c0";
      ctx.lineWidth = Math.max(3, cs / 6);
      this._outline(v.clue[0] * width + v.clue[1], width, cs);
    }
    if (v.square) this._square(v.square, cs);
    const h = this.hovered;
    if (h && h[0] < height && h[1] < width) {
      document.getElementById("tooltip").textContent = this.describe(h[0], h[1]);
    }
  }

  // A dashed black outline on a white one around cells [r0, c0] to [r1, c1].
  _square([r0, c0, r1, c1], cs) {
    const ctx = this.ctx;
    for (const [colour, lw, dash] of [["#fff", Math.max(4, cs / 5), []],
      ["#000", Math.max(2, cs / 10), [Math.max(3, cs / 3), Math.max(2, cs / 5)]]]) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = lw;
      ctx.setLineDash(dash);
      const inset = lw / 2;
      ctx.strokeRect(c0 * cs + inset, r0 * cs + inset,
        (c1 - c0 + 1) * cs - 1 - 2 * inset, (r1 - r0 + 1) * cs - 1 - 2 * inset);
    }
    ctx.setLineDash([]);
  }

  _cell(r, c, ch, i, p, cs) {
    const ctx = this.ctx;
    const x = c * cs, y = r * cs, s = cs - 1;
    const v = this.view;
    if (ch >= "0" && ch <= "8" || ch === ".") {
      const exploded = v.exploded && v.exploded[0] === r && v.exploded[1] === c;
      ctx.fillStyle = exploded ? "#e53935" : OPEN;
      ctx.fillRect(x, y, s, s);
      if (exploded || v.mineSet.has(i)) return this._mine(x, y, cs);
      if (ch === ".") {
        ctx.fillStyle = "#999";
        ctx.fillRect(x + cs * 0.35, y + cs * 0.47, cs * 0.3, Math.max(1, cs * 0.06));
      } else if (ch !== "0") {
        ctx.fillStyle = NUMBER_COLOURS[+ch];
        ctx.fillText(ch, x + cs / 2, y + cs / 2 + 1);
      }
      if (v.showFronts && v.frontOf.get(i) < 0) {
        ctx.fillStyle = frontColour(-1 - v.frontOf.get(i));
        ctx.fillRect(x, y + s - Math.max(2, cs / 8), s, Math.max(2, cs / 8));
      }
      return;
    }
    // a mine claimed in Flags: the claimer's colours
    const seat = ch === "F" && v.claimColours ? v.ownerOf.get(i) : undefined;
    if (seat !== undefined) {
      ctx.fillStyle = v.claimColours[seat].fill;
      ctx.fillRect(x, y, s, s);
      this._flag(x, y, cs, v.claimColours[seat].flag);
      return;
    }
    // covered, flagged or known mine
    if (p !== null && ch === "H") {
      ctx.fillStyle = v.safe.has(i) ? "#1f9d3a" : v.certain.has(i) ? "#b71c1c" : heat(p);
      ctx.fillRect(x, y, s, s);
      if (v.safe.has(i)) this._dot(x, y, cs, "#fff");
      else if (v.certain.has(i)) this._cross(x, y, cs, "#fff");
    } else {
      ctx.fillStyle = COVERED;
      ctx.fillRect(x, y, s, s);
      if (cs >= 12) {
        ctx.fillStyle = COVERED_LIGHT;
        ctx.fillRect(x, y, s, 2);
        ctx.fillRect(x, y, 2, s);
        ctx.fillStyle = COVERED_DARK;
        ctx.fillRect(x, y + s - 2, s, 2);
        ctx.fillRect(x + s - 2, y, 2, s);
      }
    }
    if (ch === "F") {
      if (v.mineSet.size && !v.mineSet.has(i)) this._cross(x, y, cs, "#000");
      this._flag(x, y, cs);
    } else if (ch === "M" || (ch === "H" && v.mineSet.has(i))) {
      this._mine(x, y, cs);
    }
  }

  _flag(x, y, cs, colour = "#d01010") {
    const ctx = this.ctx;
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.moveTo(x + cs * 0.3, y + cs * 0.2);
    ctx.lineTo(x + cs * 0.75, y + cs * 0.38);
    ctx.lineTo(x + cs * 0.3, y + cs * 0.56);
    ctx.fill();
    ctx.fillStyle = "#222";
    ctx.fillRect(x + cs * 0.28, y + cs * 0.2, Math.max(1, cs * 0.07), cs * 0.6);
  }

  _mine(x, y, cs) {
    const ctx = this.ctx;
    ctx.fillStyle = "#111";
    ctx.beginPath();
    ctx.arc(x + cs / 2, y + cs / 2, cs * 0.27, 0, 2 * Math.PI);
    ctx.fill();
  }

  _dot(x, y, cs, colour) {
    const ctx = this.ctx;
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x + cs / 2, y + cs / 2, Math.max(1.5, cs * 0.14), 0, 2 * Math.PI);
    ctx.fill();
  }

  _cross(x, y, cs, colour) {
    const ctx = this.ctx;
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(1, cs / 10);
    ctx.beginPath();
    ctx.moveTo(x + cs * 0.28, y + cs * 0.28);
    ctx.lineTo(x + cs * 0.72, y + cs * 0.72);
    ctx.moveTo(x + cs * 0.72, y + cs * 0.28);
    ctx.lineTo(x + cs * 0.28, y + cs * 0.72);
    ctx.stroke();
  }

  _outline(i, width, cs) {
    const r = Math.floor(i / width), c = i % width;
    const inset = this.ctx.lineWidth / 2;
    this.ctx.strokeRect(c * cs + inset, r * cs + inset, cs - 1 - 2 * inset, cs - 1 - 2 * inset);
  }

  _frontOutlines(width, cs) {
    const ctx = this.ctx;
    ctx.lineWidth = Math.max(1.5, cs / 9);
    for (const [i, f] of this.view.frontOf) {
      if (f < 0) continue;
      ctx.strokeStyle = frontColour(f);
      this._outline(i, width, cs);
    }
  }

  // ---------------------------------------------------------------- events
  cellAt(e) {
    const v = this.view;
    if (!v) return null;
    const rect = this.canvas.getBoundingClientRect();
    const c = Math.floor((e.clientX - rect.left) / this.cell);
    const r = Math.floor((e.clientY - rect.top) / this.cell);
    if (r < 0 || c < 0 || r >= v.position.height || c >= v.position.width) return null;
    return [r, c];
  }

  _down(e) {
    const cell = this.cellAt(e);
    if (!cell) return;
    e.preventDefault();
    this.lastDrag = cell[0] * this.view.position.width + cell[1];
    if (this.handlers.down) this.handlers.down(cell[0], cell[1], e.button, e);
  }

  _move(e) {
    const cell = this.cellAt(e);
    this._hover(cell, e);
    if (!cell || !e.buttons || this.lastDrag < 0 || !this.handlers.drag) return;
    const i = cell[0] * this.view.position.width + cell[1];
    if (i === this.lastDrag) return;
    this.lastDrag = i;
    this.handlers.drag(cell[0], cell[1], e.buttons & 2 ? 2 : 0);
  }

  _hover(cell, e) {
    if (this.handlers.hover) this.handlers.hover(cell);
    const tip = document.getElementById("tooltip");
    this.hovered = cell && this.view ? cell : null;
    if (!cell || !this.view) {
      tip.hidden = true;
      return;
    }
    tip.textContent = this.describe(cell[0], cell[1]);
    tip.hidden = false;
    tip.style.left = `${e.clientX + 14}px`;
    tip.style.top = `${e.clientY + 14}px`;
  }

  // The hover text: the cell, what it shows, and its exact mine probability.
  describe(r, c) {
    const v = this.view;
    const w = v.position.width;
    const i = r * w + c;
    const ch = v.position.rows[r][c];
    const at = `(${r}, ${c})`;
    if (v.exploded && v.exploded[0] === r && v.exploded[1] === c) return `${at}: the mine that exploded`;
    if (ch >= "0" && ch <= "8") return `${at}: number ${ch}`;
    if (ch === ".") return `${at}: open`;
    if (ch === "F" && v.claimNames && v.ownerOf.has(i)) {
      return `${at}: mine claimed by ${v.claimNames[v.ownerOf.get(i)]}`;
    }
    const a = v.analysis;
    let text = `${at}: ${ch === "F" ? "flag" : ch === "M" ? "known mine" : "covered"}`;
    if (v.mineSet.has(i)) text += ", mine";
    if (a && ch === "H") {
      if (v.safe.has(i)) text += " · certainly safe";
      else if (v.certain.has(i)) text += " · certainly a mine";
      else text += ` · mine probability ${(a.prob[r][c] * 100).toFixed(3)}%`;
    }
    if (v.frontOf.has(i) && v.frontOf.get(i) >= 0) text += ` · front ${v.frontOf.get(i) + 1}`;
    return text;
  }
}

window.BoardView = BoardView;
window.frontColour = frontColour;
window.heat = heat;
