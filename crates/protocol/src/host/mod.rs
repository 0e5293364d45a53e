//! Host side of every protocol: commands a controller prints to an engine and the engine replies it parses. Owned by the arena work.
