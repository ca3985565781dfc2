//! Monte Carlo tree search with UCT (Kocsis and Szepesvári 2006): for any ruleset, since all it
//! needs is the legal moves, the end rules and random playouts. Each iteration walks down the tree
//! by the UCB1 bound, adds one node, plays a random game from it to the end (or to a cut-off, which
//! counts as a draw), and adds the result to every node on the way. The move played is the most
//! visited. With an iteration budget the same seed gives the same moves. The tree holds at most
//! [`MAX_TREE_BYTES`]: past them an iteration adds no node and plays out from the leaf it
//! reached, so a long think (`go infinite`, a 19 × 19 board's hundreds of moves a node) keeps
//! its memory flat.

use std::sync::atomic::{AtomicBool, Ordering};

use rand_chacha::ChaCha8Rng;

use super::player::{Budget, Deadline, Player, Progress};
use super::walk::{Walk, below};
use crate::game::Move;
use crate::model::Side;

/// The exploration constant: √2, the classic choice for results in [0, 1].
const EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// The most a search's tree holds (its nodes and their lists of moves): 512 MiB.
pub const MAX_TREE_BYTES: usize = 512 << 20;

struct Node {
    /// The move that led here (unused at the root).
    mv: Move,
    /// Who made it: the side whose results `value` sums.
    mover: Side,
    children: Vec<u32>,
    /// The moves not yet tried from here.
    untried: Vec<Move>,
    visits: u32,
    value: f64,
    /// What the game is worth to each side when it is over here.
    over: Option<super::walk::Values>,
}

/// A UCT player.
pub struct Mcts {
    budget: Budget,
    rng: ChaCha8Rng,
    buf: Vec<Move>,
    last_iterations: u64,
    /// The most the tree may hold ([`MAX_TREE_BYTES`]; smaller in tests).
    max_tree_bytes: usize,
    /// What the last search's tree held.
    last_tree_bytes: usize,
}

impl Mcts {
    pub fn new(budget: Budget, rng: ChaCha8Rng) -> Mcts {
        Mcts {
            budget,
            rng,
            buf: Vec::new(),
            last_iterations: 0,
            max_tree_bytes: MAX_TREE_BYTES,
            last_tree_bytes: 0,
        }
    }

    /// The bytes the last search's tree held (at most about [`MAX_TREE_BYTES`]).
    pub fn last_tree_bytes(&self) -> usize {
        self.last_tree_bytes
    }

    /// The bytes a node holds: itself, its untried moves, and its place in its parent's children.
    fn node_bytes(node: &Node) -> usize {
        std::mem::size_of::<Node>() + node.untried.capacity() * std::mem::size_of::<Move>() + std::mem::size_of::<u32>()
    }

    /// A playout longer than this many plies is cut and counts as a draw: four per square keeps a
    /// random game of chess, xiangqi or go to its end almost always.
    fn playout_limit(walk: &Walk) -> usize {
        4 * walk.rules().board.squares()
    }

    fn node(&mut self, walk: &Walk, mv: Move, mover: Side) -> Node {
        let over = walk.end().map(|e| e.values(walk.rules().players.len()));
        let mut untried = Vec::new();
        // A chance node (the side to move still to roll) keeps no moves to try: its children are
        // made as the rolls come up (see `Mcts::run`).
        if over.is_none() && !walk.position().to_roll() {
            walk.candidates(&mut self.buf);
            untried.extend_from_slice(&self.buf);
        }
        Node {
            mv,
            mover,
            children: Vec::new(),
            untried,
            visits: 0,
            value: 0.0,
            over,
        }
    }

    /// Runs the search from `root` and returns the tree's most visited move with the number of
    /// iterations run.
    pub fn search(&mut self, root: &Walk) -> (Move, u64) {
        self.search_unless(root, &AtomicBool::new(false))
            .expect("a search that is never stopped ends")
    }

    /// [`Mcts::search`] that gives up (`None`) within a few iterations of `stop` being raised.
    pub fn search_unless(&mut self, root: &Walk, stop: &AtomicBool) -> Option<(Move, u64)> {
        self.run(root, stop, None)
    }

    /// [`Mcts::search`] that reports to `progress` every few hundred iterations and, when `stop`
    /// is raised, answers with the most visited move so far.
    pub fn search_until(&mut self, root: &Walk, stop: &AtomicBool, progress: &Progress) -> (Move, u64) {
        let (m, n) = self.run(root, stop, Some(progress)).unwrap_or((root.legal()[0], 0));
        progress.report(n, Some(m));
        (m, n)
    }

