#!/usr/bin/env python3
"""Writes seed inputs for the fuzz targets into fuzz/corpus/TARGET/.

Seeds are realistic inputs, not hand-made thousands: protocol lines and
transcripts from the protocol checklists (../shared/protocols/*.md), match
files and command lines from docs/arena.md, positions from the test data
(../shared/testdata) and data/openings, and short random games played
with `tengen legal` (so every move is legal in its position). libFuzzer
grows the corpora from here and `cargo fuzz cmin` keeps them small.

    python3 scripts/fuzz_seeds.py [--tengen target/release/tengen]
        [--protocols ../shared/protocols] [--testdata ../shared/testdata]
        [--only TARGET...]

Each seed is named `seed-SHA1` by its content, so running again adds only
what is new.
"""

import argparse
import hashlib
import json
import random
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
MAX_PER_TARGET = 300

seeds: dict[str, set[bytes]] = {}


def add(target: str, data) -> None:
    if isinstance(data, str):
        data = data.encode()
    seeds.setdefault(target, set()).add(data)


def doc_snippets(path: Path):
    """Code-block lines, whole code blocks and inline `code` of a markdown file."""
    text = path.read_text(errors="replace")
    lines, blocks = [], []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        blocks.append(block)
        lines.extend(line.strip() for line in block.splitlines() if line.strip())
    for snip in re.findall(r"`([^`\n]+)`", text):
        lines.append(snip.strip())
    return lines, blocks


def transcript_side(lines, prefixes):
    """Strips `> `/`< ` style direction marks when a checklist uses them."""
    out = []
    for line in lines:
        for p in prefixes:
            if line.startswith(p):
                line = line[len(p):].strip()
        out.append(line)
    return out


def protocol_seeds(protocols: Path) -> None:
    if not protocols.is_dir():
        print(f"no {protocols}: protocol seeds skipped")
        return
    targets = {
        "uci.md": ["uci_line", "uci_command", "uci_reply"],
        "ucci.md": ["ucci_command", "ucci_reply"],
        "usi.md": ["usi_command", "usi_reply"],
        "gtp.md": ["gtp_command", "gtp_response"],
        "agi.md": ["agi_command", "agi_message"],
        "gomocup.md": ["gomocup_command", "gomocup_reply"],
    }
    for name, ts in targets.items():
        path = protocols / name
        if not path.exists():
            continue
        lines, blocks = doc_snippets(path)
        lines = transcript_side(lines, [">>", "<<", "->", "<-", ">", "<", "GUI:", "Engine:"])
        for t in ts:
            for line in lines:
                add(t, line)
        for block in blocks:
            add("protocol_lines", block)
            # Multi-line readers: Gomocup BOARD blocks, GTP responses.
            if name == "gomocup.md":
                add("gomocup_command", block)
                add("gomocup_reply", block)
            if name == "gtp.md":
                add("gtp_response", block)
    for t in ["protocol_lines"]:
        for path in sorted(protocols.glob("*.md")):
            lines, _ = doc_snippets(path)
            add(t, "\n".join(lines[:80]))


class Legal:
    """Random legal games through `tengen legal`."""

    def __init__(self, exe: Path):
        self.exe = exe

    def moves(self, game, position=None, moves=(), extra=()):
        cmd = [str(self.exe), "legal", "--game", game]
        if position:
            cmd += ["--position", position]
        cmd += list(extra)
        if moves:
            cmd += ["--moves", *moves]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        if out.returncode != 0:
            return [], out.stderr.strip()
        names = [l for l in out.stdout.splitlines() if l and not l.startswith("result:")]
        result = [l for l in out.stdout.splitlines() if l.startswith("result:")]
        return names, result[0] if result else ""

    def playout(self, rng, game, position=None, plies=20, extra=()):
        played = []
        for _ in range(plies):
            names, result = self.moves(game, position, played, extra)
            if not names or (result and result != "result: ongoing"):
                break
            played.append(rng.choice(names))
        return played


def first_fields(line: str, n: int) -> str:
    return " ".join(line.split(";")[0].split()[:n])


