// The page: four modes, each drawn only from the JSON the API serves
// (docs/web.md).  No framework, no build step.  Flags lives in flags.js.
"use strict";

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ API
async function api(method, path, body, type) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = type || "application/json";
    init.body = type ? body : JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const err = new Error(data.error || `HTTP ${response.status}`);
    err.status = response.status;
    err.data = data;
    throw err;
  }
  return data;
}

let errorTimer = null;
function showError(err) {
  const box = $("error");
  box.textContent = err.message || String(err);
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

const pct = (p) => `${(p * 100).toFixed(1)}%`;
// "1 front", "2 fronts"; the plural given when adding an s is wrong ("1 guess", "2 guesses")
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// A short confirmation beside a button ("Copied"), gone after a few seconds.
function note(anchor, text) {
  let box = anchor.nextElementSibling;
  if (!box || !box.classList.contains("note")) {
    box = document.createElement("span");
    box.className = "note small";
    box.setAttribute("role", "status");
    anchor.after(box);
  }
  box.textContent = text;
  clearTimeout(box.timer);
  box.timer = setTimeout(() => { box.textContent = ""; }, 4000);
}

// Remembered across reloads and tabs: the game being played, the colour scale.
const store = {
  get(key) { try { return localStorage.getItem(`minesolver.${key}`); } catch (err) { return null; } },
  set(key, value) { try { localStorage.setItem(`minesolver.${key}`, value); } catch (err) { /* private mode */ } },
};
const at = ([r, c]) => `(${r}, ${c})`;

// A layout count can have thousands of digits: show it whole or as 1.23e4567.
function bigCount(text) {
  if (text.length <= 15) return Number(text).toLocaleString("en");
  return `${text[0]}.${text.slice(1, 3)}×10^${text.length - 1}`;
}

// ------------------------------------------------------------------ shared widgets
let META = null;

function rulesWidget(box) {
  const p = box.dataset.prefix;
  const presets = Object.entries(META.presets)
    .map(([name, r]) => `<option value="${name}">${name} (${r.replace(/x/g, "×")})</option>`)
    .join("");
  const max = META.limits.max_side;
  box.innerHTML = `
    <label>Board <select id="${p}-preset">${presets}<option value="custom">custom…</option></select></label>
    <div class="row custom" id="${p}-custom" hidden>
      <label>W <input id="${p}-w" type="number" min="1" max="${max}" value="30"></label>
      <label>H <input id="${p}-h" type="number" min="1" max="${max}" value="16"></label>
      <label>Mines <input id="${p}-m" type="number" min="0" value="99"></label>
    </div>
    <label>First click <select id="${p}-first">${META.first_click
      .map((f) => `<option>${f}</option>`).join("")}</select></label>`;
  $(`${p}-preset`).value = "expert";
  $(`${p}-preset`).addEventListener("change", () => {
    $(`${p}-custom`).hidden = $(`${p}-preset`).value !== "custom";
  });
}

function readRules(p) {
  const preset = $(`${p}-preset`).value;
  const rules = preset === "custom"
    ? `${$(`${p}-w`).value}x${$(`${p}-h`).value}x${$(`${p}-m`).value}` : preset;
  return { rules, first_click: $(`${p}-first`).value };
}

// ------------------------------------------------------------------ Play
const play = {
  game: null,
  hint: null,
  highlight: [],
  busy: false,
  tick: null,
  clock: { base: 0, since: 0 },

  init() {
    this.board = new BoardView($("play-board"), { down: (r, c, b) => this.click(r, c, b) });
    $("play-form").addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
    $("play-hint").addEventListener("change", () => this.refreshHint());
    $("play-solve").addEventListener("click", () => this.solve());
    $("play-flag-mode").addEventListener("click", () => {
      this.board.flagMode = !this.board.flagMode;
      $("play-flag-mode").setAttribute("aria-pressed", String(this.board.flagMode));
    });
    this.tick = setInterval(() => this.showTime(), 200);
    // another tab may have played this game meanwhile: catch up when shown again
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.sync(); });
  },

  // The game to show at load: the one a link names (?rules=..&seed=..), else the one
  // this browser was playing (a reload, a second tab), else a new beginner game.
  async load(params) {
    if (params.has("rules")) {
      const preset = params.get("rules");
      if (META.presets[preset]) $("play-preset").value = preset;
      else {
        const [w, h, m] = preset.split("x");
        $("play-preset").value = "custom";
        $("play-custom").hidden = false;
        [$("play-w").value, $("play-h").value, $("play-m").value] = [w, h, m];
      }
      if (params.get("first_click")) $("play-first").value = params.get("first_click");
      $("play-seed").value = params.get("seed") || "";
      $("play-no-guess").checked = params.get("no_guess") === "1";
      return this.start();
    }
    if (await this.resume()) return;
    await this.start();
  },

  async resume() {
    const id = store.get("game");
    if (!id || (this.game && this.game.id === id)) return false;
    try {
      const data = await api("GET", `/api/games/${id}`);
      this.hint = null;
      this.highlight = [];
      this.show(data.game);
      return true;
    } catch (err) { return false; }  // gone (the server restarted, or too many games since)
  },

  async sync() {
    const g = this.game;
    if (!g || this.busy) return;
    try {
      const data = await api("GET", `/api/games/${g.id}`);
      if (data.game.version !== this.game.version && !this.busy) this.show(data.game);
    } catch (err) { /* gone: keep what is shown */ }
  },

  async start() {
    const body = { ...readRules("play"), seed: $("play-seed").value.trim() || null,
      no_guess: $("play-no-guess").checked };  // the switch advice.js adds
    try {
      const data = await api("POST", "/api/games", body);
      this.hint = null;
      this.highlight = [];
      $("play-move").textContent = "";
      this.show(data.game);
    } catch (err) { showError(err); }
  },

  async click(r, c, button) {
    const g = this.game;
    if (!g || g.status === "won" || g.status === "lost" || this.busy) return;
    const ch = g.position.rows[r][c];
    let action = "reveal";
    if (button === 2) action = "toggle_flag";
    else if (button === 1 || (ch >= "1" && ch <= "8")) action = "chord";
    this.busy = true;
    try {
      const data = await api("POST", `/api/games/${g.id}/moves`, { action, row: r, col: c });
      this.highlight = [];
      this.show(data.game);
    } catch (err) { showError(err); }
    this.busy = false;
  },

  async solve() {
    const g = this.game;
    if (!g || this.busy) return;
    this.busy = true;
    $("play-move").textContent = "Solver is thinking…";
    $("play-solve").disabled = true;
    try {
      const data = await api("POST", `/api/games/${g.id}/solve`, {
        strategy: $("play-strategy").value, all_deductions: $("play-all").checked,
      });
      const moves = data.moves;
      $("play-move").textContent = moves.length > 1
        ? `${moves.length} safe cells by deduction: ${moves.slice(0, 4).map((m) => at(m.cell)).join(" ")}${moves.length > 4 ? " …" : ""}`
        : moves.map((m) => m.text).join("; ");
      this.highlight = moves.map((m) => m.cell);
      this.show(data.game);
    } catch (err) {
      $("play-move").textContent = "";
      $("play-solve").disabled = false;
      showError(err);
    }
    this.busy = false;
  },

  show(game) {
    this.game = game;
    store.set("game", game.id);
    this.clock = { base: game.elapsed, since: performance.now() };
    $("play-mines").textContent = String(game.mines_left);
    const over = game.status === "won" || game.status === "lost";
    $("play-solve").disabled = over;
    $("play-solve").title = over ? "The game is over: start a new one" : "";
    const from = game.board ? `board ${game.board}` : `seed ${game.seed}`;
    const status = {
      ready: "Click any cell to start.",
      playing: "Playing…",
      won: `You won! ${plural(game.clicks, "click")}, 3BV ${game.bbbv}, ${from}.`,
      lost: game.exploded
        ? `Boom: the mine at ${at(game.exploded)} went off (red). You lost (${from}).`
        : `Boom. You lost (${from}).`,
    }[game.status];
    $("play-status").textContent = status;
    $("play-status").dataset.status = game.status;
    this.draw();
    this.showTime();
    this.refreshHint();
    share.played(game);  // share.js: the link to this game, its board file
  },

  draw() {
    const g = this.game;
    // while the hint of the new position is computed, the last one stays on the cells
    // still covered (its certain cells stay certain): a reveal redraws only what it
    // opened, not 40,000 cells twice (docs/benchmarks.md)
    const hint = this.hint ? this.hint.analysis : null;
    this.board.canvas.dataset.hint = !hint ? "none" : this.hint.version === g.version ? "fresh" : "stale";
    this.board.set({
      position: g.position,
      analysis: $("play-hint").checked && g.status !== "won" && g.status !== "lost" ? hint : null,
      showProb: true,
      highlight: this.highlight,
      mines: g.mines,
      exploded: g.exploded,
      wrongFlags: g.wrong_flags,
    });
  },

  async refreshHint() {
    const g = this.game;
    const info = $("play-hint-info");
    if (!g || !$("play-hint").checked || g.status === "won" || g.status === "lost") {
      info.textContent = "";
      if (g) this.draw();
      return;
    }
    if (this.hint && this.hint.version === g.version) return this.draw();
    info.textContent = "Computing…";
    try {
      const hint = await api("GET", `/api/games/${g.id}/hint`);
      if (!this.game || hint.version !== this.game.version || g.id !== this.game.id) return;
      this.hint = hint;
      const a = hint.analysis;
      info.textContent = `${bigCount(a.solutions)} layout${a.solutions === "1" ? "" : "s"} · ` +
        `${a.safe.length} safe · ${plural(a.mine.length, "certain mine")} · ` +
        `${a.seconds < 0.01 ? "<10" : Math.round(a.seconds * 1000)} ms`;
      info.dataset.version = String(hint.version);
      this.draw();
    } catch (err) { showError(err); }
  },

  showTime() {
    const g = this.game;
    let t = 0;
    if (g) t = g.status === "playing" ? this.clock.base + (performance.now() - this.clock.since) / 1000 : g.elapsed;
    $("play-time").textContent = String(Math.floor(t));
  },
};

