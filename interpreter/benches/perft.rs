//! Perft speed, Arbiter beside independent hand-written engines in the same run, as a ratio.
//! `cargo bench -p arbiter --bench perft`. Both sides count the last ply in bulk (the number of
//! legal moves), as shakmaty's own `perft` does. After criterion's report, the ratios are printed
//! from criterion's own estimates (target/criterion/<group>/<engine>/new/estimates.json).

use std::path::Path;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn engine(name: &str) -> arbiter::game::Engine {
    engine_with(name, &[])
}

fn engine_with(name: &str, params: &[(&str, &str)]) -> arbiter::game::Engine {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../rulesets/{name}.rules"));
    let params: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let checked = arbiter::check::check_file(&path, &params);
    arbiter::game::Engine::new(checked.rules.expect("bundled ruleset is valid"))
}

fn shakmaty_pos(fen: &str) -> shakmaty::Chess {
    let f: shakmaty::fen::Fen = fen.parse().expect("valid FEN");
    f.into_position(shakmaty::CastlingMode::Standard).expect("legal position")
}

fn chess(c: &mut Criterion) {
    let e = engine("chess");
    for (label, fen, depth) in [("start", START, 5), ("kiwipete", KIWIPETE, 4)] {
        let pos = e.from_fen(fen).expect("valid FEN");
        let sp = shakmaty_pos(fen);
        let nodes = pos.perft(depth);
        assert_eq!(nodes, shakmaty::perft(&sp, depth), "both engines must count the same tree");
        let mut g = c.benchmark_group(format!("chess-{label}-d{depth}"));
        g.throughput(Throughput::Elements(nodes));
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(4));
        g.bench_function(BenchmarkId::from_parameter("arbiter"), |b| b.iter(|| pos.perft(depth)));
        g.bench_function(BenchmarkId::from_parameter("shakmaty"), |b| b.iter(|| shakmaty::perft(&sp, depth)));
        g.finish();
    }
}

/// Perft of chess from the start to depth 5 with its first moves shared out among threads
/// (`arbiter perft --threads N`), beside the same count on one thread.
fn threads(c: &mut Criterion) {
    let e = engine("chess");
    let pos = e.start();
    let count = |threads: usize| {
        let watch = arbiter::game::PerftWatch::default();
        let mut n = 0;
        pos.perft_divide_threads(5, false, &watch, threads, |_, k| n += k)
            .expect("not stopped");
        n
    };
    assert_eq!(count(2), 4_865_609, "the threads count the same tree");
    let mut g = c.benchmark_group("perft-threads-chess-d5");
    g.throughput(Throughput::Elements(4_865_609));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    for t in [1, 2] {
        g.bench_function(BenchmarkId::from_parameter(format!("threads-{t}")), |b| b.iter(|| count(t)));
    }
    g.finish();
}

fn xiangqi(c: &mut Criterion) {
    let e = engine("xiangqi");
    let pos = e.start();
    for depth in [4, 5] {
        let nodes = pos.perft(depth);
        let mut g = c.benchmark_group(format!("xiangqi-start-d{depth}"));
        g.throughput(Throughput::Elements(nodes));
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(if depth == 5 { 20 } else { 4 }));
        g.bench_function(BenchmarkId::from_parameter("arbiter"), |b| b.iter(|| pos.perft(depth)));
        g.finish();
    }
}

/// Random playouts of go (uniform over legal moves that do not fill an own single-point eye),
/// seeded with rand_chacha; one iteration is one playout from the empty board. Beside libego's own
/// light playouts when `ARBITER_LIBEGO` names the folder `scripts/build-libego` filled (a like
/// policy: see the README; its playouts are as long). The mean plies of a playout go to a file for
/// the summary's moves per second.
fn go(c: &mut Criterion) {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    for size in [9, 19] {
        let e = engine_with("go", &[("size", &size.to_string())]);
        let start = e.start();
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let group = format!("go-playout-{size}x{size}");
        let sample = 200;
        let plies: usize = (0..sample).map(|_| start.clone().random_playout(&mut rng, 3 * size * size)).sum();
        let mut libego = Libego::start(size);
        let libego_plies = libego.as_mut().map(|l| l.playouts(sample as u64).1 as f64 / sample as f64);
        let _ = std::fs::write(
            plies_file(&group),
            format!("{} {}", plies as f64 / sample as f64, libego_plies.unwrap_or(0.0)),
        );
        let mut g = c.benchmark_group(&group);
        g.throughput(Throughput::Elements(1));
        g.sample_size(20)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(4));
        // Each playout starts from a copy of the start made into the same position, as libego's
        // driver loads its start board into the same board.
        let mut p = start.clone();
        g.bench_function(BenchmarkId::from_parameter("arbiter"), |b| {
            b.iter(|| {
                p.clone_from(&start);
                p.random_playout(&mut rng, 3 * size * size)
            })
        });
        if let Some(l) = &mut libego {
            g.bench_function(BenchmarkId::from_parameter("libego"), |b| b.iter_custom(|n| l.playouts(n).0));
        }
        g.finish();
    }
}

