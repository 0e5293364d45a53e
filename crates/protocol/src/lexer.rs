//! Tokenising helpers shared by the protocol parsers.
