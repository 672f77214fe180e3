// Flags: you against an AI in Minesweeper Flags, drawn only from the JSON of
// /api/flags (docs/web.md).  The server plays the AI's moves before it answers (a long
// run of them in parts, the rest asked for by goOn); the page then shows the turns of
// the answer one at a time, rebuilding each intermediate board from the final one
// (numbers never change once shown).
import { $, api, showError, META } from "./util.js";
import { BoardView } from "./board.js";

const FLAG_COLOURS = [
  { fill: "#c9d8ff", flag: "#1046c8" },  // seat 0: you
  { fill: "#ffd3c4", flag: "#c8361a" },  // seat 1: the AI
];
const BOMB_HALF = 2;  // the bomb opens the 5x5 square centred on the cell
const LOG_TURNS = 12;  // the last moves listed

const flags = {
  game: null,       // the game JSON as last served
  view: null,       // {board, claimed, pending}: what is drawn; behind `game` while animating
  recent: [],       // the last turns shown, oldest first: the log
  busy: false,      // a request or an animation is under way
  ticket: 0,        // bumped by each new game, so stale answers are dropped
  bomb: false,      // the Bomb toggle
  hover: null,
  highlight: [],
  square: null,
  stepMs: 450,      // pause between the turns shown
  frame: 0,

  init() {
    this.board = new BoardView($("flags-board"), {
      down: (r, c, button) => { if (button === 0) this.click(r, c); },
      hover: (cell) => this.hovered(cell),
    });
    $("flags-ai").innerHTML = META.flags_players
      .map((p) => `<option value="${p.name}" title="${p.summary}">${p.name}</option>`).join("");
    $("flags-ai").value = "hard";
    for (const id of ["flags-w", "flags-h"]) $(id).max = String(META.limits.max_side);
    $("flags-form").addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
    $("flags-bomb").addEventListener("click", () => this.toggleBomb());
  },

  shown() {
    if (!this.game && !this.busy) this.start();
    else this.board.draw();
  },

  async start() {
    const ticket = ++this.ticket;
    const ai = $("flags-ai").value;
    const body = {
      rules: `${$("flags-w").value}x${$("flags-h").value}x${$("flags-m").value}`,
      ai,
      first: $("flags-first").value,
      seed: $("flags-seed").value.trim() || null,
    };
    this.bomb = false;
    if (body.first === "ai") this.setStatus(`${ai} is thinking…`, "ai");
    await this.held(ticket, async () => {
      const data = await api("POST", "/api/flags", body);
      if (ticket !== this.ticket) return;
      const g = data.game;
      const blank = Array.from({ length: g.height }, () => "H".repeat(g.width));
      this.highlight = [];
      this.square = null;
      this.recent = [];
      await this.animate(ticket, { board: blank, claimed: [[], []] }, data);
    });
  },

  async click(r, c) {
    const g = this.game;
    if (!g || this.busy || g.over) return;
    const ticket = this.ticket;
    // the AI's run stopped part way (a request for the rest failed): a click goes on
    if (g.turn !== g.you) return this.held(ticket, async () => {});
    const kind = this.bomb ? "bomb" : "open";
    if (kind === "open" && g.board[r][c] !== "H") return;
    this.bomb = false;
    this.highlight = [[r, c]];
    this.square = kind === "bomb" ? squareAround(r, c, g.width, g.height) : null;
    this.setStatus(`${g.ai} is thinking…`, "ai");
    await this.held(ticket, async () => {
      this.draw();
      const data = await api("POST", `/api/flags/${g.id}/moves`, { kind, row: r, col: c });
      if (ticket !== this.ticket) return;
      await this.animate(ticket, this.view, data);
    });
  },

  // Run `work` (a request and the showing of its answer) with the controls held, then
  // the rest of the AI's run, then the game as served; a failure is shown.
  async held(ticket, work) {
    this.busy = true;
    this.updateControls();
    try {
      await work();
      if (ticket === this.ticket && this.game) await this.goOn(ticket);
    } catch (err) {
      showError(err);
    } finally {
      if (ticket === this.ticket) {
        this.busy = false;
        this.show();
      }
    }
  },

  // A long run of the AI's (mine after mine on a crowded board) comes in parts: the
  // server answers after some seconds of it, and is asked for the rest here.
  async goOn(ticket) {
    while (ticket === this.ticket && !this.game.over && this.game.turn !== this.game.you) {
      this.setStatus(`${this.game.ai} is still thinking… (${this.game.turns} turns so far)`, "ai");
      const data = await api("POST", `/api/flags/${this.game.id}/ai`, {});
      if (ticket !== this.ticket) return;
      await this.animate(ticket, this.view, data);
    }
  },

  // Show the turns of an answer one at a time (quicker when there are many), then the
  // game as served.
  async animate(ticket, before, data) {
    const g = data.game;
    const turns = [data.move, ...data.ai_moves].filter(Boolean);
    const pause = Math.min(this.stepMs, Math.max(20, (10 * this.stepMs) / turns.length));
    this.game = g;
    const rows = before.board.map((row) => row.split(""));
    const claimed = [[...before.claimed[0]], [...before.claimed[1]]];
    for (const [k, turn] of turns.entries()) {
      if (k > 0 || !data.move) await new Promise((done) => setTimeout(done, pause));
      if (ticket !== this.ticket) return;
      for (const [r, c] of turn.opened) rows[r][c] = g.board[r][c];
      for (const [r, c] of turn.claimed) {
        rows[r][c] = "F";
        claimed[turn.player].push([r, c]);
      }
      this.view = { board: rows.map((row) => row.join("")), claimed, pending: turns.length - k - 1 };
      this.recent = [...this.recent, turn].slice(-LOG_TURNS);
      this.highlight = [turn.cell];
      this.square = turn.kind === "bomb" ? squareAround(...turn.cell, g.width, g.height) : null;
      const mine = turn.player === g.you;
      this.setStatus(`${mine ? "You" : g.ai}: ${turnText(turn)}`, mine ? "you" : "ai");
      this.showScores();
      this.draw();
    }
    // the end of the answer: every turn of it marked
    this.highlight = turns.map((t) => t.cell);
    const bomb = turns.find((t) => t.kind === "bomb");
    this.square = bomb ? squareAround(...bomb.cell, g.width, g.height) : null;
  },

  // The game as served, when no animation is running.
  show() {
    const g = this.game;
    if (!g) return this.updateControls();
    this.view = { board: g.board, claimed: g.claimed, pending: 0 };
    this.recent = g.history.slice(-LOG_TURNS);
    const [you, ai] = g.scores;
    if (g.over) {
      const seed = g.seed ? ` Seed ${g.seed}.` : "";
      if (g.draw) this.setStatus(`A draw, ${you}–${ai}.${seed}`, "draw");
      else if (g.winner === g.you) this.setStatus(`You won, ${you}–${ai}!${seed}`, "won");
      else this.setStatus(`${g.ai} won, ${ai}–${you}.${seed}`, "lost");
    } else if (g.turn === g.you) {
      const bomb = g.can_bomb[g.you] ? " You may drop your bomb." : "";
      this.setStatus(`Your move.${bomb}`, "you");
    } else {
      this.setStatus(`${g.ai} stopped part way: click the board to let it go on.`, "ai");
    }
    this.showScores();
    this.updateControls();
    this.draw();
  },

  showScores() {
    const g = this.game;
    const v = this.view;
    $("flags-ai-name").textContent = g.ai;
    const scores = [v.claimed[0].length, v.claimed[1].length];
    $("flags-score-0").textContent = String(scores[0]);
    $("flags-score-1").textContent = String(scores[1]);
    const left = g.mines - scores[0] - scores[1];
    $("flags-info").textContent = `${g.rules.replace(/x/g, "×")} · ${left} of ${g.mines} mines ` +
      `left · ${g.to_win} to win`;
    const used = (seat) => (g.bombs_used[seat] ? "used" : "not used");
    $("flags-bombs").textContent = `Bombs: you ${used(0)}, ${g.ai} ${used(1)}.`;
    this.showLog();
  },

  // The last moves shown, newest first (an answer of hundreds of turns is shown one by
  // one: the game's history, its last 50, would not hold the ones on the board yet).
  showLog() {
    const g = this.game;
    const list = $("flags-log");
    list.textContent = "";
    for (const turn of [...this.recent].reverse()) {
      const item = document.createElement("li");
      item.className = `p${turn.player}`;
      const who = document.createElement("b");
      who.textContent = turn.player === g.you ? "You" : g.ai;
      item.append(who, ` ${turnText(turn)}`);
      list.append(item);
    }
  },

  setStatus(text, state) {
    const status = $("flags-status");
    status.textContent = text;
    status.dataset.status = state;
  },

  updateControls() {
    const g = this.game;
    const button = $("flags-bomb");
    const allowed = Boolean(g && !this.busy && !g.over && g.turn === g.you && g.can_bomb[g.you]);
    if (!allowed) this.bomb = false;
    button.disabled = !allowed;
    button.setAttribute("aria-pressed", String(this.bomb));
    button.textContent = this.bomb ? "Bomb (5×5): click a cell" : "Bomb (5×5)";
    $("flags-board").classList.toggle("bombing", this.bomb);
  },

  toggleBomb() {
    this.bomb = !this.bomb;
    this.updateControls();
    this.draw();
  },

  hovered(cell) {
    this.hover = cell;
    if (!this.bomb || this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  },

  draw() {
    const g = this.game;
    const v = this.view;
    if (!g || !v) return;
    const square = this.bomb && this.hover
      ? squareAround(this.hover[0], this.hover[1], g.width, g.height) : this.square;
    this.board.set({
      position: { width: g.width, height: g.height, mines: g.mines, rows: v.board },
      claimed: v.claimed,
      claimColours: FLAG_COLOURS,
      claimNames: g.players,
      highlight: this.highlight,
      square,
      mines: g.over && !v.pending ? g.mine_cells : null,
    });
  },
};

// The bomb's square around (r, c), clipped at the edges: [r0, c0, r1, c1].
function squareAround(r, c, width, height) {
  return [Math.max(0, r - BOMB_HALF), Math.max(0, c - BOMB_HALF),
    Math.min(height - 1, r + BOMB_HALF), Math.min(width - 1, c + BOMB_HALF)];
}

// "open (3, 4): certain mine at 100.0% → mine" for the log and the status line.
function turnText(turn) {
  const mines = turn.claimed.length;
  const found = mines > 1 ? `${mines} mines` : mines ? "mine" : turn.kind === "bomb" ? "no mine" : "safe";
  return `${turn.text} → ${found}`;
}

export { flags };