/// libego's light playouts (`scripts/build-libego` builds them from its public source, a binary a
/// board size), driven over stdin: a playout count in, "done N black-wins white-wins moves" out.
struct Libego {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Libego {
    /// The driver for `size`, if `ARBITER_LIBEGO` names a folder holding it. A folder that is named
    /// but holds no working driver stops the run: a ratio silently missing would read as measured.
    fn start(size: usize) -> Option<Libego> {
        let dir = std::env::var("ARBITER_LIBEGO").ok()?;
        let bin = Path::new(&dir).join(format!("libego-{size}"));
        let mut child = std::process::Command::new(&bin)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "ARBITER_LIBEGO: cannot start {}: {e} (scripts/build-libego builds it)",
                    bin.display()
                )
            });
        // Both piped just above: there to take.
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = std::io::BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut l = Libego { child, stdin, stdout };
        let answer = l.ask("size");
        assert_eq!(answer, format!("size {size}"), "{} plays another board size", bin.display());
        Some(l)
    }
    fn ask(&mut self, line: &str) -> String {
        use std::io::{BufRead, Write};
        writeln!(self.stdin, "{line}").expect("libego reads");
        let mut answer = String::new();
        assert!(self.stdout.read_line(&mut answer).expect("libego answers") > 0, "libego stopped");
        answer.trim().to_string()
    }
    /// Plays `n` playouts: the time they took and the moves they played.
    fn playouts(&mut self, n: u64) -> (Duration, u64) {
        let t = std::time::Instant::now();
        let answer = self.ask(&n.to_string());
        let took = t.elapsed();
        let words: Vec<&str> = answer.split_whitespace().collect();
        assert!(words.len() == 5 && words[0] == "done", "libego answered {answer:?}");
        (took, words[4].parse().expect("a move count"))
    }
}

