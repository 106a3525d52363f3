//! Training HalfKP 256x2-32-32 nets for hayanagi's NNUE evaluation (docs/DESIGN.md §14.4).
//!
//! * [`data`]: `hayanagi gensfen` records read into [`data::Sample`]s (features per
//!   perspective, result, score), split into training and validation blocks.
//! * [`features`]: the factorised first layer (king-independent piece rows plus rows per
//!   coarse king bucket, left-right mirroring tied) and its expansion into HalfKP.
//! * [`model`]: the float model, whose forward pass mirrors the engine's integer one, and
//!   its gradient.
//! * [`train`]: Adam with sparse first-layer updates, mini-batches over threads, epochs.
//! * [`export`]: quantisation into `nn.bin` and the integer forward pass of the result.
//! * [`checkpoint`]: float weights saved and read back, to resume a run.
//!
//! The binary (`src/main.rs`) only parses arguments and reports.

pub mod checkpoint;
pub mod data;
pub mod export;
pub mod features;
pub mod model;
pub mod rng;
pub mod train;
