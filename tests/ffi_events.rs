//! The C ABI's poll queue (`hayanagi_engine_enable_events`): bounded for a host that never
//! polls, with exact drop counts, and one search's events at a time, each with its search
//! id (`hayanagi_engine_poll_event2`, `hayanagi_engine_search_id`,
//! `hayanagi_engine_callback_search_id`). Called from Rust the way a C host calls it.

use hayanagi::ffi::*;
use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

struct Engine(*mut hayanagi_engine);

impl Engine {
    fn new() -> Engine {
        let mut e = std::ptr::null_mut();
        assert_eq!(hayanagi_engine_new(std::ptr::null(), &mut e), HAYANAGI_OK);
        let e = Engine(e);
        e.opt("Threads", "1");
        e.opt("USI_Hash", "16");
        e
    }

    fn opt(&self, name: &str, value: &str) {
        let (n, v) = (CString::new(name).unwrap(), CString::new(value).unwrap());
        assert_eq!(
            hayanagi_engine_set_option(self.0, n.as_ptr(), v.as_ptr()),
            HAYANAGI_OK
        );
    }

    fn position(&self, pos: &str) {
        let p = CString::new(pos).unwrap();
        assert_eq!(
            hayanagi_engine_set_position(self.0, p.as_ptr()),
            HAYANAGI_OK
        );
    }

    fn go_depth(&self, depth: i32) -> hayanagi_status {
        let mut l = std::mem::MaybeUninit::<hayanagi_limits>::uninit();
        assert_eq!(hayanagi_limits_init(l.as_mut_ptr()), HAYANAGI_OK);
        // SAFETY: initialised by hayanagi_limits_init.
        let mut l = unsafe { l.assume_init() };
        l.depth = depth;
        hayanagi_engine_go(self.0, &l)
    }

    fn wait(&self) {
        assert_eq!(hayanagi_engine_wait(self.0, 60_000), HAYANAGI_OK);
    }

    fn search_id(&self) -> u64 {
        let mut id = u64::MAX;
        assert_eq!(hayanagi_engine_search_id(self.0, &mut id), HAYANAGI_OK);
        id
    }

    fn stats(&self) -> hayanagi_event_stats {
        let mut s = hayanagi_event_stats {
            struct_size: std::mem::size_of::<hayanagi_event_stats>(),
            queued: u64::MAX,
            capacity: u64::MAX,
            dropped_full: u64::MAX,
            dropped_stale: u64::MAX,
            dropped_stale_final: u64::MAX,
        };
        assert_eq!(hayanagi_engine_event_stats(self.0, &mut s), HAYANAGI_OK);
        s
    }