impl Drop for Libego {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// Games in a batch of random games: enough that the batch's mean length is steady.
const BATCH: u64 = 100;

/// Random full games, every automatic end rule applied after every move (as `arbiter play` and
/// `arbiter simulate` apply them), with `random` players: the plies played by a batch of
/// [`BATCH`] seeded games, and a function that plays the batch. `every`: the games whose legal
/// moves are counted (see `arbiter::sim::Config::branching_every`).
fn arbiter_batch(e: &arbiter::game::Engine, every: u64) -> (u64, impl Fn() -> u64) {
    use arbiter::sim::{self, Config, PlayerSpec, Shard};
    let start = sim::Start::new(&e.start());
    let cfg = Config {
        games: BATCH,
        seed: 2026,
        players: vec![PlayerSpec::Random; 2],
        max_plies: 5000,
        threads: 1,
        shard: Shard::WHOLE,
        keep_moves: false,
        branching_every: every,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let play = move || {
        (0..BATCH)
            .map(|g| sim::play_indexed(&start, &cfg, g, &stop).map_or(0, |(s, _)| s.plies as u64))
            .sum::<u64>()
    };
    (play(), play)
}

/// The same workload in shakmaty: uniformly random legal moves until checkmate, stalemate,
/// insufficient material, the 75-move rule or a fivefold repetition (Zobrist keys counted), the
/// automatic end rules of `chess.rules`. Returns the plies played.
fn shakmaty_batch() -> u64 {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    use shakmaty::zobrist::Zobrist64;
    use shakmaty::{EnPassantMode, Position};
    let mut plies = 0;
    for g in 0..BATCH {
        let mut rng = ChaCha8Rng::seed_from_u64(2026 + g);
        let mut pos = shakmaty::Chess::default();
        let mut seen: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
        loop {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[((rng.next_u32() as u64 * moves.len() as u64) >> 32) as usize];
            pos.play_unchecked(m);
            plies += 1;
            let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
            let n = seen.entry(key.0).or_insert(0);
            *n += 1;
            if *n >= 5 || pos.halfmoves() >= 150 || pos.is_insufficient_material() {
                break;
            }
        }
    }
    plies
}

/// Random full games per second (chess beside shakmaty's loop, xiangqi, 9x9 go) and MCTS
/// iterations per second.
fn simulation(c: &mut Criterion) {
    let chess = engine("chess");
    let (plies, play) = arbiter_batch(&chess, arbiter::sim::BRANCHING_EVERY);
    let mut g = c.benchmark_group("random-games-chess");
    g.throughput(Throughput::Elements(BATCH));
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    g.bench_function(BenchmarkId::from_parameter("arbiter"), |b| b.iter(&play));
    g.bench_function(BenchmarkId::from_parameter("shakmaty"), |b| b.iter(shakmaty_batch));
    g.finish();
    let _ = std::fs::write(plies_file("random-games-chess"), format!("{plies} {}", shakmaty_batch()));
    for (name, e) in [
        ("xiangqi", engine("xiangqi")),
        ("go-9x9", engine_with("go", &[("size", "9")])),
        ("go-19x19", engine_with("go", &[("size", "19")])),
    ] {
        let (plies, play) = arbiter_batch(&e, arbiter::sim::BRANCHING_EVERY);
        let group = format!("random-games-{name}");
        let mut g = c.benchmark_group(&group);
        g.throughput(Throughput::Elements(BATCH));
        g.sample_size(20)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(4));
        g.bench_function(BenchmarkId::from_parameter("arbiter"), |b| b.iter(&play));
        if name.starts_with("go") {
            // Go counts its legal moves in one game in 16 unless told: here in every game.
            let (_, every) = arbiter_batch(&e, 1);
            g.bench_function(BenchmarkId::from_parameter("arbiter-every-game-counted"), |b| b.iter(&every));
        }
        g.finish();
        let _ = std::fs::write(plies_file(&group), plies.to_string());
    }
    for (name, e, budget) in [
        ("chess", engine("chess"), 300u32),
        ("xiangqi", engine("xiangqi"), 300),
        ("go-9x9", engine_with("go", &[("size", "9")]), 1000),
    ] {
        use arbiter::sim::{Budget, Mcts, Walk};
        use rand_chacha::rand_core::SeedableRng;
        let walk = Walk::new(e.start());
        let mut g = c.benchmark_group(format!("mcts-{name}-{budget}"));
        g.throughput(Throughput::Elements(budget as u64));
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(4));
        g.bench_function(BenchmarkId::from_parameter("arbiter"), |b| {
            b.iter(|| {
                Mcts::new(Budget::Iterations(budget), rand_chacha::ChaCha8Rng::seed_from_u64(1))
                    .search(&walk)
                    .1
            })
        });
        g.finish();
    }
}

/// Where a batch's ply counts are kept for the summary.
fn plies_file(group: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("arbiter-bench-{group}-plies.txt"))
}

