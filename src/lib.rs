//! hayanagi: an embeddable shogi engine.
//!
//! The rules core lives in [`shogi`]. Search, the engine facade and the C ABI build on it.

pub mod bench;
pub mod book;
pub mod engine;
pub mod eval;
pub mod ffi;
pub mod options;
pub mod request;
pub mod search;
pub mod shogi;
pub mod usi;
pub mod util;
