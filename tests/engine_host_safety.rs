//! The Rust API's side of "a host is never aborted, blocked or deadlocked": sinks may call
//! back into the engine, a best move being delivered does not make other threads wait, and
//! a table the machine cannot provide is an error that changes nothing. (The C side, with
//! forked children and RLIMIT_AS, is `tests/c/test_host_safety.c`.)

use hayanagi::{BestMove, Limits};
use hayanagi::{Engine, EngineError};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

/// Abort the whole test process if `f` does not return within `secs`: a deadlock must fail
/// the suite, not hang it.
fn within<T>(secs: u64, what: &str, f: impl FnOnce() -> T) -> T {
    let (done, watch) = channel::<()>();
    let what = what.to_string();
    let watchdog = std::thread::spawn(move || {
        if watch.recv_timeout(Duration::from_secs(secs)).is_err() {
            eprintln!("HANG: {what} did not finish within {secs} s");
            std::process::abort();
        }
    });
    let out = f();
    let _ = done.send(());
    watchdog.join().unwrap();
    out
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

#[test]
fn sinks_may_call_back_into_the_engine() {
    within(60, "sinks calling back", || {
        let engine = Arc::new(Engine::new());
        let me: Arc<OnceLock<Weak<Engine>>> = Arc::new(OnceLock::new());
        me.set(Arc::downgrade(&engine)).unwrap();
        let answers: Arc<Mutex<Vec<String>>> = Arc::default();
        let (slot, out) = (me.clone(), answers.clone());
        engine.set_log_sink(Some(Box::new(move |_msg: &str| {
            let Some(e) = slot.get().and_then(Weak::upgrade) else {
                return;
            };
            let mut out = out.lock().unwrap();
            if out.is_empty() {
                out.push(format!("{:?}", e.ready()));
                out.push(format!("{:?}", e.new_game()));
                out.push(format!("{:?}", e.set_position("startpos moves 7g7f")));
            }
        })));
        let (slot, out) = (me.clone(), answers.clone());
        engine.set_bestmove_sink(Some(Box::new(move |_b: &BestMove| {
            let e = slot.get().and_then(Weak::upgrade).unwrap();
            // The search is over for commands once its answer is final.
            out.lock()
                .unwrap()
                .push(format!("{:?}", e.set_position("startpos")));
        })));
        // A book file that is missing: the log sink hears about it inside `ready`.
        engine.set_option("USI_OwnBook", "true").unwrap();
        engine
            .set_option("BookFile", "/nonexistent/book.db")
            .unwrap();
        engine.ready().unwrap();
        engine.search_blocking(nodes(2000)).unwrap();
        let answers = answers.lock().unwrap().clone();
        assert_eq!(answers, ["Ok(())", "Ok(())", "Ok(())", "Ok(())"]);
    });
}

#[test]
fn a_held_best_move_does_not_block_other_threads() {
    within(60, "calls during a held best move", || {
        let engine = Engine::new();
        let (entered, entered_rx) = channel::<()>();
        let (release, release_rx) = channel::<()>();
        let entered = Mutex::new(entered);
        let release_rx = Mutex::new(release_rx);
        let delivered: Arc<Mutex<u32>> = Arc::default();
        let count = delivered.clone();
        engine.set_bestmove_sink(Some(Box::new(move |_b: &BestMove| {
            let tx: Sender<()> = entered.lock().unwrap().clone();
            tx.send(()).unwrap();
            release_rx.lock().unwrap().recv().unwrap();
            *count.lock().unwrap() += 1;
        })));
        engine.go(nodes(1000)).unwrap();
        entered_rx.recv().unwrap();
        // Each of these waited for the sink before.
        engine.set_position("startpos moves 2g2f").unwrap();
        engine.set_option("MultiPV", "1").unwrap();
        engine.ready().unwrap();
        engine.new_game().unwrap();
        engine.clear_hash().unwrap();
        assert!(engine.is_searching());
        assert!(!engine.wait(Some(Duration::ZERO)));
        engine.go(nodes(1000)).unwrap();
        assert_eq!(engine.set_position("startpos"), Err(EngineError::Busy));
        release.send(()).unwrap();
        entered_rx.recv().unwrap();
        release.send(()).unwrap();
        assert!(engine.wait(None));
        assert_eq!(*delivered.lock().unwrap(), 2);
    });
}

#[test]
fn a_table_beyond_the_machine_is_an_error_that_changes_nothing() {
    let engine = Engine::new();
    engine.search_blocking(nodes(2000)).unwrap();
    assert!(engine.probe_tt().is_some());
    engine.set_option("USI_Hash", "1048576").unwrap();
    match engine.ready() {
        Err(EngineError::NoMemory(e)) => {
            assert_eq!(e.what, "the hash table");
            assert_eq!(e.bytes, 1 << 40);
        }
        other => panic!("expected NoMemory, got {other:?}"),
    }
    assert_eq!(engine.options().hash_mib, 16);
    assert_eq!(engine.tt().size_mib(), 16);
    assert!(engine.probe_tt().is_some(), "the table's contents are kept");
    assert!(engine.search_blocking(nodes(2000)).is_ok());
}
