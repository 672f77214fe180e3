// Files and links: open and save .mine positions and MBF boards, drop any of them (or a
// replay) on the page, and links that reproduce a seeded game or a position.  Files are
// read and written by the API (minesolver.formats, minesolver.position), never here.
// The modes it opens files in are imported below.
import { $, api, showError, note } from "./util.js";
import { play } from "./play.js";
import { analyse } from "./analyse.js";
import { review } from "./review.js";

const REPLAY = /\.(avf|rmv|evf|mvf|jsonl|log)$/i;

// Hand a blob to the browser as a download named `name`.
function saveBlob(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

// The name a download response gives its file: the exact (UTF-8) one when it says it.
function downloadName(response, fallback) {
  const header = response.headers.get("content-disposition") || "";
  const exact = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (exact) {
    try { return decodeURIComponent(exact[1]); } catch (err) { /* the plain one below */ }
  }
  const plain = /filename="([^"]+)"/.exec(header);
  return plain ? plain[1] : fallback;
}

async function copyText(text) {
  if (!navigator.clipboard) return false;
  return navigator.clipboard.writeText(text).then(() => true, () => false);
}

const share = {
  init() {
    $("play-open").addEventListener("change", (e) => this.openFiles(e.target.files));
    $("analyse-open").addEventListener("change", (e) => this.openFiles(e.target.files));
    $("play-save").addEventListener("click", () => this.saveBoard());
    $("analyse-save").addEventListener("click", () => this.savePosition());
    $("play-share").addEventListener("click", () => this.copyLink($("play-share")));
    $("analyse-share").addEventListener("click", () => this.copyPositionLink());
    // drop a file anywhere on the page: a .mine position opens in Analyse, an MBF board
    // in Play, a replay or play log in Review
    document.addEventListener("dragover", (e) => {
      if (![...e.dataTransfer.types].includes("Files")) return;
      e.preventDefault();
      document.body.classList.add("dropping");
    });
    document.addEventListener("dragleave", (e) => {
      if (!e.relatedTarget) document.body.classList.remove("dropping");
    });
    document.addEventListener("drop", (e) => {
      document.body.classList.remove("dropping");
      if (!e.dataTransfer.files.length) return;
      e.preventDefault();
      this.openFiles(e.dataTransfer.files);
    });
  },

  // At load: the game or position the URL names, else the game this browser was playing.
  async load() {
    const params = new URLSearchParams(location.search);
    if (params.has("position")) {
      $("analyse-text").value = params.get("position").replace(/\//g, "\n") + "\n";
      this.forget();
      location.hash = "analyse";
      analyse.analyseText();
      return play.load(new URLSearchParams());
    }
    if (params.has("rules") && !location.hash) location.hash = "play";
    await play.load(params);
    this.forget();
  },

  // Once read, the query leaves the address bar: a reload then resumes the game played.
  forget() {
    if (location.search) history.replaceState(null, "", location.pathname + location.hash);
  },

  async openFiles(files) {
    const file = files && files[0];
    if (!file) return;
    try {
      if (REPLAY.test(file.name)) {
        const moved = new DataTransfer();
        moved.items.add(file);
        $("review-file").files = moved.files;
        location.hash = "review";
        return review.send();
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      // the name decides when it can (.mbf a board; .mine, .txt a position), else the bytes
      const named = /\.(mine|txt)$/i.test(file.name);
      if (/\.mbf$/i.test(file.name) || (!named && !looksLikeText(bytes))) {
        const name = encodeURIComponent(file.name);
        const data = await api("POST", `/api/games/board?name=${name}`, bytes, "application/octet-stream");
        location.hash = "play";
        play.hint = null;
        play.highlight = [];
        play.show(data.game);
        return;
      }
      $("analyse-text").value = new TextDecoder().decode(bytes);
      location.hash = "analyse";
      analyse.analyseText();
    } catch (err) { showError(err); }
  },

  async saveBoard() {
    const g = play.game;
    try {
      const response = await fetch(`/api/games/${g.id}/board.mbf`);
      if (!response.ok) throw new Error((await response.json()).error);
      saveBlob(await response.blob(), downloadName(response, "board.mbf"));
      note($("play-save"), "Board saved.");
    } catch (err) { showError(err); }
  },

  async savePosition() {
    try {
      const text = await analyse.text();
      saveBlob(new Blob([text], { type: "text/plain" }), "position.mine");
      note($("analyse-save"), "Saved as position.mine.");
    } catch (err) { showError(err); }
  },

  // Play's buttons follow the game: a link needs its seed (secret in a random game
  // until it is over), a board file needs the game over (the board is secret until then).
  played(g) {
    const over = g.status === "won" || g.status === "lost";
    const link = $("play-share");
    link.disabled = g.board !== null || g.seed === null;
    link.title = g.board !== null ? "A board from a file has no link: save the board instead"
      : g.seed === null ? "A random game's seed is secret until it is over: give a seed to share it now"
        : "Copy a link that deals this very game";
    link.dataset.url = link.disabled ? "" : this.gameLink(g);
    const save = $("play-save");
    const [w, h] = g.rules.split("x").map(Number);
    save.disabled = !over || w > 255 || h > 255;
    save.title = !over ? "The board is secret until the game is over"
      : w > 255 || h > 255 ? "MBF holds boards up to 255×255" : "Download the board as an MBF file";
  },

  gameLink(g) {
    const q = new URLSearchParams({ rules: g.rules, first_click: g.first_click, seed: g.seed });
    if (g.no_guess) q.set("no_guess", "1");
    return `${location.origin}/?${q}#play`;
  },

  async copyLink(button) {
    const url = button.dataset.url;
    if (!url) return;
    note(button, (await copyText(url)) ? "Link copied." : url);
  },

  async copyPositionLink() {
    try {
      const text = await analyse.text();
      const rows = text.trim().split("\n").join("/");
      const url = `${location.origin}/?position=${rows}#analyse`;
      $("analyse-share").dataset.url = url;
      note($("analyse-share"), (await copyText(url)) ? "Link copied." : url);
    } catch (err) { showError(err); }
  },
};

// .mine text is UTF-8 without control characters but tab and line ends (a BOM and a
// "30×16×99" header included); an MBF board starts with two size bytes and is binary.
function looksLikeText(bytes) {
  let text;
  try {  // streamed: a character cut by the 4096-byte window is not an error
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, 4096), { stream: true });
  } catch (err) { return false; }
  return text.length > 0 && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
}

export { share };
