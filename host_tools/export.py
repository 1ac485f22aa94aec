"""Export game records: per-round scores and final breakdowns.

    azul-companion export FILE... --to csv|json|bgstats|html [--out F] [--lang en|zh-Hant|ja]

csv     one row per game x closed round x player (points that round, total after it); a
        text cell that starts like a formula (= + - @ tab CR) is led by ' (CSV injection)
json    a list of replay results (RECORD_FORMAT.md) with the file and player names
bgstats a BG Stats import file: games, players, locations, plays with playerScores
html    one self-contained page: a score-by-round SVG line chart and breakdown per game

--lang: the html report and BG Stats' game names, variants and comments in that language
(host_tools/lang, the device's words); csv and json are for machines and stay English.

Every record is replayed with rules_core; scores are never read from anywhere else. --out
is written under a temporary name and renamed once complete, and is never one of the
records read. A name that cannot be written as UTF-8 (a lone surrogate) shows as U+FFFD.
"""
import csv
import datetime
import hashlib
import html
import io
import json
import os
import re
import sys
import uuid

from host_tools.output import printable, write_atomically, not_replacing
from host_tools.lang import CODES, Translator, breakdown_label, status as lang_status
from rules_core.games import game

FORMATS = ("csv", "json", "bgstats", "html")
# one colour per seat, the device's (app.colours.PLAYER_COLOURS: red, blue, green, yellow,
# purple), a shade darker where the LEDs' colour is too light to read on white
PALETTE = ("#e00000", "#0030e0", "#00a000", "#d09800", "#7800c8")
NAMESPACE = uuid.UUID("6c1b3f2e-5a8d-4d7e-9a41-0c2d8e7f9b10")  # stable play/player uuids


class ExportError(Exception):
    """A file that cannot be exported, reported as one line."""


class Game:
    """One replayed record: what every exporter needs."""

    def __init__(self, path, session, warnings, digest, mtime):
        self.path = path
        self.name = printable(os.path.basename(path))
        self.players = [printable(n) for n in session.players]
        self.header = session.header
        self.start = self.header["options"].get("start", 0)  # round 1's start player, checked by Session
        self.result = session.result()
        self.status = session.status()
        self.session = session
        self.warnings = warnings
        self.digest = digest
        self.date = self._date(mtime)

    def _date(self, mtime):
        """The header's date if a tool wrote one (ISO 8601), else the file's modification time."""
        for key in ("date", "started", "time"):
            value = self.header.get(key)
            if isinstance(value, str):
                try:
                    when = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
                except ValueError:
                    continue
                return when.strftime("%Y-%m-%d %H:%M:%S")  # the wall clock as written
        return datetime.datetime.fromtimestamp(mtime).strftime("%Y-%m-%d %H:%M:%S")

    def seats(self):
        """[(name, k)] per seat, k counting earlier seats of the same name: two Anns at one
        table are two people, while the first Ann of every game is one."""
        return [(name, self.players[:p].count(name)) for p, name in enumerate(self.players)]

    def totals_by_round(self):
        """[[total per player] per closed round]."""
        return [list(r) for r in self.result.get("round_scores") or []]

    def points_by_round(self):
        """[[points gained per player] per closed round]."""
        totals = self.totals_by_round()
        previous = [0] * len(self.players)
        out = []
        for row in totals:
            out.append([t - p for t, p in zip(row, previous)])
            previous = row
        return out


class _Hashing:
    """A binary file whose readline also feeds a SHA-256 (a play's stable id)."""

    def __init__(self, f):
        self.f = f
        self.sha = hashlib.sha256()

    def readline(self, size=-1):
        data = self.f.readline(size)
        self.sha.update(data)
        return data


def load(paths):
    """Replay every record (read line by line in bounded pieces); ExportError on the first bad one."""
    from rules_core.session import replay

    games = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                reader = _Hashing(f)
                session, warnings = replay(reader)
                mtime = os.fstat(f.fileno()).st_mtime
        except OSError as e:
            raise ExportError("cannot read %s: %s" % (path, e.strerror or e))
        except ValueError as e:
            raise ExportError("%s: %s" % (path, e))
        games.append(Game(path, session, warnings, reader.sha.hexdigest(), mtime))
    return games


