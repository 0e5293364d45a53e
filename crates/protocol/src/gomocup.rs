//! Placeholder: filled in by the issue that brings this protocol's game.
