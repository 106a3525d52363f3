//! Small helpers shared by several layers.

pub mod memory;
pub mod rng;
