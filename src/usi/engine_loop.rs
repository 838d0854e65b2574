//! The engine loop: one thread that owns stdout and the session, and waits on
//! two things at once: input lines (read by a separate reader thread, so a
//! search never blocks input) and the output of the job at the head of the
//! search thread's queue. Every command is therefore handled within
//! milliseconds, also mid-search.
//!
//! Guarantees kept here, whatever the search does:
//! - exactly one final line (`bestmove ...`, or `checkmate ...` for `go
//!   mate`) per `go`: a missing one is made up (first legal move, or
//!   `resign`), a second one is dropped;
//! - no final line of `go infinite` before `stop`, nor of `go ponder` before
//!   `stop` or `ponderhit`: an early one is held back until then;
//! - output in command order, ASCII only, flushed line by line. While a job
//!   that answers in order (`isready` when idle, `usinewgame`, `go perft`,
//!   `bench`) is running (not merely queued behind a search), later commands
//!   wait for it, except `quit`, `stop`,
//!   `ponderhit` and `gameover`: a piped `go perft 5` then `d` prints the
//!   perft before the board, as in YaneuraOu.

use super::command::{self, Command, GameResult, MAX_LINE_BYTES};
use super::display;
use super::options;
use super::session::Session;
use super::worker::{self, Job, Task};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::search::{Control, Limits};
use crate::sfen::{self, printable};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded, never, select, unbounded};
use std::collections::VecDeque;
use std::io::{BufRead, ErrorKind, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How long `quit` waits for a stopped search to send its last lines.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// One line from the input, or its end.
enum Input {
    /// A line without its newline: the first [`MAX_LINE_BYTES`] + 1 bytes at
    /// most, and its full length.
    Line(Vec<u8>, usize),
    /// End of input (or a read error).
    End,
}

/// Reads USI commands from `input` and writes replies to `output` until
/// `quit` or the end of input (see the module documentation).
pub fn run<R, W>(input: R, output: W)
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx) = bounded::<Input>(256);
    thread::Builder::new()
        .name("usi-input".into())
        .spawn(move || read_input(input, tx))
        .expect("cannot start the input thread");
    let mut engine = EngineLoop::new(output, worker::spawn());
    engine.run(rx);
}

/// The reader thread: splits the input into lines (bytes, not UTF-8),
/// keeping at most `MAX_LINE_BYTES + 1` bytes of any line.
fn read_input(mut input: impl BufRead, tx: Sender<Input>) {
    loop {
        let mut line = Vec::new();
        let mut total = 0usize;
        let mut seen_any = false;
        loop {
            let chunk = match input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    log::warn!("input error: {e}");
                    &[]
                }
            };
            if chunk.is_empty() {
                // End of input; a last line without a newline still counts.
                if seen_any {
                    let _ = tx.send(Input::Line(line, total));
                }
                let _ = tx.send(Input::End);
                return;
            }
            seen_any = true;
            let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            let room = (MAX_LINE_BYTES + 1).saturating_sub(line.len());
            line.extend_from_slice(&chunk[..used.min(room)]);
            total = total.saturating_add(used);
            input.consume(if done { used + 1 } else { used });
            if done {
                break;
            }
        }
        if tx.send(Input::Line(line, total)).is_err() {
            return;
        }
    }
}

/// A `go` in progress (or finished but with its final line held back).
struct SearchState {
    control: Arc<Control>,
    /// `go infinite`: the final line waits for `stop`.
    infinite: bool,
    /// `go ponder`: the final line waits for `stop` or `ponderhit`.
    ponder: bool,
    /// Whether the search ends without `stop`: finite limits, or a `go mate`
    /// (which ends when it has proved a mate or its absence). At the end of
    /// the input such a search is let finish; the others are stopped.
    ends_by_itself: bool,
    /// `stop` (or `ponderhit` for a ponder search) has come: finals may go out.
    released: bool,
    /// A final line has been seen.
    final_seen: bool,
    /// The final line, held back until released.
    held: Option<String>,
    /// What to print if the search ends without a final line.
    fallback: String,
    /// When `stop`/`ponderhit`/`quit` arrived (for the latency log).
    released_at: Option<Instant>,
}

