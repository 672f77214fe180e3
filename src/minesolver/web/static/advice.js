// For players, in Analyse and Play: what to click and why (the advice the API serves
// beside the probabilities, docs/web.md), a second overlay "chance of a zero", the
// dead cells and 50/50 pairs, a "no-guess board" switch and an "Analyse this position"
// link in Play.  Everything is drawn from the JSON of POST /api/analyse.
import { $, pct, at } from "./util.js";
import { analyse } from "./analyse.js";
import { play } from "./play.js";

// A transparent canvas over a BoardView: rings and marks drawn on top of the board,
// redrawn whenever the board redraws (zoom, resize, new data).
class BoardOverlay {
  constructor(board) {
    this.board = board;
    this.canvas = document.createElement("canvas");
    this.canvas.className = "overlay";
    this.canvas.setAttribute("aria-hidden", "true");
    board.canvas.parentElement.classList.add("overlaid");
    board.canvas.after(this.canvas);
    this.ctx = this.canvas.getContext("2d");
    this.marks = null;
    const draw = board.draw.bind(board);
    board.draw = (...args) => { draw(...args); this.draw(); };
  }

  // marks: {width, height, zero (rows of chances, painted blue over the covered cells
  //         but the certain mines, listed in mines), rings: [{cell, colour, dash}],
  //         links: [{from, to, colour}]}; null clears.
  set(marks) {
    this.marks = marks;
    this.draw();
  }

  draw() {
    const m = this.marks;
    const src = this.board.canvas;
    const cs = Number(src.dataset.cell || 0);
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== src.width || this.canvas.height !== src.height) {
      this.canvas.width = src.width;  // resizing a canvas is slow on big boards: only when needed
      this.canvas.height = src.height;
      this.canvas.style.width = src.style.width;
      this.canvas.style.height = src.style.height;
    }
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (this.empty && !m) return;  // nothing drawn, nothing to draw
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const v = this.board.view;
    this.empty = !m;
    if (!m || !cs || !v || v.position.width !== m.width || v.position.height !== m.height) return;
    if (m.zero) this._zero(m.zero, v.position.rows, new Set((m.mines || []).map(([r, c]) => `${r},${c}`)), cs);
    for (const link of m.links || []) this._link(link, cs);
    for (const ring of m.rings || []) this._ring(ring, cs);
  }

  _zero(zero, rows, mines, cs) {
    const ctx = this.ctx;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = `${Math.max(7, Math.round(cs * 0.38))}px system-ui, sans-serif`;
    for (let r = 0; r < zero.length; r++) {
      for (let c = 0; c < zero[r].length; c++) {
        if (rows[r][c] !== "H" || mines.has(`${r},${c}`)) continue;
        const p = zero[r][c];
        ctx.fillStyle = "#e8ecf2";
        ctx.fillRect(c * cs, r * cs, cs - 1, cs - 1);
        ctx.fillStyle = `rgba(20, 90, 220, ${(0.05 + 0.85 * p).toFixed(3)})`;
        ctx.fillRect(c * cs, r * cs, cs - 1, cs - 1);
        if (cs >= 20) {
          ctx.fillStyle = p > 0.5 ? "#fff" : "#1d2330";
          ctx.fillText(`${Math.round(p * 100)}`, c * cs + cs / 2, r * cs + cs / 2);
        }
      }
    }
  }

  // a coloured ring inside a white one, so it shows on every cell colour
  _ring({ cell: [r, c], colour, dash }, cs) {
    const ctx = this.ctx;
    for (const [stroke, lw] of [["#fff", Math.max(4, cs / 5)], [colour, Math.max(2, cs / 9)]]) {
      ctx.lineWidth = lw;
      ctx.strokeStyle = stroke;
      ctx.setLineDash(dash && stroke !== "#fff" ? [Math.max(2, cs / 6), Math.max(2, cs / 8)] : []);
      ctx.strokeRect(c * cs + lw / 2, r * cs + lw / 2, cs - 1 - lw, cs - 1 - lw);
    }
    ctx.setLineDash([]);
  }

  _link({ from: [r0, c0], to: [r1, c1], colour }, cs) {
    const ctx = this.ctx;
    ctx.lineWidth = Math.max(2, cs / 10);
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.moveTo(c0 * cs + cs / 2, r0 * cs + cs / 2);
    ctx.lineTo(c1 * cs + cs / 2, r1 * cs + cs / 2);
    ctx.stroke();
  }
}

const ADVICE_COLOUR = "#1046c8";
const PAIR_COLOUR = "#b000b0";
const DEAD_COLOUR = "#7a7a7a";

// The rings and links for an advice JSON ({advice, dead, pairs, zero}).
function adviceMarks(position, data, showZero) {
  const rings = [];
  for (const cell of data.dead || []) rings.push({ cell, colour: DEAD_COLOUR, dash: true });
  const links = (data.pairs || []).map(([from, to]) => ({ from, to, colour: PAIR_COLOUR }));
  for (const [a, b] of data.pairs || []) {
    rings.push({ cell: a, colour: PAIR_COLOUR }, { cell: b, colour: PAIR_COLOUR });
  }
  if (data.advice) rings.push({ cell: data.advice.cell, colour: ADVICE_COLOUR });
  return {
    width: position.width, height: position.height, rings, links,
    zero: showZero && data.zero ? data.zero : null,
    mines: data.analysis ? data.analysis.mine : [],
  };
}

