//! The README's option table is rendered from the option registry
//! (`hayanagi::OPTIONS`): this test fails when the committed table differs, and
//! `HAYANAGI_UPDATE_README=1 cargo test --test readme_options` rewrites it.

use hayanagi::{ValueKind, OPTIONS};

const BEGIN: &str =
    "<!-- options table: generated from src/options.rs by tests/readme_options.rs -->";
const END: &str = "<!-- end of options table -->";

fn render() -> String {
    let mut t = String::from("| option | type, default | meaning |\n| --- | --- | --- |\n");
    let mut tuning = 0;
    for def in OPTIONS {
        // The search parameters get one row together (src/search/params.rs lists them).
        if def.name.starts_with("Tune_") {
            tuning += 1;
            continue;
        }
        let mut name = format!("`{}`", def.name);
        for a in def.aliases {
            name.push_str(&format!(" (alias `{a}`)"));
        }
        let default = def.default_text();
        let default = if default.is_empty() {
            "empty".to_string()
        } else {
            default
        };
        let kind = match def.kind {
            ValueKind::Spin { min, max } => format!("spin {default} ({min}-{max})"),
            ValueKind::Check => format!("check {default}"),
            ValueKind::Combo(vars) => format!("combo {default} ({})", vars.join(", ")),
            ValueKind::String => format!("string {default}"),
            ValueKind::Filename => format!("filename {default}"),
        };
        let mut notes = Vec::new();
        if def.hidden {
            notes.push("hidden: not printed by `usi`");
        }
        if def.at_ready {
            notes.push("used at `isready`");
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join("; "))
        };
        t.push_str(&format!("| {name} | {kind}{notes} | {} |\n", def.help));
    }
    t.push_str(&format!(
        "| `Tune_*` ({tuning} options) | spin (hidden: not printed by `usi`) | search parameters \
         (DESIGN.md §6.5) for SPSA and SPRT tests: names, defaults and ranges in \
         `src/search/params.rs` |\n"
    ));
    t
}

#[test]
fn readme_option_table_is_the_registry() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let start = readme
        .find(BEGIN)
        .expect("the README marks its option table")
        + BEGIN.len();
    let end = readme[start..].find(END).expect("the table's end marker") + start;
    let want = format!("\n{}", render());
    if readme[start..end] == want {
        return;
    }
    if std::env::var_os("HAYANAGI_UPDATE_README").is_some() {
        let updated = format!("{}{want}{}", &readme[..start], &readme[end..]);
        std::fs::write(path, updated).unwrap();
        return;
    }
    panic!(
        "README.md's option table differs from the registry; rerun with HAYANAGI_UPDATE_README=1\n\
         expected:\n{want}"
    );
}