/// Fairy-Stockfish, when `ARBITER_FSF` names its binary (it is not part of the project: build it
/// beside it to measure), driven over UCI: `go perft N` after `setoption name UCI_Variant`.
/// `ARBITER_FSF_VARIANTS` names its variants.ini for the variants defined there (tictactoe, cfour).
/// A current build (largeboards, all variants): the README says how.
struct Fsf {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Fsf {
    fn start(variant: &str) -> Option<Fsf> {
        use std::io::Write;
        let bin = std::env::var("ARBITER_FSF").ok()?;
        let mut child = std::process::Command::new(bin)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .ok()?;
        let mut stdin = child.stdin.take()?;
        let stdout = std::io::BufReader::new(child.stdout.take()?);
        if let Ok(ini) = std::env::var("ARBITER_FSF_VARIANTS") {
            writeln!(stdin, "setoption name VariantPath value {ini}").ok()?;
        }
        writeln!(stdin, "setoption name UCI_Variant value {variant}").ok()?;
        let mut f = Fsf { child, stdin, stdout };
        f.sync()?;
        Some(f)
    }
    fn sync(&mut self) -> Option<()> {
        use std::io::{BufRead, Write};
        writeln!(self.stdin, "isready").ok()?;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if line.trim() == "readyok" {
                return Some(());
            }
        }
    }
    /// Runs `go perft depth` from the variant's start; the node count.
    fn perft(&mut self, depth: u32) -> u64 {
        use std::io::{BufRead, Write};
        writeln!(self.stdin, "position startpos\ngo perft {depth}").expect("Fairy-Stockfish reads");
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line).expect("Fairy-Stockfish answers") == 0 {
                panic!("Fairy-Stockfish stopped");
            }
            if let Some(n) = line.trim().strip_prefix("Nodes searched:") {
                return n.trim().parse().expect("a node count");
            }
        }
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// The seven games of the second family: perft with end rules (a finished game is a leaf), from
/// the start, and Fairy-Stockfish's time for the same count in the same run where it plays the game.
const SECOND_FAMILY: &[(&str, u32, Option<&str>)] = &[
    ("tic-tac-toe", 9, Some("tictactoe")),
    ("connect-four", 8, Some("cfour")),
    ("othello", 8, Some("flipello")),
    ("draughts", 9, None),
    ("breakthrough", 5, Some("breakthrough")),
    ("crazyhouse", 4, Some("crazyhouse")),
    ("hex", 3, None),
];

/// The games of the third family (turns of parts, counts, explosions, capture obligations) that
/// Fairy-Stockfish plays, under its variant names; a path is a ruleset of the language tests.
const THIRD_FAMILY: &[(&str, u32, Option<&str>)] = &[
    ("duck-chess", 2, Some("duck")),
    ("isolation", 3, Some("isolation")),
    ("seirawan", 4, Some("seirawan")),
    ("three-check", 5, Some("3check")),
    ("antichess", 5, Some("antichess")),
    ("atomic", 4, Some("atomic")),
    ("clobber", 4, Some("clobber")),
    ("tests/language/ataxx.rules", 4, Some("ataxx")),
    ("tests/language/amazons.rules", 2, Some("amazons")),
];

/// The group a family game is measured in: its name (a path's file stem), start and depth.
fn family_group(name: &str, depth: u32) -> String {
    let stem = Path::new(name).file_stem().and_then(|s| s.to_str()).unwrap_or(name);
    format!("{stem}-start-d{depth}")
}

fn nodes_file(group: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("arbiter-bench-{group}-nodes.txt"))
}

fn family(c: &mut Criterion, games: &[(&str, u32, Option<&str>)]) {
    for &(name, depth, fsf) in games {
        let e = if name.ends_with(".rules") {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name);
            arbiter::game::Engine::new(arbiter::check::check_file(&path, &[]).rules.expect("the ruleset is valid"))
        } else {
            engine(name)
        };
        let pos = e.start();
        let nodes = pos.perft_stop_at_end(depth);
        let group = family_group(name, depth);
        let _ = std::fs::write(nodes_file(&group), nodes.to_string());
        let mut g = c.benchmark_group(&group);
        g.throughput(Throughput::Elements(nodes));
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(3));
        g.bench_function(BenchmarkId::from_parameter("arbiter"), |b| b.iter(|| pos.perft_stop_at_end(depth)));
        if let Some(mut f) = fsf.and_then(Fsf::start) {
            assert_eq!(f.perft(depth), nodes, "{name}: both engines must count the same tree");
            g.bench_function(BenchmarkId::from_parameter("fairy-stockfish"), |b| b.iter(|| f.perft(depth)));
        }
        g.finish();
    }
}

/// Nodes per second of each family game, and Fairy-Stockfish's beside it where it ran.
fn family_summary(games: &[(&str, u32, Option<&str>)]) {
    for &(name, depth, _) in games {
        let g = family_group(name, depth);
        let Some(nodes) = std::fs::read_to_string(nodes_file(&g))
            .ok()
            .and_then(|t| t.trim().parse::<f64>().ok())
        else {
            continue;
        };
        if let Some(a) = mean_ns(&g, "arbiter") {
            let mut line = format!("  {g:<24} {:>7.2} M/s", nodes / (a / 1e9) / 1e6);
            if let Some(f) = mean_ns(&g, "fairy-stockfish") {
                line.push_str(&format!(
                    "   fairy-stockfish {:>7.2} M/s   ratio {:.3}",
                    nodes / (f / 1e9) / 1e6,
                    f / a
                ));
            }
            println!("{line}");
        }
    }
}

