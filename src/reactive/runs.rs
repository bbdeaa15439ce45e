//! [`Runs`]: the latest run wins. A renderer starts asynchronous evaluations (a value that
//! needs a tool call, a search that runs on every keystroke) under keys of its own; starting a
//! run supersedes the previous run of the same key, which then never completes: its result is
//! never returned and its writes never happen.
//!
//! A run is a future wrapped in [`Run`]: before each poll of the wrapped future it checks that
//! it is still the latest; superseded, it drops the wrapped future (which cancels a pending
//! tool call) and completes with `None`. Every write of an evaluation happens inside a poll,
//! and [`Runs::start`] waits for a poll in progress of the older run to end, so once `start`
//! returns the older run has made its last write, even on a multi-threaded executor.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};

/// The number of the latest run of one key, shared by its runs, and the lock a run holds while
/// its future is polled.
#[derive(Debug, Default)]
struct Turn {
    current: AtomicU64,
    polling: Mutex<()>,
}

impl Turn {
    fn is(&self, number: u64) -> bool {
        self.current.load(Ordering::SeqCst) == number
    }

    fn lock(&self) -> MutexGuard<'_, ()> {
        // The lock guards no data: a panic in a poll cannot leave anything half-done behind it.
        self.polling.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes `number` the latest; with `wait`, returns only once a poll in progress (which
    /// may have seen the older number) has ended.
    fn supersede(&self, number: u64, wait: bool) {
        self.current.store(number, Ordering::SeqCst);
        if wait {
            drop(self.lock());
        }
    }
}

/// Which run of each key is the latest.
///
/// ```
/// # #[cfg(feature = "testing")] {
/// use a2ui_catalog_mcp::reactive::Runs;
/// use a2ui_catalog_mcp::testing::block_on;
///
/// let mut runs = Runs::new();
/// let older = runs.run("search", async { "results for 'ru'" });
/// let newer = runs.run("search", async { "results for 'rust'" });
/// assert_eq!(block_on(older), None); // superseded: never completes with its result
/// assert_eq!(block_on(newer), Some("results for 'rust'"));
/// # }
/// ```
///
/// A result written after its run completed (the run's output, not a write inside its future)
/// goes through [`Ticket::write_if_current`], which decides and writes as one step.
///
/// The wrapped futures need no particular runtime. Spawned on one, a [`Run`] stops at its next
/// poll once superseded; dropping it stops it at once. On a multi-threaded executor, do not
/// call [`start`](Runs::start) (or [`run`](Runs::run), [`cancel`](Runs::cancel)) while holding
/// a lock the runs' futures take when polled (the data model's): `start` waits for a poll of
/// the older run in progress to end.
#[derive(Debug)]
pub struct Runs<K> {
    turns: HashMap<K, Arc<Turn>>,
    /// The last run number handed out; numbers are never reused, whatever the key.
    started: u64,
}

impl<K: Eq + Hash> Default for Runs<K> {
    fn default() -> Runs<K> {
        Runs::new()
    }
}

impl<K: Eq + Hash> Runs<K> {
    /// No runs yet.
    pub fn new() -> Runs<K> {
        Runs {
            turns: HashMap::new(),
            started: 0,
        }
    }

    /// Starts a run of `key`: the earlier runs of `key` are superseded. The returned ticket
    /// wraps the run's future ([`Ticket::run`]); it may be created before the future (a
    /// renderer that hands the work to another thread).
    pub fn start(&mut self, key: K) -> Ticket {
        self.start_with(key, true)
    }

    /// [`start`](Runs::start); without `wait`, it does not wait for a poll of an older run in
    /// progress (for runs that do not write: their result is checked again when it comes).
    pub(crate) fn start_with(&mut self, key: K, wait: bool) -> Ticket {
        self.started += 1;
        let number = self.started;
        let turn = self.turns.entry(key).or_default().clone();
        turn.supersede(number, wait);
        Ticket { turn, number }
    }

    /// [`start`](Runs::start) and [`Ticket::run`] at once.
    pub fn run<F: Future>(&mut self, key: K, future: F) -> Run<F> {
        self.start(key).run(future)
    }

    /// Supersedes every run of `key` without starting another, and forgets the key. Returns
    /// whether the key had runs.
    pub fn cancel<Q>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.cancel_with(key, true)
    }

