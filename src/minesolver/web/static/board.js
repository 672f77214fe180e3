// One <canvas> per board: 200x200 boards redraw in a few milliseconds and no DOM
// node is made per cell.  A BoardView draws exactly what it is given (a position
// and, optionally, an analysis as the API serves them) and reports clicks and
// hovers as (row, col).  Flags boards add who claimed each mine and a square.

const COVERED = "#aeb5c0";
const COVERED_LIGHT = "#cfd4dc";
const COVERED_DARK = "#8a919c";
const OPEN = "#e6e8ec";
const GRID = "#9aa0a8";
const EXPLODED = "#e53935";
const LONG_PRESS_MS = 400;  // a touch held this long flags (Play) or covers (Analyse)

// The colours come from the server (GET /api "palette", built by minesolver.show.palette,
// the one home of the colours): the numbers', and the mine-probability scale chosen in
// the header (heat, or colour-blind after cividis), 101 steps from p = 0 to p = 1.
const PALETTE = {
  numbers: ["#000", "#1a3fc4", "#19803a", "#c62020", "#1a1a7a", "#7a1a1a", "#147a7a", "#111", "#6e6e6e"],
  table: null,
  // set by main.js once GET /api has answered, then at each choice in the header
  use(meta, scale) {
    this.numbers = meta.palette.numbers;
    this.table = meta.palette.scales[scale] || meta.palette.scales.heat;
  },
};

// Mine probability -> colour on the chosen scale (the scale spreads the low
// probabilities, where the interesting choices are).
function heat(p) {
  const t = PALETTE.table;
  const k = Math.round(100 * Math.min(1, Math.max(0, p)));
  if (t) return t[k];
  return `hsl(${(120 * (1 - Math.sqrt(k / 100))).toFixed(1)}, 72%, 52%)`;
}