# --- csv ---------------------------------------------------------------------------------------
def to_csv(games):
    keys = sorted({k for g in games for b in g.result["breakdown"] for k in b})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180; a lone CR in a cell gets quoted too

    def row(cells):
        writer.writerow([_inert(c) for c in cells])

    row(["file", "game", "variant", "date", "round", "seat", "player", "round_points",
         "total", "final_score", "winner"] + ["final_" + k for k in keys])
    for g in games:
        r = g.result
        for n, (points, totals) in enumerate(zip(g.points_by_round(), g.totals_by_round()), 1):
            for p, name in enumerate(g.players):
                b = r["breakdown"][p]
                row([g.name, r["game"], r.get("variant", g.header.get("variant", "")), g.date, n, p, name,
                     points[p], totals[p], r["scores"][p], int(p in r["winners"])]
                    + [_cell(b.get(k, "")) for k in keys])
    return out.getvalue()


def _cell(v):
    return json.dumps(v) if isinstance(v, (list, dict)) else v


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what spreadsheets run as a formula (OWASP)


def _inert(cell):
    """A text cell a spreadsheet would run as a formula, led by ' as OWASP advises against CSV
    injection; numbers (negative ones included) stay numbers."""
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_START) else cell


# --- json --------------------------------------------------------------------------------------
def to_json(games):
    items = []
    for g in games:
        item = {"file": g.name, "players": g.players}
        item.update(g.result)
        if g.warnings:
            item["warnings"] = g.warnings
        items.append(item)
    return json.dumps(items, indent=2, sort_keys=True) + "\n"


# --- BG Stats ----------------------------------------------------------------------------------
def _uuid(*parts):
    return str(uuid.uuid5(NAMESPACE, "/".join(str(p) for p in parts))).upper()


def to_bgstats(games, tr=None):
    """BG Stats' import file: tables of games/players/locations, plays point into them by id;
    the games' names, variants and comments in tr's language (default English)."""
    tr = tr or Translator()
    now = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    players, game_ids, plays = {}, {}, []  # players: (name, k) of Game.seats -> id
    for g in games:
        for seat in g.seats():
            players.setdefault(seat, len(players) + 1)
        game_ids.setdefault(g.result["game"], len(game_ids) + 1)
    for g in games:
        r = g.result
        scores, winners = r["scores"], r["winners"]
        high = not winners or scores[winners[0]] == max(scores)
        order = sorted(range(len(scores)), key=lambda p: (p not in winners, -scores[p] if high else scores[p]))
        ranks = {}
        for i, p in enumerate(order):
            ranks[p] = 1 if p in winners else i + 1
        plays.append({
            "uuid": _uuid("play", g.digest),
            "gameRefId": game_ids[r["game"]],
            "locationRefId": 1,
            "playDate": g.date,
            "entryDate": now,
            "modificationDate": now,
            "durationMin": 0,
            "ignored": not r["finished"],
            "manualWinner": False,
            "usesTeams": False,
            "rounds": len(r.get("round_scores") or []),
            "board": _variant(r, tr),
            "comments": tr("Azul Companion record %s") % g.name,
            "scoringSetting": 0,
            "playerScores": [{
                "playerRefId": players[seat],
                "score": str(scores[p]),
                "winner": p in winners,
                "rank": ranks[p],
                "seatOrder": p + 1,
                "startPlayer": p == g.start,
                "newPlayer": False,
                "role": "",
            } for p, seat in enumerate(g.seats())],
        })
    data = {
        "games": [{"id": i, "uuid": _uuid("game", key), "name": _title(key, tr),
                   "bggId": game(key).bgg, "bggName": game(key).title,
                   "highestWins": True, "noPoints": False, "isBaseGame": True, "isExpansion": False,
                   "cooperative": False, "modificationDate": now}
                  for key, i in game_ids.items()],
        "players": [{"id": i, "uuid": _uuid("player", name, *([k + 1] if k else [])),
                     "name": "%s (%d)" % (name, k + 1) if k else name, "isAnonymous": False,
                     "modificationDate": now} for (name, k), i in players.items()],
        "locations": [{"id": 1, "uuid": _uuid("location", "table"), "name": "Azul Companion",
                       "modificationDate": now}],
        "plays": plays,
        "userInfo": {"meRefId": 0},
    }
    return json.dumps(data, indent=2) + "\n"


