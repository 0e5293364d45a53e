// tengen's page: draws what the server sends and sends back what the
// user does. No rules here: the server sends the legal moves with every
// position and rules on every move; this code only maps clicks to them.

import { Chessground } from "chessgroundx";
import { Notation } from "chessgroundx/types.js";
import { createElement as h, render } from "preact";
import { Goban } from "@sabaki/shudan";

const $ = (id) => document.getElementById(id);

let ws = null;
let hello = null;
let state = null;
let analysis = null;
let cg = null;
let cgShape = "";
let flipped = false;
let clockAt = 0;
// Browsing: the ply shown instead of the game's current position, and
// the variation move (side node) shown, if it is one.
let viewing = null;
let viewingNode = null;
let viewState = null;

// Board sizes in pixels per square, by component layout.
const SQUARE = { chess: 60, chess960: 60, xiangqi: 52, shogi: 52 };
const SHOGI_HAND = ["r-piece", "b-piece", "g-piece", "s-piece", "n-piece", "l-piece", "p-piece"];

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (msg.type === "hello") onHello(msg);
    else if (msg.type === "state") onState(msg);
    else if (msg.type === "analysis") onAnalysis(msg);
    else if (msg.type === "error") onError(msg.message);
    else if (msg.type === "record") onRecord(msg);
    else if (msg.type === "position") onPosition(msg);
    else if (msg.type === "mate") onMate(msg);
    else if (msg.type === "options") onOptions(msg);
  };
  ws.onclose = () => {
    document.body.dataset.connected = "false";
    setTimeout(connect, 1000);
  };
  ws.onopen = () => {
    document.body.dataset.connected = "true";
  };
}

function send(obj) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
}

function onError(message) {
  $("error").textContent = message;
  document.body.dataset.errors = String(Number(document.body.dataset.errors || 0) + 1);
  // Whatever the board shows now, the server's position stands: an
  // illegal move snaps back.
  if (state) drawBoard(shown());
}

// The position on the board: the game's, or the one browsed.
function shown() {
  return viewing === null ? state : viewState;
}

function onPosition(msg) {
  if (!state || msg.game_id !== state.game_id) return;
  const node = msg.node ?? null;
  if (node === null && msg.ply >= state.ply) {
    goLive(false);
    return;
  }
  viewing = msg.ply;
  viewingNode = node;
  // A browsed position takes moves too: they go into a variation.
  viewState = { ...state, board: msg.board, last: msg.last, legal: msg.legal || [], ply: msg.ply, to_move: msg.to_move };
  document.body.dataset.viewing = String(msg.ply);
  document.body.dataset.viewNode = node === null ? "" : String(node);
  $("viewing").hidden = false;
  $("viewing-ply").textContent = String(msg.ply);
  $("viewing-var").hidden = node === null;
  drawBoard(viewState);
  drawMoves(state);
  drawGraph(state);
  drawLines();
  drawVarTools();
}

function onMate(msg) {
  if (!state || msg.game_id !== state.game_id) return;
  const words = {
    mate: `mate in ${msg.moves.length}: ${msg.text}`,
    nomate: "no mate",
    timeout: "no mate found in the time",
    notimplemented: "this engine has no mate search",
    error: "the mate search failed",
  };
  $("mate-result").textContent = `${msg.engine}: ${words[msg.outcome] || msg.outcome}`;
  $("mate-result").dataset.outcome = msg.outcome;
  $("mate").disabled = false;
}

// Back to the game's position; `tell`: the server too (analysis then
// returns to the game).
function goLive(tell = true) {
  const was = viewing;
  viewing = null;
  viewingNode = null;
  viewState = null;
  document.body.dataset.viewing = "";
  document.body.dataset.viewNode = "";
  drawVarTools();
  $("viewing").hidden = true;
  if (state) {
    if (tell && was !== null) send({ type: "view", ply: state.ply });
    drawBoard(state);
    drawMoves(state);
    drawGraph(state);
    drawLines();
  }
}

function view(ply) {
  if (!state) return;
  if (ply >= state.ply) goLive();
  else send({ type: "view", ply: Math.max(0, ply) });
}

function varById(id) {
  return state ? (state.variations || []).find((v) => v.id === id) : undefined;
}

function viewNode(id) {
  const v = varById(id);
  if (v) send({ type: "view", ply: v.ply, node: id });
}

// One move back or on along the line shown (in a variation, its own).
function stepBack() {
  const v = viewingNode === null ? null : varById(viewingNode);
  if (v) {
    if (v.parent !== null && v.parent !== undefined) viewNode(v.parent);
    else send({ type: "view", ply: v.from });
    return;
  }
  view((viewing ?? state.ply) - 1);
}

