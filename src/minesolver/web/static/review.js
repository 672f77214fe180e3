// Review mode: a played game (a replay file or a play log) judged click by click, from
// POST /api/review (docs/web.md).  Step through the clicks; each shows the position the
// player saw, the click, its judgement, and (from POST /api/analyse) the probabilities
// and the advice there.
import { $, api, showError, pct, at, currentMode } from "./util.js";
import { BoardView } from "./board.js";
import { BoardOverlay, adviceMarks, ADVICE_COLOUR } from "./advice.js";

const REVIEW_CLICK = "#000";

const review = {
  data: null,
  index: 0,      // which reviewed click is shown
  pending: 0,

  init() {
    const tab = document.createElement("button");
    tab.setAttribute("role", "tab");
    tab.id = "tab-review";
    tab.dataset.mode = "review";
    tab.setAttribute("aria-selected", "false");
    tab.textContent = "Review";
    $("tab-analyse").after(tab);
    const section = document.createElement("section");
    section.id = "review";
    section.className = "mode";
    section.setAttribute("role", "tabpanel");
    section.setAttribute("aria-labelledby", "tab-review");
    section.hidden = true;
    section.innerHTML = `
      <aside class="panel">
        <form id="review-form">
          <fieldset>
            <legend>Game to review</legend>
            <input type="file" id="review-file" accept=".avf,.rmv,.evf,.mvf,.jsonl,.json,.log"
              aria-label="Replay or play log">
            <button type="submit" id="review-go" class="primary">Review</button>
            <p class="small help">A replay (.avf Arbiter, .rmv Viennasweeper, .evf Metasweeper,
              .mvf Minesweeper Clone) or a log of <code>minesolver play --log</code>.</p>
          </fieldset>
        </form>
        <p id="review-status" class="status"></p>
        <dl id="review-figures" class="figures"></dl>
        <div class="transport" role="group" aria-label="Clicks">
          <button type="button" id="review-first" aria-label="First click">|◀</button>
          <button type="button" id="review-back" aria-label="Click back">◀</button>
          <button type="button" id="review-next" aria-label="Click forward">▶</button>
          <button type="button" id="review-last" aria-label="Last click">▶|</button>
        </div>
        <p id="review-counter" class="small"></p>
        <p id="review-judgement" class="judgement"></p>
        <div class="keys"><span class="key-click">click</span><span class="key-advice">best move</span>
          <span class="key-pair">50/50 pair</span></div>
        <fieldset>
          <legend>Guesses</legend>
          <ol id="review-guesses" class="review-list"></ol>
        </fieldset>
        <div class="legend"><span>safe</span><span class="scale"></span><span>mine</span></div>
      </aside>
      <div class="board-wrap"><canvas id="review-board" aria-label="Reviewed board"></canvas></div>`;
    document.querySelector("main").append(section);
    this.board = new BoardView($("review-board"));
    this.overlay = new BoardOverlay(this.board);
    $("review-form").addEventListener("submit", (e) => { e.preventDefault(); this.send(); });
    $("review-first").addEventListener("click", () => this.go(0));
    $("review-back").addEventListener("click", () => this.go(this.index - 1));
    $("review-next").addEventListener("click", () => this.go(this.index + 1));
    $("review-last").addEventListener("click", () => this.go(this.data ? this.data.clicks.length - 1 : 0));
    $("zoom").addEventListener("change", () => this.board.draw());
    document.addEventListener("keydown", (e) => {
      if (currentMode() !== "review" || !this.data || e.target.closest("input, select, textarea")) return;
      if (e.key === "ArrowRight") this.go(this.index + 1);
      if (e.key === "ArrowLeft") this.go(this.index - 1);
    });
  },

  shown() { this.board.draw(); },

  async send() {
    const file = $("review-file").files[0];
    if (!file) return showError(new Error("Choose a replay or log file first."));
    $("review-status").textContent = "Reviewing…";
    $("review-status").dataset.status = "";
    try {
      const body = await file.arrayBuffer();
      const name = encodeURIComponent(file.name);
      const data = await api("POST", `/api/review?name=${name}`, body, "application/octet-stream");
      this.show(data.review);
    } catch (err) {
      // the last review is not left on show under the name of a file that failed
      this.clear();
      $("review-status").textContent = err.message;
      $("review-status").dataset.status = "error";
      showError(err);
    }
  },

  clear() {
    this.data = null;
    this.pending++;  // a late analysis of the old review is dropped
    for (const id of ["review-figures", "review-guesses", "review-counter", "review-judgement"]) {
      $(id).textContent = "";
    }
    this.overlay.set(null);
    this.board.clear();
  },

  show(r) {
    this.data = r;
    const who = r.player ? ` by ${r.player}` : "";
    $("review-status").textContent = `${r.width}×${r.height}, ${r.mine_count} mines${who}: ` +
      `${r.outcome} in ${r.seconds.toFixed(2)} s` + (r.time_note ? ` (note: ${r.time_note})` : "");
    $("review-status").dataset.status = r.outcome;
    const ratio = (x, d = 3) => (x === null ? "–" : x.toFixed(d));
    const rows = [
      ["3BV (solved)", `${r.bbbv} (${r.bbbv_solved})`], ["3BV/s", ratio(r.bbbv_per_second)],
      ["clicks (left, right, chords)", `${r.click_counts.total} (${r.click_counts.left}, ` +
        `${r.click_counts.right}, ${r.click_counts.chords})`],
      ["IOE · efficiency", `${ratio(r.ioe)} · ${r.efficiency === null ? "–" : r.efficiency.toFixed(1) + "%"}`],
      ["ZiNi · HZiNi", `${r.zini} · ${r.hzini}`], ["openings · islands", `${r.openings} · ${r.islands}`],
      ["guesses (needless)", `${r.guesses} (${r.needless_guesses})`],
      ["chance to survive them", pct(r.survival)],
    ];
    $("review-figures").innerHTML = rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
    const list = $("review-guesses");
    list.innerHTML = "";
    r.clicks.forEach((c, i) => {
      if (!c.guess) return;
      const item = document.createElement("li");
      item.textContent = `click ${c.index + 1} ${at(c.cell)}: ${pct(c.probability)}` +
        (c.needless ? ", needless" : "") + (c.exploded ? ", hit a mine" : "");
      if (c.needless) item.classList.add("needless");
      if (c.exploded) item.classList.add("exploded");
      item.dataset.step = String(i);
      item.addEventListener("click", () => this.go(i));
      list.append(item);
    });
    if (!list.children.length) list.innerHTML = "<li>none: every click was safe</li>";
    this.go(0);
  },

  go(i) {
    const r = this.data;
    if (!r) return;
    this.index = Math.max(0, Math.min(r.clicks.length - 1, i));
    const c = r.clicks[this.index];
    $("review-counter").textContent = `click ${this.index + 1} of ${r.clicks.length} reviewed` +
      (c.time !== null ? ` · ${c.time.toFixed(2)} s` : "");
    const judgement = $("review-judgement");
    judgement.textContent = c.text;
    judgement.dataset.kind = c.exploded ? "exploded" : c.needless ? "needless" : c.guess ? "guess" : c.first ? "first" : "safe";
    for (const item of $("review-guesses").children) {
      item.setAttribute("aria-current", String(item.dataset.step === String(this.index)));
    }
    const position = { width: r.width, height: r.height, mines: r.mine_count, rows: c.position };
    this.board.set({ position, showProb: true, analysis: null });
    this.mark(c, null);
    this.analyse(c, position);
  },

  mark(c, extra) {
    const marks = extra ? adviceMarks(extra.position, extra, false) : { rings: [], links: [] };
    marks.width = this.data.width;
    marks.height = this.data.height;
    if (!c.advice) marks.rings = marks.rings.filter((ring) => ring.colour !== ADVICE_COLOUR);
    marks.rings.push({ cell: c.cell, colour: REVIEW_CLICK });
    this.overlay.set(marks);
  },

  // The probabilities and advice at this click, flags left out as the review does.
  async analyse(c, position) {
    if (c.first) return;
    const ticket = ++this.pending;
    const rows = position.rows.map((row) => row.replace(/F/g, "H"));
    try {
      const data = await api("POST", "/api/analyse", { position: { ...position, rows } });
      if (ticket !== this.pending) return;
      this.board.set({ position, showProb: true, analysis: data.analysis });
      this.mark(c, data);
    } catch (err) { if (ticket === this.pending) showError(err); }
  },
};

export { review };
