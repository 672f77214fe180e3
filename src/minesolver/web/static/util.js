// What every mode uses: the API, errors and notes, words and numbers, what the browser
// remembers, the rules form, which mode is shown.
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

// An answer that went through: the banner of the request it replaces goes too.
function clearError() {
  clearTimeout(errorTimer);
  $("error").hidden = true;
}

// A chance to one decimal, but never a possible event as 0% or a risky one as 100%
// (as the server's texts: minesolver.errors.percent).
function pct(p) {
  const shown = (d) => (p * 100).toFixed(d);
  const certain = (d) => shown(d) === (0).toFixed(d) || shown(d) === (100).toFixed(d);
  let digits = 1;
  while (p > 0 && p < 1 && digits < 12 && certain(digits)) digits++;
  return `${shown(digits)}%`;
}
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
// What GET /api serves (presets, strategies, palette, limits): filled in by main.js.
const META = {};

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

function currentMode() {
  const mode = location.hash.slice(1);
  return ["play", "watch", "analyse", "review", "flags"].includes(mode) ? mode : "play";
}

export { $, api, showError, clearError, pct, plural, note, store, at, bigCount, META, rulesWidget, readRules, currentMode };