function stepForward() {
  if (viewingNode !== null) {
    const next = (state.variations || []).find((v) => v.parent === viewingNode);
    if (next) viewNode(next.id);
    return;
  }
  view((viewing ?? state.ply) + 1);
}

// A move from the board: the game's, or from a browsed position (the
// server makes it a variation unless it follows the line there).
function moveMsg(wire) {
  if (viewing === null) return { type: "move", wire, ply: state.ply };
  return { type: "move", wire, ply: viewing, node: viewingNode, variation: true };
}

function drawVarTools() {
  $("var-tools").hidden = viewingNode === null;
}

const SVG = "http://www.w3.org/2000/svg";

function drawGraph(s) {
  const g = $("graph");
  const w = 400;
  const h = 90;
  const n = Math.max(1, s.evals.length - 1);
  const x = (i) => 4 + (i / n) * (w - 8);
  const y = (cp) => h / 2 - (Math.max(-1000, Math.min(1000, cp)) / 1000) * (h / 2 - 4);
  const parts = [];
  const mid = document.createElementNS(SVG, "line");
  mid.setAttribute("x1", "0");
  mid.setAttribute("x2", String(w));
  mid.setAttribute("y1", String(h / 2));
  mid.setAttribute("y2", String(h / 2));
  mid.setAttribute("class", "mid");
  parts.push(mid);
  const pts = [];
  s.evals.forEach((cp, i) => {
    if (cp !== null && cp !== undefined) pts.push(`${x(i).toFixed(1)},${y(cp).toFixed(1)}`);
  });
  if (pts.length > 1) {
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", pts.join(" "));
    line.setAttribute("class", "eval");
    parts.push(line);
  }
  s.evals.forEach((cp, i) => {
    const c = document.createElementNS(SVG, "circle");
    const known = cp !== null && cp !== undefined;
    c.setAttribute("cx", x(i).toFixed(1));
    c.setAttribute("cy", (known ? y(cp) : h / 2).toFixed(1));
    c.setAttribute("r", i === (viewing ?? s.ply) ? "5" : "3");
    c.setAttribute("class", known ? "known" : "unknown");
    c.dataset.ply = String(i);
    const t = document.createElementNS(SVG, "title");
    t.textContent = known ? `after ${i}: ${(cp / 100).toFixed(2)}` : `after ${i}`;
    c.append(t);
    c.addEventListener("click", () => view(i));
    parts.push(c);
  });
  g.replaceChildren(...parts);
}

let downloadUrl = null;

function onRecord(msg) {
  $("record").value = msg.text;
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([msg.text], { type: "text/plain" }));
  const a = $("download");
  a.href = downloadUrl;
  a.download = `tengen-${state ? state.game : "game"}.${msg.format}`;
  a.hidden = false;
  document.body.dataset.saved = msg.format;
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function onHello(msg) {
  hello = msg;
  const game = $("game");
  game.replaceChildren(...msg.games.map((g) => option(g, g)));
  const feeds = msg.feeds || [];
  $("feed").replaceChildren(...feeds.map((f) => option(f, f)));
  $("watch").hidden = feeds.length === 0;
  fillEngines();
}

function fillEngines() {
  if (!hello) return;
  const g = $("game").value;
  const players = hello.engines.filter((e) => e.games.includes(g));
  const keep = [$("engine").value, $("engine2").value];
  $("engine").replaceChildren(
    ...players.map((e) => option(e.name, e.name)),
    option("", "nobody (two players)"),
  );
  $("engine2").replaceChildren(option("", "itself"), ...players.map((e) => option(e.name, e.name)));
  const keepMore = [...$("more").selectedOptions].map((o) => o.value);
  $("more").replaceChildren(...players.map((e) => option(e.name, e.name)));
  for (const o of $("more").options) o.selected = keepMore.includes(o.value);
  // Opening books of the server's configuration (engines playing).
  const keepBook = $("book").value;
  const books = (hello.books || []).filter((b) => b.games.includes(g));
  $("book").replaceChildren(option("", "none"), ...books.map((b) => option(b.name, b.name)));
  if (books.some((b) => b.name === keepBook)) $("book").value = keepBook;
  for (const [id, v] of [["engine", keep[0]], ["engine2", keep[1]]]) {
    if ([...$(id).options].some((o) => o.value === v)) $(id).value = v;
  }
  seatsChanged();
  const keepOpt = $("opt-engine").value;
  $("opt-engine").replaceChildren(...players.map((e) => option(e.name, e.name)));
  if (players.some((e) => e.name === keepOpt)) $("opt-engine").value = keepOpt;
  const cur = state ? state.game : g;
  const analysts = hello.engines.filter((e) => e.analyses.includes(cur));
  $("an-engine").replaceChildren(...analysts.map((e) => option(e.name, e.name)));
  $("analyse").disabled = analysts.length === 0;
  $("an-status").textContent = analysts.length ? "" : "no live analysis for this game yet";
  const goLike = g === "go" || g === "gomoku" || g === "renju";
  $("size-label").hidden = !goLike;
  $("opening-label").hidden = g !== "gomoku" && g !== "renju";
  $("position-label").hidden = g !== "chess960";
  if (goLike && document.activeElement !== $("size")) $("size").value = g === "go" ? 9 : 15;
}

