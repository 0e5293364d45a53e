//! Round trips for CECP, both directions, over generated lines: whatever
//! the engine side reads as a command (or an `edit` line) prints back to
//! a line that reads to the same value, and whatever the host side reads
//! from an engine prints back the same way; typed values survive.

use tengen_protocol::cecp::{
    mate_score, score_mate, Command, EditLine, FeatureValue, GameResult, Level, OptionDecl,
    OptionKind, Reply, Thinking,
};

/// A small deterministic generator (xorshift64*), so failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[(self.next() % list.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "xboard",
    "protover",
    "new",
    "variant",
    "force",
    "go",
    "playother",
    "level",
    "st",
    "sd",
    "nps",
    "time",
    "otim",
    "usermove",
    "?",
    "ping",
    "draw",
    "result",
    "setboard",
    "edit",
    "hint",
    "bk",
    "undo",
    "remove",
    "hard",
    "easy",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "name",
    "rating",
    "computer",
    "memory",
    "cores",
    "egtpath",
    "option",
    "exclude",
    "include",
    "all",
    "quit",
    "accepted",
    "rejected",
    "feature",
    "move",
    "pong",
    "resign",
    "offer",
    "Error",
    "Illegal",
    "My",
    "is:",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "{",
    "}",
    "{White",
    "mates}",
    "(x)",
    "(reason):",
    "e2e4",
    "e7e8q",
    "O-O",
    "P@e5",
    "c3c4+",
    "h2e2",
    "0",
    "1",
    "-5",
    "40",
    "2:30",
    "0.5",
    "100005",
    "-100003",
    "=",
    "a=1",
    "b=\"x",
    "y\"",
    "Hash=16",
    "#",
    "c",
    "Pa4",
    "...",
    "3.",
    "stat01:",
    "telluser",
    "tellusererror",
    "Hint:",
    "",
    "\t",
    "é",
];

fn line(rng: &mut Rng) -> String {
    let n = 1 + rng.next() % 7;
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push_str(rng.pick(&[" ", "  ", "\t"]));
        }
        s.push_str(rng.pick(WORDS));
    }
    s
}

#[test]
fn generated_commands_and_replies_read_back_the_same() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut commands, mut replies) = (0, 0);
    for _ in 0..100_000 {
        let l = line(&mut rng);
        if let Ok(Some(c)) = Command::parse(&l) {
            commands += 1;
            let printed = c.to_string();
            assert_eq!(
                Command::parse(&printed),
                Ok(Some(c)),
                "'{l}' -> '{printed}'"
            );
        }
        if let Ok(Some(e)) = EditLine::parse(&l) {
            assert_eq!(EditLine::parse(&e.to_string()), Ok(Some(e)), "{l}");
        }
        let r = Reply::parse(&l);
        if !matches!(r, Reply::Unknown(_)) {
            replies += 1;
        }
        let printed = r.to_string();
        assert_eq!(Reply::parse(&printed), r, "'{l}' -> '{printed}'");
    }
    // The vocabulary reaches both parsers' typed forms often.
    assert!(commands > 20_000 && replies > 2_000, "{commands} {replies}");
}

#[test]
fn typed_commands_print_as_guis_send_them() {
    for (cmd, line) in [
        (
            Command::Level(Level {
                mps: 40,
                base_s: 300,
                inc_ms: 0,
            }),
            "level 40 5 0",
        ),
        (
            Command::Level(Level {
                mps: 0,
                base_s: 90,
                inc_ms: 500,
            }),
            "level 0 1:30 0.5",
        ),
        (Command::St(250), "st 0.25"),
        (Command::Time(-20), "time -20"),
        (
            Command::Result {
                result: GameResult::WhiteWins,
                comment: "White mates".into(),
            },
            "result 1-0 {White mates}",
        ),
        (Command::UserMove("P@e5".into()), "usermove P@e5"),
    ] {
        assert_eq!(cmd.to_string(), line);
        assert_eq!(Command::parse(line), Ok(Some(cmd)));
    }
}

#[test]
fn engine_replies_read_back_on_the_host_side() {
    let features = Reply::Feature(vec![
        ("ping".into(), FeatureValue::Int(1)),
        ("myname".into(), FeatureValue::Str("tengen 0.1".into())),
        (
            "option".into(),
            FeatureValue::Str(
                OptionDecl {
                    name: "MoveOverhead".into(),
                    kind: OptionKind::Spin {
                        default: 30,
                        min: 0,
                        max: 5000,
                    },
                }
                .to_string(),
            ),
        ),
    ]);
    for r in [
        features,
        Reply::Move("e7e8q".into()),
        Reply::Thinking(Thinking {
            ply: 9,
            score: mate_score(2),
            time_cs: 42,
            nodes: 123_456,
            pv: "d1h5 g7g6 h5e5".into(),
        }),
        Reply::Result {
            result: GameResult::Draw,
            comment: "Draw by repetition".into(),
        },
        Reply::IllegalMove {
            reason: Some("no piece on e3".into()),
            mv: "e3e4".into(),
        },
        Reply::Error {
            reason: "unknown command".into(),
            command: "frob 1".into(),
        },
        Reply::Pong(7),
        Reply::OfferDraw,
        Reply::Resign,
    ] {
        assert_eq!(Reply::parse(&r.to_string()), r);
    }
    assert_eq!(score_mate(mate_score(-4)), Some(-4));
}
