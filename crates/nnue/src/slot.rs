//! A process-wide place for a game's current network: the engine's
//! `EvalFile` puts one there, each new evaluator takes what is there.
//! A slot may carry a built-in network (the bytes of a file embedded in
//! the binary), which is what it holds until told otherwise.

use crate::features::FeatureSet;
use crate::network::Network;
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock, RwLock};

/// What a slot holds now.
enum Choice {
    /// The built-in network (the hand-made evaluation if there is none).
    Builtin,
    /// No network: the hand-made evaluation.
    Hand,
    /// A network loaded from a file or set by the program.
    Loaded(Arc<Network>),
}

/// Whether an `EvalFile` value names an evaluation rather than a file:
/// `<default>` (the built-in network), or the hand-made evaluation
/// (nothing, `<empty>`, `none`).
pub fn is_builtin_name(path: &str) -> bool {
    let path = path.trim();
    path == "<default>" || is_hand_name(path)
}

fn is_hand_name(path: &str) -> bool {
    path.is_empty() || path == "<empty>" || path.eq_ignore_ascii_case("none")
}

/// The network a game's new evaluators use, if any.
pub struct Slot<F: FeatureSet> {
    choice: RwLock<Choice>,
    builtin: &'static [u8],
    /// The built-in network, read once on first use; `None` when the
    /// slot has none (or, which a test rules out, its bytes do not read).
    parsed: OnceLock<Option<Arc<Network>>>,
    features: PhantomData<F>,
}

impl<F: FeatureSet> Slot<F> {
    /// A slot without a built-in network: the hand-made evaluation until
    /// one is loaded.
    pub const fn new() -> Slot<F> {
        Slot::with_builtin(&[])
    }

    /// A slot whose built-in network is the file `bytes` (empty: none).
    pub const fn with_builtin(bytes: &'static [u8]) -> Slot<F> {
        Slot {
            choice: RwLock::new(Choice::Builtin),
            builtin: bytes,
            parsed: OnceLock::new(),
            features: PhantomData,
        }
    }

    /// The built-in network, or why it cannot be read (`Ok(None)`: the
    /// slot has none).
    pub fn builtin(&self) -> Result<Option<Arc<Network>>, String> {
        if self.builtin.is_empty() {
            return Ok(None);
        }
        Network::from_bytes::<F>(self.builtin).map(|n| Some(Arc::new(n)))
    }

    pub fn get(&self) -> Option<Arc<Network>> {
        let guard = self.choice.read().ok()?;
        match &*guard {
            Choice::Builtin => self
                .parsed
                .get_or_init(|| self.builtin().ok().flatten())
                .clone(),
            Choice::Hand => None,
            Choice::Loaded(n) => Some(n.clone()),
        }
    }

    /// Makes `net` current; `None` is the hand-made evaluation.
    pub fn set(&self, net: Option<Network>) {
        self.put(match net {
            Some(n) => Choice::Loaded(Arc::new(n)),
            None => Choice::Hand,
        });
    }

    fn put(&self, choice: Choice) {
        if let Ok(mut g) = self.choice.write() {
            *g = choice;
        }
    }

    /// Loads a network file into the slot. `<default>` is the built-in
    /// network (the hand-made evaluation in a slot without one); an empty
    /// path, `<empty>` or `none` is the hand-made evaluation. A file that
    /// does not fit `F` is refused with the reason and the slot keeps
    /// what it had. Returns a line describing the evaluation now.
    pub fn load(&self, path: &str) -> Result<String, String> {
        let path = path.trim();
        if path == "<default>" {
            self.put(Choice::Builtin);
            return Ok(match self.get() {
                Some(net) => describe(&net, "built-in"),
                None => "evaluation: hand-made".into(),
            });
        }
        if is_hand_name(path) {
            self.put(Choice::Hand);
            return Ok("evaluation: hand-made".into());
        }
        let bytes = std::fs::read(path).map_err(|e| format!("EvalFile {path}: {e}"))?;
        let net = Network::from_bytes::<F>(&bytes).map_err(|e| format!("EvalFile {path}: {e}"))?;
        let line = describe(&net, path);
        self.set(Some(net));
        Ok(line)
    }
}

/// `evaluation: …` for a network from `source` (a path or `built-in`).
pub fn describe(net: &Network, source: &str) -> String {
    format!(
        "evaluation: {}network {source} ({} inputs -> {}x2 -> {} buckets, id {:08x})",
        if net.residual {
            "hand-made + residual "
        } else {
            ""
        },
        net.inputs,
        net.hidden,
        net.buckets,
        net.id()
    )
}

impl<F: FeatureSet> Default for Slot<F> {
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
        let slot = Slot::<Chess>::new();
        assert!(slot.get().is_none());
        let line = slot
            .load(&chess.to_string_lossy())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(line.contains("3072 inputs -> 16x2 -> 8 buckets"), "{line}");
        let err = slot.load(&xq.to_string_lossy()).err().unwrap_or_default();
        assert!(err.contains("a xiangqi network, not a chess one"), "{err}");
        assert_eq!(
            slot.get().map(|n| n.game),
            Some(1),
            "the chess network stays"
        );
        assert!(slot.load("/no/such/file.nnue").is_err());
        assert!(slot.get().is_some());
        assert_eq!(
            slot.load("<empty>").ok().as_deref(),
            Some("evaluation: hand-made")
        );
        assert!(slot.get().is_none());
        // `<default>` (what GUIs send back) is the built-in evaluation.
        assert!(slot.load(&chess.to_string_lossy()).is_ok());
        assert_eq!(
            slot.load("<default>").ok().as_deref(),
            Some("evaluation: hand-made")
        );
        assert!(slot.get().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A slot with a built-in network holds it from the start, gives it
    /// up for the hand-made evaluation or a file, and takes it back on
    /// `<default>`.
    #[test]
    fn a_builtin_network_is_the_default_and_comes_back_on_default() {
        static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
        let bytes = BYTES.get_or_init(|| Network::random::<Chess>(16, 3).to_bytes());
        let builtin_id = Network::random::<Chess>(16, 3).id();
        let slot = Slot::<Chess>::with_builtin(bytes);
        assert_eq!(slot.get().map(|n| n.id()), Some(builtin_id));
        assert_eq!(
            slot.load("<empty>").ok().as_deref(),
            Some("evaluation: hand-made")
        );
        assert!(slot.get().is_none());
        slot.set(Some(Network::random::<Chess>(16, 4)));
        assert_ne!(slot.get().map(|n| n.id()), Some(builtin_id));
        let line = slot.load("<default>").unwrap_or_else(|e| panic!("{e}"));
        assert!(
            line.contains("network built-in (3072 inputs -> 16x2"),
            "{line}"
        );
        assert_eq!(slot.get().map(|n| n.id()), Some(builtin_id));
        // A built-in network of the wrong game is reported, not used.
        static XQ: OnceLock<Vec<u8>> = OnceLock::new();
        let xq = XQ.get_or_init(|| Network::random::<Xiangqi>(16, 3).to_bytes());
        let wrong = Slot::<Chess>::with_builtin(xq);
        assert!(wrong.builtin().is_err());
        assert!(wrong.get().is_none());
        for name in ["<default>", "<empty>", "", " none ", "NONE"] {
            assert!(is_builtin_name(name), "{name:?}");
        }
        for name in ["<other>", "nets/x.nnue", "none.nnue"] {
            assert!(!is_builtin_name(name), "{name:?}");
        }
    }
}
