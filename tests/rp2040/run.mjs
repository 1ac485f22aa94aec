// The project's copy of ../shared/cpsim/run.mjs (tests/cpsim.py runs it; it runs MicroPython's
// Pico firmware too, --uf2). Changed here:
//  * a timer alarm whose target is the current microsecond fires now, as on the chip (rp2040js
//    took the fraction of a microsecond already past for a target in the past and scheduled
//    it 2**32 us later);
//  * WFI ends at once when an enabled interrupt is already pending, masked by PRIMASK or not,
//    as on the chip (rp2040js woke the core only for an interrupt that became pending while it
//    waited: CircuitPython, whose idle disables interrupts, checks for work, then runs WFI, met
//    its 1 ms tick (on while keypad scans) between the two now and then and slept for good,
//    the emulated clock stopped).
// Flash write-back per operation (--flash-sync op, the default with --flash-img): see "per operation" below.
// run.mjs - boot an RP2040 firmware (.uf2) on rp2040js (npm, v1.4.1) and expose its USB-CDC
// REPL on a loopback TCP port. cpsim: a copy of picosim whose default firmware.uf2 is
// CircuitPython 10.2.1 for the Adafruit Feather RP2040 (MicroPython still runs: --uf2).
//
// node run.mjs [--uf2 FILE] [--port 2217] [--ctl-port PORT+1] [--bootrom bootrom-b1.bin]
//              [--flash-img FILE] [--flash-mb N] [--fs-start ADDR] [--pins-high 7,8,9]
//              [--marker-pin 22] [--i2c-stub [--i2c-pins 4,5]]
//              [--echo] [--quiet] [--zlp-poll] [--fast-idle] [--i2c-no-timing]
//
// Added in cpsim for CircuitPython:
//  * QSPI_SS reads high (BOOTSEL released): CircuitPython samples it at boot and otherwise
//    waits forever for the button's release.
//  * JEDEC RDID (0x9F) answered as an 8 MB Winbond part (--flash-mb), so CircuitPython sizes
//    CIRCUITPY as on the real Feather (7 MB FAT at 0x100000..0x800000).
//  * flash layout follows the firmware: a UF2 with "Adafruit CircuitPython" in it gets 8 MB
//    and --flash-img keeps 0xFF000.. (nvm + CIRCUITPY); MicroPython keeps 2 MB / 0xA0000.
//  * the I2C stub keeps an SSD1306's GDDRAM and state: ctl `screen` (text), `screen-json`,
//    ctl.py `screen-png FILE`.
//  * ctl `reset` (the RESET button: chip rebuilt, flash kept) and `regs` (PC/LR/SP, stack).
//
// What is added on top of the upstream demo (wokwi/rp2040js demo/micropython-run.ts):
//  * flash writes: rp2040js's SSI does not emulate NOR program/erase, so the ROM entry
//    points flash_range_erase ('RE') / flash_range_program ('RP') are replaced by BKPT
//    traps handled here -> MicroPython's littlefs on internal flash works (fs cp etc).
//  * USB OUT endpoint is held while the host has nothing to send (upstream answers
//    every armed buffer with a zero-length packet -> USB IRQ every ~10 us emulated,
//    which eats 40-60 % of the CPU). --zlp-poll restores upstream behaviour.
//  * while the core sleeps (WFI/WFE) emulated time advances no faster than wall time
//    (upstream jumps to the next alarm, so device-side timeouts such as mpremote
//    mount's 1 s poll expire at once). Busy code still runs flat out. --fast-idle = upstream.
//  * watchdog reset (machine.reset(), `mpremote reset`) rebuilds the chip, keeping flash.
//  * control port (ctl-port, loopback): "stats" | "markers" | "clear" | "quit" |
//    "pin N 0|1" (drive an input pin: a button to GND reads 0 while pressed) (see ctl.py)
//  * --pins-high 10,11,...: input pins held high from power-on (released buttons);
//    every other input pin reads 0, so on this project's Pico board file all six
//    buttons read "pressed" unless listed here (safe mode: the app does not start).
//  * marker pin: each level change of GP<marker-pin> is logged with core.cycles,
//    emulated ns (what ticks_us is derived from) and wall ms.
//  * --flash-img FILE: take the filesystem area (0xA0000..2 MB) from FILE if it exists,
//    write the 2 MB flash back to FILE (debounced) after writes and at exit.
//  * --i2c-stub: I2C0/I2C1 ACK address 0x3C (SSD1306), count bytes, take SCL bit time
//    per bit (--i2c-no-timing: instant, as upstream); GP4/GP5 (--i2c-pins SDA,SCL) also
//    get an open-drain bus model so I2C.scan() (SoftI2C zero-length write) sees 0x3C.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RP2040, USBCDC, ConsoleLogger, LogLevel, I2CMode } from 'rp2040js';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
function opt(name, def) {
  const i = argv.indexOf('--' + name);
  if (i < 0) return def;
  const v = argv[i + 1];
  return v === undefined || v.startsWith('--') ? true : v;
}
const UF2 = opt('uf2', process.env.PICO_UF2 || path.join(here, 'firmware.uf2'));  // -> CircuitPython 10.2.1 build
const PORT = Number(opt('port', 2217));
const CTL_PORT = Number(opt('ctl-port', PORT + 1));
const BOOTROM = opt('bootrom', path.join(here, 'bootrom-b1.bin'));
const FLASH_IMG = opt('flash-img', null);
const MARKER_PIN = Number(opt('marker-pin', 22));
const I2C_STUB = !!opt('i2c-stub', false);
const I2C_PINS = String(opt('i2c-pins', '4,5')).split(',').map(Number);
// input pins driven high at every chip build (buttons to GND with pull-ups: released = 1)
const PINS_HIGH = String(opt('pins-high', '')).split(',').filter(Boolean).map(Number);
const pinLevels = new Map(PINS_HIGH.map((n) => [n, true]));
const I2C_TIMING = !opt('i2c-no-timing', false);
const FIX_NACK = !opt('i2c-no-nack-fix', false);
const ZLP_POLL = !!opt('zlp-poll', false);
const FAST_IDLE = !!opt('fast-idle', false);
const ECHO = !!opt('echo', false);
const QUIET = !!opt('quiet', false);
const HOST = '127.0.0.1';
const log = (...a) => { if (!QUIET) console.error('[picosim]', ...a); };

