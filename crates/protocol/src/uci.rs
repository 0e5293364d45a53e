//! UCI messages (being written).