# --- HTML --------------------------------------------------------------------------------------
STYLE = """body{font-family:sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:22px}h2{font-size:18px;margin-top:28px}table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
.win{font-weight:bold}.note{color:#666;font-size:13px}svg{width:100%;max-width:600px;height:auto;display:block}
svg text{font-size:12px;fill:#333}.legend{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 16px}
.seat{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px}
.wide{overflow-x:auto;max-width:100%}
@media (max-width:600px){body{margin:12px}td,th{padding:2px 5px;font-size:14px}}"""


def seat_colour(p):
    return PALETTE[p % len(PALETTE)]


def _title(key, tr):
    """A game's title (the box's) in tr's language."""
    return tr(game(key).title, "title")


def _variant(r, tr):
    """The variant played: its record name in English, its label in another language."""
    v = r.get("variant", "")
    if tr.code == "en":
        return v
    g = game(r["game"])
    return tr(g.labels[g.variants.index(v)], g.key) if v in g.variants else v


def svg_chart(g, width=360, height=220, tr=None):
    """Cumulative score after each closed round, one polyline per player (its seat's colour),
    then the legend: the picture scales to the page's width (a phone's 390 px included)."""
    tr = tr or Translator()
    totals = g.totals_by_round()
    left, right, top, bottom = 34, 10, 10, 24
    if not totals:
        return '<p class="note">%s</p>' % html.escape(tr("no round closed yet"))
    rounds = [0] + list(range(1, len(totals) + 1))
    series = [[0] + [row[p] for row in totals] for p in range(len(g.players))]
    lo = min(0, min(min(s) for s in series))
    hi = max(1, max(max(s) for s in series))
    pw, ph = width - left - right, height - top - bottom

    def x(i):
        return left + pw * i / max(1, len(rounds) - 1)

    def y(v):
        return top + ph * (hi - v) / (hi - lo)

    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img">' % (width, height)]
    parts.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#fafafa" stroke="#999"/>' % (left, top, pw, ph))
    for v in sorted({lo, 0, hi, (lo + hi) // 2}):
        parts.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%d</text>'
                     % (left, left + pw, y(v), y(v), left - 4, y(v) + 4, v))
    step = max(1, (len(rounds) + 11) // 12)  # at most a dozen round numbers under the axis
    for i in rounds[::step]:
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x(i), height - 8, i))
    for p, s in enumerate(series):
        colour = seat_colour(p)
        points = " ".join("%.1f,%.1f" % (x(i), y(v)) for i, v in zip(rounds, s))
        parts.append('<polyline fill="none" stroke="%s" stroke-width="2.5" points="%s"/>' % (colour, points))
        for i, v in zip(rounds, s):
            parts.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x(i), y(v), colour))
    parts.append("</svg>")
    parts.append('<ul class="legend">%s</ul>' % "".join(
        '<li><span class="seat" style="background:%s"></span>%s</li>' % (seat_colour(p), html.escape(n))
        for p, n in enumerate(g.players)))
    return "".join(parts)