    /// [`cancel`](Runs::cancel), waiting or not as [`start_with`](Runs::start_with).
    pub(crate) fn cancel_with<Q>(&mut self, key: &Q, wait: bool) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let Some(turn) = self.turns.remove(key) else {
            return false;
        };
        self.started += 1;
        turn.supersede(self.started, wait);
        true
    }
}

/// The right to run as the latest run of a key, until [`Runs::start`] supersedes it. A clone
/// is the same right (to check it while another copy runs).
#[derive(Debug, Clone)]
pub struct Ticket {
    turn: Arc<Turn>,
    number: u64,
}

impl Ticket {
    /// Whether no later run of the same key has started (and the key was not cancelled).
    pub fn is_current(&self) -> bool {
        self.turn.is(self.number)
    }

    /// Runs `write` when this ticket is still current, deciding and writing as one step: under
    /// the lock that [`Run`]'s polls hold and that [`Runs::start`] waits for. Returns `None`,
    /// without calling `write`, once a later run of the key has started.
    ///
    /// Checking [`is_current`](Ticket::is_current) and then writing is not enough on several
    /// threads: a newer run can start, complete and write in between, and the older result
    /// would overwrite it. With this method, writes of one key land in the order the runs
    /// started, and once `start` returns no older run writes again.
    ///
    /// ```
    /// use a2ui_catalog_mcp::reactive::Runs;
    /// use std::sync::Mutex;
    ///
    /// let shown = Mutex::new("");
    /// let mut runs = Runs::new();
    /// let older = runs.start("search");
    /// let newer = runs.start("search");
    /// // The results come back in any order, on any thread.
    /// assert_eq!(newer.write_if_current(|| *shown.lock().unwrap() = "rust"), Some(()));
    /// assert_eq!(older.write_if_current(|| *shown.lock().unwrap() = "ru"), None);
    /// assert_eq!(*shown.lock().unwrap(), "rust");
    /// ```
    pub fn write_if_current<T>(&self, write: impl FnOnce() -> T) -> Option<T> {
        let _polling = self.turn.lock();
        self.turn.is(self.number).then(write)
    }

    /// Wraps `future`: it runs while this ticket is current.
    pub fn run<F: Future>(self, future: F) -> Run<F> {
        Run {
            ticket: self,
            future: Some(Box::pin(future)),
        }
    }
}

/// A future that completes with `Some(output)` when it finished as the latest run of its key,
/// and with `None` as soon as it is polled after a later run of the key started.
#[must_use = "a run does nothing unless polled"]
pub struct Run<F: Future> {
    ticket: Ticket,
    future: Option<Pin<Box<F>>>,
}

impl<F: Future> std::fmt::Debug for Run<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("ticket", &self.ticket)
            .field("finished", &self.future.is_none())
            .finish()
    }
}

impl<F: Future> Run<F> {
    /// Whether no later run of the same key has started.
    pub fn is_current(&self) -> bool {
        self.ticket.is_current()
    }
}

