//! A process-wide place for a game's current network: the engine's
//! `EvalFile` puts one there, each new evaluator takes what is there.

use crate::features::FeatureSet;
use crate::network::Network;
use std::sync::{Arc, RwLock};

/// The network a game's new evaluators use, if any.
pub struct Slot(RwLock<Option<Arc<Network>>>);

impl Slot {
    pub const fn new() -> Slot {
        Slot(RwLock::new(None))
    }

    pub fn get(&self) -> Option<Arc<Network>> {
        self.0.read().ok().and_then(|g| g.clone())
    }

    pub fn set(&self, net: Option<Network>) {
        if let Ok(mut g) = self.0.write() {
            *g = net.map(Arc::new);
        }
    }

    /// Loads a network file for feature set `F` into the slot; an empty
    /// path, `<empty>`, `<default>` or `none` empties it (the hand-made
    /// evaluation, which stays the built-in one until a network beats it). A
    /// file that does not fit `F` is refused with the reason and the slot
    /// keeps what it had. Returns a line describing the evaluation now.
    pub fn load<F: FeatureSet>(&self, path: &str) -> Result<String, String> {
        let path = path.trim();
        if path.is_empty()
            || path == "<empty>"
            || path == "<default>"
            || path.eq_ignore_ascii_case("none")
        {
            self.set(None);
            return Ok("evaluation: hand-made".into());
        }
        let bytes = std::fs::read(path).map_err(|e| format!("EvalFile {path}: {e}"))?;
        let net = Network::from_bytes::<F>(&bytes).map_err(|e| format!("EvalFile {path}: {e}"))?;
        let line = format!(
            "evaluation: {}network {path} ({} inputs -> {}x2 -> {} buckets, id {:08x})",
            if net.residual {
                "hand-made + residual "
            } else {
                ""
            },
            net.inputs,
            net.hidden,
            net.buckets,
            net.id()
        );
        self.set(Some(net));
        Ok(line)
    }
}

impl Default for Slot {
    fn default() -> Self {
        Slot::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::{Chess, Xiangqi};

    #[test]
    fn a_slot_loads_fitting_files_and_keeps_its_network_on_refusal() {
        let dir = std::env::temp_dir().join(format!("tengen-slot-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let chess = dir.join("chess.nnue");
        let xq = dir.join("xq.nnue");
        std::fs::write(&chess, Network::random::<Chess>(16, 1).to_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&xq, Network::random::<Xiangqi>(16, 1).to_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
        let slot = Slot::new();
        assert!(slot.get().is_none());
        let line = slot
            .load::<Chess>(&chess.to_string_lossy())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(line.contains("3072 inputs -> 16x2 -> 8 buckets"), "{line}");
        let err = slot
            .load::<Chess>(&xq.to_string_lossy())
            .err()
            .unwrap_or_default();
        assert!(err.contains("a xiangqi network, not a chess one"), "{err}");
        assert_eq!(
            slot.get().map(|n| n.game),
            Some(1),
            "the chess network stays"
        );
        assert!(slot.load::<Chess>("/no/such/file.nnue").is_err());
        assert!(slot.get().is_some());
        assert_eq!(
            slot.load::<Chess>("<empty>").ok().as_deref(),
            Some("evaluation: hand-made")
        );
        assert!(slot.get().is_none());
        // `<default>` (what GUIs send back) is the built-in evaluation.
        assert!(slot.load::<Chess>(&chess.to_string_lossy()).is_ok());
        assert_eq!(
            slot.load::<Chess>("<default>").ok().as_deref(),
            Some("evaluation: hand-made")
        );
        assert!(slot.get().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