    /// The search: on `stop`, `None` without `progress`, the best move so far with it.
    fn run(&mut self, root: &Walk, stop: &AtomicBool, progress: Option<&Progress>) -> Option<(Move, u64)> {
        // Asked to choose a roll: chance's, drawn as likely as the roll makes it.
        if let Some(roll) = root.position().draw_roll(&mut self.rng) {
            return Some((roll, 0));
        }
        // (Whose value the root sums is never read.)
        let mover = root.position().side_to_move();
        let first = root.legal()[0];
        let mut tree = vec![self.node(root, first, mover)];
        if tree[0].untried.len() == 1 {
            return Some((tree[0].untried[0], 0));
        }
        let mut bytes = Self::node_bytes(&tree[0]);
        let limit = Self::playout_limit(root);
        let deadline = Deadline::after(self.budget);
        let mut path: Vec<u32> = Vec::with_capacity(64);
        let mut done = 0u64;
        // Each iteration starts from a copy of the root, made into the same walk: its position's
        // tables and its lists keep their room.
        let mut walk = root.clone();
        loop {
            if done % 64 == 63 && stop.load(Ordering::Relaxed) {
                if progress.is_none() {
                    return None;
                }
                break;
            }
            if let Some(p) = progress
                && done % 256 == 0
            {
                p.report(done, most_visited(&tree));
                p.report_visits(
                    tree[0]
                        .children
                        .iter()
                        .map(|&c| (tree[c as usize].mv, tree[c as usize].visits as u64))
                        .collect(),
                );
            }
            match self.budget {
                Budget::Iterations(n) if done >= n as u64 => break,
                // Stop early once no other move can overtake the most visited one: the move
                // chosen is the one the whole budget would choose, sooner.
                Budget::Iterations(n) if done % 64 == 0 && settled(&tree, n as u64 - done) => break,
                Budget::Time(_) if done % 16 == 0 && done > 0 && deadline.passed() => break,
                _ => {}
            }
            walk.clone_from(root);
            path.clear();
            path.push(0);
            let mut at = 0usize;
            // A chance node's child made in this descent (then a playout from it).
            let mut made = false;
            // Down the tree while every move here has been tried. At a chance node the roll is
            // drawn as likely as it comes up (an expectation over the rolls, not a choice), and
            // its child made the first time it comes up.
            loop {
                if tree[at].over.is_some() {
                    break;
                }
                if let Some(roll) = walk.position().draw_roll(&mut self.rng) {
                    match tree[at].children.iter().find(|&&c| tree[c as usize].mv == roll) {
                        Some(&c) => {
                            at = c as usize;
                            walk.advance(roll);
                            path.push(at as u32);
                            continue;
                        }
                        None if bytes < self.max_tree_bytes => {
                            at = self.expand(&mut tree, at, &mut walk, roll, &mut bytes, &mut path);
                            made = true;
                        }
                        None => walk.play(roll),
                    }
                    break;
                }
                if !(tree[at].untried.is_empty() && !tree[at].children.is_empty()) {
                    break;
                }
                let ln_n = (tree[at].visits.max(1) as f64).ln();
                let mut best = tree[at].children[0];
                let mut best_ucb = f64::NEG_INFINITY;
                for &c in &tree[at].children {
                    let ch = &tree[c as usize];
                    let ucb = ch.value / ch.visits as f64 + EXPLORATION * (ln_n / ch.visits as f64).sqrt();
                    if ucb > best_ucb {
                        best_ucb = ucb;
                        best = c;
                    }
                }
                at = best as usize;
                // The node knows whether the game is over here and its moves: no need to list them.
                walk.advance(tree[at].mv);
                path.push(at as u32);
            }
            // One new node, unless the game is over here or the tree is full (then a playout
            // from here).
            let result = if let Some(v) = tree[at].over {
                v
            } else if made || bytes >= self.max_tree_bytes || tree[at].untried.is_empty() {
                walk.rollout(&mut self.rng, limit)
            } else {
                let n = tree[at].untried.len();
                let m = tree[at].untried.swap_remove(below(&mut self.rng, n));
                self.expand(&mut tree, at, &mut walk, m, &mut bytes, &mut path);
                walk.rollout(&mut self.rng, limit)
            };
            for &i in &path {
                let n = &mut tree[i as usize];
                n.visits += 1;
                n.value += result[n.mover.index()];
            }
            done += 1;
        }
        self.last_tree_bytes = bytes;
        let best = most_visited(&tree).unwrap_or(tree[0].untried.first().copied().unwrap_or(first));
        Some((best, done))
    }
}

