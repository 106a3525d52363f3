//! Reading YaneuraOu's `nn.bin` (HalfKP 256x2-32-32; byte layout in `FORMAT.md` §2).
//!
//! The file's size is checked against the layout before anything large is allocated, the
//! feature-transformer weights are allocated fallibly, and the end of the network must be
//! the end of the file. Hash mismatches are only warnings, as in YaneuraOu: the
//! architecture string and hashes are labels, the size is what must fit.

use super::features::N_FEATURES;
use super::network::{Affine, Network, Row, HALF_DIMS, L1_IN, L1_OUT, L2_OUT};
use super::simd::SimdLevel;
use std::fmt;
use std::io::{self, BufReader, Read};
use std::path::Path;

/// File format version (`FORMAT.md` §2 row 1).
pub const VERSION: u32 = 0x7AF3_2F16;
/// Hash of the whole network: feature transformer ^ layers.
pub const NETWORK_HASH: u32 = 0x3E5A_A6EE;
/// Hash of the HalfKP(Friend) feature transformer.
pub const TRANSFORMER_HASH: u32 = 0x5D69_D7B8;
/// Hash of the three affine layers with their clipped ReLUs.
pub const LAYERS_HASH: u32 = 0x6333_7156;
/// Longest architecture string accepted (the classic one has 178 bytes).
const MAX_ARCHITECTURE_LEN: u32 = 1 << 16;

/// Bytes after the architecture string.
const BODY_BYTES: u64 = 4 // transformer hash
    + 2 * HALF_DIMS as u64
    + 2 * (N_FEATURES * HALF_DIMS) as u64
    + 4 // layers hash
    + 4 * L1_OUT as u64 + (L1_OUT * L1_IN) as u64
    + 4 * L2_OUT as u64 + (L2_OUT * L1_OUT) as u64
    + 4 + L2_OUT as u64;
/// Bytes before the architecture string: version, hash, string length.
const HEADER_BYTES: u64 = 12;

/// The expected size of a HalfKP 256x2-32-32 file with an architecture string of `n` bytes.
pub const fn expected_size(n: u32) -> u64 {
    HEADER_BYTES + n as u64 + BODY_BYTES
}

/// What kind of failure a load met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// The file is missing or cannot be read.
    Io,
    /// The file is not a HalfKP 256x2-32-32 `nn.bin` (version, size, trailing bytes).
    Format,
    /// The weights could not be allocated.
    OutOfMemory,
}

/// Why a network could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// What kind of problem stopped the load.
    pub kind: LoadErrorKind,
    /// Human-readable detail (the file, the offset, the value found).
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LoadError {}

/// A loaded network and the warnings met on the way (hash mismatches).
#[derive(Debug)]
pub struct Loaded {
    /// The net, ready to evaluate.
    pub network: Network,
    /// Oddities that did not stop the load (e.g. an unknown description).
    pub warnings: Vec<String>,
}

fn format_error(message: String) -> LoadError {
    LoadError {
        kind: LoadErrorKind::Format,
        message,
    }
}

/// Load the network in the file at `path`.
pub fn load_file(path: &Path) -> Result<Loaded, LoadError> {
    let shown = path.display();
    let io_error = |what: &str, e: io::Error| LoadError {
        kind: LoadErrorKind::Io,
        message: format!("cannot {what} NNUE file '{shown}': {e}"),
    };
    // Checked before opening: opening a FIFO would block.
    let meta = std::fs::metadata(path).map_err(|e| io_error("open", e))?;
    if !meta.is_file() {
        return Err(LoadError {
            kind: LoadErrorKind::Io,
            message: format!("NNUE file '{shown}' is not a regular file"),
        });
    }
    let file = std::fs::File::open(path).map_err(|e| io_error("open", e))?;
    let meta = file.metadata().map_err(|e| io_error("read", e))?;
    load(BufReader::with_capacity(1 << 20, file), meta.len()).map_err(|mut e| {
        e.message = format!("NNUE file '{shown}': {}", e.message);
        e
    })
}

/// Load a network from `bytes` (a whole file's contents).
pub fn load_bytes(bytes: &[u8]) -> Result<Loaded, LoadError> {
    load(bytes, bytes.len() as u64)
}

/// A reader that says "truncated" for an early end instead of an I/O error.
struct Source<R> {
    inner: R,
    size: u64,
    offset: u64,
}