const FLASH_BASE = 0x10000000;
// The firmware decides the flash layout. MicroPython RPI_PICO: 2 MB, littlefs from 0xA0000.
// CircuitPython (rp2040): firmware below 1020 KB, nvm 0xFF000-0x100000, the CIRCUITPY FAT
// from 0x100000 to the end of the flash, whose size it reads from the chip (JEDEC RDID,
// answered below); the Feather RP2040 has 8 MB. --flash-mb / --fs-start override.
const UF2_BUF = fs.readFileSync(UF2);
const IS_CIRCUITPY = UF2_BUF.includes(Buffer.from('Adafruit CircuitPython'));
const FLASH_MB = Number(opt('flash-mb', IS_CIRCUITPY ? 8 : 2));
const FLASH_SIZE = FLASH_MB * 1024 * 1024;
const FS_START = Number(opt('fs-start', IS_CIRCUITPY ? 0xff000 : 0xa0000));
if (!(FLASH_MB >= 1 && FLASH_MB <= 16 && (FLASH_MB & (FLASH_MB - 1)) === 0)) throw new Error('--flash-mb: 1, 2, 4, 8 or 16');
const CPU_HZ = 125_000_000;          // rp2040js Simulator hard-codes 125 MHz
const CYCLE_NS = 1e9 / CPU_HZ;

// ---- bootrom (B1, from wokwi/rp2040js demo/bootrom.ts), with flash write traps ----
const romBytes = new Uint8Array(fs.readFileSync(BOOTROM));
const romView = new DataView(romBytes.buffer);
function romFunc(code) {             // walk the ROM function table (u16 ptr at 0x14)
  let p = romView.getUint16(0x14, true);
  for (;;) {
    const c = romView.getUint16(p, true), a = romView.getUint16(p + 2, true);
    if (c === 0) return null;
    if (c === (code.charCodeAt(0) | (code.charCodeAt(1) << 8))) return a & ~1;
    p += 4;
  }
}
const BK_ERASE = 0xe1, BK_PROGRAM = 0xe2;
const RE = romFunc('RE'), RP = romFunc('RP');
romView.setUint16(RE, 0xbe00 | BK_ERASE, true);     // BKPT #0xe1
romView.setUint16(RP, 0xbe00 | BK_PROGRAM, true);   // BKPT #0xe2
const bootrom32 = new Uint32Array(romBytes.buffer, 0, romBytes.length / 4);

