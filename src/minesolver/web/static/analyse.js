// Analyse: paint or paste a position; exact probabilities, what to click (advice.js).
import { $, api, showError, clearError, at, plural, note, bigCount, META } from "./util.js";
import { BoardView } from "./board.js";
import { advice } from "./advice.js";

// ------------------------------------------------------------------ Analyse
const BRUSHES = ["H", "F", "0", "1", "2", "3", "4", "5", "6", "7", "8"];

const analyse = {
  grid: null,     // {width, height, mines, rows}: what the last response served, then painted on
  result: null,
  brush: "1",
  timer: null,
  pending: 0,

  init() {
    this.board = new BoardView($("analyse-board"), {
      down: (r, c, b) => this.paint(r, c, b),
      drag: (r, c, b) => this.paint(r, c, b),
      // keys 0-8, H (covered), F (flag) paint that at the cursor; Enter paints the brush
      key: (key, r, c) => {
        if (!/^[0-8hf]$/.test(key)) return false;
        this.paint(r, c, 0, key.toUpperCase());
        return true;
      },
    });
    const box = $("analyse-brushes");
    for (const b of BRUSHES) {
      const label = document.createElement("label");
      label.innerHTML = `<input type="radio" name="brush" value="${b}"><span>${b === "H" ? "covered" : b === "F" ? "flag" : b}</span>`;
      label.querySelector("input").checked = b === this.brush;
      label.querySelector("input").addEventListener("change", () => { this.brush = b; });
      box.append(label);
    }
    $("analyse-go").addEventListener("click", () => this.analyseText());
    $("analyse-copy").addEventListener("click", () => this.copyOut());
    $("analyse-blank").addEventListener("click", () => this.blank());
    $("analyse-m").addEventListener("change", () => {
      if (this.grid) { this.grid.mines = Number($("analyse-m").value); this.schedule(); }
    });
    $("analyse-text").value = META.example;
  },

  shown() { if (!this.grid) this.analyseText(); },

  blank() {
    const w = Number($("analyse-w").value), h = Number($("analyse-h").value);
    const mines = Number($("analyse-m").value);
    this.grid = { width: w, height: h, mines, rows: Array.from({ length: h }, () => "H".repeat(w)) };
    this.schedule(0);
  },

  paint(r, c, button, brush = this.brush) {
    if (!this.grid) return;
    const ch = button === 2 ? "H" : brush;
    const row = this.grid.rows[r];
    if (row[c] === ch) return;
    this.grid.rows[r] = row.slice(0, c) + ch + row.slice(c + 1);
    // draw the stroke at once (only the cell painted is redrawn: the probabilities of
    // the last answer stay until the new one comes); the analysis follows
    this.board.set({ ...this.board.view, position: this.grid });
    $("analyse-status").textContent = "Analysing…";
    this.schedule();
  },

  schedule(delay = 200) {
    // an answer already on its way is for an older board: it must not paint over the
    // strokes made since (the scheduled request asks about the board as it is now)
    this.pending++;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.send({ position: this.grid }), delay);
  },

  analyseText() { this.send({ text: $("analyse-text").value }); },

  async send(body) {
    const ticket = ++this.pending;
    const status = $("analyse-status");
    status.textContent = "Analysing…";
    let data, error = null;
    try {
      data = await api("POST", "/api/analyse", body);
    } catch (err) {
      if (!err.data || !err.data.position) {
        if (ticket !== this.pending) return;
        // text that cannot be read: no board is shown for it, and the reason stays
        // (not only in the passing toast) until an answer replaces it
        this.result = null;
        this.grid = null;
        this.board.clear();
        advice.show(null);
        status.textContent = err.message;
        status.dataset.state = "error";
        $("analyse-info").textContent = "Fix the text and press Analyse text again.";
        return showError(err);
      }
      data = err.data;
      error = err;
    }
    if (ticket !== this.pending) return;  // a newer request is on its way
    clearError();  // an answer with a board: the banner of an earlier failure goes
    this.result = data;
    this.grid = { ...data.position, rows: [...data.position.rows] };
    $("analyse-w").value = data.position.width;
    $("analyse-h").value = data.position.height;
    $("analyse-m").value = data.position.mines;
    if (error) {
      status.textContent = error.message;
      status.dataset.state = "inconsistent";
      $("analyse-info").textContent = data.clue ? `The clue at ${at(data.clue)} cannot be satisfied.` : "";
      this.board.set({ position: data.position, clue: data.clue });
      advice.show(null);
      return;
    }
    const a = data.analysis;
    status.dataset.state = "ok";
    status.dataset.solutions = a.solutions;
    // analysis.mine includes the flags (prob 1); count the certain mines not flagged yet
    const rows = data.position.rows;
    const unflagged = a.mine.filter(([r, c]) => rows[r][c] === "H").length;
    status.textContent = `${bigCount(a.solutions)} layout${a.solutions === "1" ? "" : "s"}`;
    $("analyse-info").textContent = `${a.safe.length} safe · ${plural(unflagged, "certain mine")} · ` +
      `${plural(a.fronts.length, "front")} · ${(a.seconds * 1000).toFixed(1)} ms`;
    this.board.set({ position: data.position, analysis: a, showProb: true });
    advice.show(data);  // what to click and why (advice.js)
  },

  // The position as .mine text: into the text box, and the clipboard when the page may.
  async text() {
    if (!this.grid) throw new Error("Nothing to copy: no board is shown.");
    const data = await api("POST", "/api/positions", { position: this.grid });
    $("analyse-text").value = data.text;
    return data.text;
  },

  async copyOut() {
    try {
      const text = await this.text();
      let copied = false;
      if (navigator.clipboard) copied = await navigator.clipboard.writeText(text).then(() => true, () => false);
      note($("analyse-copy"), copied ? "Copied to the clipboard." : "Written to the text box above (the clipboard is not available).");
    } catch (err) { showError(err); }
  },
};


export { analyse };