def round_label(g, n, tr=None):
    """Closed round n (from 1) as the report names it: "Round 5", or in a long 5211 game,
    whose rounds count within each deck, "Deck 2, round 1"."""
    tr = tr or Translator()
    r = g.result
    if r["game"] == "5211" and r.get("variant") == "long":
        from rules_core.game5211 import rounds_per_deck
        per = rounds_per_deck(len(g.players))
        return tr("Deck %d, round %d") % ((n - 1) // per + 1, (n - 1) % per + 1)
    return tr("Round %d") % n


def to_html(games, tr=None):
    """The report: a game a section, its chart and its table; in tr's language (default English)."""
    tr = tr or Translator()
    e = html.escape
    count = tr("Azul Companion: %d game") if len(games) == 1 else tr("Azul Companion: %d games")
    body = ["<h1>%s</h1>" % e(count % len(games))]
    for g in games:
        r = g.result
        body.append("<h2>%s (%s) &mdash; %s</h2>" % (e(_title(r["game"], tr)), e(str(_variant(r, tr))), e(g.name)))
        status = g.status if tr.code == "en" else lang_status(g.session, tr)
        tie = r.get("tiebreak")
        body.append('<p class="note">%s, %s%s</p>' % (
            e(g.date), e(status), ", " + e(tr("tie-break: %s") % tr(str(tie), r["game"])) if tie else ""))
        body.append(svg_chart(g, tr=tr))
        keys = sorted({k for b in r["breakdown"] for k in b})
        rows = ["<tr><th></th>%s</tr>" % "".join(
            '<th><span class="seat" style="background:%s"></span>%s</th>' % (seat_colour(p), e(n))
            for p, n in enumerate(g.players))]
        for n, row in enumerate(g.points_by_round(), 1):
            rows.append("<tr><td>%s</td>%s</tr>" % (e(round_label(g, n, tr)), "".join("<td>%+d</td>" % v for v in row)))
        for k in keys:
            name = label(k) if tr.code == "en" else breakdown_label(k, r["game"], tr)
            rows.append("<tr><td>%s</td>%s</tr>" % (e(name), "".join(
                "<td>%s</td>" % e(_value(b.get(k, ""), r["game"], tr)) for b in r["breakdown"])))
        rows.append("<tr><td><b>%s</b></td>%s</tr>" % (e(tr("Score")), "".join(
            '<td class="%s">%d%s</td>' % ("win" if p in r["winners"] else "", s, " &#9733;" if p in r["winners"] else "")
            for p, s in enumerate(r["scores"]))))
        body.append('<div class="wide"><table>%s</table></div>' % "".join(rows))
    return ('<!DOCTYPE html>\n<html lang="%s"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>%s</title>'
            "<style>%s</style></head><body>\n%s\n</body></html>\n"
            % (tr.code, e(tr("Azul Companion report")), STYLE, "\n".join(body)))


def label(key):
    """A breakdown key as a reader would write it: "complete_rows" -> "Complete rows",
    "deck1" -> "Deck 1"."""
    words = re.sub(r"(?<=[a-z])(?=[0-9])", " ", key.replace("_", " "))
    return words[:1].upper() + words[1:]


def _text(v):
    return json.dumps(v) if isinstance(v, (list, dict)) else str(v)


def _value(v, key, tr):
    """A breakdown value for the report: a colour name (Sintra side B's, 5211's last scored)
    in the game's words, marked "?" where its rulebook does not give it, as on the device."""
    if tr.code == "en" or not isinstance(v, str):
        return _text(v)
    return tr(v + ("?" if v in game(key).unverified else ""), key)


WRITERS = {"csv": to_csv, "json": to_json, "bgstats": to_bgstats, "html": to_html}
LOCALISED = ("bgstats", "html")  # csv and json are for machines: their headers and keys stay English


def export(paths, fmt, code="en"):
    games = load(paths)
    return WRITERS[fmt](games, Translator(code)) if fmt in LOCALISED else WRITERS[fmt](games)


def add_arguments(parser):
    parser.add_argument("files", nargs="+", metavar="FILE", help="game records (.jsonl)")
    parser.add_argument("--to", choices=FORMATS, required=True, help="output format")
    parser.add_argument("--out", help="output file (default: stdout)")
    parser.add_argument("--force", action="store_true", help="replace --out if it exists")
    parser.add_argument("--lang", choices=CODES, default="en",
                        help="the language of the html report and of BG Stats' names (csv and json stay English)")


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return False


def run(args):
    try:
        for path in args.files if args.out else ():
            if _same_file(args.out, path):
                raise ExportError("--out %s is one of the records read; refusing to overwrite it" % args.out)
        if args.out:
            not_replacing(args.out, args.force)
        games = load(args.files)
        lang = getattr(args, "lang", "en")
        text = WRITERS[args.to](games, Translator(lang)) if args.to in LOCALISED else WRITERS[args.to](games)
    except ExportError as e:
        sys.stderr.write("azul-companion export: %s\n" % printable(str(e)))
        return 1
    for g in games:
        for w in g.warnings:
            sys.stderr.write("%s: warning: %s\n" % (printable(g.path), printable(w)))
    if args.out:
        try:
            write_atomically(args.out, text)
        except OSError as e:
            sys.stderr.write("azul-companion export: cannot write %s\n" % printable("%s: %s" % (args.out, e.strerror or e)))
            return 1
    else:
        sys.stdout.write(text)
    return 0