enum PendingKind {
    Search(Box<SearchState>),
    /// `isready` while idle: `readyok` once the preparation is done.
    Ready,
    /// Anything else (`usinewgame`, `go perft`, `bench`).
    Other,
}

/// A job sent to the search thread whose output has not all been printed.
struct Pending {
    /// The job's output; `None` once the job has ended.
    rx: Option<Receiver<String>>,
    kind: PendingKind,
}

struct EngineLoop<W: Write> {
    out: W,
    session: Session,
    jobs: Sender<Job>,
    /// Jobs in the order they were sent; only the front one's output is read.
    pending: VecDeque<Pending>,
    /// Set when stdout is gone: nothing more can be said, so the loop ends.
    broken: bool,
    /// Input lines waiting for an in-order job to finish.
    deferred: VecDeque<(Vec<u8>, usize)>,
}

impl<W: Write> EngineLoop<W> {
    fn new(out: W, jobs: Sender<Job>) -> Self {
        EngineLoop {
            out,
            session: Session::new(),
            jobs,
            pending: VecDeque::new(),
            broken: false,
            deferred: VecDeque::new(),
        }
    }

    fn run(&mut self, input: Receiver<Input>) {
        let idle = never::<String>();
        let closed = never::<Input>();
        let mut input_open = true;
        loop {
            if !input_open && self.deferred.is_empty() && !self.waits_for_job() {
                self.finish_at_end_of_input();
                return;
            }
            let front = self
                .pending
                .front()
                .and_then(|p| p.rx.clone())
                .unwrap_or_else(|| idle.clone());
            let lines = if input_open {
                input.clone()
            } else {
                closed.clone()
            };
            select! {
                recv(lines) -> msg => match msg {
                    Ok(Input::Line(bytes, len)) => {
                        if self.waits_for_job() && !command::is_control(&bytes) {
                            self.deferred.push_back((bytes, len));
                        } else if !self.handle_line_guarded(&bytes, len) {
                            self.shut_down(Some(Instant::now() + QUIT_GRACE));
                            return;
                        }
                    }
                    Ok(Input::End) | Err(_) => {
                        log::debug!("end of input");
                        input_open = false;
                        self.release_unending_searches();
                    }
                },
                recv(front) -> msg => match msg {
                    Ok(line) => self.front_line(line),
                    Err(_) => self.front_ended(),
                },
            }
            if !self.run_deferred() {
                self.shut_down(Some(Instant::now() + QUIT_GRACE));
                return;
            }
            if self.broken {
                log::debug!("output closed");
                return;
            }
        }
    }

    /// Whether an in-order job (not a search) is running: later commands
    /// wait for it. Behind a search nothing waits, so `isready` during
    /// `go infinite` is still answered at once.
    fn waits_for_job(&self) -> bool {
        self.pending
            .front()
            .is_some_and(|p| !matches!(p.kind, PendingKind::Search(_)))
    }

    /// Handles the deferred lines that no longer need to wait; false on `quit`.
    fn run_deferred(&mut self) -> bool {
        while !self.waits_for_job() {
            let Some((bytes, len)) = self.deferred.pop_front() else {
                break;
            };
            if !self.handle_line_guarded(&bytes, len) {
                return false;
            }
        }
        true
    }

    // ----- output -----

    fn emit(&mut self, line: &str) {
        self.emit_lines(std::iter::once(line));
    }

