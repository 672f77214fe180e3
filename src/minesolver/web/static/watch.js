// Watch: a strategy plays a game; step through it, export it as a GIF.
import { $, api, showError, pct, at, plural, bigCount, META, readRules, currentMode } from "./util.js";
import { BoardView, frontColour } from "./board.js";

// ------------------------------------------------------------------ Watch
const watch = {
  summary: null,
  steps: new Map(),
  index: 0,
  timer: null,
  socket: null,
  loading: false,
  heading: null,  // the step on its way while loading
  wanted: null,   // a step asked for meanwhile: gone to as soon as that one has come

  init() {
    this.board = new BoardView($("watch-board"), {});
    $("watch-form").addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
    $("watch-step-first").addEventListener("click", () => this.go(0));
    $("watch-back").addEventListener("click", () => this.go(this.aim() - 1));
    $("watch-next").addEventListener("click", () => this.go(this.aim() + 1));
    $("watch-step-last").addEventListener("click", () => this.go(this.summary ? this.summary.steps - 1 : 0));
    $("watch-play").addEventListener("click", () => this.toggle());
    $("watch-gif").addEventListener("click", () => this.exportGif());
    $("watch-speed").addEventListener("input", () => {
      $("watch-speed-out").textContent = $("watch-speed").value;
      if (this.timer) { this.pause(); this.resume(); }
    });
    for (const id of ["watch-prob", "watch-fronts"]) $(id).addEventListener("change", () => this.draw());
    document.addEventListener("keydown", (e) => {
      if (currentMode() !== "watch" || e.target.closest("input, select, textarea")) return;
      if (e.key === "ArrowRight") this.go(this.aim() + 1);
      else if (e.key === "ArrowLeft") this.go(this.aim() - 1);
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
      this.wanted = null;
      // nothing of the game before stays on show while the first step is on its way
      this.board.clear();
      $("watch-reason").textContent = "Loading the first step…";
      $("watch-reason").dataset.reason = "";
      $("watch-info").textContent = "";
      $("watch-fronts-list").textContent = "";
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
    // the step store of the game that asks: a late answer lands there, never in the
    // store of a game started while it was on its way
    const steps = this.steps;
    if (steps.has(i)) return steps.get(i);
    const s = this.summary;
    const data = await api("GET", `/api/watch/${s.id}/steps/${i}`);
    // big boards: keep a window of steps, not the whole game
    if (steps.size > 80) steps.delete(steps.keys().next().value);
    steps.set(i, data.step);
    return data.step;
  },

  // The step the next "back" or "next" counts from: the last one asked for, even if
  // it has not come yet (two quick presses go two steps).
  aim() { return this.wanted ?? this.heading ?? this.index; },

  // Show step i. A step asked for while another is on its way is not dropped: it is
  // remembered (the latest only) and shown once that one has come.
  async go(i) {
    const s = this.summary;
    if (!s) return false;
    const last = s.steps - 1;
    if (i < 0 || i > last) return false;
    if (this.loading) { this.wanted = i; return false; }
    this.loading = true;
    this.heading = i;
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
      this.heading = null;
      // start() clears `wanted`: whatever is in it now was asked of the game on show,
      // this one or one started meanwhile (its first step: index is 0 but not yet shown)
      const next = this.wanted;
      this.wanted = null;
      const same = this.summary && this.summary.id === s.id;
      if (next !== null && (!same || next !== this.index)) this.go(next);
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
        forced: `Forced guess at ${at(m.cell)}: mine risk ${pct(m.probability || 0)}.`,
        fifty: `Guess at ${at(m.cell)}, a mine only in a 50/50 no number will settle: mine risk ${pct(m.probability || 0)}.`,
        region: `Closed region: best first move ${at(m.cell)}, mine risk ${pct(m.probability || 0)}.`,
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

  // Play from the last step of a finished game starts it again from the first click.
  toggle() {
    if (this.timer) return this.pause();
    const s = this.summary;
    if (s && s.status === "done" && this.index === s.steps - 1) this.go(0);
    this.resume();
  },

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


export { watch };
