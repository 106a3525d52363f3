//! Learning the evaluation from the engine's own games: the training record format and the
//! self-play generator that writes it (docs/DESIGN.md §14). The trainers live outside the
//! library, in `tools/`.

pub mod gensfen;
pub mod record;
