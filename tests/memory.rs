//! Memory in long simulations, counted by this test binary's own allocator: a game holds only what
//! its rules read back (a key and a count a ply for repetition), so it grows by a few bytes a ply;
//! a run of many games holds no more at the end than at the start, and its peak does not grow with
//! the number of games. Chess, and go (its chains, what tracking them keeps, and the superko record of every board). One
//! test, so that nothing else allocates while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use arbiter::sim::{self, Config, PlayerSpec, Shard, Walk};

mod common;

/// The system's allocator, counting the bytes live and their peak since the last [`reset_peak`].
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call goes to `System` unchanged; the counters only watch.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

fn reset_peak() -> usize {
    let now = live();
    PEAK.store(now, Ordering::Relaxed);
    now
}

/// Bytes a game may add a ply: a repetition key and its count, in containers that double.
const PER_PLY: usize = 256;

#[test]
fn memory_stays_flat_per_ply_and_per_game() {
    let chess = common::bundled("chess");
    // Go keeps its chains, what tracking them keeps and a record of every board (superko) as it goes.
    let go = |size: usize| common::engine("rulesets/go.rules", &[("size", &size.to_string())]);
    per_ply("go 19x19", &go(19), 400);
    per_ply("chess", &chess, 400);
    per_game("chess", &chess, 600);
    per_game("go 9x9", &go(9), 243);
}

/// Per ply: the longest of 40 random games that last `min_plies`, measured from ply 100 to its end.
fn per_ply(name: &str, e: &arbiter::game::Engine, min_plies: usize) {
    let mut longest = (0, 0);
    for seed in 0..40 {
        let mut player = PlayerSpec::Random.build(seed);
        let mut walk = Walk::new(e.start());
        let mut at_100 = None;
        while walk.end().is_none() && walk.plies() < 1000 {
            if walk.plies() == 100 {
                at_100 = Some(live());
            }
            let m = player.choose(&walk);
            walk.play(m);
        }
        let plies = walk.plies();
        if let Some(start) = at_100
            && plies >= min_plies
        {
            let per_ply = live().saturating_sub(start) / (plies - 100);
            assert!(per_ply <= PER_PLY, "{name}, seed {seed}: {per_ply} bytes a ply over {plies} plies");
            longest = longest.max((plies, per_ply));
        }
    }
    assert!(
        longest.0 >= min_plies,
        "{name}: no game of 40 lasted {min_plies} plies: nothing was measured"
    );
}

/// Per game: 50 games and then 400 games of one run's settings, on one thread.
fn per_game(name: &str, e: &arbiter::game::Engine, max_plies: usize) {
    let run = |games: u64| {
        let cfg = Config {
            games,
            seed: 7,
            players: vec![PlayerSpec::Random; 2],
            max_plies,
            threads: 1,
            shard: Shard::WHOLE,
            keep_moves: false,
            branching_every: arbiter::sim::BRANCHING_EVERY,
        };
        let before = reset_peak();
        let out = sim::run(&e.start(), &cfg, &AtomicBool::new(false), &|_| {});
        assert_eq!(out.tally.games, games);
        drop(out);
        (PEAK.load(Ordering::Relaxed) - before, live().saturating_sub(before))
    };
    let (peak_50, kept_50) = run(50);
    let (peak_400, kept_400) = run(400);
    // Nothing of a finished game stays (a tally of a few counters aside).
    assert!(
        kept_50 <= 4096 && kept_400 <= 4096,
        "{name}: left behind {kept_50} and {kept_400} bytes"
    );
    // The peak is one game's (the longest's), not the run's: eight times the games, and at most the
    // extra plies of a longer game within the limit.
    assert!(
        peak_400 <= peak_50 + max_plies * PER_PLY,
        "{name}: peak {peak_50} bytes over 50 games, {peak_400} over 400"
    );
    assert!(
        peak_400 < 256 << 10,
        "{name}: a game peaks at {peak_400} bytes (over 50 games: {peak_50})"
    );
}
