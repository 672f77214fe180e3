// The page: five modes, each drawn only from the JSON the API serves (docs/web.md).
// No framework, no build step: ES modules, one a mode, this one ties them together.
import { $, api, showError, store, META, rulesWidget, currentMode } from "./util.js";
import { PALETTE } from "./board.js";
import { play } from "./play.js";
import { watch } from "./watch.js";
import { analyse } from "./analyse.js";
import { flags } from "./flags.js";
import { advice } from "./advice.js";
import { review } from "./review.js";
import { share } from "./share.js";

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
    Object.assign(META, await api("GET", "/api"));
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

// the page's objects, for the browser tests and the console
Object.assign(window, { play, watch, analyse, flags, advice, review, share });
main();  // a module runs once the document is parsed