function seatsChanged() {
  const none = $("human").value === "none";
  $("engine2-label").hidden = !none;
  $("more-label").hidden = !none || $("more").options.length < 3;
  $("games-label").hidden = !none;
  $("book-label").hidden = !none || $("book").options.length < 2;
}

// One row per pair: W-L-D from the first engine's view, as the arena
// computes the standing.
function standingRows(list) {
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  return list.map((e) => {
    const tr = document.createElement("tr");
    const elo = e.elo === null || e.elo === undefined ? "—" : `${e.elo.toFixed(1)}${e.margin ? ` ± ${e.margin.toFixed(1)}` : ""}`;
    for (const text of [`${e.engines[0]} vs ${e.engines[1]}`, e.wins, e.losses, e.draws, pct(e.score), elo, pct(e.los)]) {
      const td = document.createElement("td");
      td.textContent = String(text);
      tr.append(td);
    }
    return tr;
  });
}

function drawMatch(s) {
  const m = s.matchup;
  $("match").hidden = !m;
  if (!m) return;
  const rr = m.table && m.table.length > 1;
  $("rr-table").hidden = !rr;
  if (rr) {
    $("rr-table").tBodies[0].replaceChildren(...standingRows(m.table));
    $("match-text").textContent =
      `Round robin: game ${Math.min(m.played + (s.result ? 0 : 1), m.total)} of ${m.total} (${m.games} a pair)` +
      (m.stopping ? (s.result ? " · stopped" : " · stopping after this game") : "");
    $("finish").hidden = m.stopping || !!s.result || m.played >= m.total;
    $("match").dataset.stopping = String(m.stopping);
    $("match").dataset.played = String(m.played);
    return;
  }
  const elo = m.elo === null || m.elo === undefined ? "—" : `${m.elo.toFixed(1)}${m.margin ? ` ± ${m.margin.toFixed(1)}` : ""}`;
  $("match-text").textContent =
    `Match ${m.engines[0]} vs ${m.engines[1]}: game ${Math.min(m.played + (s.result ? 0 : 1), m.games)} of ${m.games}` +
    ` · ${m.wins} - ${m.losses} - ${m.draws} (W-L-D for ${m.engines[0]}) · score ${(m.score * 100).toFixed(1)}%` +
    ` · Elo ${elo} · LOS ${(m.los * 100).toFixed(1)}%` +
    (m.stopping ? (s.result ? " · stopped" : " · stopping after this game") : "");
  $("finish").hidden = m.stopping || !!s.result || m.played >= m.games;
  $("match").dataset.stopping = String(m.stopping);
  $("match").dataset.played = String(m.played);
}

// A tengen-arena run being watched: which game, and the standing the
// arena wrote (every pair, from the first-named engine's view).
function drawLive(s) {
  const l = s.live;
  $("live-box").hidden = !l;
  $("detach").hidden = !l;
  document.body.dataset.liveGame = l && l.game ? String(l.game) : "";
  document.body.dataset.liveDone = l ? String(l.done) : "";
  if (!l) return;
  const game = l.game ? `game ${l.game} of ${l.total}` : "waiting for the arena…";
  $("live-title").textContent = `Watching ${l.feed}: ${game} · ${l.done} played` + (l.problem ? ` · ${l.problem}` : "");
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  $("standing").tBodies[0].replaceChildren(...standingRows(l.encounters));
}