def position_seeds(testdata: Path, legal: Legal, rng: random.Random) -> None:
    chess_fens = ["startpos"]
    for f in [testdata / "chess/perft.epd", testdata / "chess/tactics.epd"]:
        if f.exists():
            chess_fens += [first_fields(l, 6) for l in f.read_text().splitlines() if l.strip()]
    book = ROOT / "data/openings/chess-8ply.epd"
    if book.exists():
        book_lines = [l for l in book.read_text().splitlines() if l.strip()]
        chess_fens += [first_fields(l, 4) for l in book_lines[:10]]
    xq_fens, shogi_fens = ["startpos"], ["startpos"]
    if (testdata / "xiangqi/perft.txt").exists():
        xq_fens += [first_fields(l, 6) for l in (testdata / "xiangqi/perft.txt").read_text().splitlines() if l.strip()]
    if (testdata / "shogi/perft.txt").exists():
        shogi_fens += [first_fields(l, 4) for l in (testdata / "shogi/perft.txt").read_text().splitlines() if l.strip()]

    for target, game, fens, pick in [
        ("chess_fen", "chess", chess_fens, 0),
        ("xiangqi_fen", "xiangqi", xq_fens, 1),
        ("shogi_sfen", "shogi", shogi_fens, 2),
    ]:
        for i, fen in enumerate(fens[:40]):
            pos = None if fen == "startpos" else fen
            plies = 24 if i < 8 else 4
            line = legal.playout(rng, game, pos, plies)
            shown = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" if (
                fen == "startpos" and game == "chess") else fen
            if target != "chess_fen" or fen != "startpos":
                add(target, f"{shown}|{' '.join(line)}")
            add(target, shown)
            add("position_args", bytes([pick]) + f"{fen}|{' '.join(line)}".encode())
            if game == "chess":
                add("arena_openings", bytes([2]) + pgn_of(fen, line).encode())
                add("arena_openings", bytes([1]) + " ".join(line).encode())
        if game == "chess":
            add("arena_openings", b"\x00" + "\n".join(chess_fens[1:30]).encode())
            add("position_args", b"\x80" + b"startpos|e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1")
            # Chess960 (Shredder-FEN castling) from the tests.
            add("chess_fen", "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1|e1d1")
            add("chess_fen", "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w BGbg - 0 1")
        if game == "xiangqi":
            add("arena_openings", bytes([4]) + "\n".join(xq_fens[1:20]).encode())
            add("arena_openings", bytes([5]) + " ".join(legal.playout(rng, "xiangqi", None, 12)).encode())
        if game == "shogi":
            add("arena_openings", bytes([8]) + "\n".join(shogi_fens[1:20]).encode())
            add("arena_openings", bytes([9]) + " ".join(legal.playout(rng, "shogi", None, 12)).encode())


def pgn_of(fen: str, moves) -> str:
    try:
        import chess
        import chess.pgn
    except ImportError:
        return ""
    board = chess.Board() if fen == "startpos" else chess.Board(fen)
    game = chess.pgn.Game()
    if fen != "startpos":
        game.setup(board)
    node = game
    for m in moves:
        node = node.add_variation(chess.Move.from_uci(m))
    game.headers["Event"] = "fuzz seed"
    return str(game) + "\n"


def go_seeds(testdata: Path, legal: Legal, rng: random.Random) -> None:
    cols = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

    def sgf_point(v, size):
        if v.lower() == "pass":
            return ""
        x = cols.index(v[0].upper())
        y = int(v[1:]) - 1
        return "abcdefghijklmnopqrstuvwxyz"[x] + "abcdefghijklmnopqrstuvwxyz"[size - 1 - y]

    for size, plies in [(9, 40), (9, 12), (13, 20), (19, 30), (5, 30)]:
        line = legal.playout(rng, "go", None, plies, ["--size", str(size)])
        add("position_args", bytes([3]) + f"{size}|{' '.join(line)}".encode())
        add("position_args", bytes([3]) + f"{size} situational|{' '.join(line)}".encode())
        body = "".join(
            f";{'BW'[i % 2]}[{sgf_point(v, size)}]" for i, v in enumerate(line)
        )
        add("go_sgf", f"(;FF[4]GM[1]SZ[{size}]KM[7.5]RU[Chinese]PB[a]PW[b]\n{body})")
        add("go_sgf", f"(;FF[4]GM[1]SZ[{size}]KM[6.5]HA[2]AB[cc][gg]{body.replace(';B', ';X').replace(';W', ';B').replace(';X', ';W')})")
        add("arena_openings", bytes([13]) + " ".join(line).encode())
    # Setup stones, PL, rectangles, variations, escapes in comments.
    add("go_sgf", "(;FF[4]SZ[9]KM[0]AB[aa:cc]AW[ee][ff]PL[W]C[a \\] comment];W[gg];B[]\n(;W[hh])(;W[ii]))")
    add("go_sgf", "(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[7.5]HA[4]AB[dd][pd][dp][pp];W[qf];B[tt];W[])")
    add("go_sgf", "(;SZ[25]KM[-3.5];B[yy];W[aa];B[Aa])")
    rules = testdata / "go/rules.jsonl"
    if rules.exists():
        for l in rules.read_text().splitlines()[:60]:
            case = json.loads(l)
            moves = case.get("moves") or []
            size = case.get("size", 19)
            toks = [f"{c}:{v}" for c, v in moves if isinstance(v, str)]
            add("position_args", bytes([3]) + f"{size}|{' '.join(toks)}".encode())
            body = "".join(f";{c}[{sgf_point(v, size)}]" for c, v in moves if isinstance(v, str))
            add("go_sgf", f"(;FF[4]SZ[{size}]KM[{case.get('komi', 7.5)}]{body})")


