//! Generic alpha-beta game session (being written).