// An engine's options as it announced them (the server checks every
// value against them; the page only offers inputs of the right kind).
function onOptions(msg) {
  $("opt-note").textContent = `${msg.engine} over ${msg.protocol.toUpperCase()} (${msg.game}): values set here count from its next game or analysis`;
  const input = (o, shown) => {
    let el;
    if (o.kind === "check" || o.kind === "combo") {
      el = document.createElement("select");
      const vars = o.kind === "check" ? ["true", "false"] : o.vars;
      el.replaceChildren(...vars.map((v) => option(v, v)));
    } else {
      el = document.createElement("input");
      // Any text: the server checks it (a number within the range).
      el.type = "text";
      if (o.kind === "spin") {
        el.inputMode = "numeric";
        el.size = 8;
      }
    }
    el.value = shown;
    el.disabled = o.fixed;
    el.className = "opt-value";
    return el;
  };
  $("opt-table").tBodies[0].replaceChildren(
    ...msg.options.map((o) => {
      const tr = document.createElement("tr");
      tr.dataset.option = o.name;
      if (o.value !== null && o.value !== undefined) tr.classList.add("set");
      const shown = o.value ?? msg.configured[o.name] ?? o.default;
      const name = document.createElement("td");
      name.textContent = o.name;
      const val = document.createElement("td");
      const el = input(o, shown);
      val.append(el);
      const range = document.createElement("td");
      range.className = "range";
      range.textContent = o.kind === "spin" ? `${o.min}..${o.max}, default ${o.default}` : o.fixed ? o.kind : `default ${o.default === "" ? "(empty)" : o.default}`;
      const act = document.createElement("td");
      if (!o.fixed) {
        const set = document.createElement("button");
        set.textContent = "Set";
        set.className = "opt-set";
        set.onclick = () => {
          $("error").textContent = "";
          send({ type: "set_option", engine: msg.engine, game: msg.game, name: o.name, value: el.value });
        };
        const reset = document.createElement("button");
        reset.textContent = "Default";
        reset.className = "opt-reset";
        reset.onclick = () => send({ type: "set_option", engine: msg.engine, game: msg.game, name: o.name, value: null });
        act.append(set, reset);
      }
      tr.append(name, val, range, act);
      return tr;
    }),
  );
  document.body.dataset.options = `${msg.engine}/${msg.game}`;
  document.body.dataset.optionsSeen = String(Number(document.body.dataset.optionsSeen || 0) + 1);
}

function onState(s) {
  const newGame = !state || state.game_id !== s.game_id;
  state = s;
  clockAt = performance.now();
  // The variation shown was deleted (or promoted) meanwhile.
  const gone = viewingNode !== null && !(s.variations || []).some((v) => v.id === viewingNode);
  if (!newGame && (gone || (viewingNode === null && viewing !== null && viewing >= s.ply))) goLive(false);
  document.body.dataset.variations = String((s.variations || []).length);
  if (newGame) {
    viewing = null;
    viewingNode = null;
    document.body.dataset.viewNode = "";
    $("var-tools").hidden = true;
    viewState = null;
    analysis = null;
    flipped = s.human[1] && !s.human[0];
    $("game").value = s.game;
    fillEngines();
    drawLines();
  }
  document.body.dataset.game = s.game;
  document.body.dataset.gameId = String(s.game_id);
  document.body.dataset.ply = String(s.ply);
  document.body.dataset.thinking = String(s.thinking);
  document.body.dataset.result = s.result || "";
  if (viewing === null) drawBoard(s);
  drawMoves(s);
  drawGraph(s);
  drawStatus(s);
  drawMatch(s);
  drawLive(s);
  drawClocks();
  $("pass").hidden = s.game !== "go";
  $("mate").hidden = s.game !== "shogi";
  if (newGame) $("mate-result").textContent = "";
  $("accept").hidden = !s.scoring;
  drawSwap(s);
}

const SWAP_WORDS = { black: "Play Black", white: "Play White", place2: "Place two more stones" };

// Gomoku's swap opening: what the server says happens now, and the
// choices it offers (the server rules on each).
function drawSwap(s) {
  const box = $("swap");
  box.hidden = !s.swap;
  document.body.dataset.swap = s.swap ? s.swap.stage : "";
  if (!s.swap) return;
  $("swap-text").textContent = s.swap.text;
  $("swap-choices").replaceChildren(
    ...s.swap.choices.map((c) => {
      const b = document.createElement("button");
      b.textContent = SWAP_WORDS[c] || c;
      b.dataset.choice = c;
      b.onclick = () => send({ type: "swap", choice: c });
      return b;
    }),
  );
}

function colorOf(side) {
  return side === 0 ? "white" : "black";
}

function dests(s) {
  const m = new Map();
  for (const l of s.legal) {
    if (!l.orig || !l.dest) continue;
    const list = m.get(l.orig) || [];
    if (!list.includes(l.dest)) list.push(l.dest);
    m.set(l.orig, list);
  }
  return m;
}

function drawBoard(s) {
  if (s.board.component === "chessground") drawChessground(s);
  else drawGoban(s);
}

function resetBoard() {
  if (cg) {
    cg.destroy();
    cg = null;
  }
  cgShape = "";
  render(null, $("board"));
  $("board").replaceChildren();
  $("board").className = "";
  $("pocket-top").replaceChildren();
  $("pocket-bottom").replaceChildren();
}