    /// Poll until the queue is empty: (event, text) pairs.
    fn drain(&self) -> Vec<(hayanagi_event2, String)> {
        let mut out = Vec::new();
        let mut buf = vec![0u8; 8192];
        loop {
            let mut ev = std::mem::MaybeUninit::<hayanagi_event2>::zeroed();
            // SAFETY: our own storage; struct_size is the first field.
            unsafe { (*ev.as_mut_ptr()).struct_size = std::mem::size_of::<hayanagi_event2>() };
            let mut n = 0usize;
            let st = hayanagi_engine_poll_event2(
                self.0,
                ev.as_mut_ptr(),
                buf.as_mut_ptr().cast(),
                buf.len(),
                &mut n,
            );
            assert_eq!(st, HAYANAGI_OK);
            // SAFETY: written on success (zeroed before).
            let ev = unsafe { ev.assume_init() };
            if ev.kind == HAYANAGI_EVENT_NONE {
                assert_eq!(n, 0);
                return out;
            }
            out.push((ev, String::from_utf8_lossy(&buf[..n]).into_owned()));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        assert_eq!(hayanagi_engine_free(self.0), HAYANAGI_OK);
    }
}

/// What the callbacks saw, per search id.
#[derive(Default)]
struct Seen {
    /// (search id, USI info line) of every info callback.
    infos: Mutex<Vec<(u64, String)>>,
    /// (search id from the callback, engine's search id then, best move text).
    bests: Mutex<Vec<(u64, u64, String)>>,
    engine: AtomicU64,
    /// The USI output callback holds a best-move line until this is set.
    hold_bestmove: AtomicBool,
    release: AtomicBool,
}

fn seen<'a>(user: *mut c_void) -> &'a Seen {
    // SAFETY: the tests pass a `&Seen` that outlives the engine.
    unsafe { &*(user as *const Seen) }
}

fn engine_of(s: &Seen) -> *mut hayanagi_engine {
    s.engine.load(Ordering::Acquire) as *mut hayanagi_engine
}

fn callback_id(s: &Seen) -> u64 {
    let mut id = u64::MAX;
    assert_eq!(
        hayanagi_engine_callback_search_id(engine_of(s), &mut id),
        HAYANAGI_OK
    );
    id
}

unsafe extern "C" fn on_info(user: *mut c_void, _info: *const hayanagi_info, line: *const c_char) {
    let s = seen(user);
    // SAFETY: valid during the call.
    let line = unsafe { CStr::from_ptr(line) }
        .to_string_lossy()
        .into_owned();
    s.infos.lock().unwrap().push((callback_id(s), line));
}

unsafe extern "C" fn on_best(user: *mut c_void, best: *const c_char, ponder: *const c_char) {
    let s = seen(user);
    // SAFETY: valid during the call.
    let mut text = format!(
        "bestmove {}",
        unsafe { CStr::from_ptr(best) }.to_string_lossy()
    );
    if !ponder.is_null() {
        // SAFETY: valid during the call.
        text += &format!(
            " ponder {}",
            unsafe { CStr::from_ptr(ponder) }.to_string_lossy()
        );
    }
    let mut now = 0;
    assert_eq!(
        hayanagi_engine_search_id(engine_of(s), &mut now),
        HAYANAGI_OK
    );
    s.bests.lock().unwrap().push((callback_id(s), now, text));
}

unsafe extern "C" fn on_usi(user: *mut c_void, line: *const c_char) {
    let s = seen(user);
    // SAFETY: valid during the call.
    let line = unsafe { CStr::from_ptr(line) }.to_bytes();
    if line.starts_with(b"bestmove") && s.hold_bestmove.swap(false, Ordering::AcqRel) {
        // Runs before the best move is queued: hold it until the test has started the next
        // search, so that it arrives late.
        let t = Instant::now();
        while !s.release.load(Ordering::Acquire) && t.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

fn with_callbacks(e: &Engine, s: &Seen) {
    s.engine.store(e.0 as u64, Ordering::Release);
    let user = s as *const Seen as *mut c_void;
    assert_eq!(
        hayanagi_engine_set_info_callback(e.0, Some(on_info), user, None),
        HAYANAGI_OK
    );
    assert_eq!(
        hayanagi_engine_set_bestmove_callback(e.0, Some(on_best), user, None),
        HAYANAGI_OK
    );
    assert_eq!(
        hayanagi_engine_set_usi_output_callback(e.0, Some(on_usi), user, None),
        HAYANAGI_OK
    );
}

fn infos_of(s: &Seen, id: u64) -> Vec<String> {
    s.infos
        .lock()
        .unwrap()
        .iter()
        .filter(|(i, _)| *i == id)
        .map(|(_, l)| l.clone())
        .collect()
}

/// A host that enables events and never polls: the queue stays within its capacity, the
/// oldest info events go first with an exact count, and the best move still comes out.
#[test]
fn never_polling_host_stays_bounded_and_keeps_the_best_move() {
    let e = Engine::new();
    let s = Seen::default();
    with_callbacks(&e, &s);
    const CAP: usize = 8;
    assert_eq!(hayanagi_engine_set_event_capacity(e.0, CAP), HAYANAGI_OK);
    assert_eq!(hayanagi_engine_enable_events(e.0, true), HAYANAGI_OK);
    e.opt("MultiPV", "4"); // more info lines than the capacity
    e.opt("PvInterval", "0");
    e.position("startpos");
    assert_eq!(e.go_depth(6), HAYANAGI_OK);
    e.wait();
    let id = e.search_id();
    assert_eq!(id, 1);
    let infos = infos_of(&s, id);
    assert!(infos.len() > CAP, "{} info lines", infos.len());
    let st = e.stats();
    assert_eq!(st.capacity, CAP as u64);
    assert_eq!(st.queued, CAP as u64, "full: {CAP} events");
    // The best move took the place of one more info event.
    let dropped = (infos.len() + 1 - CAP) as u64;
    assert_eq!(st.dropped_full, dropped);
    assert_eq!((st.dropped_stale, st.dropped_stale_final), (0, 0));

    let events = e.drain();
    assert_eq!(events.len(), CAP);
    let (last, rest) = events.split_last().unwrap();
    // The newest info lines are kept, in order.
    let kept: Vec<String> = rest.iter().map(|(_, t)| t.clone()).collect();
    assert_eq!(kept, infos[infos.len() - (CAP - 1)..].to_vec());
    assert!(rest.iter().all(|(ev, _)| ev.kind == HAYANAGI_EVENT_INFO
        && ev.search_id == id
        && ev.info.pv.is_null()));
    assert_eq!(last.0.kind, HAYANAGI_EVENT_BESTMOVE);
    assert_eq!(last.0.search_id, id);
    assert_eq!(
        last.0.dropped_info, dropped,
        "the search's final drop count"
    );
    assert_eq!(last.1, s.bests.lock().unwrap()[0].2);
    assert_eq!(e.stats().queued, 0);

    // Many searches, never polled: the queue holds the last one's events only.
    e.opt("MultiPV", "1");
    assert_eq!(hayanagi_engine_set_event_capacity(e.0, 4096), HAYANAGI_OK);
    let before = e.stats();
    for _ in 0..20 {
        assert_eq!(e.go_depth(3), HAYANAGI_OK);
        e.wait();
        let st = e.stats();
        let last = infos_of(&s, e.search_id()).len() as u64;
        assert_eq!(st.queued, last + 1, "one search's infos and its best move");
    }
    let st = e.stats();
    let earlier: u64 = (2..e.search_id())
        .map(|i| infos_of(&s, i).len() as u64 + 1)
        .sum();
    assert_eq!(st.dropped_stale - before.dropped_stale, earlier);
    assert_eq!(st.dropped_stale_final - before.dropped_stale_final, 19);
    assert_eq!(st.dropped_full, before.dropped_full);
    let events = e.drain();
    let bests: Vec<_> = events
        .iter()
        .filter(|(ev, _)| ev.kind == HAYANAGI_EVENT_BESTMOVE)
        .collect();
    assert_eq!(bests.len(), 1);
    assert_eq!(bests[0].0.search_id, 21);
    assert!(events.iter().all(|(ev, _)| ev.search_id == 21));
}

/// Every search's info lines and exactly one best move come out with its id, and none of
/// an earlier search comes out once the next `go` has returned.
#[test]
fn events_carry_their_search_and_none_is_stale() {
    let e = Engine::new();
    let s = Seen::default();
    with_callbacks(&e, &s);
    assert_eq!(hayanagi_engine_enable_events(e.0, true), HAYANAGI_OK);
    e.position("startpos moves 7g7f 3c3d");
    assert_eq!(e.search_id(), 0);

    // Polled after each search: nothing lost.
    for round in 1..=3u64 {
        assert_eq!(e.go_depth(5), HAYANAGI_OK);
        assert_eq!(e.search_id(), round);
        e.wait();
        let events = e.drain();
        let texts: Vec<String> = events
            .iter()
            .filter(|(ev, _)| ev.kind == HAYANAGI_EVENT_INFO)
            .map(|(_, t)| t.clone())
            .collect();
        assert_eq!(texts, infos_of(&s, round), "round {round}: every info line");
        let bests: Vec<_> = events
            .iter()
            .filter(|(ev, _)| ev.kind == HAYANAGI_EVENT_BESTMOVE)
            .collect();
        assert_eq!(bests.len(), 1, "round {round}: one best move");
        assert_eq!(events.last().unwrap().0.kind, HAYANAGI_EVENT_BESTMOVE);
        assert!(events.iter().all(|(ev, _)| ev.search_id == round));
        assert!(events.iter().all(|(ev, _)| ev.dropped_info == 0));
        let b = s.bests.lock().unwrap().last().unwrap().clone();
        assert_eq!((b.0, &b.2), (round, &bests[0].1));
    }

    // Not polled before the next go: search 4's events are gone once go #5 returned.
    assert_eq!(e.go_depth(5), HAYANAGI_OK);
    e.wait();
    assert_eq!(e.go_depth(5), HAYANAGI_OK);
    let events = e.drain();
    assert!(
        events.iter().all(|(ev, _)| ev.search_id == 5),
        "a stale event came out: {:?}",
        events
            .iter()
            .map(|(ev, t)| (ev.search_id, t))
            .collect::<Vec<_>>()
    );
    e.wait();
    let events = [events, e.drain()].concat();
    assert!(events.iter().all(|(ev, _)| ev.search_id == 5));
    let texts: Vec<String> = events
        .iter()
        .filter(|(ev, _)| ev.kind == HAYANAGI_EVENT_INFO)
        .map(|(_, t)| t.clone())
        .collect();
    assert_eq!(texts, infos_of(&s, 5));
    assert_eq!(
        events
            .iter()
            .filter(|(ev, _)| ev.kind == HAYANAGI_EVENT_BESTMOVE)
            .count(),
        1
    );
    let st = e.stats();
    assert_eq!(st.dropped_stale_final, 1, "search 4's best move");
    assert_eq!(st.dropped_stale, infos_of(&s, 4).len() as u64 + 1);

    // A best move delivered after the next go returned (held on the USI output callback,
    // which runs before it is queued) is stale at once, and its callback still knows its
    // own search.
    s.hold_bestmove.store(true, Ordering::Release);
    assert_eq!(e.go_depth(3), HAYANAGI_OK); // search 6
    let t = Instant::now();
    let st = loop {
        // BUSY until search 6's answer is final; then it is held in its delivery.
        let st = e.go_depth(3);
        if st != HAYANAGI_BUSY || t.elapsed() > Duration::from_secs(30) {
            break st;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    assert_eq!(
        st, HAYANAGI_OK,
        "go while the previous best move is delivered"
    );
    assert_eq!(e.search_id(), 7);
    s.release.store(true, Ordering::Release);
    e.wait();
    let events = e.drain();
    assert!(events.iter().all(|(ev, _)| ev.search_id == 7));
    assert_eq!(
        events
            .iter()
            .filter(|(ev, _)| ev.kind == HAYANAGI_EVENT_BESTMOVE)
            .count(),
        1
    );
    let bests = s.bests.lock().unwrap().clone();
    let six = bests
        .iter()
        .find(|b| b.0 == 6)
        .expect("search 6's callback");
    assert_eq!(
        six.1, 7,
        "search 7 had started when search 6's best move came"
    );
    assert_eq!(e.stats().dropped_stale_final, 2);

    // Mate searches count too.
    e.position("sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1");
    assert_eq!(hayanagi_engine_go_mate(e.0, 10_000, 0, 0), HAYANAGI_OK);
    assert_eq!(e.search_id(), 8);
    e.wait();
    let events = e.drain();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].0.kind, HAYANAGI_EVENT_MATE);
    assert_eq!(events[0].0.search_id, 8);
    assert!(events[0].1.starts_with("checkmate "), "{}", events[0].1);

    // The old poll function sees the same queue.
    assert_eq!(e.go_depth(2), HAYANAGI_OK);
    e.wait();
    let mut ev = std::mem::MaybeUninit::<hayanagi_event>::uninit();
    let mut buf = [0u8; 4096];
    let mut kinds = Vec::new();
    loop {
        let st = hayanagi_engine_poll_event(
            e.0,
            ev.as_mut_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
            std::ptr::null_mut(),
        );
        assert_eq!(st, HAYANAGI_OK);
        // SAFETY: written on success.
        let k = unsafe { ev.assume_init() }.kind;
        if k == HAYANAGI_EVENT_NONE {
            break;
        }
        kinds.push(k);
    }
    assert_eq!(kinds.last(), Some(&HAYANAGI_EVENT_BESTMOVE));
    assert_eq!(kinds.len(), infos_of(&s, 9).len() + 1);
}

#[test]
fn argument_checks() {
    let e = Engine::new();
    let mut id = 0u64;
    assert_eq!(
        hayanagi_engine_callback_search_id(e.0, &mut id),
        HAYANAGI_INVALID_ARG,
        "outside a callback"
    );
    assert_eq!(
        hayanagi_engine_search_id(std::ptr::null(), &mut id),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(
        hayanagi_engine_search_id(e.0, std::ptr::null_mut()),
        HAYANAGI_NULL_ARG
    );
    for bad in [0, 1, 1_048_577] {
        assert_eq!(
            hayanagi_engine_set_event_capacity(e.0, bad),
            HAYANAGI_INVALID_ARG
        );
    }
    let mut st = std::mem::MaybeUninit::<hayanagi_event_stats>::zeroed();
    // SAFETY: our own storage.
    unsafe { (*st.as_mut_ptr()).struct_size = std::mem::size_of::<hayanagi_event_stats>() };
    assert_eq!(
        hayanagi_engine_event_stats(e.0, st.as_mut_ptr()),
        HAYANAGI_INVALID_ARG,
        "events not enabled"
    );
    assert_eq!(hayanagi_engine_enable_events(e.0, true), HAYANAGI_OK);
    // SAFETY: our own storage.
    unsafe { (*st.as_mut_ptr()).struct_size = 8 };
    assert_eq!(
        hayanagi_engine_event_stats(e.0, st.as_mut_ptr()),
        HAYANAGI_INVALID_ARG,
        "struct_size too small"
    );
    let mut ev = std::mem::MaybeUninit::<hayanagi_event2>::zeroed();
    // SAFETY: our own storage.
    unsafe { (*ev.as_mut_ptr()).struct_size = 4 };
    let mut buf = [0u8; 64];
    let mut n = 0;
    assert_eq!(
        hayanagi_engine_poll_event2(e.0, ev.as_mut_ptr(), buf.as_mut_ptr().cast(), 64, &mut n),
        HAYANAGI_INVALID_ARG
    );
    // A larger struct (a newer header's) is fine: only our bytes are written.
    #[repr(C)]
    struct Bigger {
        ev: hayanagi_event2,
        extra: u64,
    }
    let mut big = Bigger {
        // SAFETY: all-zero is a valid hayanagi_event2 (integers and a null pointer).
        ev: unsafe { std::mem::zeroed() },
        extra: 0xDEAD,
    };
    big.ev.struct_size = std::mem::size_of::<Bigger>();
    assert_eq!(
        hayanagi_engine_poll_event2(e.0, &mut big.ev, buf.as_mut_ptr().cast(), 64, &mut n),
        HAYANAGI_OK
    );
    assert_eq!(big.ev.kind, HAYANAGI_EVENT_NONE);
    assert_eq!(big.ev.struct_size, std::mem::size_of::<hayanagi_event2>());
    assert_eq!(big.extra, 0xDEAD);
}