impl<F: Future> Future for Run<F> {
    type Output = Option<F::Output>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<F::Output>> {
        let this = self.get_mut();
        let Some(future) = this.future.as_mut() else {
            return Poll::Ready(None);
        };
        let polling = this.ticket.turn.lock();
        if !this.ticket.turn.is(this.ticket.number) {
            drop(polling);
            // Dropping the evaluation cancels its pending call; it never writes again.
            this.future = None;
            return Poll::Ready(None);
        }
        // Polled under the lock: `start` cannot supersede this run in the middle of a write.
        let polled = future.as_mut().poll(cx);
        drop(polling);
        match polled {
            Poll::Ready(output) => {
                this.future = None;
                Poll::Ready(Some(output))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    fn poll<F: Future + Unpin>(f: &mut F) -> Poll<F::Output> {
        Pin::new(f).poll(&mut Context::from_waker(Waker::noop()))
    }

    /// A future that is pending until its flag is set.
    struct Gate(Arc<std::sync::atomic::AtomicBool>, u32);

    impl Future for Gate {
        type Output = u32;
        fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<u32> {
            if self.0.load(std::sync::atomic::Ordering::SeqCst) {
                Poll::Ready(self.1)
            } else {
                Poll::Pending
            }
        }
    }

    #[test]
    fn a_newer_run_supersedes_an_older_one_of_the_same_key_only() {
        let open = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut runs = Runs::new();
        let mut first = runs.run("search", Gate(open.clone(), 1));
        let mut other = runs.run("other", Gate(open.clone(), 9));
        assert!(poll(&mut first).is_pending());
        let mut second = runs.run("search", Gate(open.clone(), 2));
        assert!(!first.is_current() && second.is_current() && other.is_current());
        open.store(true, std::sync::atomic::Ordering::SeqCst);
        // The older run's result is ready, but it is never returned.
        assert_eq!(poll(&mut first), Poll::Ready(None));
        assert_eq!(poll(&mut second), Poll::Ready(Some(2)));
        assert_eq!(poll(&mut other), Poll::Ready(Some(9)));
        // Polled again after completion: nothing more.
        assert_eq!(poll(&mut second), Poll::Ready(None));
    }

    #[test]
    fn cancel_supersedes_and_forgets() {
        let mut runs = Runs::new();
        let ticket = runs.start("k".to_string());
        assert!(runs.cancel("k"));
        assert!(!runs.cancel("k"));
        assert!(!ticket.is_current());
        // A later run of the same key does not revive the cancelled ticket.
        let newer = runs.start("k".to_string());
        assert!(newer.is_current() && !ticket.is_current());
        assert_eq!(poll(&mut ticket.run(async { 1 })), Poll::Ready(None));
    }

    /// A future whose poll announces itself, takes a while, then "writes".
    struct SlowWrite {
        entered: std::sync::mpsc::Sender<()>,
        wrote: Arc<std::sync::atomic::AtomicBool>,
    }

    impl Future for SlowWrite {
        type Output = ();
        fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<()> {
            let _ = self.entered.send(());
            std::thread::sleep(std::time::Duration::from_millis(100));
            self.wrote.store(true, std::sync::atomic::Ordering::SeqCst);
            Poll::Pending
        }
    }

    #[test]
    fn start_waits_for_a_poll_in_progress_on_another_thread() {
        let (entered, was_entered) = std::sync::mpsc::channel();
        let wrote = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut runs = Runs::new();
        let mut older = runs.run(
            "k",
            SlowWrite {
                entered,
                wrote: wrote.clone(),
            },
        );
        let poller = std::thread::spawn(move || {
            assert!(poll(&mut older).is_pending());
            older
        });
        was_entered.recv().unwrap();
        let _newer = runs.start("k");
        // The older run's write, begun before `start`, ended before `start` returned.
        assert!(wrote.load(std::sync::atomic::Ordering::SeqCst));
        let mut older = poller.join().unwrap();
        wrote.store(false, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(poll(&mut older), Poll::Ready(None));
        assert!(
            !wrote.load(std::sync::atomic::Ordering::SeqCst),
            "never polled again"
        );
    }

    /// Eight threads start 1 000 runs of one key and write their results, slow to build and
    /// ready in scrambled order, with `write_if_current`: the writes land in start order, and
    /// the latest run's result is what stays.
    #[test]
    fn write_if_current_keeps_start_order_across_threads() {
        const THREADS: u64 = 8;
        const RUNS: u64 = 1000;
        let runs = Mutex::new((Runs::new(), 0u64));
        let written = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..THREADS {
                scope.spawn(|| {
                    for _ in 0..RUNS / THREADS {
                        let (ticket, n) = {
                            let mut runs = runs.lock().unwrap();
                            runs.1 += 1;
                            // Bindings starts its runs without waiting; so does this test.
                            (runs.0.start_with("k", false), runs.1)
                        };
                        // Ready in scrambled order; one result in four slow to build.
                        let r = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                        std::thread::sleep(std::time::Duration::from_micros(r % 300));
                        let cost = if r.is_multiple_of(4) { 200_000 } else { 10 };
                        let built: u64 = (0..cost).fold(n, |a, i| std::hint::black_box(a ^ i));
                        ticket.write_if_current(|| written.lock().unwrap().push((n, built)));
                    }
                });
            }
        });
        let written: Vec<u64> = written
            .into_inner()
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        let late: Vec<_> = written.windows(2).filter(|w| w[0] >= w[1]).collect();
        assert!(
            late.is_empty(),
            "an older run wrote after a newer one: {late:?}"
        );
        assert_eq!(written.last(), Some(&RUNS), "the latest run's result stays");
    }

    #[test]
    fn runs_are_send_when_their_futures_are() {
        fn check<T: Send>(_: &T) {}
        let mut runs = Runs::new();
        check(&runs.run(1, async { 1 }));
    }
}
