//! `include/hayanagi.h` must equal a fresh cbindgen render of `src/ffi/`.
//! `HAYANAGI_UPDATE_HEADER=1 cargo test --release --test header` rewrites it.

use std::path::PathBuf;

fn render() -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let version = env!("CARGO_PKG_VERSION");
    let mut parts = version.split('.');
    let (major, minor, patch) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    let macros = format!(
        "\n#define HAYANAGI_VERSION_MAJOR {major}\n#define HAYANAGI_VERSION_MINOR {minor}\n#define HAYANAGI_VERSION_PATCH {patch}\n#define HAYANAGI_VERSION_STRING \"{version}\"\n"
    );
    let mut out = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/ffi/mod.rs"))
        .with_src(root.join("src/ffi/types.rs"))
        .with_after_include(macros)
        .generate()
        .expect("cbindgen renders the header")
        .write(&mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn committed_header_matches_a_fresh_render() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("include/hayanagi.h");
    let fresh = render();
    if std::env::var_os("HAYANAGI_UPDATE_HEADER").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == fresh, "include/hayanagi.h is stale: run HAYANAGI_UPDATE_HEADER=1 cargo test --release --test header");
    for f in [
        "hayanagi_engine_new",
        "hayanagi_engine_go",
        "hayanagi_engine_set_info_callback",
        "HAYANAGI_ABI_VERSION",
        "HAYANAGI_VERSION_MAJOR",
    ] {
        assert!(fresh.contains(f), "{f} missing from the header");
    }
}
