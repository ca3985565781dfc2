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
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../rulesets/{name}.rules"));
    let checked = arbiter::check::check_file(&path, &[]);
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

/// Mean time of one benchmark from criterion's saved estimates, in nanoseconds.
fn mean_ns(group: &str, id: &str) -> Option<f64> {
    let dir = std::env::var("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let text = std::fs::read_to_string(dir.join("criterion").join(group).join(id).join("new/estimates.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    chess(&mut c);
    c.final_summary();
    println!("\nratios (time of the reference / time of Arbiter; 1.0 = as fast, 0.2 = a fifth of the speed):");
    for g in ["chess-start-d5", "chess-kiwipete-d4"] {
        if let (Some(a), Some(s)) = (mean_ns(g, "arbiter"), mean_ns(g, "shakmaty")) {
            println!(
                "  {g:<24} arbiter {:>8.2} ms  shakmaty {:>8.2} ms  ratio {:.3}",
                a / 1e6,
                s / 1e6,
                s / a
            );
        }
    }
}
