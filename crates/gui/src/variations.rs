//! Variations: side lines hanging off the game's main line. The main line
//! stays the table's move list (the game the clocks and engines play);
//! every move made from a browsed position that does not follow the line
//! shown becomes a side node here, with the position it was played from.
//! A node's parent is listed before it, so one pass in list order sees
//! every parent first (removals rely on that).
//!
//! Promotion works on a whole tree built for the purpose (root, main
//! moves, side nodes, each with its children in order), reorders one
//! parent's children, and flattens it back: the first child at every
//! step is the main line, everything else side nodes in depth-first
//! order.

use crate::msg::{MoveEntry, VarEntry};
use std::collections::HashMap;

/// A position of the game's tree: after `n` moves of the main line, or
/// after a side node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pos {
    Main(usize),
    Side(u32),
}

#[derive(Clone, Debug)]
pub(crate) struct SideNode {
    pub id: u32,
    /// The position the move is played from.
    pub parent: Pos,
    pub entry: MoveEntry,
    /// Moves from the start to the position after this one.
    pub ply: usize,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Variations {
    nodes: Vec<SideNode>,
    next: u32,
}

/// One node of the whole tree while it is rearranged.
struct Full {
    entry: Option<MoveEntry>,
    side: Option<u32>,
    parent: usize,
    kids: Vec<usize>,
}

impl Variations {
    pub fn nodes(&self) -> &[SideNode] {
        &self.nodes
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn get(&self, id: u32) -> Option<&SideNode> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// The side moves played from `at`, in order.
    pub fn children(&self, at: Pos) -> impl Iterator<Item = &SideNode> {
        self.nodes.iter().filter(move |n| n.parent == at)
    }

    /// Whether `at` is a position of this tree, with `main_len` main moves.
    pub fn exists(&self, at: Pos, main_len: usize) -> bool {
        match at {
            Pos::Main(p) => p <= main_len,
            Pos::Side(id) => self.get(id).is_some(),
        }
    }

    /// The moves from the start to `at`.
    pub fn wires(&self, main: &[MoveEntry], at: Pos) -> Option<Vec<String>> {
        let mut tail = Vec::new();
        let mut at = at;
        loop {
            match at {
                Pos::Main(p) => {
                    let mut w: Vec<String> =
                        main.get(..p)?.iter().map(|m| m.wire.clone()).collect();
                    w.extend(tail.into_iter().rev());
                    return Some(w);
                }
                Pos::Side(id) => {
                    let n = self.get(id)?;
                    tail.push(n.entry.wire.clone());
                    at = n.parent;
                }
            }
        }
    }

    /// Adds a side move from `at` (known legal there) and returns its id.
    pub fn add(&mut self, at: Pos, entry: MoveEntry, ply: usize) -> u32 {
        self.next += 1;
        let id = self.next;
        self.nodes.push(SideNode {
            id,
            parent: at,
            entry,
            ply,
        });
        id
    }

    /// Removes the nodes `gone` says and everything played after them.
    fn remove_where(&mut self, gone: impl Fn(&SideNode) -> bool) {
        let mut removed: Vec<u32> = Vec::new();
        self.nodes.retain(|n| {
            let drop = gone(n) || matches!(n.parent, Pos::Side(p) if removed.contains(&p));
            if drop {
                removed.push(n.id);
            }
            !drop
        });
    }

    /// Deletes a side node and the moves after it; `Err` for no such node.
    pub fn delete(&mut self, id: u32) -> Result<Pos, String> {
        let parent = self
            .get(id)
            .map(|n| n.parent)
            .ok_or_else(|| format!("there is no variation move {id}"))?;
        self.remove_where(|n| n.id == id);
        Ok(parent)
    }

    /// The main line was cut to `keep` moves: side lines played from the
    /// positions it lost go too, and so do those that replaced the moves
    /// it lost (a variation needs the main move it stands beside).
    pub fn truncate(&mut self, keep: usize) {
        self.remove_where(|n| matches!(n.parent, Pos::Main(q) if q >= keep));
    }

    /// What promoting side node `id` changes: `Some(p)` when its
    /// variation branches from the main line after `p` moves (promoting
    /// it changes the game), `None` when it branches from another
    /// variation.
    pub fn promotes_main(&self, id: u32) -> Result<Option<usize>, String> {
        let mut cur = self
            .get(id)
            .ok_or_else(|| format!("there is no variation move {id}"))?;
        loop {
            match cur.parent {
                Pos::Main(p) => return Ok(Some(p)),
                Pos::Side(pid) => {
                    let first = self.children(Pos::Side(pid)).next().map(|n| n.id);
                    if first != Some(cur.id) {
                        return Ok(None);
                    }
                    cur = self
                        .get(pid)
                        .ok_or_else(|| format!("variation move {pid} is missing"))?;
                }
            }
        }
    }

    /// Promotes the variation holding side node `id` one level: it takes
    /// the place of the line it branches from (the main line, when it
    /// branches from there). `main` is rewritten when that happens.
    pub fn promote(&mut self, main: &mut Vec<MoveEntry>, id: u32) -> Result<(), String> {
        let (mut full, index) = self.build(main);
        let mut cur = *index
            .get(&id)
            .ok_or_else(|| format!("there is no variation move {id}"))?;
        // Up to where this line is not its parent's first.
        while cur != 0 && full[full[cur].parent].kids.first() == Some(&cur) {
            cur = full[cur].parent;
        }
        if cur == 0 {
            return Err("that is the main line already".into());
        }
        let p = full[cur].parent;
        full[p].kids.retain(|&k| k != cur);
        full[p].kids.insert(0, cur);
        self.flatten(full, main);
        Ok(())
    }

    /// The whole tree: index 0 the start, then the main moves, then the
    /// side nodes; with each side id's index.
    fn build(&self, main: &[MoveEntry]) -> (Vec<Full>, HashMap<u32, usize>) {
        let mut full = vec![Full {
            entry: None,
            side: None,
            parent: 0,
            kids: Vec::new(),
        }];
        for (i, m) in main.iter().enumerate() {
            full.push(Full {
                entry: Some(m.clone()),
                side: None,
                parent: i,
                kids: Vec::new(),
            });
            full[i].kids.push(i + 1);
        }
        let mut index: HashMap<u32, usize> = HashMap::new();
        for n in &self.nodes {
            let parent = match n.parent {
                Pos::Main(p) if p <= main.len() => p,
                Pos::Side(s) => match index.get(&s) {
                    Some(&f) => f,
                    None => continue,
                },
                Pos::Main(_) => continue,
            };
            let at = full.len();
            full.push(Full {
                entry: Some(n.entry.clone()),
                side: Some(n.id),
                parent,
                kids: Vec::new(),
            });
            full[parent].kids.push(at);
            index.insert(n.id, at);
        }
        (full, index)
    }

    /// Back from the whole tree: the first children from the start are
    /// the main line; the rest side nodes, depth first, keeping their
    /// ids (a main move that became a side node gets a new one).
    fn flatten(&mut self, mut full: Vec<Full>, main: &mut Vec<MoveEntry>) {
        main.clear();
        let mut pos_of: Vec<Option<Pos>> = vec![None; full.len()];
        pos_of[0] = Some(Pos::Main(0));
        let mut cur = 0;
        while let Some(&k) = full[cur].kids.first() {
            main.extend(full[k].entry.clone());
            pos_of[k] = Some(Pos::Main(main.len()));
            cur = k;
        }
        let mut nodes = Vec::new();
        // Depth first, a parent before its children, children in order.
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        while let Some((f, ply)) = stack.pop() {
            if pos_of[f].is_none() {
                let id = full[f].side.unwrap_or_else(|| {
                    self.next += 1;
                    self.next
                });
                pos_of[f] = Some(Pos::Side(id));
                if let (Some(parent), Some(entry)) = (pos_of[full[f].parent], full[f].entry.take())
                {
                    nodes.push(SideNode {
                        id,
                        parent,
                        entry,
                        ply,
                    });
                }
            }
            for &k in full[f].kids.iter().rev() {
                stack.push((k, ply + 1));
            }
        }
        self.nodes = nodes;
    }

    /// The side nodes as the page gets them.
    pub fn entries(&self) -> Vec<VarEntry> {
        self.nodes
            .iter()
            .map(|n| VarEntry {
                id: n.id,
                from: match n.parent {
                    Pos::Main(p) => Some(p),
                    Pos::Side(_) => None,
                },
                parent: match n.parent {
                    Pos::Side(s) => Some(s),
                    Pos::Main(_) => None,
                },
                ply: n.ply,
                wire: n.entry.wire.clone(),
                text: n.entry.text.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(wire: &str) -> MoveEntry {
        MoveEntry {
            wire: wire.into(),
            text: wire.into(),
            record: wire.into(),
            score: None,
            depth: None,
            pv: Vec::new(),
            elapsed_ms: 0,
            book: false,
        }
    }

    fn line(v: &Variations, main: &[MoveEntry], id: u32) -> String {
        v.wires(main, Pos::Side(id)).unwrap().join(" ")
    }

    fn mains(main: &[MoveEntry]) -> String {
        main.iter()
            .map(|m| m.wire.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn lines_promotion_deletion_and_take_back() {
        let mut main: Vec<MoveEntry> = ["a", "b", "c", "d"].iter().map(|w| e(w)).collect();
        let mut v = Variations::default();
        // b2 beside b; c2 after it; x beside c2 (a variation of the
        // variation); y beside d.
        let b2 = v.add(Pos::Main(1), e("b2"), 2);
        let c2 = v.add(Pos::Side(b2), e("c2"), 3);
        let x = v.add(Pos::Side(b2), e("x"), 3);
        let x2 = v.add(Pos::Side(x), e("x2"), 4);
        let y = v.add(Pos::Main(3), e("y"), 4);
        assert_eq!(line(&v, &main, c2), "a b2 c2");
        assert_eq!(line(&v, &main, x2), "a b2 x x2");
        assert_eq!(v.get(c2).map(|n| n.parent), Some(Pos::Side(b2)));
        assert_eq!(v.get(x2).map(|n| n.ply), Some(4));
        let kids: Vec<u32> = v.children(Pos::Side(b2)).map(|n| n.id).collect();
        assert_eq!(kids, vec![c2, x]);

        // x's line is second under b2: promoting it puts it first there;
        // the main line does not change.
        assert_eq!(v.promotes_main(x2).unwrap(), None);
        v.promote(&mut main, x2).unwrap();
        assert_eq!(mains(&main), "a b c d");
        let kids: Vec<u32> = v.children(Pos::Side(b2)).map(|n| n.id).collect();
        assert_eq!(kids, vec![x, c2]);
        assert_eq!(line(&v, &main, x2), "a b2 x x2");

        // Now x2's line branches from the main line at ply 1: promoting it
        // again makes a b2 x x2 the main line; a b c d becomes a variation
        // beside b2, with y still beside d.
        assert_eq!(v.promotes_main(x2).unwrap(), Some(1));
        v.promote(&mut main, x2).unwrap();
        assert_eq!(mains(&main), "a b2 x x2");
        assert!(v.get(x2).is_none() && v.get(b2).is_none());
        assert_eq!(line(&v, &main, c2), "a b2 c2");
        assert_eq!(v.get(c2).unwrap().parent, Pos::Main(2));
        assert_eq!(line(&v, &main, y), "a b c y");
        let old: Vec<String> = v
            .children(Pos::Main(1))
            .map(|n| line(&v, &main, n.id))
            .collect();
        assert_eq!(old, vec!["a b".to_string()]);
        // Every parent before its children.
        let mut seen = Vec::new();
        for n in v.nodes() {
            if let Pos::Side(p) = n.parent {
                assert!(seen.contains(&p));
            }
            seen.push(n.id);
        }
        assert!(v.promote(&mut main, 999).is_err());

        // Deleting b (now a side move) takes c, d and y with it.
        let b = v.children(Pos::Main(1)).next().unwrap().id;
        assert_eq!(v.delete(b), Ok(Pos::Main(1)));
        assert_eq!(v.nodes().len(), 1);
        assert!(v.delete(b).is_err());
        // Taking back to two moves drops c2 (beside the third move).
        v.truncate(2);
        assert!(v.is_empty());
    }
}