// ---- initial flash: UF2 (512-byte blocks: addr @12, len @16, payload @32) [+ image] ----
const initialFlash = new Uint8Array(FLASH_SIZE).fill(0xff);
{
  const buf = UF2_BUF;
  let n = 0;
  for (let off = 0; off + 512 <= buf.length; off += 512) {
    if (buf.readUInt32LE(off) !== 0x0a324655 || buf.readUInt32LE(off + 4) !== 0x9e5d5157 ||
        buf.readUInt32LE(off + 508) !== 0x0ab16f30) continue;
    if (buf.readUInt32LE(off + 8) & 1) continue;          // NOT_MAIN_FLASH
    const addr = buf.readUInt32LE(off + 12), len = buf.readUInt32LE(off + 16);
    initialFlash.set(buf.subarray(off + 32, off + 32 + len), addr - FLASH_BASE);
    n++;
  }
  log(`loaded ${n} UF2 blocks from ${UF2} (${IS_CIRCUITPY ? 'CircuitPython' : 'MicroPython'}; flash ${FLASH_MB} MB, filesystem area from 0x${FS_START.toString(16)})`);
  if (FLASH_IMG && fs.existsSync(FLASH_IMG)) {
    const img = fs.readFileSync(FLASH_IMG);
    initialFlash.set(img.subarray(FS_START, Math.min(img.length, FLASH_SIZE)), FS_START);
    log(`filesystem area taken from ${FLASH_IMG}`);
  }
}

// ---- global state that survives a chip reset ----
const t0 = performance.now();
const wallMs = () => performance.now() - t0;
let mcu = null, clock = null, cdc = null;
let inQ = [], inOff = 0, pendingRead = null;
let client = null;
let resets = 0, cyclesBefore = 0, emuNsBefore = 0;  // totals of previous incarnations
const flashStats = { erases: 0, erasedBytes: 0, programs: 0, programmedBytes: 0 };
const i2cStats = { enabled: I2C_STUB, timing: I2C_STUB && I2C_TIMING, bytes: 0, nacks: 0, softAddrAcks: 0, transactions: [] };
const markers = [];
let usbConnected = false, unknownBreak = null, resetRequested = false;

let saveTimer = null;
function saveFlash() { if (FLASH_IMG && mcu) fs.writeFileSync(FLASH_IMG, mcu.flash.subarray(0, FLASH_SIZE)); }
function scheduleSave() {
  if (!FLASH_IMG || saveTimer || OP_SYNC) return;   // --flash-sync op writes each op instead
  saveTimer = setTimeout(() => { saveTimer = null; saveFlash(); }, 500);
}
// ---- write-back per flash operation (so that kill -9 = a power cut at an op boundary) ----
// --flash-sync op (default with --flash-img in this copy; --flash-sync debounce = upstream):
//   each erase / program is written into FLASH_IMG (pwrite of exactly the bytes it changed,
//   one write(2) of <= 4 KB, never a truncate) before the CPU goes on, so the image on disk is
//   always the flash after the last completed operation.
// --flash-log FILE: one line per operation, written after the image write:
//   "<n> E|P <flash addr hex> <bytes> <emu_ns> <wall_ms>"
// --flash-op-ms E,P: model the real chip's operation times in wall clock: after an erase is on
//   disk the process blocks E ms (the sector stays erased on disk meanwhile), and a program
//   blocks P ms before it is written (a cut during a program = the sector still erased), so a
//   kill at a random wall moment lands in erase/program windows as often as their durations say.
const OP_SYNC = !!FLASH_IMG && String(opt('flash-sync', 'op')) === 'op';
const FLASH_LOG = opt('flash-log', null);
const OP_MS = String(opt('flash-op-ms', '0,0')).split(',').map(Number);
let imgFd = null, logFd = null, opCount = 0;
const sleepBuf = new Int32Array(new SharedArrayBuffer(4));
function blockMs(ms) { if (ms > 0) Atomics.wait(sleepBuf, 0, 0, ms); }
function opWrite(kind, start, end) {
  if (!OP_SYNC) return;
  if (imgFd === null) {
    if (!fs.existsSync(FLASH_IMG) || fs.statSync(FLASH_IMG).size < FLASH_SIZE) saveFlash();
    imgFd = fs.openSync(FLASH_IMG, 'r+');
  }
  fs.writeSync(imgFd, mcu.flash, start, end - start, start);
  opCount++;
  if (FLASH_LOG) {
    if (logFd === null) logFd = fs.openSync(FLASH_LOG, 'a');
    fs.writeSync(logFd, `${opCount} ${kind} ${start.toString(16)} ${end - start} ${emuNsBefore + clock.nanos} ${wallMs().toFixed(1)}\n`);
  }
}