    fn emit_lines<'a>(&mut self, lines: impl IntoIterator<Item = &'a str>) {
        if self.broken {
            return;
        }
        for line in lines {
            let clean = ascii_line(line);
            log::debug!(">> {clean}");
            if writeln!(self.out, "{clean}").is_err() {
                self.broken = true;
                return;
            }
        }
        if self.out.flush().is_err() {
            self.broken = true;
        }
    }

    fn error(&mut self, message: &str) {
        log::debug!("error: {message}");
        self.emit(&format!("info string error: {message}"));
    }

    // ----- input -----

    /// [`handle_line`](Self::handle_line), with a panic (a bug) turned
    /// into an error line instead of ending the engine.
    fn handle_line_guarded(&mut self, bytes: &[u8], len: usize) -> bool {
        match catch_unwind(AssertUnwindSafe(|| self.handle_line(bytes, len))) {
            Ok(go_on) => go_on,
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                log::error!("panic while handling a command: {message}");
                let text = String::from_utf8_lossy(bytes).into_owned();
                self.error(&format!(
                    "internal error while handling '{}': {}",
                    printable(&text),
                    printable(&message)
                ));
                true
            }
        }
    }

    /// Handles one input line; returns false on `quit`.
    fn handle_line(&mut self, bytes: &[u8], len: usize) -> bool {
        log::debug!(
            "<< {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
        );
        let command = match command::parse_bytes(bytes, len) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e.0);
                return true;
            }
        };
        match command {
            Command::Quit => return false,
            Command::Usi => self.usi(),
            Command::IsReady => self.isready(),
            Command::SetOption { name, value } => {
                if let Err(e) = self.session.set_option(&name, value.as_deref()) {
                    self.error(&e.0);
                }
            }
            Command::UsiNewGame => {
                let options = self.session.options.search.clone();
                self.submit(Task::NewGame { options }, PendingKind::Other);
            }
            Command::Position(p) => {
                if let Err(e) = self.session.set_position(&p) {
                    self.error(&e.0);
                }
            }
            Command::Go(go) => {
                for e in &go.errors {
                    self.error(&e.0);
                }
                let mut limits = go.limits;
                limits.search_moves = self.search_moves(&go.search_moves);
                self.go(limits);
            }
            Command::Perft(depth) => {
                let position = Box::new(self.session.game.position().clone());
                self.submit(Task::Perft { position, depth }, PendingKind::Other);
            }
            Command::Stop => self.stop_all(),
            Command::GameOver(result) => {
                log::debug!("game over: {result:?}");
                if result == Some(GameResult::Win) {
                    log::info!("won a game");
                }
                self.stop_all();
            }
            Command::PonderHit(errors) => {
                for e in &errors {
                    self.error(&e.0);
                }
                self.ponderhit();
            }
            Command::Display => {
                let lines = display::diagram(&self.session.game);
                self.emit_lines(lines.iter().map(String::as_str));
            }
            Command::Moves => {
                let line = display::legal_moves_line(self.session.game.position());
                self.emit(&line);
            }
            Command::Bench(depth) => {
                let eval_file = self.session.options.search.eval_file.clone();
                self.submit(Task::Bench { depth, eval_file }, PendingKind::Other)
            }
            Command::Solve(target) => self.solve(target),
            Command::Comment => {}
        }
        true
    }

    /// `solve`: the current position, or the one given (checked first; a bad
    /// one changes nothing and gets an error line).
    fn solve(&mut self, target: Option<command::PositionCommand>) {
        let position = match target {
            None => self.session.game.position().clone(),
            Some(p) => match p.build(self.session.options.variant) {
                Ok(game) => game.position().clone(),
                Err(e) => {
                    self.error(&format!("solve: {}", e.0.trim_start_matches("position: ")));
                    return;
                }
            },
        };
        let position = Box::new(position);
        self.submit(Task::Solve { position }, PendingKind::Other);
    }

    fn usi(&mut self) {
        let mut lines = vec![
            format!("id name Fukayomi {}", env!("CARGO_PKG_VERSION")),
            "id author the Fukayomi developers".to_string(),
        ];
        lines.extend(options::declared().iter().map(|d| d.usi_line()));
        lines.push("usiok".to_string());
        self.emit_lines(lines.iter().map(String::as_str));
    }

    fn isready(&mut self) {
        if self.pending.is_empty() {
            // Idle: allocate now, answer when done (input is still read meanwhile).
            let options = self.session.options.search.clone();
            self.submit(Task::Prepare { options }, PendingKind::Ready);
        } else {
            // Busy: answer at once; the next search applies the options.
            self.emit("readyok");
        }
    }

    fn submit(&mut self, task: Task, kind: PendingKind) {
        let (tx, rx) = unbounded();
        if self.jobs.send(Job { task, out: tx }).is_err() {
            // Cannot happen (the search thread outlives the loop), but if it
            // did, a search still gets its one final line.
            log::error!("the search thread is gone");
            if let PendingKind::Search(s) = kind {
                self.error("internal error: the search thread is gone");
                let fallback = s.fallback;
                self.emit(&fallback);
            }
            return;
        }
        self.pending.push_back(Pending { rx: Some(rx), kind });
    }

    /// The legal moves among the words after `searchmoves`; each word that
    /// is not one gets an error line and is left out.
    fn search_moves(&mut self, words: &[String]) -> Vec<Move> {
        let mut moves = Vec::new();
        for word in words {
            match sfen::parse_move(self.session.game.position(), word) {
                Ok(m) if moves.contains(&m) => {}
                Ok(m) => moves.push(m),
                Err(e) => self.error(&format!("go: searchmoves: {e}; left out")),
            }
        }
        if !words.is_empty() && moves.is_empty() {
            self.error("go: searchmoves: no legal move is left; every move is searched");
        }
        moves
    }

    fn go(&mut self, limits: Limits) {
        if self
            .pending
            .iter()
            .any(|p| matches!(p.kind, PendingKind::Search(_)))
        {
            log::info!("go during a search: the previous search is stopped first");
            self.stop_all();
        }
        let game = self.session.game.clone();
        let fallback = if limits.mate.is_some() {
            "checkmate timeout".to_string()
        } else {
            let mut list = MoveList::new();
            movegen::legal_moves(game.position(), &mut list);
            match limits.search_moves.first().or(list.iter().next()) {
                Some(m) => format!("bestmove {m}"),
                None => "bestmove resign".to_string(),
            }
        };
        let control = Arc::new(Control::default());
        // Reset here, not on the search thread, so that a `stop` arriving
        // before the search starts is not lost.
        control.reset(limits.ponder);
        let state = SearchState {
            control: control.clone(),
            infinite: limits.infinite,
            ponder: limits.ponder,
            ends_by_itself: !(limits.infinite || limits.ponder),
            released: !(limits.infinite || limits.ponder),
            final_seen: false,
            held: None,
            fallback,
            released_at: None,
        };
        let options = self.session.options.search.clone();
        self.submit(
            Task::Search {
                game: Box::new(game),
                limits,
                options,
                control,
            },
            PendingKind::Search(Box::new(state)),
        );
    }

    /// `stop`, `gameover`, `quit`: every search ends and may print its final line.
    fn stop_all(&mut self) {
        let now = Instant::now();
        for p in &mut self.pending {
            if let PendingKind::Search(s) = &mut p.kind {
                s.control.stop();
                s.released = true;
                s.released_at.get_or_insert(now);
            }
        }
        self.flush_held();
    }

    fn ponderhit(&mut self) {
        let now = Instant::now();
        let mut any = false;
        for p in &mut self.pending {
            if let PendingKind::Search(s) = &mut p.kind
                && s.ponder
                && s.control.pondering()
            {
                any = true;
                s.control.ponderhit();
                s.ponder = false;
                if !s.infinite {
                    s.released = true;
                    s.released_at.get_or_insert(now);
                }
            }
        }
        if !any {
            log::debug!("ponderhit without a ponder search: ignored");
        }
        self.flush_held();
    }

    /// Prints held final lines whose search has been released, in order.
    fn flush_held(&mut self) {
        let mut lines = Vec::new();
        for p in &mut self.pending {
            if let PendingKind::Search(s) = &mut p.kind
                && s.released
                && let Some(line) = s.held.take()
            {
                lines.push(line);
            }
            if p.rx.is_some() {
                // Later jobs' output comes after this one's.
                break;
            }
        }
        self.emit_lines(lines.iter().map(String::as_str));
        self.settle();
    }

    // ----- the front job's output -----

    fn front_line(&mut self, line: String) {
        let Some(front) = self.pending.front_mut() else {
            return;
        };
        match &mut front.kind {
            PendingKind::Search(s) => {
                if is_final(&line) {
                    if s.final_seen {
                        log::warn!("second final line dropped: {line}");
                        return;
                    }
                    s.final_seen = true;
                    if let Some(at) = s.released_at {
                        log::debug!("final line {} ms after release", at.elapsed().as_millis());
                    }
                    if !s.released {
                        log::debug!("final line held until stop/ponderhit: {line}");
                        s.held = Some(line);
                        return;
                    }
                } else if s.final_seen {
                    log::warn!("line after the final line dropped: {line}");
                    return;
                }
                self.emit(&line);
            }
            PendingKind::Ready | PendingKind::Other => self.emit(&line),
        }
    }

    fn front_ended(&mut self) {
        let Some(front) = self.pending.front_mut() else {
            return;
        };
        front.rx = None;
        if let PendingKind::Search(s) = &mut front.kind
            && !s.final_seen
        {
            log::error!("the search ended without a final line");
            let fallback = s.fallback.clone();
            self.front_line(fallback);
        }
        self.settle();
    }

    /// Removes finished jobs from the front of the queue.
    fn settle(&mut self) {
        while let Some(front) = self.pending.front_mut() {
            if front.rx.is_some() {
                return;
            }
            match &mut front.kind {
                PendingKind::Search(s) => {
                    if s.held.is_some() {
                        return;
                    }
                    self.pending.pop_front();
                }
                PendingKind::Ready => {
                    self.pending.pop_front();
                    self.emit("readyok");
                }
                PendingKind::Other => {
                    self.pending.pop_front();
                }
            }
        }
    }

    // ----- the end -----

    /// `quit` (deadline) or end of input (no deadline: finite searches end).
    fn shut_down(&mut self, deadline: Option<Instant>) {
        if deadline.is_some() {
            self.stop_all();
        }
        while !self.pending.is_empty() && !self.broken {
            if deadline.is_some()
                && self
                    .pending
                    .front()
                    .is_some_and(|p| !matches!(p.kind, PendingKind::Search(_)))
            {
                // `quit` waits only for searches (to print their bestmove),
                // not for a perft, bench or hash allocation.
                break;
            }
            let Some(rx) = self.pending.front().and_then(|p| p.rx.clone()) else {
                // Held line of an unreleased search: release it now.
                self.stop_all();
                continue;
            };
            let msg = match deadline {
                Some(d) => rx.recv_deadline(d),
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match msg {
                Ok(line) => self.front_line(line),
                Err(RecvTimeoutError::Disconnected) => self.front_ended(),
                Err(RecvTimeoutError::Timeout) => {
                    log::warn!("quit: the search did not end in time");
                    break;
                }
            }
        }
        let _ = self.out.flush();
    }

    fn finish_at_end_of_input(&mut self) {
        self.release_unending_searches();
        self.shut_down(None);
    }

    /// At the end of input, searches that would wait for `stop` forever are
    /// stopped; finite ones (a piped `go depth 10`) finish and print their result.
    fn release_unending_searches(&mut self) {
        let now = Instant::now();
        for p in &mut self.pending {
            if let PendingKind::Search(s) = &mut p.kind
                && !s.ends_by_itself
            {
                s.control.stop();
                s.released = true;
                s.released_at.get_or_insert(now);
            }
        }
        self.flush_held();
    }
}

fn is_final(line: &str) -> bool {
    let first = line.split_whitespace().next();
    matches!(first, Some("bestmove") | Some("checkmate"))
}

/// The line with anything but printable ASCII replaced (stdout stays ASCII,
/// one line per line).
fn ascii_line(line: &str) -> String {
    line.chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else if c.is_whitespace() {
                ' '
            } else {
                '?'
            }
        })
        .collect()
}
