//! Learning the evaluation from the engine's own games: the training record format and the
//! self-play generator that writes it, and the quiet leaf trainers fit (docs/DESIGN.md §14).
//! The trainers live outside the library, in `tools/`.

pub mod gensfen;
pub mod leaf;
pub mod record;
