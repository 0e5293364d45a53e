//! USI front-end. Placeholder until the shogi issue lands.

use crate::detect::Protocol;
use crate::io::Output;
use crate::Start;
use std::sync::mpsc::Receiver;

pub fn run(_start: Start, _input: Receiver<String>, out: Output) -> u8 {
    crate::not_built(&out, Protocol::Usi, "shogi")
}
