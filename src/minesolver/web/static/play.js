// Play: a game against the board, with hints and a solver on call; the game being
// played survives a reload and a second tab (docs/web.md).
import { $, api, showError, at, plural, store, bigCount, META, readRules } from "./util.js";
import { BoardView } from "./board.js";
import { share } from "./share.js";

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


export { play };
