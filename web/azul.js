// The page is the board: MicroPython (webassembly) runs the device's own firmware files,
// and this script wires them to a canvas (the OLED), dots (the LEDs), buttons and keys, and
// localStorage (the flash). web/webmain.py is the composition root, web/webhal.py the HAL.
import { loadMicroPython } from "./micropython.mjs";

const KEYS = { ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT",
  Enter: "OK", Escape: "BACK", Backspace: "BACK" };
const LIT = 0xffffeee6;  // ABGR: the OLED's white-blue (230, 238, 255)
const DARK = 0xff000000;

const canvas = document.getElementById("oled");
const ctx = canvas.getContext("2d");
const image = ctx.createImageData(canvas.width, canvas.height);
const pixels = new Uint32Array(image.data.buffer);
const ledBox = document.getElementById("leds");
const status = document.getElementById("status");
const timings = { firstFrame: null, keys: [] };  // ms since navigation; ms per drawn key event
let frames = 0;
let dev = null;

// ---- the page's own words, in the device's language (words.json: the catalogue's PAGE) ----
const LANGUAGES = ["en", "zh-Hant", "ja"];  // as the device's (firmware/app/lang.py)
let words = {};  // {language: {English: translation}}
let language = "en";

// The browser's language as one of the device's: the device speaks it until one is chosen
// in its Settings (Chinese in any script reads the Traditional tables: the rulebooks').
function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const t = tag.toLowerCase();
    if (t.startsWith("zh")) return "zh-Hant";
    if (t.startsWith("ja")) return "ja";
    if (t.startsWith("en")) return "en";
  }
  return "en";
}

function tr(text) { return (words[language] || {})[text] || text; }

// A format's %s and %d in turn (the catalogue's texts are Python formats).
function format(text, ...args) { return tr(text).replace(/%[sd]/g, () => String(args.shift())); }

function translatePage(code) {
  language = LANGUAGES.includes(code) ? code : "en";
  document.documentElement.lang = language;
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = tr(el.dataset.text);
  for (const el of document.querySelectorAll("[data-label]")) el.setAttribute("aria-label", tr(el.dataset.label));
}

function followDevice() {  // after a press: Settings > Language may have changed it
  const code = dev ? dev.language() : language;
  if (code !== language) translatePage(code);
}

function say(text) { status.textContent = text; }

function bytesOfHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

function hexOfBytes(bytes) {
  let hex = "";
  for (const b of bytes) hex += (b < 16 ? "0" : "") + b.toString(16);
  return hex;
}

// ---- what the firmware's HAL calls (webhal.py) ----
function drawDisplay(hex) {
  const w = canvas.width, pages = canvas.height / 8;
  for (let page = 0; page < pages; page++) {
    for (let x = 0; x < w; x++) {
      const byte = parseInt(hex.substr(2 * (page * w + x), 2), 16);
      for (let bit = 0; bit < 8; bit++) pixels[(page * 8 + bit) * w + x] = byte >> bit & 1 ? LIT : DARK;
    }
  }
  ctx.putImageData(image, 0, 0);
  frames++;
  if (timings.firstFrame === null) timings.firstFrame = performance.now();
}

function drawLeds(hex) {
  const n = hex.length / 6;
  if (ledBox.children.length !== n) {
    ledBox.replaceChildren(...Array.from({ length: n }, () => Object.assign(document.createElement("div"), { className: "led" })));
  }
  for (let i = 0; i < n; i++) {
    const c = hex.substr(6 * i, 6);
    ledBox.children[i].style.background = c === "000000" ? "" : "#" + c;
  }
}

const host = {
  get: (key) => localStorage.getItem(key),
  set: (key, value) => {
    try { localStorage.setItem(key, value); return ""; } catch (e) { return e.name || String(e); }
  },
  remove: (key) => { localStorage.removeItem(key); },
  keys: () => Object.keys(localStorage).join("\n"),
  display: drawDisplay,
  leds: drawLeds,
};

// ---- input: every press and release is one turn of the device loop, at once ----
function call(fn) {
  try { return fn(); } catch (e) { console.error(e); say(format("error: %s", e.message)); }
}

