//! Parallel search: Lazy SMP and root splitting over the shared table.

mod common;

use hayanagi::Engine;
use hayanagi::{legal, Position};
use hayanagi::{BestMove, Limits, Score};
use std::sync::Mutex;
use std::time::Duration;

/// The tests of this file run one at a time: the thread-leak check counts the process's
/// threads.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn engine(threads: usize, mode: &str) -> Engine {
    let e = Engine::new();
    e.set_option("Threads", &threads.to_string()).unwrap();
    e.set_option("ParallelMode", mode).unwrap();
    e
}

fn mate3_problems() -> Vec<String> {
    let text = std::fs::read_to_string(common::data_path("tsume/tsume_sample100.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .filter(|(_, n)| n.trim() == "3")
        .map(|(s, _)| s.to_string())
        .take(3)
        .collect()
}

#[test]
fn same_forced_mate_with_one_to_four_threads() {
    let _g = serial();
    for sfen in mate3_problems() {
        let pos = Position::from_sfen(&sfen).unwrap();
        for mode in ["lazy", "rootsplit"] {
            for threads in 1..=4 {
                let e = engine(threads, mode);
                e.set_position(&sfen).unwrap();
                let r = e.search_blocking(Limits::depth(5)).unwrap();
                let BestMove::Move { best, .. } = r.best else {
                    panic!("{mode} x{threads}: no move for {sfen}");
                };
                assert!(
                    legal(&pos).contains(best),
                    "{mode} x{threads}: {best} illegal in {sfen}"
                );
                assert_eq!(
                    r.score.map(Score::from_internal),
                    Some(Score::Mate(3)),
                    "{mode} x{threads} on {sfen}"
                );
            }
        }
    }
}

#[test]
fn node_limit_holds_across_threads() {
    let _g = serial();
    for mode in ["lazy", "rootsplit"] {
        for threads in [2usize, 4] {
            let e = engine(threads, mode);
            e.set_position("startpos moves 7g7f 3c3d").unwrap();
            for n in [10_000u64, 100_000] {
                let r = e.search_blocking(Limits::nodes(n)).unwrap();
                let slack = (n / 100).max(2048 * threads as u64);
                assert!(
                    r.nodes <= n + slack,
                    "{mode} x{threads}: {} nodes for {n}",
                    r.nodes
                );
                assert!(matches!(r.best, BestMove::Move { .. }));
            }
        }
    }
}

#[cfg(target_os = "linux")]
fn thread_count() -> usize {
    std::fs::read_dir("/proc/self/task").unwrap().count()
}

#[test]
fn repeated_start_stop_with_four_threads_never_hangs_or_leaks() {
    let _g = serial();
    for mode in ["lazy", "rootsplit"] {
        let e = engine(4, mode);
        e.set_position("startpos").unwrap();
        // The pool is created by the first go.
        e.search_blocking(Limits::depth(1)).unwrap();
        #[cfg(target_os = "linux")]
        let before = thread_count();
        let mut x = 12345u64;
        for i in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            e.go(Limits::infinite()).unwrap();
            std::thread::sleep(Duration::from_micros(x % 2000));
            e.stop();
            assert!(
                e.wait(Some(Duration::from_secs(30))),
                "{mode}: cycle {i} hangs"
            );
            let r = e.last_result().unwrap();
            assert!(matches!(r.best, BestMove::Move { .. }), "{mode}: cycle {i}");
        }
        #[cfg(target_os = "linux")]
        assert!(thread_count() <= before, "{mode}: threads leaked");
        // Changing Threads replaces the pool without leaking the old one.
        e.set_option("Threads", "2").unwrap();
        e.search_blocking(Limits::depth(2)).unwrap();
        #[cfg(target_os = "linux")]
        assert!(thread_count() <= before - 2, "{mode}: old pool not joined");
    }
}

#[test]
fn tt_stress_with_all_threads() {
    let _g = serial();
    // A tiny table hammered by four threads: every result still legal, every probe valid.
    let e = engine(4, "lazy");
    e.set_option("Hash", "1").unwrap();
    common::random_positions(31, 30, |pos| {
        if legal(pos).is_empty() {
            return;
        }
        e.set_position_value(pos.clone()).unwrap();
        let r = e.search_blocking(Limits::nodes(40_000)).unwrap();
        if let BestMove::Move { best, .. } = r.best {
            assert!(legal(pos).contains(best), "{best} in {}", pos.to_sfen());
        }
        if let Some(p) = e.probe_tt() {
            if let Some(m) = p.best_move {
                assert!(legal(pos).contains(m));
            }
        }
    });
}
