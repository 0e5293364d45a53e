//! tengen-arena as a library: engine processes and the players that
//! speak each protocol to them, referees with exact rules, clocks,
//! openings, record writers, statistics and whole matches. The
//! `tengen-arena` binary is a thin command line over it; the browser GUI
//! and the fuzz targets use the same modules.

pub mod clock;
pub mod config;
pub mod game;
pub mod games;
pub mod journal;
pub mod live;
pub mod matchfile;
pub mod openings;
pub mod player;
pub mod process;
pub mod progress;
pub mod record;
pub mod referee;
pub mod stats;
pub mod swap2;
pub mod tournament;
pub mod variant;