impl Mcts {
    /// Plays `m` from node `at` and adds the node it reaches to the tree, the path and the bytes
    /// held; returns the new node.
    fn expand(&mut self, tree: &mut Vec<Node>, at: usize, walk: &mut Walk, m: Move, bytes: &mut usize, path: &mut Vec<u32>) -> usize {
        let mover = walk.position().side_to_move();
        walk.play(m);
        let child = self.node(walk, m, mover);
        *bytes += Self::node_bytes(&child);
        let id = tree.len() as u32;
        tree.push(child);
        tree[at].children.push(id);
        path.push(id);
        id as usize
    }
}

/// The root's most visited move, once one has been tried.
fn most_visited(tree: &[Node]) -> Option<Move> {
    tree[0]
        .children
        .iter()
        .max_by_key(|&&c| tree[c as usize].visits)
        .map(|&c| tree[c as usize].mv)
}

/// Can no child of the root other than the most visited reach its visits in `left` more
/// iterations (nor the untried moves)? Then the search's choice is made.
fn settled(tree: &[Node], left: u64) -> bool {
    let root = &tree[0];
    if !root.untried.is_empty() {
        return false;
    }
    let mut best = 0u64;
    let mut second = 0u64;
    for &c in &root.children {
        let v = tree[c as usize].visits as u64;
        if v > best {
            second = best;
            best = v;
        } else if v > second {
            second = v;
        }
    }
    second + left < best
}