function fillFIFO() {
  // top up rp2040js' 512-byte CDC FIFO from our unbounded queue
  while (!cdc.txFIFO.full && inQ.length) {
    const b = inQ[0];
    cdc.txFIFO.push(b[inOff++]);
    if (inOff >= b.length) { inQ.shift(); inOff = 0; }
  }
}
let origRead = null;
function pumpRead() {
  if (!pendingRead || !inQ.length) return;
  const { ep, size } = pendingRead;
  pendingRead = null;
  fillFIFO();
  origRead(ep, size);
}

// ---- build (or rebuild after watchdog reset) the chip ----
function buildChip(flashContent) {
  mcu = new RP2040();                 // default SimulationClock
  clock = mcu.clock;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(bootrom32);         // (also resets and 0xff-fills flash)
  mcu.flash.set(flashContent);
  for (const [n, v] of pinLevels) mcu.gpio[n].setInputValue(v);
  // QSPI_SS reads high (10K pull-up, BOOTSEL released): CircuitPython samples it at boot
  // (port_boot_button_pressed) and would wait forever for a release if it read 0.
  // (rp2040js' QSPI pads come up with input-enable clear, so force the level itself.)
  Object.defineProperty(mcu.qspi[1], 'inputValue', { get: () => true });
  usbConnected = false; pendingRead = null; unknownBreak = null;

  mcu.onBreak = (code) => {
    const core = mcu.core, r = core.registers;
    if (code === BK_ERASE && core.PC - 2 === RE) {
      // flash_range_erase(addr, count, block_size, block_cmd): 4K sectors -> 0xff
      const addr = r[0] & 0xffffff, count = r[1];
      const start = addr & ~0xfff, end = Math.min((addr + count + 0xfff) & ~0xfff, mcu.flash.length);
      mcu.flash.fill(0xff, start, end);
      flashStats.erases++; flashStats.erasedBytes += end - start;
      core.PC = core.LR & ~1;
      opWrite('E', start, end); blockMs(OP_MS[0]);
      scheduleSave();
    } else if (code === BK_PROGRAM && core.PC - 2 === RP) {
      // flash_range_program(addr, data, count): NOR semantics, bits only go 1 -> 0
      const addr = r[0] & 0xffffff, data = r[1], count = r[2];
      // with --flash-op-ms, programmed a 256-byte page at a time as the chip does,
      // each page on disk after its share of P ms (a cut mid-program: the pages before it done)
      for (let off = 0; off < count; off += 256) {
        const n = Math.min(256, count - off);
        if (OP_MS[1] > 0) blockMs(OP_MS[1] * n / 4096);
        for (let i = off; i < off + n && addr + i < mcu.flash.length; i++) {
          mcu.flash[addr + i] &= mcu.readUint8(data + i);
        }
        if (OP_MS[1] > 0 && OP_SYNC && imgFd !== null) {
          fs.writeSync(imgFd, mcu.flash, addr + off, Math.min(n, mcu.flash.length - addr - off), addr + off);
          if (FLASH_LOG) fs.writeSync(logFd ?? (logFd = fs.openSync(FLASH_LOG, 'a')), `- p ${(addr + off).toString(16)} ${n}\n`);
        }
      }
      flashStats.programs++; flashStats.programmedBytes += count;
      core.PC = core.LR & ~1;
      opWrite('P', addr, Math.min(addr + count, mcu.flash.length));
      scheduleSave();
    } else {
      unknownBreak = code;
      log(`BKPT #${code} at 0x${(core.PC - 2).toString(16)} - CPU stopped`);
    }
  };
  fixTimerAlarms(mcu.peripherals[0x40054]);                                          // TIMER_BASE
  mcu.peripherals[0x40058].onWatchdogTrigger = () => { resetRequested = true; };  // WATCHDOG_BASE
  attachRDID(mcu.peripherals[0x18000]);                                               // XIP_SSI_BASE

  // USB CDC
  cdc = new USBCDC(mcu.usbCtrl);
  origRead = mcu.usbCtrl.onEndpointRead;
  mcu.usbCtrl.onEndpointRead = (ep, size) => {
    if (ZLP_POLL || ep !== cdc.outEndpoint || inQ.length || !cdc.txFIFO.empty) {
      fillFIFO();
      origRead(ep, size);
    } else {
      pendingRead = { ep, size };     // like a real host: NAK until there is data
    }
  };
  cdc.onDeviceConnected = () => { usbConnected = true; log('USB CDC enumerated'); };
  cdc.onSerialData = (buf) => {
    if (ECHO) process.stdout.write(buf);
    if (client && !client.destroyed) client.write(Buffer.from(buf));
  };

  // marker pin
  mcu.gpio[MARKER_PIN].addListener((state, old) => {
    const m = { pin: MARKER_PIN, state, old, cycles: mcu.core.cycles, emu_ns: clock.nanos,
                wall_ms: +wallMs().toFixed(3), reset: resets };
    markers.push(m);
    if (markers.length > 1000) markers.shift();
    if (!QUIET) log('marker', JSON.stringify(m));
  });

  if (I2C_STUB) attachI2CStub();
  mcu.core.PC = FLASH_BASE;           // start at boot2, like the upstream demo
}