function timed(event, fn) {
  const before = frames;
  call(fn);
  if (frames !== before) {
    timings.keys.push(performance.now() - event.timeStamp);
    followDevice();
  }
}

function button(name, down, event) {
  if (dev) timed(event, () => dev.button(name, down));
}

const held = new Set();  // keyboard keys down, released together when the page loses focus
addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const name = KEYS[e.key];
  if (name) {
    e.preventDefault();
    if (!e.repeat && !held.has(e.key)) { held.add(e.key); button(name, true, e); }
  } else if (e.key === "u" || e.key === "U") {
    if (dev && !e.repeat) timed(e, () => dev.hold_back());
  }
});
addEventListener("keyup", (e) => {
  if (held.delete(e.key)) button(KEYS[e.key], false, e);
});
addEventListener("blur", () => {
  for (const key of held) button(KEYS[key], false, new Event("blur"));
  held.clear();
});

for (const b of document.querySelectorAll("#pad button")) {
  const name = b.dataset.key;
  const up = (e) => {
    if (!b.classList.contains("down")) return;
    b.classList.remove("down");
    button(name, false, e);
  };
  b.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    b.setPointerCapture(e.pointerId);
    b.classList.add("down");
    button(name, true, e);
  });
  b.addEventListener("pointerup", up);
  b.addEventListener("pointercancel", up);
  b.addEventListener("lostpointercapture", up);
  b.addEventListener("contextmenu", (e) => e.preventDefault());  // a long press is BACK's undo
}

function loop() {
  if (dev) call(() => dev.frame());
  requestAnimationFrame(loop);
}

