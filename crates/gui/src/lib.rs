//! The modules of `tengen-gui` as a library: the binary (`main.rs`) is
//! the command line and the runtime around them, and the fuzz targets
//! (`crates/fuzzing`) reach the parsers of what the page sends, records
//! and messages, through here.

pub mod analysis;
pub mod assets;
pub mod comments;
pub mod config;
pub mod games;
pub mod hub;
pub mod live;
pub mod msg;
pub mod notation;
pub mod options;
pub mod records;
pub mod server;
pub mod tree_records;
pub mod variations;