// ---- timer alarms: the target compared with the whole microseconds the timer counts ----
function fixTimerAlarms(timer) {
  const ALARM0 = 0x10, ALARM3 = 0x1c, orig = timer.writeUint32.bind(timer);
  timer.writeUint32 = (offset, value) => {
    if (offset < ALARM0 || offset > ALARM3 || (offset & 3)) return orig(offset, value);
    const alarm = timer.alarms[(offset - ALARM0) / 4];
    const delta = (value - Math.floor(clock.nanos / 1000)) >>> 0;  // 0: it matches now
    alarm.armed = true;
    alarm.targetMicros = value;
    alarm.clockAlarm.schedule(delta * 1000);
  };
}

// ---- flash JEDEC ID ----
// rp2040js' SSI reads back 0 for every byte clocked through DR0, so a firmware that asks the
// flash chip its size (RDID, 0x9F: CircuitPython's supervisor_flash_init) would get 0 and fall
// back to 2 MB. Answer RDID like a Winbond W25Q (manufacturer 0xEF, type 0x40, capacity
// log2(FLASH_SIZE)); every other byte keeps rp2040js' behaviour.
function attachRDID(ssi) {
  const DR0 = 0x60, rx = [];
  let idLeft = [];
  const origR = ssi.readUint32.bind(ssi), origW = ssi.writeUint32.bind(ssi);
  ssi.writeUint32 = (offset, value) => {
    if (offset === DR0) {
      if (idLeft.length) { rx.push(idLeft.shift()); return; }
      if ((value & 0xff) === 0x9f) { rx.length = 0; rx.push(0); idLeft = [0xef, 0x40, Math.log2(FLASH_SIZE)]; return; }
      rx.length = 0;
    }
    origW(offset, value);
  };
  ssi.readUint32 = (offset) => (offset === DR0 && rx.length ? rx.shift() : origR(offset));
}

// ---- SSD1306 model behind the I2C stub: keeps the GDDRAM and the state the app set ----
// (control byte 0x80/0x00 = command(s), 0xC0/0x40 = data; horizontal, vertical and page
// addressing; ctl.py `screen` prints it, `screen-json` gives the raw pages)
const ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa3: 2, 0xa8: 1, 0xd3: 1, 0xd5: 1,
               0xd9: 1, 0xda: 1, 0xdb: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5 };
const ssd = { ram: new Uint8Array(8 * 128), on: false, contrast: 0x7f, invert: false, allOn: false,
              mux: 63, mode: 2, c0: 0, c1: 127, p0: 0, p1: 7, col: 0, page: 0, startLine: 0,
              offset: 0, segRemap: false, comRemap: false, frames: 0, dataBytes: 0, cmds: 0,
              pend: null, tx: null };