// ---- files: download the record and the history, open a record ----
function stamp() {
  const d = new Date(), p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}`;
}

function download(name, bytes, type) {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  for (let k = 0; k < 8; k++) n = n & 1 ? 0xedb88320 ^ (n >>> 1) : n >>> 1;
  return n >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// A zip archive of stored (uncompressed) files: what `unzip` and every OS open.
function zip(files) {
  const enc = new TextEncoder(), parts = [], central = [];
  const d = new Date();
  const time = d.getHours() << 11 | d.getMinutes() << 5 | d.getSeconds() >> 1;
  const date = (d.getFullYear() - 1980) << 9 | (d.getMonth() + 1) << 5 | d.getDate();
  let offset = 0;
  for (const f of files) {
    const name = enc.encode(f.name), crc = crc32(f.bytes), size = f.bytes.length;
    const head = (sig, len) => {
      const v = new DataView(new ArrayBuffer(len));
      v.setUint32(0, sig, true);
      return v;
    };
    const local = head(0x04034b50, 30);
    [[4, 20], [6, 0x800], [8, 0], [10, time], [12, date], [26, name.length], [28, 0]]
      .forEach(([at, v]) => local.setUint16(at, v, true));
    [[14, crc], [18, size], [22, size]].forEach(([at, v]) => local.setUint32(at, v, true));
    const dir = head(0x02014b50, 46);
    [[4, 20], [6, 20], [8, 0x800], [10, 0], [12, time], [14, date], [28, name.length], [30, 0], [32, 0], [34, 0], [36, 0]]
      .forEach(([at, v]) => dir.setUint16(at, v, true));
    [[16, crc], [20, size], [24, size], [38, 0], [42, offset]].forEach(([at, v]) => dir.setUint32(at, v, true));
    parts.push(local, name, f.bytes);
    central.push(dir, name);
    offset += 30 + name.length + size;
  }
  const size = central.reduce((n, p) => n + p.byteLength, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, end]);
}

function recordBytes() {
  return dev ? bytesOfHex(dev.record_hex()) : new Uint8Array(0);
}

document.getElementById("download-record").addEventListener("click", () => call(() => {
  const bytes = recordBytes();
  if (!bytes.length) return say(tr("no game yet: start one with New game"));
  download(`azul-companion-${stamp()}.jsonl`, bytes, "application/jsonl");
  say(tr("record downloaded"));
}));

document.getElementById("download-history").addEventListener("click", () => call(() => {
  // the layout `azul-companion pull` writes: current.jsonl and history/NNNNNN.jsonl
  const paths = dev.backup_paths().split("\n").filter(Boolean);
  if (!paths.length) return say(tr("nothing stored yet"));
  const files = paths.map((p) => ({ name: p.replace(/^data\//, ""), bytes: bytesOfHex(dev.file_hex(p)) }));
  download(`azul-companion-history-${stamp()}.zip`, zip(files), "application/zip");
  say(format(files.length > 1 ? "history downloaded (%d files)" : "history downloaded (%d file)", files.length));
}));

// a record is some tens of KB: a bigger file is no record, and would not fit the site's storage
const MAX_RECORD = 1 << 20;

document.getElementById("open-record").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file || !dev) return;
  if (file.size > MAX_RECORD) {
    return say(format("%s not opened: %d KB, a record is under %d KB", file.name, Math.ceil(file.size / 1024), MAX_RECORD >> 10));
  }
  const hex = hexOfBytes(new Uint8Array(await file.arrayBuffer()));
  call(() => {
    const problem = dev.open_record(file.name, hex);
    say(problem || format("opened %s", file.name));
  });
});

// ---- start: the runtime, the firmware files into its file system, the device ----
// The largest whole number of device pixels per OLED pixel that fits: every pixel is a
// square block of the same size, as crisp as the OLED on any phone.
function fitDisplay() {
  const dpr = devicePixelRatio || 1;
  const room = Math.min(document.querySelector("main").clientWidth - 40, 4 * canvas.width);
  const scale = Math.max(1, Math.floor(room * dpr / canvas.width));
  canvas.style.width = canvas.width * scale / dpr + "px";
  canvas.style.height = canvas.height * scale / dpr + "px";
}

// ---- one writer: the device runs in one tab at a time (a Web Lock held while the page lives) ----
const LOCK = "azul-companion-device";
const busy = document.getElementById("busy");

function holdDevice(steal) {
  // true once this page holds the device, false while another tab or window does
  if (!navigator.locks) return Promise.resolve(true);  // (no Web Locks: one writer not enforced)
  return new Promise((resolve) => {
    navigator.locks.request(LOCK, steal ? { steal: true } : { ifAvailable: true }, (lock) => {
      resolve(lock !== null);
      return lock && new Promise(() => {});  // held until the page closes
    }).catch(() => taken());  // another page took it over (steal)
  });
}

function taken() {
  dev = null;  // no key, no frame: the other page writes the games now
  busy.hidden = false;
  say("");
}

document.getElementById("take-over").addEventListener("click", () => {
  sessionStorage.setItem("take-over", "1");  // the page, loaded again, takes the device over
  location.reload();
});

async function start() {
  fitDisplay();
  addEventListener("resize", fitDisplay);
  words = await fetch("words.json").then((r) => r.json()).catch(() => ({}));
  translatePage(browserLanguage());
  say(tr("starting MicroPython…"));
  const [mp, files] = await Promise.all([
    loadMicroPython({ stdout: (s) => console.log(s), stderr: (s) => console.error(s) }),
    fetch("firmware.json").then((r) => r.json()),
  ]);
  for (const [path, base64] of Object.entries(files)) {  // compiled .mpy files, as on a board
    mp.FS.mkdirTree("/fw/" + path.slice(0, path.lastIndexOf("/") + 1));
    mp.FS.writeFile("/fw/" + path, Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  }
  mp.runPython("import sys\nsys.path.insert(0, '/fw')");
  const steal = sessionStorage.getItem("take-over") === "1";
  sessionStorage.removeItem("take-over");
  if (!await holdDevice(steal)) return taken();
  busy.hidden = true;
  dev = mp.pyimport("webmain").Device(host, browserLanguage());
  translatePage(dev.language());
  ledBox.className = dev.led_layout() === "matrix5x5" ? "matrix" : "strip";
  ledBox.style.gridTemplateColumns = ledBox.className === "matrix" ? "repeat(5, 16px)" : "";
  say("");
  requestAnimationFrame(loop);
  navigator.storage?.persist?.();  // ask the browser never to evict the games
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch((e) => console.warn(e));
}

window.azulCompanion = {
  ready: start().catch((e) => { console.error(e); say(format("could not start: %s", e.message)); throw e; }),
  record: () => new TextDecoder().decode(recordBytes()),
  screenText: () => (dev ? dev.screen_text().split("\n") : []),
  timings,
};
