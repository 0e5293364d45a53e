//! Chess rules and evaluation (being written).