function ssdCommand(b) {
  ssd.cmds++;
  if (ssd.pend) {
    ssd.pend.args.push(b);
    if (ssd.pend.args.length < ssd.pend.n) return;
    const { op, args } = ssd.pend; ssd.pend = null;
    if (op === 0x20) ssd.mode = args[0] & 3;
    else if (op === 0x21) { ssd.c0 = args[0] & 127; ssd.c1 = args[1] & 127; ssd.col = ssd.c0; }
    else if (op === 0x22) { ssd.p0 = args[0] & 7; ssd.p1 = args[1] & 7; ssd.page = ssd.p0; }
    else if (op === 0x81) ssd.contrast = args[0];
    else if (op === 0xa8) ssd.mux = args[0] & 63;
    else if (op === 0xd3) ssd.offset = args[0] & 63;
    return;
  }
  if (ARGS[b]) { ssd.pend = { op: b, n: ARGS[b], args: [] }; return; }
  if (b === 0xae) ssd.on = false;
  else if (b === 0xaf) ssd.on = true;
  else if (b === 0xa6 || b === 0xa7) ssd.invert = b === 0xa7;
  else if (b === 0xa4 || b === 0xa5) ssd.allOn = b === 0xa5;
  else if (b === 0xa0 || b === 0xa1) ssd.segRemap = b === 0xa1;
  else if (b === 0xc0 || b === 0xc8) ssd.comRemap = b === 0xc8;
  else if (b >= 0x40 && b <= 0x7f) ssd.startLine = b & 63;
  else if (b >= 0xb0 && b <= 0xb7) ssd.page = b & 7;                            // page mode
  else if (b <= 0x0f) ssd.col = (ssd.col & 0xf0) | b;
  else if (b >= 0x10 && b <= 0x1f) ssd.col = (ssd.col & 0x0f) | ((b & 0x0f) << 4);
}
function ssdData(b) {
  ssd.ram[ssd.page * 128 + ssd.col] = b; ssd.dataBytes++;
  if (ssd.mode === 0) {                       // horizontal
    if (++ssd.col > ssd.c1) { ssd.col = ssd.c0; if (++ssd.page > ssd.p1) { ssd.page = ssd.p0; ssd.frames++; } }
  } else if (ssd.mode === 1) {                // vertical
    if (++ssd.page > ssd.p1) { ssd.page = ssd.p0; if (++ssd.col > ssd.c1) { ssd.col = ssd.c0; ssd.frames++; } }
  } else if (ssd.col < 127) ssd.col++;        // page mode: column wraps nowhere
}
function ssdStart() { ssd.tx = { ctl: true, co: false, dc: false }; }  // a command's arguments may come in later transactions
function ssdByte(b) {
  const t = ssd.tx; if (!t) return;
  if (t.ctl) { t.co = !!(b & 0x80); t.dc = !!(b & 0x40); t.ctl = false; return; }
  if (t.dc) ssdData(b); else ssdCommand(b);
  if (t.co) t.ctl = true;                     // Co=1: another control byte follows
}
function ssdScreen() {
  const h = Math.min(64, ssd.mux + 1), rows = [];
  const px = (x, y) => {
    if (ssd.allOn) return 1;
    const v = (ssd.ram[(y >> 3) * 128 + x] >> (y & 7)) & 1;
    return ssd.invert ? v ^ 1 : v;
  };
  for (let y = 0; y < h; y += 2) {            // two pixel rows per text row (half blocks)
    let line = '';
    for (let x = 0; x < 128; x++) {
      const a = px(x, y), b = y + 1 < h ? px(x, y + 1) : 0;
      line += a && b ? '\u2588' : a ? '\u2580' : b ? '\u2584' : ' ';
    }
    rows.push('|' + line + '|');
  }
  const head = `SSD1306 128x${h} ${ssd.on ? 'on' : 'OFF'} contrast ${ssd.contrast}${ssd.invert ? ' inverted' : ''}` +
               ` (data bytes ${ssd.dataBytes}, commands ${ssd.cmds})`;
  const bar = '+' + '-'.repeat(128) + '+';
  return [head, bar, ...rows, bar].join('\n');
}