/// Mean time of one benchmark from criterion's saved estimates, in nanoseconds. Criterion writes
/// under `$CARGO_TARGET_DIR`, the workspace's target folder, or `target` in the working folder
/// (when it cannot ask cargo); the newest estimate found is this run's.
fn mean_ns(group: &str, id: &str) -> Option<f64> {
    let newest = criterion_dirs()
        .into_iter()
        .map(|d| d.join(group).join(id).join("new/estimates.json"))
        .filter_map(|f| Some((std::fs::metadata(&f).ok()?.modified().ok()?, f)))
        .max()?;
    let text = std::fs::read_to_string(newest.1).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

/// Where criterion may have written this run's estimates.
fn criterion_dirs() -> Vec<std::path::PathBuf> {
    let mut dirs = vec![
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion"),
        std::path::PathBuf::from("target/criterion"),
    ];
    if let Ok(d) = std::env::var("CARGO_TARGET_DIR") {
        dirs.insert(0, std::path::PathBuf::from(d).join("criterion"));
    }
    dirs
}

fn main() {
    let rounds = paired_rounds();
    let mut c = Criterion::default().configure_from_args();
    chess(&mut c);
    threads(&mut c);
    xiangqi(&mut c);
    go(&mut c);
    simulation(&mut c);
    family(&mut c, SECOND_FAMILY);
    family(&mut c, THIRD_FAMILY);
    c.final_summary();
    println!("\nchess, Arbiter beside shakmaty (time of shakmaty / time of Arbiter; 0.2 = a fifth of its speed):");
    for g in ["chess-start-d5", "chess-kiwipete-d4"] {
        if let (Some(a), Some(s)) = (mean_ns(g, "arbiter"), mean_ns(g, "shakmaty")) {
            println!(
                "  {g:<20} arbiter {:>9.2} ms  shakmaty {:>9.2} ms  ratio {:.3}",
                a / 1e6,
                s / 1e6,
                s / a
            );
        }
    }
    if let (Some(one), Some(two)) = (
        mean_ns("perft-threads-chess-d5", "threads-1"),
        mean_ns("perft-threads-chess-d5", "threads-2"),
    ) {
        println!(
            "\nperft on threads, chess start d5: 1 thread {:.2} ms, 2 threads {:.2} ms, speed-up {:.2}",
            one / 1e6,
            two / 1e6,
            one / two
        );
    }
    let nps = |g: &str, nodes: f64| mean_ns(g, "arbiter").map(|t| nodes / (t / 1e9) / 1e6);
    let chess = nps("chess-start-d5", 4_865_609.0);
    println!("\nArbiter, nodes per second:");
    if let Some(c) = chess {
        println!("  chess start d5        {c:>7.1} M/s");
    }
    for (g, nodes) in [("xiangqi-start-d4", 3_290_240.0), ("xiangqi-start-d5", 133_312_995.0)] {
        if let (Some(x), Some(c)) = (nps(g, nodes), chess) {
            println!("  {g:<20}  {x:>7.1} M/s  ({:.2} of chess per node)", x / c);
        }
    }
    println!("\nthe second family, perft with end rules, nodes per second (Fairy-Stockfish with ARBITER_FSF):");
    family_summary(SECOND_FAMILY);
    println!("\nthe third family, perft with end rules, nodes per second (Fairy-Stockfish with ARBITER_FSF):");
    family_summary(THIRD_FAMILY);
    println!("\ngo, random playouts per second (one core; libego 0.1.127 with ARBITER_LIBEGO):");
    // Moves per second of each engine at each size, for the 19x19 / 9x9 comparison.
    let mut mps: [[Option<f64>; 2]; 2] = [[None; 2]; 2];
    for (i, g) in ["go-playout-9x9", "go-playout-19x19"].into_iter().enumerate() {
        let plies: Vec<f64> = std::fs::read_to_string(plies_file(g))
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        let Some(t) = mean_ns(g, "arbiter") else { continue };
        let mut line = format!("  {g:<20}  {:>9.0} /s", 1e9 / t);
        if let Some(p) = plies.first() {
            mps[i][0] = Some(p * 1e9 / t);
            line.push_str(&format!(" {:>6.1} plies each", p));
        }
        if let (Some(l), Some(lp)) = (mean_ns(g, "libego"), plies.get(1).filter(|p| **p > 0.0)) {
            mps[i][1] = Some(lp * 1e9 / l);
            line.push_str(&format!("   libego {:>9.0} /s {lp:>6.1} plies each   ratio {:.3}", 1e9 / l, l / t));
        }
        println!("{line}");
    }
    if let [[Some(a9), l9], [Some(a19), l19]] = mps {
        let mut line = format!("  moves per second, 19x19 / 9x9: arbiter {:.3}", a19 / a9);
        if let (Some(l9), Some(l19)) = (l9, l19) {
            line.push_str(&format!(
                ", libego {:.3} (arbiter's is {:+.1}% of libego's)",
                l19 / l9,
                ((a19 / a9) / (l19 / l9) - 1.0) * 100.0
            ));
        }
        println!("{line}");
    }
    println!("\nrandom full games, every end rule applied (one core; {BATCH} seeded games a batch):");
    for g in [
        "random-games-chess",
        "random-games-xiangqi",
        "random-games-go-9x9",
        "random-games-go-19x19",
    ] {
        let Some(t) = mean_ns(g, "arbiter") else { continue };
        let plies: Vec<f64> = std::fs::read_to_string(plies_file(g))
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        let mut line = format!("  {g:<22} {:>8.0} games/s", BATCH as f64 / (t / 1e9));
        if let Some(p) = plies.first() {
            line.push_str(&format!(" {:>6.2} M plies/s", p / (t / 1e9) / 1e6));
        }
        if let (Some(s), Some(sp)) = (mean_ns(g, "shakmaty"), plies.get(1)) {
            line.push_str(&format!(
                "   shakmaty {:>8.0} games/s {:>6.2} M plies/s   ratio {:.3} by games, {:.3} by plies",
                BATCH as f64 / (s / 1e9),
                sp / (s / 1e9) / 1e6,
                s / t,
                (plies[0] / t) / (sp / s)
            ));
        }
        println!("{line}");
    }
    println!(
        "\nsimulated go games (every end rule; legal moves counted in one game in {}, and in every game) beside the playouts, plies per second:",
        arbiter::sim::BRANCHING_EVERY
    );
    for size in [9, 19] {
        let (sim, playout) = (format!("random-games-go-{size}x{size}"), format!("go-playout-{size}x{size}"));
        let first = |g: &str| -> Option<f64> { std::fs::read_to_string(plies_file(g)).ok()?.split_whitespace().next()?.parse().ok() };
        if let (Some(t), Some(p), Some(tp), Some(pp)) =
            (mean_ns(&sim, "arbiter"), first(&sim), mean_ns(&playout, "arbiter"), first(&playout))
        {
            let (a, b) = (p / (t / 1e9), pp / (tp / 1e9));
            let mut line = format!(
                "  {size}x{size}: simulated {:>6.2} M plies/s, playouts {:>6.2} M plies/s, simulated at {:.3} of the playouts' speed",
                a / 1e6,
                b / 1e6,
                a / b
            );
            if let Some(te) = mean_ns(&sim, "arbiter-every-game-counted") {
                let e = p / (te / 1e9);
                line.push_str(&format!("; every game counted {:>6.2} M plies/s, at {:.3}", e / 1e6, e / b));
            }
            println!("{line}");
        }
    }
    println!("\nMCTS iterations per second, from the start (one core):");
    for g in ["mcts-chess-300", "mcts-xiangqi-300", "mcts-go-9x9-1000"] {
        if let Some(t) = mean_ns(g, "arbiter") {
            let n: f64 = g.rsplit('-').next().and_then(|n| n.parse().ok()).unwrap_or(0.0);
            println!("  {g:<22} {:>9.0} /s", n / (t / 1e9));
        }
    }
    paired(rounds);
}

/// With `ARBITER_PAIRED=N` (a number of rounds): the ratios to the references measured again by
/// turns, after criterion's run. Criterion times one engine for seconds, then the other; on a
/// shared machine a burst of load in either stretch moves the ratio of their means by several
/// per cent. Here each round times a batch of each, the order swapped every round, so both see
/// the same load; the median of the rounds' ratios is printed with its quartiles.
fn paired(rounds: Option<usize>) {
    use std::time::Instant;
    let Some(rounds) = rounds else { return };
    println!("\nratios by turns ({rounds} rounds; the reference's time / Arbiter's: median [quartiles]):");
    let timed = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed()
    };
    let chess = engine("chess");
    for (label, fen, depth) in [("start", START, 5), ("kiwipete", KIWIPETE, 4)] {
        let pos = chess.from_fen(fen).expect("valid FEN");
        let sp = shakmaty_pos(fen);
        let line = by_turns(
            rounds,
            &mut || {
                timed(&mut || {
                    std::hint::black_box(pos.perft(depth));
                })
            },
            &mut || {
                timed(&mut || {
                    std::hint::black_box(shakmaty::perft(&sp, depth));
                })
            },
        );
        println!("  {:<22} {line}", format!("chess-{label}-d{depth}"));
    }
    // Random games: the two batches play different games (each engine draws its own), so the
    // ratio is of plies per second.
    let (plies, play) = arbiter_batch(&chess, arbiter::sim::BRANCHING_EVERY);
    let shakmaty_plies = shakmaty_batch();
    let scale = plies as f64 / shakmaty_plies as f64;
    let line = by_turns_scaled(
        rounds,
        scale,
        &mut || {
            timed(&mut || {
                std::hint::black_box(play());
            })
        },
        &mut || {
            timed(&mut || {
                std::hint::black_box(shakmaty_batch());
            })
        },
    );
    println!("  {:<22} {line} (by plies)", "random-games-chess");
    // Go playouts beside libego, where `ARBITER_LIBEGO` names its drivers: a batch of playouts
    // of about the same time each round (libego's own clock, as its criterion group takes it).
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    for (size, batch) in [(9usize, 2000u64), (19, 400)] {
        let Some(mut libego) = Libego::start(size) else { continue };
        let e = engine_with("go", &[("size", &size.to_string())]);
        let start = e.start();
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let mut p = start.clone();
        let line = by_turns(
            rounds,
            &mut || {
                timed(&mut || {
                    for _ in 0..batch {
                        p.clone_from(&start);
                        p.random_playout(&mut rng, 3 * size * size);
                    }
                })
            },
            &mut || libego.playouts(batch).0,
        );
        println!("  {:<22} {line} (libego)", format!("go-playout-{size}x{size}"));
    }
}