function drawChessground(s) {
  const b = s.board;
  const shape = `${s.game}/${flipped}`;
  const orientation = flipped ? "black" : "white";
  const movable = {
    free: false,
    color: s.legal.length ? colorOf(s.to_move) : undefined,
    dests: dests(s),
    showDests: true,
  };
  const lastMove = s.last && s.last.orig ? [s.last.orig, s.last.dest] : undefined;
  if (shape !== cgShape) {
    resetBoard();
    cgShape = shape;
    const sq = SQUARE[s.game] || 56;
    const el = document.createElement("div");
    el.className = `cg-wrap board-${s.game} b${b.width}x${b.height}`;
    el.style.width = `${sq * b.width}px`;
    el.style.height = `${sq * b.height}px`;
    $("board").append(el);
    $("board").className = `game-${s.game}`;
    let top;
    let bottom;
    if (s.game === "shogi") {
      top = document.createElement("div");
      bottom = document.createElement("div");
      $("pocket-top").append(top);
      $("pocket-bottom").append(bottom);
    }
    cg = Chessground(
      el,
      {
        fen: b.fen,
        orientation,
        dimensions: { width: b.width, height: b.height },
        turnColor: b.turn,
        check: b.check ? b.turn : false,
        lastMove,
        coordinates: true,
        notation:
          s.game === "shogi"
            ? Notation.SHOGI_HANNUM
            : s.game === "xiangqi"
              ? Notation.XIANGQI_HANNUM
              : Notation.ALGEBRAIC,
        autoCastle: true,
        animation: { enabled: true, duration: 120 },
        highlight: { lastMove: true, check: true },
        movable: { ...movable, events: { after: onCgMove, afterNewPiece: onCgDrop } },
        draggable: { enabled: true },
        selectable: { enabled: true },
        premovable: { enabled: false },
        pocketRoles: s.game === "shogi" ? { white: SHOGI_HAND, black: SHOGI_HAND } : undefined,
        drawable: { enabled: true, visible: true },
      },
      top,
      bottom,
    );
  } else {
    cg.set({
      fen: b.fen,
      turnColor: b.turn,
      check: b.check ? b.turn : false,
      lastMove,
      movable,
    });
  }
  drawArrows();
}

function candidates(orig, dest) {
  return shown().legal.filter((l) => l.orig === orig && l.dest === dest);
}

function play(list) {
  if (list.length === 0) {
    drawBoard(shown());
    return;
  }
  if (list.length === 1) {
    send(moveMsg(list[0].wire));
    return;
  }
  // Promotion (chess) or promote-or-not (shogi): ask.
  const box = $("choice");
  box.replaceChildren(
    ...list.map((l) => {
      const btn = document.createElement("button");
      btn.textContent = choiceName(l.choice);
      btn.dataset.wire = l.wire;
      btn.onclick = () => {
        box.hidden = true;
        send(moveMsg(l.wire));
      };
      return btn;
    }),
  );
  box.hidden = false;
}

function choiceName(c) {
  const names = { q: "Queen", r: "Rook", b: "Bishop", n: "Knight", "+": "Promote", "=": "Do not promote" };
  return names[c] || c || "?";
}

function onCgMove(orig, dest) {
  play(candidates(orig, dest));
}

function onCgDrop(piece, dest) {
  const role = typeof piece === "string" ? piece : piece.role;
  const orig = `${role[0].toUpperCase()}@`;
  play(candidates(orig, dest));
}

function drawGoban(s) {
  const b = s.board;
  const shape = `${s.game}/${b.size}`;
  if (shape !== cgShape) {
    resetBoard();
    cgShape = shape;
    $("board").className = `game-${s.game}`;
  }
  const numbered = s.game !== "go";
  const markerMap = b.signs.map((row, y) =>
    row.map((sign, x) => {
      if (sign !== 0 && numbered) return { type: "label", label: String(b.numbers[y][x]) };
      if (sign !== 0 && s.last && s.last.vertex && s.last.vertex[0] === x && s.last.vertex[1] === y)
        return { type: "circle" };
      return null;
    }),
  );
  for (const [x, y] of b.forbidden) markerMap[y][x] = { type: "cross", label: "forbidden" };
  const ghost = b.signs.map((row) => row.map(() => null));
  let paintMap;
  if (current()) {
    for (const l of analysis.lines) {
      if (!l.first || !l.first.vertex) continue;
      const [x, y] = l.first.vertex;
      if (b.signs[y][x] !== 0) continue;
      ghost[y][x] = { sign: s.to_move === 0 ? 1 : -1, type: l.multipv === 1 ? "good" : "interesting", faint: l.multipv > 1 };
      const w = l.score && l.score.winrate !== undefined ? `${Math.round(l.score.winrate * 100)}` : String(l.multipv);
      markerMap[y][x] = { type: "label", label: w };
    }
    if (analysis.ownership) paintMap = analysis.ownership.map((row) => row.map((v) => Math.max(-1, Math.min(1, v))));
  }
  const dimmed = s.scoring ? s.scoring.dead : [];
  for (const [x, y] of dimmed) markerMap[y][x] = { type: "cross", label: "dead" };
  const px = Math.floor(540 / (b.size + 1));
  render(
    h(Goban, {
      vertexSize: px,
      signMap: b.signs,
      markerMap,
      ghostStoneMap: ghost,
      paintMap,
      dimmedVertices: dimmed,
      showCoordinates: true,
      // Gomoku's points are Gomocup's x,y from the top left, from 0.
      coordX: numbered ? (i) => String(i) : undefined,
      coordY: numbered ? (i) => String(i) : undefined,
      fuzzyStonePlacement: false,
      animateStonePlacement: false,
      onVertexClick: (evt, vertex) => onVertex(vertex),
    }),
    $("board"),
  );
}