// ---- I2C stub ----
function attachI2CStub() {
  // peripheral side: rp2040js calls onStart/onConnect/onWriteByte/onReadByte/onStop and
  // waits for completeX(); we complete after the SCL bit time (HCNT+LCNT clk_sys cycles).
  mcu.i2c.forEach((i2c, bus) => {
    let cur = null, pending = null;
    const alarm = clock.createAlarm(() => { const f = pending; pending = null; if (f) f(); });
    const later = (bits, fn) => {
      if (!I2C_TIMING) return fn();
      const bitNs = Math.max(1, i2c.sclHighPeriod + i2c.sclLowPeriod) * CYCLE_NS;
      pending = fn; alarm.schedule(bits * bitNs);
    };
    i2c.onStart = () => later(1, () => i2c.completeStart());
    i2c.onConnect = (addr, mode) => {
      if (addr === 0x3c) {
        cur = { bus, addr, mode: mode === I2CMode.Read ? 'r' : 'w', n: 0, first: [] };
        if (cur.mode === 'w') ssdStart(); else ssd.tx = null;
        later(9, () => i2c.completeConnect(true));
      } else {
        // NACK. rp2040js flushes the TX FIFO on abort but never raises TX_EMPTY again, so
        // pico-sdk's i2c_write loop would spin until its timeout (ETIMEDOUT, not EIO).
        i2cStats.nacks++; cur = null;
        later(9, () => { i2c.completeConnect(false); if (FIX_NACK) i2c.setInterrupts(1 << 4); });
      }
    };
    i2c.onWriteByte = (v) => {
      i2cStats.bytes++;
      if (cur) { cur.n++; if (cur.first.length < 4) cur.first.push(v); ssdByte(v); }
      later(9, () => i2c.completeWrite(!!cur));
    };
    i2c.onReadByte = () => later(9, () => i2c.completeRead(0x00));
    i2c.onStop = () => {
      if (cur) { i2cStats.transactions.push(cur); if (i2cStats.transactions.length > 200) i2cStats.transactions.shift(); cur = null; }
      later(1, () => i2c.completeStop());
    };
  });
  // GPIO side: open-drain bus with pull-ups on SDA/SCL, ACK 0x3C for bit-banged transfers
  // (MicroPython's I2C.scan() does zero-length writes with SoftI2C on the same pins).
  const [SDA, SCL] = I2C_PINS;
  const sda = mcu.gpio[SDA], scl = mcu.gpio[SCL];
  const FUNC_SIO = 5;
  const drivesLow = (p) => p.functionSelect === FUNC_SIO && p.outputEnable && !p.outputValue;
  let slavePull = false, lastSDA = true, lastSCL = true;
  let st = 'idle', bits = 0, byte = 0, isAddr = false, matched = false, rw = 0;
  const update = () => {
    const vSCL = !drivesLow(scl);
    const vSDA = !drivesLow(sda) && !slavePull;
    if (vSCL && lastSCL && vSDA !== lastSDA) {          // SDA edge while SCL high
      if (!vSDA) { st = 'bits'; bits = 0; byte = 0; isAddr = true; matched = false; }   // START
      else { st = 'idle'; slavePull = false; }                                         // STOP
    } else if (vSCL && !lastSCL) {                       // SCL rising: sample
      if (st === 'bits' && bits < 8) { byte = (byte << 1) | (vSDA ? 1 : 0); bits++; }
    } else if (!vSCL && lastSCL) {                       // SCL falling
      if (st === 'bits' && bits === 8) {
        let ack;
        if (isAddr) { matched = (byte >> 1) === 0x3c; rw = byte & 1; ack = matched; if (ack) { i2cStats.softAddrAcks++; if (!rw) ssdStart(); } else i2cStats.nacks++; }
        else { ack = matched && !rw; if (ack) { i2cStats.bytes++; ssdByte(byte); } }
        slavePull = ack; st = 'ack';
      } else if (st === 'ack') {
        slavePull = false;
        if (matched && !rw) { st = 'bits'; bits = 0; byte = 0; isAddr = false; } else st = 'idle';
      }
    }
    const nSDA = !drivesLow(sda) && !slavePull;
    lastSCL = vSCL; lastSDA = nSDA;
    scl.setInputValue(vSCL);
    sda.setInputValue(nSDA);
  };
  sda.addListener(update); scl.addListener(update);
  sda.setInputValue(true); scl.setInputValue(true);
}

// ---- TCP: REPL bridge + control port (both 127.0.0.1 only) ----
const server = net.createServer((sock) => {
  if (client && !client.destroyed) { log('second client rejected'); sock.destroy(); return; }
  client = sock;
  sock.setNoDelay(true);
  log(`client connected ${sock.remoteAddress}:${sock.remotePort}`);
  sock.on('data', (d) => { inQ.push(Buffer.from(d)); pumpRead(); kick(); });
  sock.on('close', () => { if (client === sock) client = null; log('client disconnected'); });
  sock.on('error', () => {});
});
server.listen(PORT, HOST, () => log(`REPL (USB CDC) on tcp://${HOST}:${PORT}`));

