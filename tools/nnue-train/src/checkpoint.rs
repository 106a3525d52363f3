//! The float weights saved and read back (`--checkpoint`, `--resume`): `nn.bin` keeps only
//! rounded, expanded rows, from which the factorised model cannot be recovered. Adam's
//! moments are not saved; a resumed run starts them afresh.
//!
//! Layout, little-endian: the 8 bytes `HYNNUE01`, the bucket count (u32), then every
//! parameter as f32 in the order ft, ft_bias, l1_w, l1_b, l2_w, l2_b, out_w, out_b.

use crate::features::Buckets;
use crate::model::Model;
use std::io::{self, Read, Write};

const MAGIC: &[u8; 8] = b"HYNNUE01";

pub fn save(model: &Model, path: &std::path::Path) -> io::Result<()> {
    let mut w = io::BufWriter::new(std::fs::File::create(path)?);
    w.write_all(MAGIC)?;
    w.write_all(&(model.factoriser.buckets.count() as u32).to_le_bytes())?;
    let mut m = model.clone();
    let mut parts = vec![m.ft.clone()];
    parts.extend(m.dense().iter().map(|d| d.to_vec()));
    for part in parts {
        w.write_all(
            &part
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect::<Vec<u8>>(),
        )?;
    }
    w.flush()
}

pub fn load(path: &std::path::Path) -> Result<Model, String> {
    let shown = path.display();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("{shown}: {e}"))?;
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        return Err(format!("{shown}: not a hayanagi-nnue-train checkpoint"));
    }
    let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
    let buckets = Buckets::from_count(count).ok_or_else(|| format!("{shown}: {count} buckets"))?;
    let mut model = Model::new(buckets, 0);
    let mut floats = bytes[12..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")));
    let expected = model.ft.len() + model.dense().iter().map(|d| d.len()).sum::<usize>();
    if bytes.len() != 12 + 4 * expected {
        return Err(format!("{shown}: size does not match {count} buckets"));
    }
    for v in model.ft.iter_mut() {
        *v = floats.next().expect("size checked");
    }
    for d in model.dense() {
        for v in d.iter_mut() {
            *v = floats.next().expect("size checked");
        }
    }
    Ok(model)
}