function onVertex([x, y]) {
  if (!state) return;
  if (viewing !== null) {
    // A browsed position: the stone goes into a variation.
    if (viewState.board.signs[y][x] !== 0) return;
    send({ type: "vertex", x, y, ply: viewing, node: viewingNode, variation: true });
    return;
  }
  if (state.result) return;
  if (state.scoring) {
    if (state.board.signs[y][x] !== 0) send({ type: "dead", x, y });
    return;
  }
  if (state.board.signs[y][x] !== 0) return;
  send({ type: "vertex", x, y, ply: state.ply });
}

// Variations, lichess style: after the main move they stand beside, in
// parentheses, each move clickable; a variation's own variations nest.
function varChildren(s) {
  const kids = new Map();
  for (const v of s.variations || []) {
    const key = v.parent !== null && v.parent !== undefined ? `s${v.parent}` : `m${v.from}`;
    if (!kids.has(key)) kids.set(key, []);
    kids.get(key).push(v);
  }
  return kids;
}

function varMove(v, numbered) {
  const el = document.createElement("span");
  el.className = "var-move";
  const n = Math.floor((v.ply - 1) / 2) + 1;
  const first = (v.ply - 1) % 2 === 0;
  el.textContent = first ? `${n}. ${v.text}` : numbered ? `${n}… ${v.text}` : v.text;
  el.dataset.node = String(v.id);
  el.dataset.wire = v.wire;
  if (viewingNode === v.id) el.classList.add("viewed");
  el.onclick = (ev) => {
    ev.stopPropagation();
    viewNode(v.id);
  };
  return el;
}

function varLine(first, kids) {
  const span = document.createElement("span");
  span.className = "variation";
  span.append("(");
  let numbered = true;
  const add = (v) => {
    if (v !== first) span.append(" ");
    span.append(varMove(v, numbered));
    numbered = false;
  };
  add(first);
  let cur = first;
  for (;;) {
    const next = kids.get(`s${cur.id}`) || [];
    if (next.length === 0) break;
    add(next[0]);
    for (const alt of next.slice(1)) {
      span.append(" ", varLine(alt, kids));
      numbered = true;
    }
    cur = next[0];
  }
  span.append(")");
  return span;
}

function drawMoves(s) {
  const ol = $("moves");
  const kids = varChildren(s);
  ol.replaceChildren(
    ...s.moves.flatMap((m, i) => {
      const li = document.createElement("li");
      li.textContent = m.text;
      li.value = Math.floor(i / 2) + 1;
      if (i % 2 === 1) li.className = "second";
      li.dataset.wire = m.wire;
      if (m.book) {
        li.classList.add("book");
        li.title = "book";
      }
      li.dataset.ply = String(i + 1);
      if (viewing === i + 1 && viewingNode === null) li.classList.add("viewed");
      li.onclick = () => view(i + 1);
      const alts = kids.get(`m${i}`) || [];
      if (alts.length === 0) return [li];
      const box = document.createElement("li");
      box.className = "variations";
      alts.forEach((a, j) => box.append(...(j ? [" "] : []), varLine(a, kids)));
      return [li, box];
    }),
  );
  if (viewingNode === null) ol.scrollTop = ol.scrollHeight;
}

function drawStatus(s) {
  const names = s.sides;
  $("players").textContent = `${names[0]}: ${s.players[0]} · ${names[1]}: ${s.players[1]}`;
  let text;
  if (s.result) text = `${s.result} — ${s.reason}`;
  else if (s.swap) text = s.thinking ? `${s.swap.text} (thinking…)` : s.swap.text;
  else if (s.scoring) text = `Two passes: click dead stones, then accept the count (${s.scoring.score})`;
  else if (s.thinking) text = `${names[s.to_move]} (${s.players[s.to_move]}) is thinking…`;
  else text = `${names[s.to_move]} to move`;
  $("status").textContent = text;
}