function stats() {
  const w = wallMs();
  const cyc = cyclesBefore + mcu.core.cycles, ns = emuNsBefore + clock.nanos;
  return {
    wall_ms: +w.toFixed(3), cycles: cyc, emu_ns: ns,
    emu_over_wall: +(ns / 1e6 / w).toFixed(4),
    mcycles_per_wall_s: +(cyc / 1e3 / w).toFixed(3),
    resets, usb_connected: usbConnected, cpu_stopped_on_bkpt: unknownBreak,
    flash: flashStats, i2c: i2cStats,
  };
}
const ctl = net.createServer((sock) => {
  let acc = '';
  sock.on('data', (d) => {
    acc += d.toString();
    let nl;
    while ((nl = acc.indexOf('\n')) >= 0) {
      const cmd = acc.slice(0, nl).trim(); acc = acc.slice(nl + 1);
      if (cmd === 'stats') sock.write(JSON.stringify(stats()) + '\n');
      else if (cmd === 'markers') sock.write(JSON.stringify(markers) + '\n');
      else if (cmd === 'clear') { markers.length = 0; i2cStats.transactions = []; sock.write('ok\n'); }
      else if (cmd.startsWith('pin ')) {  // pin N 0|1 : drive input level
        const [, n, v] = cmd.split(/\s+/); pinLevels.set(Number(n), v === '1');
        mcu.gpio[Number(n)].setInputValue(v === '1'); sock.write('ok\n');
      }
      else if (cmd === 'regs') {  // debugging aid: core 0 PC/LR/SP and a few words of stack
        const c = mcu.core, r = c.registers, sp = c.SP >>> 0, st = [];
        for (let i = 0; i < 32; i++) { try { st.push('0x' + (mcu.readUint32(sp + 4 * i) >>> 0).toString(16)); } catch (e) { break; } }
        sock.write(JSON.stringify({ pc: '0x' + (c.PC >>> 0).toString(16), lr: '0x' + (c.LR >>> 0).toString(16), sp: '0x' + sp.toString(16), waiting: c.waiting, r: Array.from(r.slice(0, 13), (x) => '0x' + (x >>> 0).toString(16)), stack: st }) + '\n');
      }
      else if (cmd === 'screen') { sock.end(ssdScreen() + '\n'); return; }  // closes: multi-line
      else if (cmd === 'screen-json') sock.write(JSON.stringify({ on: ssd.on, contrast: ssd.contrast, invert: ssd.invert, height: Math.min(64, ssd.mux + 1), dataBytes: ssd.dataBytes, commands: ssd.cmds, pages: Array.from({ length: 8 }, (_, p) => Buffer.from(ssd.ram.subarray(p * 128, p * 128 + 128)).toString('hex')) }) + '\n');
      else if (cmd === 'reset') { resetRequested = true; kick(); sock.write('ok\n'); }  // the RESET button
      else if (cmd === 'quit') { sock.end('bye\n'); shutdown(); }
      else sock.write('? stats|markers|clear|pin N 0|1|screen|screen-json|reset|regs|quit\n');
    }
  });
  sock.on('error', () => {});
});
ctl.listen(CTL_PORT, HOST, () => log(`control on tcp://${HOST}:${CTL_PORT}`));

// ---- run loop (same cycle accounting as rp2040js Simulator.execute) ----
let stopped = false, idle = false, idleTimer = null, idleDelay = 1;
let anchorEmu = -1, anchorWall = 0;
function execute() {
  idleTimer = null;
  if (resetRequested) {
    resetRequested = false; resets++;
    cyclesBefore += mcu.core.cycles; emuNsBefore += clock.nanos;
    const flashNow = mcu.flash.slice(0, FLASH_SIZE);
    log(`watchdog reset #${resets}: rebuilding chip (flash kept)`);
    buildChip(flashNow);
    anchorEmu = -1;
  }
  const core = mcu.core, clk = clock;
  for (let i = 0; i < 1000000 && !resetRequested; i++) {
    if (unknownBreak !== null) { idle = true; idleDelay = 100; break; }
    if (core.waiting && ((core.pendingInterrupts & core.enabledInterrupts) || core.pendingSystick || core.pendingPendSV)) {
      // WFI ends on an interrupt already pending, even one masked by PRIMASK (ARMv6-M); rp2040js
      // wakes the core only when an interrupt becomes pending while it waits
      core.waiting = false;
      core.interruptsUpdated = true;
    }
    if (core.waiting) {
      if (!clk.nextAlarm) { idle = true; idleDelay = 1; break; }  // nothing scheduled
      let ns = clk.nanosToNextAlarm;
      if (!FAST_IDLE) {                 // sleeping: emulated time <= wall time
        const now = performance.now() * 1e6;
        if (anchorEmu < 0) { anchorEmu = clk.nanos; anchorWall = now; }
        const allowed = anchorEmu + (now - anchorWall) - clk.nanos;
        if (allowed <= 0) { idle = true; idleDelay = Math.max(1, Math.min(10, ns / 1e6)); break; }
        if (ns > allowed) ns = allowed;
      }
      clk.tick(ns);
      i += ns / CYCLE_NS;
    } else {
      anchorEmu = -1;
      clk.tick(core.executeInstruction() * CYCLE_NS);
    }
  }
  if (stopped) return;
  if (idle) { idle = false; idleTimer = setTimeout(execute, idleDelay); }  // sleep until I/O
  else setImmediate(execute);
}
function kick() {           // host sent data: resume at once if the CPU is asleep
  if (idleTimer) { clearTimeout(idleTimer); idleTimer = null; setImmediate(execute); }
}
function shutdown() {
  if (stopped) return;
  stopped = true;
  saveFlash();
  log('exit', JSON.stringify(stats()));
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

buildChip(initialFlash);
execute();