/// The rounds `ARBITER_PAIRED` asks for, read before criterion's run: named but not a count of
/// rounds, the run stops at once, as a misnamed libego does (a ratio silently missing would read
/// as measured).
fn paired_rounds() -> Option<usize> {
    let value = std::env::var("ARBITER_PAIRED").ok()?;
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=100_000).contains(&n) => Some(n),
        _ => panic!("ARBITER_PAIRED={value:?}: give the number of rounds, 1 to 100000 (100 take about a minute)"),
    }
}

/// [`by_turns_scaled`] with the two batches' work the same.
fn by_turns(rounds: usize, arbiter: &mut dyn FnMut() -> Duration, reference: &mut dyn FnMut() -> Duration) -> String {
    by_turns_scaled(rounds, 1.0, arbiter, reference)
}

/// `rounds` rounds of one batch of each (a batch of each first, untimed, to warm up), the order
/// swapped every round: the median and quartiles of the reference's time over Arbiter's, times
/// `scale` (Arbiter's batch's work over the reference's).
fn by_turns_scaled(rounds: usize, scale: f64, arbiter: &mut dyn FnMut() -> Duration, reference: &mut dyn FnMut() -> Duration) -> String {
    arbiter();
    reference();
    let mut ratios: Vec<f64> = (0..rounds)
        .map(|i| {
            let (a, r) = if i % 2 == 0 {
                let a = arbiter();
                (a, reference())
            } else {
                let r = reference();
                (arbiter(), r)
            };
            r.as_secs_f64() / a.as_secs_f64().max(1e-9) * scale
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
    format!("ratio {:.3} [{:.3} {:.3}]", at(0.5), at(0.25), at(0.75))
}