// Black or white, whichever reads better on a #rrggbb colour.
function inkOn(colour) {
  if (!colour.startsWith("#") || colour.length !== 7) return "#fff";
  const [r, g, b] = [1, 3, 5].map((k) => parseInt(colour.slice(k, k + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#000" : "#fff";
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
    this.cursor = null;   // the keyboard's cell
    this.keyboard = false;  // the cursor shows once a key is used, until the pointer is
    this.flagMode = false;  // touch: a tap flags instead of opening
    this.press = null;    // a touch held down: {cell, x, y, timer, done}
    this.sigs = null;     // what each cell shows, as last drawn: only changed cells redraw
    this.drawn = "";      // the geometry last drawn (a change redraws every cell)
    this.drawCount = 0;
    this.lastDraw = { cells: 0, ms: 0 };
    canvas.tabIndex = 0;
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    canvas.addEventListener("pointerdown", (e) => this._down(e));
    canvas.addEventListener("pointermove", (e) => this._move(e));
    canvas.addEventListener("pointerup", (e) => this._up(e));
    canvas.addEventListener("pointercancel", () => this._cancelPress());
    canvas.addEventListener("pointerleave", () => this._hover(null));
    canvas.addEventListener("keydown", (e) => this._key(e));
    canvas.addEventListener("focus", () => this.draw(false));
    canvas.addEventListener("blur", () => this.draw(false));
    window.addEventListener("pointerup", () => { this.lastDrag = -1; });
    window.addEventListener("resize", () => this.draw());
  }

  // view: {position, analysis, showProb, showFronts, highlight, mines, exploded,
  //        wrongFlags, clue, claimed, claimColours, claimNames, square}; every field
  //        but position is optional.  Flags: claimed[s] lists the mines seat s claimed,
  //        drawn in claimColours[s] ({fill, flag}) and named claimNames[s] on hover;
  //        square [r0, c0, r1, c1] is outlined (a bomb's square).  Only the cells
  //        whose look changed are redrawn.
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
    const c = this.cursor;
    if (c && (c[0] >= view.position.height || c[1] >= w)) this.cursor = null;
    this.draw(false);
  }

  clear() {
    this.view = null;
    this.sigs = null;
    this.drawn = "";
    this.canvas.width = 0;
    this.canvas.height = 0;
    this.canvas.style.width = "0px";
    this.canvas.style.height = "0px";
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
  // the board in its scroll box, between 12 and 32 px. On a touch screen 24 at
  // least, big enough for a finger (bigger boards scroll rather than shrink), or
  // 20 when that fits the whole width: 16 columns on a 360-390 px phone are better
  // seen at once than 2 px bigger with the last column scrolled out of sight.
  _fit(width, height) {
    const zoom = document.getElementById("zoom");
    if (zoom && zoom.value !== "auto") return Number(zoom.value);
    const box = this.canvas.parentElement;
    const narrow = window.matchMedia("(max-width: 760px)").matches;
    const touch = window.matchMedia("(pointer: coarse)").matches;
    const top = box.getBoundingClientRect().top;
    const availW = Math.max(200, box.clientWidth - 4);
    // a narrow page puts the board first and lets the page scroll: fit the width
    const availH = narrow ? availW : Math.max(200, window.innerHeight - Math.max(0, top) - 16);
    const size = Math.floor(Math.min(availW / width, availH / height));
    const across = Math.floor(availW / width);
    const least = !touch ? 12 : across >= 20 ? Math.min(24, across) : 24;
    return Math.max(least, Math.min(32, size));
  }

  // full: redraw every cell (the default: zoom, resize, a mode shown); else only the
  // cells whose look changed since the last drawing.
  draw(full = true) {
    const v = this.view;
    if (!v) return;
    const t0 = performance.now();
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
    const geometry = `${width}x${height}@${cs}*${dpr}|${PALETTE.table ? PALETTE.table[50] : ""}`;
    // a bomb's square spans cells: boards that have one (small, Flags) redraw whole
    if (geometry !== this.drawn || v.square || this.squared || !this.sigs) full = true;
    this.drawn = geometry;
    this.squared = Boolean(v.square);
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (full) {
      ctx.fillStyle = GRID;
      ctx.fillRect(0, 0, cw, ch);
      this.sigs = new Array(width * height).fill(null);
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = `bold ${Math.max(7, Math.round(cs * 0.68))}px system-ui, sans-serif`;
    const prob = v.showProb && v.analysis ? v.analysis.prob : null;
    const focused = this.keyboard && document.activeElement === this.canvas && this.cursor;
    const cur = focused ? this.cursor[0] * width + this.cursor[1] : -1;
    const clue = v.clue ? v.clue[0] * width + v.clue[1] : -1;
    const ex = v.exploded ? v.exploded[0] * width + v.exploded[1] : -1;
    const sigs = this.sigs;
    let drawn = 0;
    for (let r = 0; r < height; r++) {
      const row = rows[r];
      const prow = prob ? prob[r] : null;
      for (let c = 0; c < width; c++) {
        const i = r * width + c;
        const p = prow ? prow[c] : null;
        const sig = row[c] + (p === null ? "" : p) + (v.safe.has(i) ? "s" : "") +
          (v.certain.has(i) ? "m" : "") + (v.mineSet.has(i) ? "M" : "") +
          (v.highlightSet.has(i) ? "h" : "") + (v.showFronts && v.frontOf.has(i) ? `f${v.frontOf.get(i)}` : "") +
          (v.ownerOf.has(i) ? `o${v.ownerOf.get(i)}` : "") + (i === ex ? "x" : "") +
          (i === clue ? "c" : "") + (i === cur ? "k" : "");
        if (sigs[i] === sig) continue;
        sigs[i] = sig;
        drawn++;
        if (!full) {
          ctx.fillStyle = GRID;
          ctx.fillRect(c * cs, r * cs, cs, cs);
        }
        this._cell(r, c, row[c], i, p, cs);
        this._marks(i, width, cs, i === clue, i === cur);
      }
    }
    if (v.square) this._square(v.square, cs);
    this.drawCount++;
    this.lastDraw = { cells: drawn, ms: performance.now() - t0 };
    const h = this.hovered;
    if (h && h[0] < height && h[1] < width) {
      document.getElementById("tooltip").textContent = this.describe(h[0], h[1]);
    }
  }

  // What is drawn over a cell: its front's outline, the chosen-cell rings (a black
  // ring inside a white one, unlike any front's colour), the clue no layout
  // satisfies, the keyboard's cursor (a dashed ring).
  _marks(i, width, cs, isClue, isCursor) {
    const ctx = this.ctx;
    const v = this.view;
    if (v.showFronts && v.frontOf.get(i) >= 0) {
      ctx.lineWidth = Math.max(1.5, cs / 9);
      ctx.strokeStyle = frontColour(v.frontOf.get(i));
      this._outline(i, width, cs);
    }
    if (v.highlightSet.has(i)) {
      for (const [colour, lw] of [["#fff", Math.max(4, cs / 5)], ["#000", Math.max(2, cs / 10)]]) {
        ctx.strokeStyle = colour;
        ctx.lineWidth = lw;
        this._outline(i, width, cs);
      }
    }
    if (isClue) {
      ctx.strokeStyle = "#e000c0";
      ctx.lineWidth = Math.max(3, cs / 6);
      this._outline(i, width, cs);
    }
    if (isCursor) {
      for (const [colour, dash] of [["#fff", []], ["#1046c8", [Math.max(2, cs / 6), Math.max(2, cs / 8)]]]) {
        ctx.strokeStyle = colour;
        ctx.lineWidth = Math.max(2, cs / 8);
        ctx.setLineDash(dash);
        this._outline(i, width, cs);
      }
      ctx.setLineDash([]);
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
    // the mine that ended the game: red, whatever the position shows there
    if (v.exploded && v.exploded[0] === r && v.exploded[1] === c) {
      ctx.fillStyle = EXPLODED;
      ctx.fillRect(x, y, s, s);
      return this._mine(x, y, cs);
    }
    if (ch >= "0" && ch <= "8" || ch === ".") {
      ctx.fillStyle = OPEN;
      ctx.fillRect(x, y, s, s);
      if (v.mineSet.has(i)) return this._mine(x, y, cs);
      if (ch === ".") {
        ctx.fillStyle = "#999";
        ctx.fillRect(x + cs * 0.35, y + cs * 0.47, cs * 0.3, Math.max(1, cs * 0.06));
      } else if (ch !== "0") {
        ctx.fillStyle = PALETTE.numbers[+ch];
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
      // certainly safe and certain mines: the ends of the scale, with a dot or a cross
      const fill = v.safe.has(i) ? heat(0) : v.certain.has(i) ? heat(1) : heat(p);
      ctx.fillStyle = fill;
      ctx.fillRect(x, y, s, s);
      if (v.safe.has(i)) this._dot(x, y, cs, inkOn(fill));
      else if (v.certain.has(i)) this._cross(x, y, cs, inkOn(fill));
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

  _act(r, c, button, e) {
    if (this.handlers.down) this.handlers.down(r, c, button, e);
  }

  // Mouse: the button says what to do, at once.  Touch: a tap opens (flags in flag
  // mode), a press held LONG_PRESS_MS flags; a finger that moves is scrolling.
  _down(e) {
    const cell = this.cellAt(e);
    if (this.keyboard) { this.keyboard = false; this.draw(false); }
    if (!cell) return;
    if (e.pointerType === "touch") {
      this._cancelPress();
      const press = { cell, x: e.clientX, y: e.clientY, done: false };
      press.timer = setTimeout(() => {
        press.done = true;
        if (navigator.vibrate) navigator.vibrate(20);
        this._act(cell[0], cell[1], 2, e);
      }, LONG_PRESS_MS);
      this.press = press;
      return;
    }
    e.preventDefault();
    this.lastDrag = cell[0] * this.view.position.width + cell[1];
    this._act(cell[0], cell[1], e.button, e);
  }

  _up(e) {
    const press = this.press;
    if (e.pointerType !== "touch" || !press) return;
    this._cancelPress();
    if (!press.done) this._act(press.cell[0], press.cell[1], this.flagMode ? 2 : 0, e);
  }

  _cancelPress() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
  }

  _move(e) {
    if (e.pointerType === "touch") {
      const p = this.press;
      if (p && Math.hypot(e.clientX - p.x, e.clientY - p.y) > 10) this._cancelPress();
      return;
    }
    const cell = this.cellAt(e);
    this._hover(cell, e);
    if (!cell || !e.buttons || this.lastDrag < 0 || !this.handlers.drag) return;
    const i = cell[0] * this.view.position.width + cell[1];
    if (i === this.lastDrag) return;
    this.lastDrag = i;
    this.handlers.drag(cell[0], cell[1], e.buttons & 2 ? 2 : 0);
  }

  // Keys (docs/web.md, and the help line beside each board): arrows move the cursor
  // (with Shift, 5 cells), Enter or Space opens, F flags, C chords; a mode may add
  // its own keys (handlers.key returns true when it used the key).
  _key(e) {
    const v = this.view;
    // boards that take no moves (Watch, Review) leave the keys to their mode
    if (!v || !this.handlers.down || e.ctrlKey || e.metaKey || e.altKey) return;
    const { width, height } = v.position;
    if (!this.cursor) this.cursor = [Math.floor(height / 2), Math.floor(width / 2)];
    const [r, c] = this.cursor;
    const step = e.shiftKey ? 5 : 1;
    const moves = { ArrowUp: [-step, 0], ArrowDown: [step, 0], ArrowLeft: [0, -step], ArrowRight: [0, step] };
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let used = true;
    if (moves[key]) {
      const [dr, dc] = moves[key];
      this.cursor = [Math.min(height - 1, Math.max(0, r + dr)), Math.min(width - 1, Math.max(0, c + dc))];
      this._reveal();
    } else if (key === "Home") this.cursor = [r, 0];
    else if (key === "End") this.cursor = [r, width - 1];
    else if (this.handlers.key && this.handlers.key(key, r, c)) { /* the mode's own key */ }
    else if (key === "Enter" || key === " ") this._act(r, c, 0, e);
    else if (key === "f") this._act(r, c, 2, e);
    else if (key === "c") this._act(r, c, 1, e);
    else used = false;
    if (!used) return;
    e.preventDefault();
    e.stopPropagation();
    this.keyboard = true;
    this.draw(false);
  }

  // Scroll the board's box so the cursor's cell is in view.
  _reveal() {
    const box = this.canvas.parentElement;
    const [r, c] = this.cursor;
    const cs = this.cell;
    const x = c * cs, y = r * cs;
    if (x < box.scrollLeft) box.scrollLeft = x;
    else if (x + cs > box.scrollLeft + box.clientWidth) box.scrollLeft = x + cs - box.clientWidth + 4;
    if (y < box.scrollTop) box.scrollTop = y;
    else if (y + cs > box.scrollTop + box.clientHeight) box.scrollTop = y + cs - box.clientHeight + 4;
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

export { BoardView, PALETTE, frontColour, heat };