// The advice as a few lines: the move and why, then its exact figures.
function adviceFigures(a) {
  const rows = [["mine risk", pct(a.probability)]];
  if (a.win_chance !== null) rows.push(["win chance (perfect play)", pct(a.win_chance)]);
  rows.push(["survives this and the next move", pct(a.survive_two)],
    ["shows a zero", pct(a.zero)], ["frees new safe cells", pct(a.progress)]);
  if (a.dead) rows.push(["dead (can show one number only)", "yes"]);
  return rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
}

const advice = {
  data: null,
  position: null,

  init() {
    this.overlay = new BoardOverlay(analyse.board);
    const box = document.createElement("fieldset");
    box.id = "advice-panel";
    box.innerHTML = `
      <legend>What to click</legend>
      <p id="advice-text" class="advice-text">—</p>
      <dl id="advice-figures" class="figures"></dl>
      <p id="advice-extra" class="small"></p>
      <div class="overlay-choice" role="radiogroup" aria-label="Overlay">
        <label><input type="radio" name="advice-overlay" value="prob" checked> mine probability</label>
        <label><input type="radio" name="advice-overlay" value="zero"> chance of a zero</label>
      </div>
      <div class="keys"><span class="key-advice">advice</span><span class="key-pair">50/50 pair</span>
        <span class="key-dead">dead cell</span></div>
      <div class="legend" id="advice-zero-legend" hidden><span>no zero</span><span class="scale zero"></span><span>a zero</span></div>
      <p class="small help">Figures are exact: ratios of exact layout counts.</p>`;
    $("analyse-info").after(box);
    for (const input of box.querySelectorAll("input[name=advice-overlay]")) {
      input.addEventListener("change", () => this.draw());
    }
    // the hover text gains the chance of a zero
    const describe = analyse.board.describe.bind(analyse.board);
    analyse.board.describe = (r, c) => {
      const d = this.data;
      const text = describe(r, c);
      if (!d || !d.zero || !this.position || d.position.rows[r][c] !== "H") return text;
      return `${text} · a zero ${(d.zero[r][c] * 100).toFixed(1)}%`;
    };
    this.playLinks();
  },

  // Called by Analyse with each answer of POST /api/analyse (null: an error).
  show(data) {
    this.data = data;
    this.position = data ? data.position : null;
    const text = $("advice-text");
    const extra = $("advice-extra");
    $("advice-figures").innerHTML = "";
    if (!data) {
      text.textContent = "—";
      extra.textContent = "";
    } else if (data.advice_error) {
      text.textContent = data.advice_error;
      extra.textContent = "";
    } else if (!data.advice) {
      text.textContent = "Nothing left to open: every covered cell is a mine.";
      extra.textContent = "";
    } else {
      const a = data.advice;
      text.textContent = a.text;
      text.dataset.reason = a.reason;
      text.dataset.cell = a.cell.join(",");
      $("advice-figures").innerHTML = adviceFigures(a);
      const pairs = data.pairs.length ? data.pairs.map(([x, y]) => `${at(x)}–${at(y)}`).join(" ") : "none";
      extra.textContent = `50/50 pairs: ${pairs} · dead cells: ${data.dead.length}` +
        (data.skipped ? ` · ${data.skipped}` : "");
    }
    this.draw();
  },

  overlayChoice() {
    const chosen = document.querySelector("input[name=advice-overlay]:checked");
    return chosen ? chosen.value : "prob";
  },

  draw() {
    const zero = this.overlayChoice() === "zero";
    $("advice-zero-legend").hidden = !zero;
    const data = this.data;
    this.overlay.set(data && data.analysis ? adviceMarks(data.position, data, zero) : null);
  },

  // Play: a no-guess switch for new games and a link to analyse the position.
  playLinks() {
    const seed = $("play-seed").closest("label");
    const noGuess = document.createElement("label");
    noGuess.className = "switch";
    noGuess.innerHTML = `<input type="checkbox" id="play-no-guess"> no-guess board`;
    noGuess.title = "A board that can be solved from the first click by deduction alone";
    seed.after(noGuess);
    const link = document.createElement("button");
    link.type = "button";
    link.id = "play-analyse";
    link.textContent = "Analyse this position";
    link.title = "Open the position in Analyse (your flags left out) and see what to click";
    $("play-move").after(link);
    link.addEventListener("click", () => this.analysePlay());
  },

  analysePlay() {
    const g = play.game;
    if (!g) return;
    const p = g.position;
    // flags are the player's guesses, not information: Analyse sees the clues only
    const rows = p.rows.map((row) => row.replace(/F/g, "H"));
    $("analyse-text").value = `${p.width}x${p.height}x${p.mines}\n${rows.join("\n")}\n`;
    location.hash = "analyse";
    analyse.analyseText();
  },
};

export { advice, BoardOverlay, adviceMarks, ADVICE_COLOUR };