impl<R: Read> Source<R> {
    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], LoadError> {
        let mut buf = [0u8; N];
        self.fill(&mut buf)?;
        Ok(buf)
    }

    fn fill(&mut self, buf: &mut [u8]) -> Result<(), LoadError> {
        match self.inner.read_exact(buf) {
            Ok(()) => {
                self.offset += buf.len() as u64;
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(format_error(format!(
                "truncated: the file ended within the {} bytes after offset {}",
                buf.len(),
                self.offset
            ))),
            Err(e) => Err(LoadError {
                kind: LoadErrorKind::Io,
                message: format!("read failed at offset {}: {e}", self.offset),
            }),
        }
    }

    fn u32(&mut self) -> Result<u32, LoadError> {
        Ok(u32::from_le_bytes(self.bytes::<4>()?))
    }

    fn i32(&mut self) -> Result<i32, LoadError> {
        Ok(i32::from_le_bytes(self.bytes::<4>()?))
    }

    fn row(&mut self, row: &mut Row) -> Result<(), LoadError> {
        let raw = self.bytes::<{ 2 * HALF_DIMS }>()?;
        for (v, b) in row.0.iter_mut().zip(raw.chunks_exact(2)) {
            *v = i16::from_le_bytes([b[0], b[1]]);
        }
        Ok(())
    }

    fn affine<const IN: usize, const OUT: usize>(
        &mut self,
        layer: &mut Affine<IN, OUT>,
    ) -> Result<(), LoadError> {
        for b in layer.biases.iter_mut() {
            *b = self.i32()?;
        }
        for row in layer.weights.iter_mut() {
            let mut raw = [0u8; IN];
            self.fill(&mut raw)?;
            *row = raw.map(|b| b as i8);
        }
        Ok(())
    }

    fn check_hash(
        &mut self,
        what: &str,
        expected: u32,
        warnings: &mut Vec<String>,
    ) -> Result<(), LoadError> {
        let found = self.u32()?;
        if found != expected {
            warnings.push(format!(
                "{what} hash is 0x{found:08X}, expected 0x{expected:08X}; loading anyway \
                 (the sizes fit HalfKP 256x2-32-32)"
            ));
        }
        Ok(())
    }
}

/// Parse a network from `reader`, which holds `size` bytes.
pub fn load<R: Read>(reader: R, size: u64) -> Result<Loaded, LoadError> {
    let mut src = Source {
        inner: reader,
        size,
        offset: 0,
    };
    if size < HEADER_BYTES {
        return Err(format_error(format!(
            "truncated: {size} bytes, shorter than the {HEADER_BYTES}-byte header"
        )));
    }
    let version = src.u32()?;
    if version != VERSION {
        return Err(format_error(format!(
            "wrong version 0x{version:08X}, expected 0x{VERSION:08X} (a YaneuraOu HalfKP \
             256x2-32-32 nn.bin)"
        )));
    }
    let mut warnings = Vec::new();
    src.check_hash("network", NETWORK_HASH, &mut warnings)?;
    let arch_len = src.u32()?;
    let arch = if arch_len <= MAX_ARCHITECTURE_LEN && HEADER_BYTES + arch_len as u64 <= size {
        let mut raw = vec![0u8; arch_len as usize];
        src.fill(&mut raw)?;
        String::from_utf8_lossy(&raw).into_owned()
    } else {
        return Err(format_error(format!(
            "architecture string length {arch_len} does not fit a {size}-byte file"
        )));
    };
    let expected = expected_size(arch_len);
    if size != expected {
        let what = if size < expected {
            "truncated"
        } else {
            "trailing bytes after the network"
        };
        return Err(format_error(format!(
            "{what}: {size} bytes, a HalfKP 256x2-32-32 net with this {arch_len}-byte \
             architecture string has {expected} (architecture: \"{}\")",
            // Escaped: the string comes from the file and is shown in one line.
            arch.chars().take(200).collect::<String>().escape_debug()
        )));
    }

    src.check_hash("feature transformer", TRANSFORMER_HASH, &mut warnings)?;
    let mut ft_biases = Row::ZERO;
    src.row(&mut ft_biases)?;
    let mut ft_weights: Vec<Row> = Vec::new();
    let out_of_memory = |e: crate::util::memory::AllocError| LoadError {
        kind: LoadErrorKind::OutOfMemory,
        message: e.to_string(),
    };
    let ft_bytes = (N_FEATURES * std::mem::size_of::<Row>()) as u64;
    // The weights are written as they are read: the memory policy's size check first.
    crate::util::memory::check_fits(ft_bytes, "the NNUE feature weights").map_err(out_of_memory)?;
    ft_weights.try_reserve_exact(N_FEATURES).map_err(|_| {
        out_of_memory(crate::util::memory::AllocError {
            what: "the NNUE feature weights",
            bytes: ft_bytes,
            reason: "the system refused the allocation".into(),
        })
    })?;
    for _ in 0..N_FEATURES {
        let mut row = Row::ZERO;
        src.row(&mut row)?;
        ft_weights.push(row);
    }
    src.check_hash("layers", LAYERS_HASH, &mut warnings)?;
    let mut l1 = Box::new(Affine {
        weights: [[0i8; L1_IN]; L1_OUT],
        biases: [0; L1_OUT],
    });
    src.affine(&mut l1)?;
    let mut l2 = Box::new(Affine {
        weights: [[0i8; L1_OUT]; L2_OUT],
        biases: [0; L2_OUT],
    });
    src.affine(&mut l2)?;
    let mut output = Box::new(Affine {
        weights: [[0i8; L2_OUT]; 1],
        biases: [0; 1],
    });
    src.affine(&mut output)?;
    // The file may have grown since its size was read.
    let mut extra = [0u8; 1];
    match src.inner.read(&mut extra) {
        Ok(0) => {}
        Ok(_) => {
            return Err(format_error(format!(
                "trailing bytes after the network (expected {} bytes)",
                src.size
            )))
        }
        Err(e) => {
            return Err(LoadError {
                kind: LoadErrorKind::Io,
                message: format!("read failed at the end: {e}"),
            })
        }
    }
    Ok(Loaded {
        network: Network {
            ft_biases,
            ft_weights,
            l1,
            l2,
            output,
            architecture: arch,
            simd: SimdLevel::best(),
            id: Network::next_id(),
        },
        warnings,
    })
}