function fmtClock(ms) {
  const t = Math.max(0, Math.floor(ms / 100));
  const tenths = t % 10;
  const secs = Math.floor(t / 10);
  const m = Math.floor(secs / 60);
  const sec = String(secs % 60).padStart(2, "0");
  return secs < 10 ? `${m}:${sec}.${tenths}` : `${m}:${sec}`;
}

function drawClocks() {
  const s = state;
  if (!s) return;
  const bottomSide = flipped ? 1 : 0;
  const el = [$("clock-bottom"), $("clock-top")];
  [bottomSide, 1 - bottomSide].forEach((side, i) => {
    const box = el[i];
    if (!s.clock) {
      box.textContent = `${s.sides[side]}: ${s.players[side]}`;
      box.classList.remove("running");
      return;
    }
    let left = s.clock.left_ms[side];
    const running = s.clock.running === side && !s.result;
    if (running) left -= performance.now() - clockAt;
    box.textContent = `${s.sides[side]} ${s.players[side]} — ${fmtClock(left)}`;
    box.classList.toggle("running", running);
    box.dataset.side = String(side);
  });
}

function fmtScore(sc) {
  if (!sc) return "";
  if (sc.winrate !== undefined && sc.winrate !== null) {
    const lead = sc.lead !== undefined && sc.lead !== null ? ` ${sc.lead > 0 ? "+" : ""}${sc.lead.toFixed(1)}` : "";
    return `${(sc.winrate * 100).toFixed(1)}%${lead}`;
  }
  if (sc.mate !== undefined && sc.mate !== null) return `#${sc.mate}`;
  const v = sc.cp / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

function onAnalysis(msg) {
  analysis = msg;
  document.body.dataset.anPly = String(msg.ply);
  // The server keeps the analysis's evaluation of that position too; the
  // graph shows it before the next state comes.
  const best = msg.lines.find((l) => l.multipv === 1);
  const mainLine = msg.node === null || msg.node === undefined;
  if (state && mainLine && msg.game_id === state.game_id && best && best.score && msg.ply < state.evals.length)
    state.evals[msg.ply] = best.score.first_cp;
  $("stop").disabled = !msg.running;
  $("analyse").disabled = msg.running;
  $("an-status").textContent = msg.running ? `${msg.engine} is analysing…` : `${msg.engine}: stopped`;
  document.body.dataset.analysing = String(msg.running);
  drawLines();
  if (state) {
    if (state.board.component === "chessground") drawArrows();
    else drawGoban(shown());
  }
  if (state) drawGraph(state);
}

// Whether the analysis is of the position shown (the game's, or the
// browsed one).
function current() {
  return (
    analysis &&
    state &&
    analysis.game_id === state.game_id &&
    analysis.ply === (viewing ?? state.ply) &&
    (analysis.node ?? null) === viewingNode
  );
}

function drawLines() {
  const body = $("lines").tBodies[0];
  if (!current()) {
    body.replaceChildren();
    setEval(null);
    return;
  }
  body.replaceChildren(
    ...analysis.lines.map((l) => {
      const tr = document.createElement("tr");
      tr.className = "line";
      tr.dataset.multipv = String(l.multipv);
      tr.dataset.depth = String(l.depth ?? 0);
      tr.dataset.nodes = String(l.nodes ?? 0);
      const depth = l.depth !== undefined && l.depth !== null ? `d${l.depth}` : "";
      const cells = [fmtScore(l.score), depth, `${l.nodes ?? ""}`, l.pv_text];
      tr.replaceChildren(
        ...cells.map((c) => {
          const td = document.createElement("td");
          td.textContent = c;
          return td;
        }),
      );
      return tr;
    }),
  );
  const best = analysis.lines.find((l) => l.multipv === 1);
  setEval(best && best.score ? best.score.first_cp : null);
}

function setEval(cp) {
  const fill = $("evalfill");
  if (cp === null) {
    fill.style.height = "50%";
    $("evalbar").title = "no evaluation";
    return;
  }
  // First side's share of the bar: a logistic curve of centipawns.
  const share = 1 / (1 + Math.exp(-cp / 400));
  fill.style.height = `${(share * 100).toFixed(1)}%`;
  $("evalbar").title = `${(cp / 100).toFixed(2)}`;
  $("evalbar").dataset.cp = String(cp);
}

const BRUSHES = ["paleBlue", "paleGreen", "paleGrey", "paleRed", "yellow"];

function drawArrows() {
  if (!cg) return;
  if (!current()) {
    cg.setAutoShapes([]);
    return;
  }
  const shapes = [];
  for (const l of analysis.lines) {
    if (!l.first || !l.first.dest) continue;
    const brush = BRUSHES[(l.multipv - 1) % BRUSHES.length];
    const width = Math.max(4, 16 - 3 * (l.multipv - 1));
    if (l.first.orig && !l.first.orig.endsWith("@"))
      shapes.push({ orig: l.first.orig, dest: l.first.dest, brush, modifiers: { lineWidth: width } });
    else shapes.push({ orig: l.first.dest, brush });
  }
  cg.setAutoShapes(shapes);
}

function wire() {
  $("game").onchange = fillEngines;
  $("human").onchange = seatsChanged;
  $("new-game").onsubmit = (ev) => {
    ev.preventDefault();
    $("error").textContent = "";
    $("choice").hidden = true;
    const g = $("game").value;
    const msg = {
      type: "new",
      game: g,
      engine: $("engine").value || null,
      human: $("human").value,
      tc: $("tc").value,
    };
    if (g === "go" || g === "gomoku" || g === "renju") msg.size = Number($("size").value);
    if (g === "chess960" && $("position").value !== "") msg.position = Number($("position").value);
    if ((g === "gomoku" || g === "renju") && $("opening").value) msg.opening = $("opening").value;
    if (msg.human === "none") {
      if ($("engine2").value) msg.engine2 = $("engine2").value;
      if ($("book").value) msg.book = $("book").value;
      const games = Number($("games").value) || 1;
      if (games > 1) msg.games = games;
      // A round robin: the engines chosen besides the two.
      const more = [...$("more").selectedOptions].map((o) => o.value);
      if (more.length && msg.engine && msg.engine2) msg.engines = [msg.engine, msg.engine2, ...more];
    }
    send(msg);
  };
  $("watch").onsubmit = (ev) => {
    ev.preventDefault();
    $("error").textContent = "";
    if ($("feed").value) send({ type: "attach", feed: $("feed").value });
  };
  $("detach").onclick = () => send({ type: "detach" });
  $("finish").onclick = () => send({ type: "finish_match" });
  $("opt-show").onclick = () => {
    $("error").textContent = "";
    if ($("opt-engine").value) send({ type: "options", engine: $("opt-engine").value, game: $("game").value });
  };
  $("undo").onclick = () => send({ type: "undo" });
  $("accept").onclick = () => send({ type: "score" });
  $("resign").onclick = () => send({ type: "resign" });
  $("pass").onclick = () => state && send(moveMsg("pass"));
  $("promote").onclick = () => viewingNode !== null && send({ type: "promote", node: viewingNode });
  $("delete-var").onclick = () => viewingNode !== null && send({ type: "delete", node: viewingNode });
  $("live").onclick = () => goLive();
  $("letters").checked = localStorage.getItem("tengen-letters") === "1";
  document.body.classList.toggle("letters", $("letters").checked);
  $("letters").onchange = () => {
    document.body.classList.toggle("letters", $("letters").checked);
    localStorage.setItem("tengen-letters", $("letters").checked ? "1" : "0");
  };
  document.addEventListener("keydown", (ev) => {
    if (!state || ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
    if (ev.key === "ArrowLeft") stepBack();
    else if (ev.key === "ArrowRight") stepForward();
    else if (ev.key === "Home") view(0);
    else if (ev.key === "End") goLive();
    else return;
    ev.preventDefault();
  });
  $("flip").onclick = () => {
    flipped = !flipped;
    if (state) {
      drawBoard(shown());
      drawClocks();
    }
  };
  $("analyse").onclick = () =>
    send({ type: "analyse", engine: $("an-engine").value, multipv: Number($("multipv").value) || 3 });
  $("stop").onclick = () => send({ type: "stop" });
  $("mate").onclick = () => {
    $("mate").disabled = true;
    $("mate-result").textContent = "searching for a mate…";
    delete $("mate-result").dataset.outcome;
    send({ type: "mate", engine: $("an-engine").value, ms: 10000 });
  };
  $("save").onclick = () => {
    const f = $("format").value;
    send(f && state && state.game === "shogi" ? { type: "save", format: f } : { type: "save" });
  };
  $("file").onchange = async () => {
    const f = $("file").files[0];
    if (!f) return;
    const bytes = await f.arrayBuffer();
    // Records come in UTF-8, or Shift_JIS (KIF from Japanese programs).
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder("shift_jis").decode(bytes);
    }
    $("record").value = text;
    $("error").textContent = "";
    send({ type: "load", text });
  };
  $("load").onclick = () => {
    $("error").textContent = "";
    send({ type: "load", text: $("record").value });
  };
  setInterval(drawClocks, 100);
}

wire();
connect();
