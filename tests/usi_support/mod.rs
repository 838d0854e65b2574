//! Shared helpers for the `usi_*` integration tests: the engine binary
//! spawned and driven over pipes.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// A generous wait for things that should take milliseconds.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The engine under test.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// Every line received so far.
    pub transcript: Vec<String>,
}

/// Starts the engine binary with stdin and stdout piped, stderr discarded
/// and logging off (so nothing but USI is produced).
pub fn spawn_engine() -> Child {
    Command::new(env!("CARGO_BIN_EXE_fukayomi"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn fukayomi")
}

impl Engine {
    /// Starts `fukayomi` with pipes on stdin and stdout.
    pub fn spawn() -> Engine {
        let mut child = spawn_engine();
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        assert!(buf.is_ascii(), "non-ASCII output: {buf:?}");
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send((Instant::now(), line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin closed");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, if one comes within `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        self.recv_timed(timeout).map(|(_, l)| l)
    }

    /// The next line and when it arrived.
    pub fn recv_timed(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((t, line)) => {
                self.transcript.push(line.clone());
                Some((t, line))
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`; panics
    /// after `timeout`.
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_timed(timeout, done).0
    }

    /// Like [`until`](Self::until), also returning when the last line arrived.
    pub fn until_timed(
        &mut self,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((t, line)) = self.recv_timed(left) else {
                panic!(
                    "timed out after {timeout:?}; got {lines:?}; transcript tail {:?}",
                    &self.transcript[self.transcript.len().saturating_sub(10)..]
                );
            };
            let stop = done(&line);
            lines.push(line);
            if stop {
                return (lines, t);
            }
        }
    }

    /// Lines up to and including `bestmove ...`.
    pub fn until_bestmove(&mut self, timeout: Duration) -> Vec<String> {
        self.until(timeout, |l| l.starts_with("bestmove"))
    }

    /// Sends `isready` and returns the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(PATIENCE, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `usi` and `isready` and waits for both answers.
    pub fn handshake(&mut self) {
        self.send("usi");
        self.until(PATIENCE, |l| l == "usiok");
        self.sync();
    }

    /// The SFEN line of `d`.
    pub fn sfen(&mut self) -> String {
        self.send("d");
        let lines = self.until(PATIENCE, |l| l.starts_with("Key: "));
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Sfen: "))
            .expect("d prints Sfen")
            .to_string()
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Every line still arriving within `quiet` of the previous one.
    pub fn drain(&mut self, quiet: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(line) = self.recv(quiet) {
            lines.push(line);
        }
        lines
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Serialises the timing-sensitive tests of one test binary, so that they do
/// not load the (2-core) machine for each other.
pub fn exclusive() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Lines that are `info string error: ...`.
pub fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

/// The number of lines that start with `prefix`.
pub fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}
