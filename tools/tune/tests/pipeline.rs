//! The tuning pipeline end to end on a small scale: self-play records from the library's
//! generator, then the tuner's binary on them (at the records' positions and at their quiet
//! leaves). The fit must lower the validation loss and write weights the engine parses.

use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[test]
fn generate_then_tune() {
    let dir = std::env::temp_dir().join(format!("hayanagi-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.psv");
    let out = dir.join("weights.txt");
    let _ = std::fs::remove_file(&data);
    let config = hayanagi::GensfenConfig {
        output: data.clone(),
        positions: 3000,
        threads: 2,
        nodes: 400,
        handicap_percent: 10,
        ..Default::default()
    };
    let end = hayanagi::generate_training_data(
        &config,
        &AtomicBool::new(false),
        Duration::from_secs(60),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(end.positions, 3000);
    // Fitted at the records' own positions, then at their quiet leaves.
    for leaf in ["root", "quiet"] {
        let run = Command::new(env!("CARGO_BIN_EXE_hayanagi-tune"))
            .args([
                "--data",
                data.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .args([
                "--epochs",
                "30",
                "--report-every",
                "5",
                "--validation-percent",
                "20",
                "--leaf",
                leaf,
            ])
            .output()
            .unwrap();
        let stdout = String::from_utf8(run.stdout).unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{stderr}");
        let field = |name: &str| -> f64 {
            let words: Vec<&str> = stdout.split_whitespace().collect();
            let i = words.iter().position(|w| *w == name).unwrap();
            words[i + 1].parse().unwrap()
        };
        assert!(field("validation_loss_after") <= field("validation_loss_before"));
        assert_eq!(field("positions"), 3000.0);
        // Some records are taken in the middle of an exchange.
        assert_eq!(
            leaf == "quiet",
            !stderr.contains(" 0 fitted at a quiet leaf"),
            "{stderr}"
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.starts_with("# Fitted by hayanagi-tune"));
        let w = hayanagi::Weights::from_text(&text).unwrap();
        assert_eq!(w.to_flat().len(), hayanagi::classic_layout::PARAMS);
    }
    // Bad arguments: status 2 and one line.
    let bad = Command::new(env!("CARGO_BIN_EXE_hayanagi-tune"))
        .args(["--data", "/nonexistent.psv", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