impl Player for Mcts {
    fn choose(&mut self, walk: &Walk) -> Move {
        let (m, n) = self.search(walk);
        self.last_iterations = n;
        m
    }
    fn choose_unless(&mut self, walk: &Walk, stop: &AtomicBool) -> Option<Move> {
        let (m, n) = self.search_unless(walk, stop)?;
        self.last_iterations = n;
        Some(m)
    }
    fn think(&mut self, walk: &Walk, stop: &AtomicBool, progress: &Progress) -> Move {
        let (m, n) = self.search_until(walk, stop, progress);
        self.last_iterations = n;
        m
    }
    fn last_iterations(&self) -> u64 {
        self.last_iterations
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::uci;
    use crate::sim::{Budget, PlayerSpec};

    use crate::game::MoveKind;
    use crate::sim::tests::engine;
    use rand_chacha::rand_core::SeedableRng;

    /// A search asked at a roll answers with chance's draw at once (a roll is not a choice to
    /// search); after the roll it searches the player's moves, through the chance nodes of the
    /// next turns, and answers with one of them.
    #[test]
    fn a_search_draws_a_roll_and_searches_through_chance_nodes() {
        let e = engine("ur");
        let mut mcts = Mcts::new(Budget::Iterations(300), ChaCha8Rng::seed_from_u64(5));
        let root = Walk::new(e.start());
        let (m, iterations) = mcts.search(&root);
        assert!(matches!(m.kind, MoveKind::Roll(_)) && iterations == 0, "{m:?} after {iterations}");
        let rolled = Walk::new(e.start().with_roll(1).expect("a throw of 1"));
        let (m, iterations) = mcts.search(&rolled);
        assert!(rolled.legal().contains(&m) && !matches!(m.kind, MoveKind::Roll(_)), "{m:?}");
        // d1 is the only move: chosen without a search.
        assert_eq!((uci::to_text(rolled.position(), m), iterations), ("d1".to_string(), 0));
        let later = Walk::new(
            e.from_fen("8/2P1p3/8[PPPPPPpppppp] w - - 0+0 0 6")
                .expect("a position")
                .with_roll(2)
                .expect("2"),
        );
        let (m, iterations) = mcts.search(&later);
        assert!(later.legal().contains(&m) && iterations > 0, "{m:?} after {iterations}");
    }

    /// An onlooker sees the root's moves with their visits while the search runs: most visited
    /// first, legal moves, at most `SHOWN` of them.
    #[test]
    fn a_search_reports_its_root_moves_visits_as_it_goes() {
        use crate::sim::player::SHOWN;
        let e = engine("chess");
        let walk = Walk::new(e.start());
        let progress = Progress::default();
        let mut p = PlayerSpec::Mcts(Budget::Iterations(2000)).build(7);
        let chosen = p.think(&walk, &AtomicBool::new(false), &progress);
        let visits = progress.visits();
        assert!(!visits.is_empty() && visits.len() <= SHOWN, "{visits:?}");
        assert!(visits.windows(2).all(|w| w[0].1 >= w[1].1), "most visited first: {visits:?}");
        assert!(visits.iter().all(|(m, _)| walk.legal().contains(m)));
        assert!(visits.iter().map(|v| v.1).sum::<u64>() > 0);
        assert!(walk.legal().contains(&chosen));
    }

    #[test]
    fn it_takes_a_win_in_one_and_stops_a_loss_in_one() {
        let e = engine("tic-tac-toe");
        let mut p = PlayerSpec::Mcts(Budget::Iterations(400)).build(1);
        // Cross to move can complete the top row.
        let walk = Walk::new(e.from_fen("XX1/xx1/3 x").expect("a position"));
        assert_eq!(uci::to_text(walk.position(), p.choose(&walk)), "c3");
        // Nought to move must block cross's row.
        let walk = Walk::new(e.from_fen("XX1/x2/3 o").expect("a position"));
        assert_eq!(uci::to_text(walk.position(), p.choose(&walk)), "c3");
    }

    #[test]
    fn a_raised_stop_ends_a_search_at_once() {
        let e = engine("chess");
        let walk = Walk::new(e.start());
        let stop = AtomicBool::new(true);
        let mut p = PlayerSpec::Mcts(Budget::Iterations(crate::sim::MAX_ITERATIONS)).build(1);
        let began = std::time::Instant::now();
        assert_eq!(p.choose_unless(&walk, &stop), None);
        assert!(began.elapsed() < std::time::Duration::from_secs(5), "took {:?}", began.elapsed());
        // Unraised, the same player searches and answers.
        let mut p = PlayerSpec::Mcts(Budget::Iterations(50)).build(1);
        assert!(p.choose_unless(&walk, &AtomicBool::new(false)).is_some());
    }

    /// A full tree adds no node: the search goes on, playing out from the leaves it reaches, and
    /// still answers with a legal move.
    #[test]
    fn a_full_tree_stops_growing_and_the_search_goes_on() {
        let e = engine("go");
        let walk = Walk::new(e.start());
        let mut p = Mcts::new(Budget::Iterations(3000), rand_chacha::rand_core::SeedableRng::seed_from_u64(5));
        // Room for the root and a few children (a 19 x 19 node lists 361 moves).
        p.max_tree_bytes = 5 * (std::mem::size_of::<Node>() + 361 * std::mem::size_of::<Move>());
        let root = p.node(&walk, walk.legal()[0], Side::SECOND);
        let per_node = Mcts::node_bytes(&root);
        let (m, n) = p.search(&walk);
        assert_eq!(n, 3000, "every iteration ran");
        assert!(walk.legal().contains(&m));
        let grown = p.last_tree_bytes();
        assert!(grown < p.max_tree_bytes + per_node, "the tree grew to {grown} bytes");
        // Unbounded, the same search grows far past it.
        let mut q = Mcts::new(Budget::Iterations(3000), rand_chacha::rand_core::SeedableRng::seed_from_u64(5));
        q.search(&walk);
        assert!(q.last_tree_bytes() > 100 * p.max_tree_bytes, "{}", q.last_tree_bytes());
    }

    #[test]
    fn the_same_seed_gives_the_same_moves() {
        let e = engine("chess");
        let walk = Walk::new(e.start());
        let a: Vec<Move> = (0..3)
            .map(|_| PlayerSpec::Mcts(Budget::Iterations(60)).build(9).choose(&walk))
            .collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
    }

    #[test]
    fn it_mates_in_one_in_chess() {
        let e = engine("chess");
        // White: Qh5 and Bc4 against the king on e8 (Scholar's mate: Qxf7#).
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        let walk = Walk::new(e.from_fen(fen).expect("a position"));
        let mut p = PlayerSpec::Mcts(Budget::Iterations(300)).build(3);
        assert_eq!(uci::to_text(walk.position(), p.choose(&walk)), "h5f7");
    }
}
