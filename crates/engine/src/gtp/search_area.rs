//! GNU Go's search area: `limit_search`, `set_search_diamond`,
//! `set_search_limit` and `reset_search_mask` confine the moves that
//! `genmove` and its relatives may choose to a marked region, for studying
//! one local fight.
//!
//! As in GNU Go 3.8: the mask is a set of points; `set_search_diamond V`
//! marks exactly the points within Manhattan distance 6 of `V` and turns
//! the limit on; `set_search_limit V` adds one point; `reset_search_mask`
//! empties the mask and leaves the limit as it was; `limit_search N` turns
//! the limit off for 0 and on for any other integer. Where GNU Go 3.8
//! differs, tengen defines it: GNU Go crashes on `set_search_limit` without
//! a vertex or with `pass` (tengen: `invalid coordinate`), and resigns when
//! the area holds no move worth playing (tengen passes when it holds no
//! legal move, and otherwise plays its best move inside the area). A new
//! board size empties the mask, whose points named the old board.

use tengen_go::board::{parse_vertex_rect, Move, Point};

/// Radius of `set_search_diamond`, in steps along the lines.
const DIAMOND: usize = 6;

pub(super) const COMMANDS: &[&str] = &[
    "limit_search",
    "set_search_diamond",
    "set_search_limit",
    "reset_search_mask",
];

#[derive(Clone, Debug, Default)]
pub(super) struct SearchArea {
    on: bool,
    mask: Vec<Point>,
}

impl SearchArea {
    /// The points a move may take, or `None` when the search is not
    /// limited.
    pub(super) fn allowed(&self) -> Option<&[Point]> {
        self.on.then_some(self.mask.as_slice())
    }

    /// Forgets the mask (a new board size).
    pub(super) fn clear_mask(&mut self) {
        self.mask.clear();
    }

    /// Answers one of [`COMMANDS`]; `None` for any other command.
    pub(super) fn command(
        &mut self,
        name: &str,
        args: &[String],
        (width, height): (usize, usize),
        points: impl Iterator<Item = Point>,
    ) -> Option<Result<String, String>> {
        let vertex = || match args
            .first()
            .and_then(|v| parse_vertex_rect(v, width, height))
        {
            Some(Move::Play(p)) => Ok(p),
            _ => Err("invalid coordinate".to_string()),
        };
        Some(match name {
            "limit_search" => match args.first().map(|a| a.parse::<i64>()) {
                Some(Ok(n)) => {
                    self.on = n != 0;
                    Ok(String::new())
                }
                _ => Err("invalid value for search limit".into()),
            },
            "set_search_diamond" => vertex().map(|c| {
                self.mask = points
                    .filter(|p| p.x().abs_diff(c.x()) + p.y().abs_diff(c.y()) <= DIAMOND)
                    .collect();
                self.on = true;
                String::new()
            }),
            "set_search_limit" => vertex().map(|p| {
                if !self.mask.contains(&p) {
                    self.mask.push(p);
                }
                String::new()
            }),
            "reset_search_mask" => {
                self.mask.clear();
                Ok(String::new())
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_go::board::{vertex_name, Board};

    fn run(area: &mut SearchArea, line: &str) -> Result<String, String> {
        let b = Board::new(9);
        let mut words = line.split_whitespace().map(str::to_string);
        let name = words.next().unwrap_or_default();
        let args: Vec<String> = words.collect();
        area.command(&name, &args, (9, 9), b.points())
            .unwrap_or_else(|| Err("not ours".into()))
    }

    #[test]
    fn the_diamond_is_manhattan_radius_six_and_turns_the_limit_on() {
        let mut a = SearchArea::default();
        assert_eq!(a.allowed(), None);
        assert_eq!(run(&mut a, "set_search_diamond A1"), Ok(String::new()));
        let mask = a.allowed().unwrap_or_default();
        // x + y <= 6 from the corner: 1 + 2 + ... + 7 points.
        assert_eq!(mask.len(), 28);
        let names: Vec<String> = mask.iter().map(|&p| vertex_name(p)).collect();
        assert!(names.contains(&"G1".to_string()) && names.contains(&"C5".to_string()));
        assert!(!names.contains(&"H1".to_string()) && !names.contains(&"D5".to_string()));
        // The centre of 9x9 reaches every point but the four corners'
        // neighbourhoods beyond distance 6.
        run(&mut a, "set_search_diamond E5").unwrap_or_default();
        assert_eq!(a.allowed().map(<[Point]>::len), Some(81 - 4 * 3));
    }

    #[test]
    fn limit_mask_and_reset_behave_as_gnu_go() {
        let mut a = SearchArea::default();
        assert_eq!(run(&mut a, "set_search_limit C3"), Ok(String::new()));
        assert_eq!(a.allowed(), None, "marking alone does not limit");
        run(&mut a, "set_search_limit C3").unwrap_or_default();
        run(&mut a, "limit_search 1 2").unwrap_or_default();
        assert_eq!(a.allowed().map(<[Point]>::len), Some(1));
        run(&mut a, "reset_search_mask").unwrap_or_default();
        assert_eq!(
            a.allowed().map(<[Point]>::len),
            Some(0),
            "still limited, to nothing"
        );
        run(&mut a, "limit_search -3").unwrap_or_default();
        assert!(a.allowed().is_some());
        run(&mut a, "limit_search 0").unwrap_or_default();
        assert_eq!(a.allowed(), None);
        for bad in ["limit_search", "limit_search x", "limit_search 1.5"] {
            assert_eq!(
                run(&mut a, bad),
                Err("invalid value for search limit".into()),
                "{bad}"
            );
        }
        for bad in [
            "set_search_limit",
            "set_search_limit pass",
            "set_search_limit Z9",
            "set_search_diamond",
            "set_search_diamond J10",
        ] {
            assert_eq!(run(&mut a, bad), Err("invalid coordinate".into()), "{bad}");
        }
        assert_eq!(run(&mut a, "genmove b"), Err("not ours".into()));
    }
}