def gomoku_seeds(testdata: Path, legal: Legal, rng: random.Random) -> None:
    for rule in ["freestyle", "standard", "renju"]:
        line = legal.playout(rng, "gomoku", None, 20, ["--rule", rule])
        add("position_args", bytes([4]) + f"15 {rule}|{' '.join(line)}".encode())
        add("arena_openings", bytes([17]) + " ".join(line).encode())
        add("gomocup_command", "BOARD\n" + "\n".join(f"{m},{1 + i % 2}" for i, m in enumerate(line)) + "\nDONE\n")
    add("arena_openings", bytes([19]) + b"0,0, 1,0, 1,1\n# comment\n-1,0, 0,1, 2,-2\n")
    for name in ["win_detection.jsonl", "renju_forbidden.jsonl"]:
        f = testdata / "gomoku" / name
        if not f.exists():
            continue
        for l in f.read_text().splitlines()[:40]:
            case = json.loads(l)
            pts = lambda k: " ".join(f"{x},{y}" for x, y in case.get(k, []))
            size = case.get("board_size", 15)
            rule = rng.choice(["freestyle", "standard", "renju"])
            add("position_args", bytes([4]) + f"{size} {rule}||{pts('black')}|{pts('white')}|{case.get('to_move', 'black')}".encode())


def arena_seeds() -> None:
    doc = ROOT / "docs/arena.md"
    if not doc.exists():
        return
    text = doc.read_text()
    for block in re.findall(r"```toml\n(.*?)```", text, re.S):
        add("arena_config", block)
    for cmd in re.findall(r"tengen-arena ((?:[^\n\\]|\\\n)+)", text):
        args = cmd.replace("\\\n", " ").strip()
        if "config" not in args:
            add("arena_config", args)


def journal_seeds(rng: random.Random) -> None:
    """Match journals as the arena writes them, whole, torn and shuffled."""
    for shard in [None, [2, 4]]:
        header = {"journal": 1, "match": "variant=chess games=8 seed=19", "record": True}
        if shard:
            header["shard"] = shard
        lines = [json.dumps(header, separators=(",", ":"))]
        end = 0
        for game in range(1, 7):
            end += rng.randint(200, 900)
            lines.append(json.dumps({
                "game": game, "round": (game + 1) // 2, "encounter": 0,
                "pair": (game - 1) // 2, "seats": [(game + 1) % 2, game % 2],
                "players": ["tengen", "stockfish \"dev\""],
                "result": rng.choice(["1-0", "0-1", "1/2-1/2"]),
                "reason": rng.choice(["checkmate", "time forfeit", "draw by\nrepetition"]),
                "plies": rng.randint(10, 200), "record_end": end,
            }, separators=(",", ":")))
        text = "\n".join(lines) + "\n"
        add("arena_journal", text)
        add("arena_journal", text[: len(text) - 17])
        add("arena_journal", "\n".join(lines[:1] + lines[3:1:-1]) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tengen", default=str(ROOT / "target/release/tengen"))
    ap.add_argument("--protocols", default=str(ROOT.parent / "shared/protocols"))
    ap.add_argument("--testdata", default=str(ROOT.parent / "shared/testdata"))
    ap.add_argument("--only", nargs="*", help="write only these targets' seeds")
    args = ap.parse_args()
    rng = random.Random(19)
    legal = Legal(Path(args.tengen))
    protocol_seeds(Path(args.protocols))
    position_seeds(Path(args.testdata), legal, rng)
    go_seeds(Path(args.testdata), legal, rng)
    gomoku_seeds(Path(args.testdata), legal, rng)
    arena_seeds()
    journal_seeds(rng)
    for target, items in sorted(seeds.items()):
        if args.only and target not in args.only:
            continue
        items = sorted(x for x in items if x)
        if len(items) > MAX_PER_TARGET:
            items = rng.sample(items, MAX_PER_TARGET)
        out = CORPUS / target
        out.mkdir(parents=True, exist_ok=True)
        for data in items:
            (out / f"seed-{hashlib.sha1(data).hexdigest()}").write_bytes(data)
        print(f"{target}: {len(items)} seeds")


if __name__ == "__main__":
    main()
