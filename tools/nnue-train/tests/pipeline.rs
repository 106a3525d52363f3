//! The training pipeline end to end on a small scale: self-play records from the
//! library's generator (what `hayanagi gensfen` runs), a short training by the trainer's
//! binary, which must lower the validation loss, and the exported net loaded into an
//! engine through `EvalFile`, which then evaluates and searches with it.

use hayanagi::{BestMove, Engine, Limits, NnueEvaluator};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

#[test]
fn generate_train_export_load() {
    let dir = std::env::temp_dir().join(format!("hayanagi-nnue-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.psv");
    let net = dir.join("nn.bin");
    let checkpoint = dir.join("model.ckpt");
    let _ = std::fs::remove_file(&data);
    let config = hayanagi::GensfenConfig {
        output: data.clone(),
        positions: 4000,
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
    assert_eq!(end.positions, 4000);
    let train = |extra: &[&str]| {
        let run = Command::new(env!("CARGO_BIN_EXE_hayanagi-nnue-train"))
            .args([
                "--data",
                data.to_str().unwrap(),
                "--out",
                net.to_str().unwrap(),
            ])
            .args(["--epochs", "3", "--batch", "128", "--threads", "2"])
            .args(["--validation-percent", "20", "--buckets", "1"])
            // Scores only: with about 50 games the results are noise a net fits at once
            // (with lambda 0.5 the held-out loss of some data sets rises from the start).
            .args(["--lambda", "0"])
            .args(["--checkpoint", checkpoint.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let stdout = String::from_utf8(run.stdout).unwrap();
        let words: Vec<String> = stdout.split_whitespace().map(String::from).collect();
        move |name: &str| -> f64 {
            let i = words.iter().position(|w| w == name).unwrap();
            words[i + 1].parse().unwrap()
        }
    };
    let field = train(&[]);
    assert!(field("validation_loss_after") < field("validation_loss_before"));
    assert_eq!(field("positions"), 4000.0);
    assert_eq!(field("saturated"), 0.0);
    // Rounding into integers costs little.
    let lost = field("quantised_validation_loss") - field("validation_loss_after");
    assert!(lost.abs() < 0.1 * field("validation_loss_after"), "{lost}");
    // The checkpoint resumes where the best epoch stood.
    let resumed = train(&["--resume", checkpoint.to_str().unwrap(), "--epochs", "1"]);
    assert!(
        (resumed("validation_loss_before") - field("validation_loss_after")).abs() < 1e-6,
        "a resumed run starts from the saved weights"
    );

    let engine = Engine::new();
    engine
        .set_option("EvalFile", net.to_str().unwrap())
        .unwrap();
    engine.ready().unwrap();
    let loaded = engine.network().expect("the engine uses the trained net");
    engine
        .set_position("startpos moves 7g7f 3c3d 2g2f")
        .unwrap();
    let pos = engine.position();
    let direct = NnueEvaluator::evaluate_from_scratch(&loaded, 16, &pos).unwrap();
    assert_eq!(engine.evaluate(), direct);
    let fresh = Arc::new(hayanagi::load_network(&net).unwrap().network);
    assert_eq!(
        NnueEvaluator::evaluate_from_scratch(&fresh, 16, &pos).unwrap(),
        direct
    );
    let result = engine
        .search_blocking(Limits {
            nodes: Some(20_000),
            ..Limits::default()
        })
        .unwrap();
    assert!(matches!(result.best, BestMove::Move { .. }));

    // Bad arguments: status 2 and one line.
    // Trained at the records' quiet leaves (the positions after their quiescence lines).
    let quiet = train(&["--leaf", "quiet", "--epochs", "1"]);
    assert!(quiet("validation_loss_after") < quiet("validation_loss_before"));
    assert_eq!(quiet("positions"), 4000.0);

    let bad = Command::new(env!("CARGO_BIN_EXE_hayanagi-nnue-train"))
        .args(["--data", "/nonexistent.psv", "--out", net.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