// ------------------------------------------------------------------ Watch
const watch = {
  summary: null,
  steps: new Map(),
  index: 0,
  timer: null,
  socket: null,
  loading: false,

  init() {
    this.board = new BoardView($("watch-board"), {});
    $("watch-form").addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
    $("watch-first").addEventListener("click", () => this.go(0));
    $("watch-back").addEventListener("click", () => this.go(this.index - 1));
    $("watch-next").addEventListener("click", () => this.go(this.index + 1));
    $("watch-last").addEventListener("click", () => this.go(this.summary ? this.summary.steps - 1 : 0));
    $("watch-play").addEventListener("click", () => this.toggle());
    $("watch-gif").addEventListener("click", () => this.exportGif());
    $("watch-speed").addEventListener("input", () => {
      $("watch-speed-out").textContent = $("watch-speed").value;
      if (this.timer) { this.pause(); this.resume(); }
    });
    for (const id of ["watch-prob", "watch-fronts"]) $(id).addEventListener("change", () => this.draw());
    document.addEventListener("keydown", (e) => {
      if (currentMode() !== "watch" || e.target.closest("input, select, textarea")) return;
      if (e.key === "ArrowRight") this.go(this.index + 1);
      else if (e.key === "ArrowLeft") this.go(this.index - 1);
      else if (e.key === " ") { e.preventDefault(); this.toggle(); }
    });
  },

  async start() {
    this.pause();
    const body = {
      ...readRules("watch"),
      strategy: $("watch-strategy").value,
      start: $("watch-start").value,
      seed: $("watch-seed").value.trim() || null,
    };
    try {
      const data = await api("POST", "/api/watch", body);
      this.steps = new Map();
      this.index = 0;
      this.step = null;
      this.update(data.watch);
      this.follow(data.watch.id);
    } catch (err) { showError(err); }
  },

  // Follow the game while it is played: pushed by the websocket, else polled.
  follow(id) {
    if (this.socket) this.socket.close();
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/watch/${id}/ws`;
    let pushed = false;
    try {
      const socket = new WebSocket(url);
      this.socket = socket;
      socket.onmessage = (e) => {
        pushed = true;
        const data = JSON.parse(e.data);
        if (data.watch && this.summary && data.watch.id === this.summary.id) this.update(data.watch);
      };
      socket.onclose = () => { if (!pushed) this.poll(id); };
    } catch (err) { this.poll(id); }
  },

  async poll(id) {
    while (this.summary && this.summary.id === id && this.summary.status === "running") {
      await new Promise((done) => setTimeout(done, 300));
      try { this.update((await api("GET", `/api/watch/${id}`)).watch); } catch (err) { return showError(err); }
    }
  },

  update(summary) {
    this.summary = summary;
    const gif = $("watch-gif");
    const cells = summary.width * summary.height;
    const limit = META.limits.gif_max_cells;
    gif.hidden = summary.status !== "done";
    gif.disabled = cells > limit || this.exporting === summary.id;
    $("watch-gif-info").textContent = summary.status === "done" && cells > limit
      ? `GIF export is unavailable here: it is limited to boards of ${limit.toLocaleString("en")} ` +
        `cells (drawing bigger ones takes minutes); this board has ${cells.toLocaleString("en")}.`
      : this.exporting === summary.id ? $("watch-gif-info").textContent : "";
    if (summary.status === "failed") showError(new Error(`the strategy failed: ${summary.error}`));
    this.showCounter();
    if (!this.step && summary.steps > 0) this.go(0);  // show the first click as soon as it exists
  },

  showCounter() {
    const s = this.summary;
    if (!s) return;
    const playing = s.status === "running" ? " (still playing…)" : "";
    $("watch-counter").textContent = `Step ${this.index} of ${Math.max(0, s.steps - 1)}${playing}`;
    $("watch-counter").dataset.index = String(this.index);
    $("watch-counter").dataset.status = s.status;
  },

  async fetchStep(i) {
    if (this.steps.has(i)) return this.steps.get(i);
    const s = this.summary;
    const data = await api("GET", `/api/watch/${s.id}/steps/${i}`);
    // big boards: keep a window of steps, not the whole game
    if (this.steps.size > 80) this.steps.delete(this.steps.keys().next().value);
    this.steps.set(i, data.step);
    return data.step;
  },

  async go(i) {
    const s = this.summary;
    if (!s || this.loading) return false;
    const last = s.steps - 1;
    if (i < 0 || i > last) return false;
    this.loading = true;
    try {
      const step = await this.fetchStep(i);
      // the losing step names the risk the guess took: it is in the step before
      if (step.outcome === "lost" && i > 0) await this.fetchStep(i - 1).catch(() => null);
      if (this.summary !== s && this.summary.id !== s.id) return false;
      this.index = i;
      this.step = step;
      this.draw();
      this.describe(step);
      this.showCounter();
      if (i + 1 <= last) this.fetchStep(i + 1).catch(() => {});  // prefetch
      return true;
    } catch (err) {
      if (err.status !== 409) showError(err);
      return false;
    } finally {
      this.loading = false;
    }
  },

  draw() {
    const step = this.step;
    if (!step) return;
    this.board.set({
      position: step.position,
      analysis: step.analysis,
      showProb: $("watch-prob").checked,
      showFronts: $("watch-fronts").checked,
      highlight: step.moves.map((m) => m.cell),
      mines: step.mines,
      exploded: step.exploded,
    });
  },

  // The losing step names the mine (drawn red) and the risk the guess took there.
  lossText(step) {
    if (!step.exploded) return "Lost: the last guess hit a mine.";
    const [r, c] = step.exploded;
    const before = this.steps.get(this.index - 1);
    const move = before && before.moves.find((m) => m.cell[0] === r && m.cell[1] === c);
    const risk = move && move.probability !== null ? ` (mine risk ${pct(move.probability)})` : "";
    return `Lost: the ${move ? move.reason : "last"} move at ${at(step.exploded)}${risk} hit a mine, drawn in red.`;
  },

  describe(step) {
    const reason = $("watch-reason");
    const s = this.summary;
    const a = step.analysis;
    if (step.outcome) {
      const r = s.result;
      reason.textContent = step.outcome === "won" ? "Won!" : this.lossText(step);
      reason.dataset.reason = step.outcome;
      $("watch-info").textContent = r
        ? `${plural(r.clicks, "click")} · ${plural(r.guesses, "guess", "guesses")} · 3BV ${r.bbbv} · ` +
          `${r.opened}/${r.safe_cells} safe cells opened · ${(r.seconds * 1000).toFixed(0)} ms`
        : "";
    } else {
      const moves = step.moves;
      const m = moves[0];
      const label = {
        first: `First click at ${at(m.cell)}.`,
        deduction: `Deduction: ${plural(moves.length, "certainly safe cell")} opened.`,
        guess: `Guess at ${at(m.cell)}: mine risk ${pct(m.probability || 0)}.`,
        forced: `Forced 50/50 at ${at(m.cell)}: mine risk ${pct(m.probability || 0)}.`,
        endgame: `Endgame search chose ${at(m.cell)}: win chance ${pct(m.win_chance || 0)}, mine risk ${pct(m.probability || 0)}.`,
      }[m.reason];
      reason.textContent = label;
      reason.dataset.reason = m.reason;
      $("watch-info").textContent = a
        ? `${bigCount(a.solutions)} layout${a.solutions === "1" ? "" : "s"} · ${plural(a.fronts.length, "front")} · ${plural(step.opened.length, "cell")} opened`
        : `${plural(step.opened.length, "cell")} opened`;
    }
    const list = $("watch-fronts-list");
    list.textContent = "";
    for (const [i, f] of ((a && a.fronts) || []).entries()) {
      if (i >= 12) { list.append(`… ${a.fronts.length - 12} more`); break; }
      const chip = document.createElement("span");
      chip.className = "chip";
      chip.style.borderColor = frontColour(i);
      chip.textContent = `${i + 1}: ${f.cells.length} cells, ${f.min_mines}–${f.max_mines} mines`;
      list.append(chip);
    }
  },

  // The GIF is drawn on request, a frame a step (100x100 games take ~15 s): say so and
  // count the seconds meanwhile, then hand the file over.
  async exportGif() {
    const s = this.summary;
    if (!s || this.exporting) return;
    this.exporting = s.id;
    const info = $("watch-gif-info");
    const button = $("watch-gif");
    button.disabled = true;
    const t0 = performance.now();
    const tell = () => {
      const secs = Math.round((performance.now() - t0) / 1000);
      info.textContent = `Drawing ${plural(s.steps, "frame")}… ${secs} s`;
    };
    tell();
    const clock = setInterval(tell, 500);
    try {
      const response = await fetch(`/api/watch/${s.id}/gif`);
      if (!response.ok) {
        const data = await response.json().catch(() => ({}));
        throw new Error(data.error || `HTTP ${response.status}`);
      }
      const blob = await response.blob();
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `minesolver-${s.rules}-${s.seed}.gif`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
      info.textContent = `GIF ready: ${(blob.size / 1024).toFixed(0)} kB in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s.`;
      info.dataset.state = "done";
    } catch (err) {
      info.textContent = "";
      showError(err);
    } finally {
      clearInterval(clock);
      this.exporting = null;
      button.disabled = false;
    }
  },

  toggle() { if (this.timer) this.pause(); else this.resume(); },

  resume() {
    if (!this.summary) return;
    $("watch-play").textContent = "Pause";
    const every = 1000 / Number($("watch-speed").value);
    this.timer = setInterval(async () => {
      if (this.loading) return;
      const moved = await this.go(this.index + 1);
      if (!moved && this.summary.status !== "running") this.pause();
    }, every);
  },

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    $("watch-play").textContent = "Play";
  },
};

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

// ------------------------------------------------------------------ modes
function currentMode() {
  const mode = location.hash.slice(1);
  return ["play", "watch", "analyse", "review", "flags"].includes(mode) ? mode : "play";
}

function showMode() {
  const mode = currentMode();
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const selected = tab.dataset.mode === mode;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;  // one tab stop for the tab list; arrows move within
  }
  for (const section of document.querySelectorAll(".mode")) section.hidden = section.id !== mode;
  if (mode === "play") play.board.draw();
  if (mode === "watch") watch.board.draw();
  if (mode === "analyse") analyse.shown();
  if (mode === "flags") flags.shown();
  if (mode === "review") review.shown();
}

// The tab list as ARIA tabs: ← → (and Home, End) move between tabs and show them.
function tabKeys() {
  const tabs = () => [...document.querySelectorAll("[role=tab]")];
  for (const tab of tabs()) {
    tab.setAttribute("aria-controls", tab.dataset.mode);
    tab.addEventListener("click", () => { location.hash = tab.dataset.mode; });
    tab.addEventListener("keydown", (e) => {
      const all = tabs();
      const k = all.indexOf(tab);
      const to = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: all.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      const next = all[(to + all.length) % all.length];
      location.hash = next.dataset.mode;
      next.focus();
    });
  }
}

// The probability scale: heat (green to red) or colour-blind (cividis), both served by
// GET /api from minesolver.show.palette; the legends follow.
function usePalette(scale) {
  const name = META.palette.scales[scale] ? scale : "heat";
  PALETTE.use(META, name);
  $("palette").value = name;
  store.set("palette", name);
  const t = META.palette.scales[name];
  const stops = [0, 10, 25, 50, 75, 100].map((k) => t[k]).join(", ");
  for (const bar of document.querySelectorAll(".legend .scale:not(.zero)")) {
    bar.style.background = `linear-gradient(to right, ${stops})`;
  }
  document.body.dataset.palette = name;
}

async function main() {
  try {
    META = await api("GET", "/api");
  } catch (err) { return showError(err); }
  for (const box of document.querySelectorAll(".rules")) rulesWidget(box);
  $("play-preset").value = "beginner";
  for (const select of document.querySelectorAll(".strategies")) {
    select.innerHTML = META.strategies
      .map((s) => `<option value="${s.name}" title="${s.summary}">${s.name}</option>`).join("");
    select.value = "best";
  }
  play.init();
  watch.init();
  analyse.init();
  flags.init();
  advice.init();  // advice.js: the advice panel and overlay, Play's no-guess switch and link
  review.init();  // review.js: the Review mode (its tab and section)
  share.init();   // share.js: open and save files, drop them, links
  tabKeys();
  window.addEventListener("hashchange", showMode);
  const boards = () => [play, watch, analyse, flags, review].map((m) => m.board);
  $("zoom").addEventListener("change", () => { for (const b of boards()) b.draw(); });
  usePalette(store.get("palette") || "heat");
  $("palette").addEventListener("change", () => {
    usePalette($("palette").value);
    for (const b of boards()) b.draw();
  });
  $("panel-toggle").addEventListener("click", () => {
    const open = document.body.classList.toggle("panel-closed") === false;
    $("panel-toggle").setAttribute("aria-expanded", String(open));
    for (const b of boards()) b.draw();
  });
  showMode();
  await share.load();  // share.js: a game or a position the URL names, else the game being played
  document.body.dataset.ready = "true";
}

// after every deferred script (flags.js comes after this one) has run
document.addEventListener("DOMContentLoaded", main);
