//! Shogi rules (drops, promotions, sennichite, entering king), evaluation and df-pn mate solver (being written).
