//! Drive the `hayanagi` binary as a USI engine through pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Generous: these tests assert behaviour, never speed.
pub const PATIENCE: Duration = Duration::from_secs(60);

pub struct UsiProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far.
    pub seen: Vec<String>,
}

impl UsiProcess {
    pub fn start() -> UsiProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hayanagi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hayanagi");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        UsiProcess {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Wait for a line satisfying `pred`; returns it and the lines before it.
    pub fn expect(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> (String, Vec<String>) {
        let deadline = Instant::now() + PATIENCE;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if pred(&line) {
                        return (line, before);
                    }
                    before.push(line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out waiting for {what}; got {before:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output while waiting for {what}; got {before:#?}")
                }
            }
        }
    }

    pub fn expect_prefix(&mut self, prefix: &str) -> (String, Vec<String>) {
        let p = prefix.to_string();
        self.expect(prefix, move |l| l.starts_with(&p))
    }

    /// Lines that arrive within `wait` (for asserting that something did *not* happen).
    pub fn drain_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen.push(line.clone());
            got.push(line);
        }
        got
    }

    /// Send a command and return the lines up to and including the `isready` answer.
    pub fn sync(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.send("isready");
        self.expect("readyok", |l| l == "readyok").1
    }

    /// Close stdin and wait for the process; returns the remaining output and the status.
    pub fn close(mut self) -> (Vec<String>, ExitStatus) {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        let mut rest = Vec::new();
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(l) => rest.push(l),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("engine did not exit; got {rest:#?}"),
            }
        }
        let status = self.child.wait().unwrap();
        (rest, status)
    }
}

impl Drop for UsiProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
