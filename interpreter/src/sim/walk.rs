//! A game played forward from a start, as fast as the rules allow, with every automatic end rule
//! applied after every move (as `arbiter play` applies them): what players and simulations run on.
//! Unlike [`Game`](crate::game::Game) it keeps no earlier positions and never takes a move back;
//! players that look ahead clone it.

use std::cell::{Cell, Ref, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use rand_chacha::rand_core::RngCore;

use crate::game::{
    Chase, EndCounts, History, Move, Position, RandomPly, Repeats, Score, Status, chaser_in_cycle, checker_in_cycle, rule_holds,
    verdict_result,
};
use crate::model::{Condition, MAX_SIDES, MaterialPattern, Rules, Side, Verdict};

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct End {
    pub status: Status,
    pub winner: Option<Side>,
    /// The end rule that ended it (an index into [`Rules::end_rules`]); `None` when the side to move
    /// has no legal move and no end rule says what that means ([`STUCK`]).
    pub rule: Option<usize>,
    /// The count, when a scoring rule ended the game.
    pub score: Option<Score>,
    /// Among more than two players put out one by one: every side's place (1 first).
    pub places: Option<[u8; MAX_SIDES]>,
}

/// What a game is worth to each side (see [`End::values`]).
pub type Values = [f64; MAX_SIDES];

/// A game worth the same to each of `sides` sides: drawn, or cut short.
pub fn shared(sides: usize) -> Values {
    let mut v = [0.0; MAX_SIDES];
    for x in v.iter_mut().take(sides) {
        *x = 1.0 / sides as f64;
    }
    v
}

/// The reason given for a game that stopped because the side to move had no legal move and no end
/// rule applied: a gap in the ruleset a simulation should show rather than hide.
pub const STUCK: &str = "no-move-no-rule";

impl End {
    /// The end rule's reason code (`checkmate`), or [`STUCK`].
    pub fn reason<'a>(&self, rules: &'a Rules) -> &'a str {
        match self.rule {
            Some(r) => &rules.end_rules[r].reason,
            None => STUCK,
        }
    }
    /// What the game was worth to each of `sides` sides: 1 for a win, 0 for a loss, an equal
    /// share otherwise (½ each between two).
    pub fn values(&self, sides: usize) -> Values {
        // By place: 1 for the first, 0 for the last, evenly between (teams share a place: the
        // last is the second).
        if let Some(places) = self.places
            && sides > 1
        {
            let last = places[..sides].iter().copied().max().unwrap_or(1).max(2) as f64;
            let mut v = [0.0; MAX_SIDES];
            for (s, x) in v.iter_mut().enumerate().take(sides) {
                *x = (last - places[s] as f64) / (last - 1.0);
            }
            return v;
        }
        match (self.status, self.winner) {
            (Status::Win, Some(w)) => {
                let mut v = [0.0; MAX_SIDES];
                v[w.index()] = 1.0;
                v
            }
            _ => shared(sides),
        }
    }
}

/// [`Rules::team_places`] as a simulation keeps places.
fn team_places(rules: &Rules, winner: Option<Side>) -> Option<[u8; MAX_SIDES]> {
    let places = rules.team_places(winner)?;
    let mut out = [0u8; MAX_SIDES];
    out[..places.len()].copy_from_slice(&places);
    Some(out)
}

/// Zobrist keys are uniformly random already: hashing them again only costs.
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ *b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// What the ruleset's automatic end rules need recorded, decided once per ruleset.
#[derive(Clone, Debug)]
struct Needs {
    /// The automatic end rules (claimable draws are never claimed in a simulated game, and no
    /// flag falls in one), by index.
    auto: Arc<[usize]>,
    /// Repetition keys: a rule counts occurrences of a position.
    keys: bool,
    /// Whether each position's side to move is in check: a rule asks who checked throughout.
    checks: bool,
    /// The moves played: a rule asks who chased throughout (worked out from them only once a
    /// position repeats).
    moves: bool,
    /// Which of `auto` ask whether a side cannot win (bit `i` for `auto[i]`; rules past the 64th
    /// are always judged): judged only where [`Walk::may_be_walled_in`] says the static proof may
    /// hold.
    cannot_win: u64,
    /// Random playouts may take the chain games' fast path: the only automatic end rule asks for
    /// two passes in a row, where that path stops.
    fast_playout: bool,
    /// The legal moves may be counted rather than listed (a chain game of placements and the
    /// pass, whose end rules read no record of moves or checks): listed only when asked for.
    counted: bool,
    /// Per rule of `auto`, what must hold before it is judged at all.
    gates: Arc<[Gate]>,
}

/// What an end rule needs before it can hold, read from its conditions once: the counts a walk
/// keeps at hand, so that most rules are passed over without being judged (checkmate needs no
/// legal move, a fivefold repetition the fifth occurrence, two passes two passes, a rule of
/// material no more pieces than its largest pattern, the 75-move rule 150 plies on its counter).
#[derive(Clone, Copy, Debug)]
struct Gate {
    no_legal_move: bool,
    occurrences: u32,
    passes: u32,
    pieces: u32,
    /// A move counter the rule reads (its index in the position's counters) and the plies it
    /// needs.
    counter: Option<(usize, u32)>,
}

impl Gate {
    fn of(conditions: &[Condition], pos: &Position) -> Gate {
        let open = Gate {
            no_legal_move: false,
            occurrences: 0,
            passes: 0,
            pieces: u32::MAX,
            counter: None,
        };
        conditions.iter().fold(open, |g, c| match c {
            Condition::NoLegalMove => Gate { no_legal_move: true, ..g },
            &Condition::Repetition(n) => Gate {
                occurrences: g.occurrences.max(n),
                ..g
            },
            &Condition::Passes(n) => Gate {
                passes: g.passes.max(n),
                ..g
            },
            Condition::Material(patterns) => Gate {
                pieces: MaterialPattern::most_pieces(patterns).min(g.pieces),
                ..g
            },
            // One counter is enough to wait for (a rule reading two needs both).
            &Condition::Counter { plies, resetting_kind } if g.counter.is_none() => Gate {
                counter: Some((pos.counter_index(resetting_kind), plies)),
                ..g
            },
            _ => g,
        })
    }

    /// Could the rule hold, by the counts alone?
    #[inline]
    fn open(&self, legal: usize, occurrences: u32, c: &EndCounts) -> bool {
        (!self.no_legal_move || legal == 0)
            && occurrences >= self.occurrences
            && c.passes >= self.passes
            && c.pieces[0] + c.pieces[1] <= self.pieces
            && self.counter.is_none_or(|(i, plies)| c.reaches(i, plies))
    }
}

impl Needs {
    fn of(rules: &Rules, pos: &Position) -> Needs {
        // A simulated game has no clock: rules that need a flag to fall never hold in it.
        let auto: Vec<usize> = (0..rules.end_rules.len())
            .filter(|&i| rules.end_rules[i].verdict != Verdict::ClaimableDraw)
            .filter(|&i| !rules.end_rules[i].conditions.contains(&Condition::FlagFallen))
            .collect();
        let conds = || auto.iter().flat_map(|&i| rules.end_rules[i].conditions.iter());
        Needs {
            keys: conds().any(|c| matches!(c, Condition::Repetition(_))),
            checks: conds().any(|c| matches!(c, Condition::CheckingThroughout)),
            moves: conds().any(|c| matches!(c, Condition::ChasingThroughout)),
            cannot_win: auto.iter().take(64).enumerate().fold(0, |mask, (bit, &i)| {
                let asks = rules.end_rules[i].conditions.iter().any(|c| matches!(c, Condition::CannotWin(_)));
                mask | (asks as u64) << bit
            }),
            fast_playout: pos.chain_game() && !auto.is_empty() && conds().all(|c| matches!(c, Condition::Passes(2))),
            counted: pos.chain_game()
                && !conds().any(|c| {
                    matches!(
                        c,
                        Condition::Repetition(_) | Condition::CheckingThroughout | Condition::ChasingThroughout | Condition::CannotWin(_)
                    )
                }),
            gates: auto.iter().map(|&i| Gate::of(&rules.end_rules[i].conditions, pos)).collect(),
            auto: auto.into(),
        }
    }
}

/// The stone counts of the boards a walk has seen (see [`Walk::boards`]).
#[derive(Debug)]
struct Boards {
    /// `had[side][n]`: some board had `n` stones of `side`.
    had: [Vec<bool>; 2],
    /// A bit per (first side's, second side's) stone counts, at `first × width + second`: some
    /// board had them. Grown as the first side's count grows rather than sized for a full board:
    /// a search clones its root's walk every iteration, and a clone copies the whole table.
    pairs: Vec<u64>,
    /// Counts of one side run from 0 to the board's points (and one past, for the count after a
    /// placement on a full record).
    width: usize,
}

impl Clone for Boards {
    fn clone(&self) -> Self {
        Boards {
            had: self.had.clone(),
            pairs: self.pairs.clone(),
            width: self.width,
        }
    }

    /// Into the lists already held (see [`Walk`]'s `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        self.had.clone_from(&source.had);
        self.pairs.clone_from(&source.pairs);
        self.width = source.width;
    }
}

impl Boards {
    fn new(squares: usize) -> Boards {
        Boards {
            had: [0, 1].map(|_| vec![false; squares + 2]),
            pairs: Vec::new(),
            width: squares + 2,
        }
    }

    /// The bit of a pair of counts.
    fn index(&self, c: [u32; 2]) -> usize {
        c[0] as usize * self.width + c[1] as usize
    }

    /// Records a board with `counts` stones.
    fn record(&mut self, counts: [u32; 2]) {
        for (side, &n) in counts.iter().enumerate() {
            if let Some(h) = self.had[side].get_mut(n as usize) {
                *h = true;
            }
        }
        let i = self.index(counts);
        if i / 64 >= self.pairs.len() {
            self.pairs.resize(i / 64 + 1, 0);
        }
        self.pairs[i / 64] |= 1 << (i % 64);
    }

    /// Which placements of `mover` on a board with `counts` stones may repeat a board recorded:
    /// only a board with one more of the mover's stones can be repeated, and without a capture
    /// only one with as many of the other's.
    fn repeats(&self, counts: [u32; 2], mover: usize) -> Repeats {
        let mut after = counts;
        after[mover] += 1;
        let i = self.index(after);
        if !self.had[mover].get(after[mover] as usize).copied().unwrap_or(true) {
            Repeats::Nowhere
        } else if self.pairs.get(i / 64).is_none_or(|w| w >> (i % 64) & 1 == 0) {
            Repeats::ByCapture
        } else {
            Repeats::Anywhere
        }
    }
}

/// A game played forward, judged after every move.
#[derive(Debug)]
pub struct Walk {
    rules: Arc<Rules>,
    pos: Position,
    /// The legal moves of `pos`, once listed (in chain games, only when asked for: see
    /// [`Needs::counted`]).
    legal: RefCell<Vec<Move>>,
    listed: Cell<bool>,
    /// How many legal moves `pos` has: where not `count_known`, at least one (see
    /// [`Walk::arrive_after_run`]).
    count: usize,
    count_known: bool,
    /// In a walk whose moves are counted (see [`Needs::counted`]), which numbers of stones each
    /// side has had and which pairs of them the boards so far held: what says whether a placement
    /// can repeat an earlier board ([`Repeats`]). `None` where the start's record reaches back
    /// before the walk.
    boards: Option<Boards>,
    /// Each side's stones on the current board, where `boards` is kept (read for it).
    stones: [u32; 2],
    /// Every position's repetition key and whether its side to move was in check (when the rules
    /// ask), with how often each key occurred.
    keys: Vec<u64>,
    checks: Vec<bool>,
    /// The moves played (when the rules ask who chased).
    moves: Vec<Move>,
    seen: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// How often the current position has occurred (counted when the rules ask).
    occurrences: u32,
    /// Who moved first.
    first: Side,
    plies: usize,
    captures: u64,
    end: Option<End>,
    /// Counted at every ply (see [`Walk::uncounted`]).
    each_ply: bool,
    needs: Needs,
}

impl Clone for Walk {
    fn clone(&self) -> Self {
        Walk {
            rules: self.rules.clone(),
            pos: self.pos.clone(),
            legal: self.legal.clone(),
            listed: self.listed.clone(),
            count: self.count,
            count_known: self.count_known,
            boards: self.boards.clone(),
            stones: self.stones,
            keys: self.keys.clone(),
            checks: self.checks.clone(),
            moves: self.moves.clone(),
            seen: self.seen.clone(),
            occurrences: self.occurrences,
            first: self.first,
            plies: self.plies,
            captures: self.captures,
            end: self.end.clone(),
            each_ply: self.each_ply,
            needs: self.needs.clone(),
        }
    }

    /// Into the walk already held, its position and lists keeping their room: a search starts
    /// every iteration from a copy of its root.
    fn clone_from(&mut self, source: &Self) {
        let Walk {
            rules,
            pos,
            legal,
            listed,
            count,
            count_known,
            boards,
            stones,
            keys,
            checks,
            moves,
            seen,
            occurrences,
            first,
            plies,
            captures,
            end,
            each_ply,
            needs,
        } = source;
        self.rules.clone_from(rules);
        self.pos.clone_from(pos);
        self.legal.clone_from(legal);
        self.listed.clone_from(listed);
        self.count = *count;
        self.count_known = *count_known;
        self.boards.clone_from(boards);
        self.stones = *stones;
        self.keys.clone_from(keys);
        self.checks.clone_from(checks);
        self.moves.clone_from(moves);
        self.seen.clone_from(seen);
        self.occurrences = *occurrences;
        self.first = *first;
        self.plies = *plies;
        self.captures = *captures;
        self.end.clone_from(end);
        self.each_ply = *each_ply;
        self.needs.clone_from(needs);
    }
}

impl History for Walk {
    fn occurrences(&self) -> usize {
        self.occurrences as usize
    }
    fn perpetual_checker(&self) -> Option<Side> {
        let first = self.first;
        checker_in_cycle(&self.keys, &self.checks, |i| if i % 2 == 0 { first } else { first.other() })
    }
    fn perpetual_chaser(&self) -> Option<Chase> {
        // The current position is where the cycle began: replay its moves from here.
        let k = *self.keys.last()?;
        let first = self.keys.iter().position(|x| *x == k)?;
        chaser_in_cycle(&self.pos, self.moves.get(first..).filter(|m| !m.is_empty())?)
    }
    fn trailing_passes(&self) -> usize {
        self.pos.passes() as usize
    }
    fn at_start(&self) -> bool {
        self.plies == 0
    }
    /// As a game asks ([`History::cannot_win`]), by the static proof alone, and only where
    /// [`Walk::may_be_walled_in`] let the rule be judged: elsewhere a simulated game does not look
    /// for a dead position that the cheap end rules miss. (A simulated game has no clock: no rule
    /// with `flag fallen` is asked.)
    fn cannot_win(&self, pos: &Position, who: crate::model::Contender, _rule: &crate::model::EndRule) -> bool {
        pos.cannot_win(who, crate::game::Bounds::EVERY_PLY)
    }
}

/// The most legal moves a simulated game's side to move may have for it to ask whether a side can
/// still win (kings and a few pieces behind locked pawns have fewer).
const WALLED_IN_MOVES: usize = 24;

impl Walk {
    /// Starts a game at `start` (which may already be over).
    pub fn new(start: Position) -> Walk {
        Walk::with_count(start, true)
    }

    /// [`Walk::new`] for a game that random players play through
    /// [`Walk::play_random_chain_plies`] where the game lets them, its legal moves not counted
    /// at each ply on the way (after a run, [`Walk::legal_count`] counts them when asked). In
    /// any other game, [`Walk::new`].
    pub fn uncounted(start: Position) -> Walk {
        Walk::with_count(start, false)
    }

    fn with_count(mut start: Position, count: bool) -> Walk {
        let rules = start.rules().clone();
        let needs = Needs::of(&rules, &start);
        // Only a game whose end rules wait for two passes can go uncounted between them: it is
        // counted where judged, from the position alone, without what tracking and the record of
        // boards keep for a count at every ply.
        let each_ply = count || !(needs.fast_playout && needs.counted);
        if needs.counted && each_ply {
            start.track_atari(true);
        }
        let boards = (needs.counted && each_ply && start.recorded_positions() <= 1).then(|| Boards::new(rules.board.squares()));
        let mut w = Walk {
            first: start.side_to_move(),
            rules,
            pos: start,
            legal: RefCell::new(Vec::with_capacity(64)),
            listed: Cell::new(false),
            count: 0,
            count_known: true,
            boards,
            stones: [0; 2],
            keys: Vec::new(),
            checks: Vec::new(),
            moves: Vec::new(),
            // Room for a long game's positions, so that the table rarely grows while it is played.
            seen: HashMap::with_capacity_and_hasher(if needs.keys { 512 } else { 0 }, Default::default()),
            occurrences: 0,
            plies: 0,
            captures: 0,
            end: None,
            each_ply,
            needs,
        };
        w.arrive();
        w
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// Makes room for a game of up to `max_plies` more plies (see [`Position::reserve_record`]):
    /// for a game played to its end, not for a search's root, which every iteration copies.
    pub fn reserve_record(&mut self, max_plies: usize) {
        self.pos.reserve_record(max_plies);
    }
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    /// The legal moves here (none once the game is over by a rule that leaves no move).
    pub fn legal(&self) -> Ref<'_, [Move]> {
        if !self.listed.get() {
            self.pos.legal_moves_into(&mut self.legal.borrow_mut());
            self.listed.set(true);
        }
        Ref::map(self.legal.borrow(), Vec::as_slice)
    }
    /// How many legal moves there are here, without listing them where they can be counted.
    pub fn legal_count(&self) -> usize {
        if self.count_known {
            return self.count;
        }
        match self.pos.count_chain_moves(Repeats::Anywhere) {
            Some(n) => n,
            None => self.legal().len(),
        }
    }
    /// How the game ended, once it has.
    pub fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }
    pub fn plies(&self) -> usize {
        self.plies
    }
    /// Pieces captured so far, by both sides.
    pub fn captures(&self) -> u64 {
        self.captures
    }

    /// Plays `m`, one of [`Walk::legal`], and judges the position it leads to.
    pub fn play(&mut self, m: Move) {
        let chains = self.pos.chain_game();
        // (Chain games are played by two.)
        let them = self.pos.side_to_move().other().index();
        let before = if chains { self.pos.piece_counts()[them] } else { 0 };
        let taken = if chains { 0 } else { self.pos.captures_of(m) as u64 };
        if self.needs.moves {
            self.moves.push(m);
        }
        self.pos.play_forward(m);
        // In games that capture chains a placement's captures are the stones it removes.
        self.captures += if chains {
            before.saturating_sub(self.pos.piece_counts()[them]) as u64
        } else {
            taken
        };
        self.plies += 1;
        self.arrive();
    }

    /// A random player's ply in a chain game, drawn and played as
    /// [`Position::play_random_chain_move`] does (same draws, same move as
    /// [`Position::random_chain_move`] and [`Walk::play`]), then judged.
    pub fn play_random_chain_move(&mut self, rng: &mut impl RngCore, scratch: &mut Vec<u16>) -> RandomPly {
        if self.needs.moves {
            return RandomPly::NotDrawn;
        }
        let them = self.pos.side_to_move().other().index();
        // The stone counts come from the record of boards where it is kept (read on arriving).
        let stones = |w: &Walk| {
            if w.boards.is_some() {
                w.stones[them]
            } else {
                w.pos.piece_counts()[them]
            }
        };
        let before = stones(self);
        let ply = self.pos.play_random_chain_move(rng, scratch);
        if let RandomPly::Played(_) = ply {
            self.plies += 1;
            self.arrive();
            self.captures += before.saturating_sub(stones(self)) as u64;
        }
        ply
    }

    /// Does the walk go uncounted between judgements, for [`Walk::play_random_chain_plies`]
    /// (see [`Walk::uncounted`])?
    pub fn runs_uncounted(&self) -> bool {
        !self.each_ply
    }

    /// Random players' plies in a chain game, each side drawing with its own `draws` (its
    /// generator and its scratch list, as [`Walk::play_random_chain_move`] takes them), played
    /// in one run without judging each position ([`Position::random_chain_plies`]), until two
    /// passes in a row or `max_plies`; then the position is judged. The same game as playing
    /// each ply with [`Walk::play_random_chain_move`]: where every automatic end rule waits for
    /// two passes in a row, none can hold before them (and a side can always pass, so none runs
    /// out of moves). Only in a walk that [`runs uncounted`](Walk::runs_uncounted), and only
    /// where the game's plies can be run so; elsewhere nothing is played and the answer is
    /// false (the caller plays them one at a time). `moves` takes the moves played. `None` if
    /// `stop` was raised (looked at every few hundred plies).
    pub fn play_random_chain_plies<R: RngCore>(
        &mut self,
        draws: [(&mut R, &mut Vec<u16>); 2],
        max_plies: usize,
        moves: Option<&mut Vec<Move>>,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<bool> {
        if !self.runs_uncounted() || self.end.is_some() {
            return Some(false);
        }
        let mut draws = draws;
        let start = self.plies;
        // In one loop where the game lets it.
        let run = self
            .pos
            .random_chain_plies(&mut draws, max_plies.saturating_sub(start), &mut self.captures, moves, stop);
        let Some((n, stopped)) = run else {
            return Some(false);
        };
        self.plies += n;
        if stopped {
            return None;
        }
        if n > 0 {
            self.arrive_after_run();
        }
        Some(true)
    }

    /// After a run of [`Pos::random_chain_plies`](crate::game::Position::random_chain_plies):
    /// judged as [`Walk::arrive`] judges, with the legal moves counted only when asked for
    /// ([`Walk::legal_count`]). The run stops only where the pass is always allowed, so there is
    /// a legal move, and that is all a game whose end rules wait for two passes asks of the
    /// count (see [`Needs::fast_playout`]); nor do its rules record keys or checks.
    fn arrive_after_run(&mut self) {
        debug_assert!(self.needs.fast_playout && !self.needs.keys && !self.needs.checks && !self.needs.moves);
        self.count = 1;
        self.count_known = false;
        self.listed.set(false);
        self.end = self.judge();
    }

    /// Plays `m` without listing the moves that follow or judging the position, for a search
    /// walking down a tree whose nodes know both already: [`Walk::legal`] and [`Walk::end`] are
    /// empty until the next [`Walk::play`]. Where the end rules need a record of every position
    /// (repetition, checks), this is [`Walk::play`].
    pub fn advance(&mut self, m: Move) {
        if self.needs.keys || self.needs.checks || self.needs.moves {
            return self.play(m);
        }
        self.pos.play_forward(m);
        self.plies += 1;
        // Every board is recorded, judged or not: a later count rests on them.
        if let Some(b) = &mut self.boards {
            self.stones = self.pos.piece_counts();
            b.record(self.stones);
        }
        self.legal.get_mut().clear();
        self.listed.set(true);
        self.count = 0;
        self.count_known = true;
        self.end = None;
    }

    /// Records the position just reached and applies the end rules to it.
    fn arrive(&mut self) {
        let counted = if self.needs.counted {
            let repeats = match &mut self.boards {
                Some(b) => {
                    let counts = self.pos.piece_counts();
                    self.stones = counts;
                    b.record(counts);
                    b.repeats(counts, self.pos.side_to_move().index())
                }
                None => Repeats::Anywhere,
            };
            self.pos.count_chain_moves(repeats)
        } else {
            None
        };
        self.count_known = true;
        match counted {
            Some(n) => {
                self.count = n;
                self.listed.set(false);
            }
            None => {
                let legal = self.legal.get_mut();
                self.pos.legal_moves_into(legal);
                self.count = legal.len();
                self.listed.set(true);
            }
        }
        if self.needs.keys {
            let k = self.pos.repetition_key_given(&self.legal());
            self.keys.push(k);
            let n = self.seen.entry(k).or_insert(0);
            *n += 1;
            self.occurrences = *n;
        }
        if self.needs.checks {
            self.checks.push(self.pos.in_check());
        }
        self.end = self.judge();
    }

    /// Could the static "cannot win" proof hold here? The cheap tests, cheapest first, from the
    /// legal moves already listed: a walled-in position has few moves, comes at the start of a
    /// stretch of reversible moves, and passes [`Position::may_be_walled_in`].
    fn may_be_walled_in(&self, c: &EndCounts) -> bool {
        self.count <= WALLED_IN_MOVES && (self.plies == 0 || c.reset()) && self.pos.may_be_walled_in(&self.legal())
    }

    /// The first automatic end rule that holds here, in the ruleset's order.
    fn judge(&self) -> Option<End> {
        // Where every automatic rule asks for two passes in a row, none holds before them.
        if self.needs.fast_playout && self.pos.passes() < 2 && self.count > 0 {
            return None;
        }
        let rules = &*self.rules;
        if let Some(ri) = self.pos.finished_by() {
            let mut places = [0u8; MAX_SIDES];
            for (side, p) in self.pos.places() {
                places[side.index()] = p;
            }
            return Some(End {
                status: Status::Win,
                winner: places.iter().position(|&p| p == 1).map(|i| Side(i as u8)),
                rule: Some(ri),
                score: None,
                places: Some(places),
            });
        }
        let counts = self.pos.end_counts();
        for (i, (&ri, gate)) in self.needs.auto.iter().zip(self.needs.gates.iter()).enumerate() {
            if !gate.open(self.count, self.occurrences, &counts) {
                continue;
            }
            if i < 64 && self.needs.cannot_win >> i & 1 != 0 && !self.may_be_walled_in(&counts) {
                continue;
            }
            let r = &rules.end_rules[ri];
            if r.verdict.puts_out(rules) {
                continue;
            }
            let Some(offender) = rule_holds(&self.pos, ri, r, self, &mut || self.count == 0) else {
                continue;
            };
            if let Some((status, winner, score)) = verdict_result(r, &self.pos, offender.side, &[]) {
                return Some(End {
                    status,
                    winner,
                    rule: Some(ri),
                    score,
                    places: team_places(rules, winner),
                });
            }
        }
        (self.count == 0).then_some(End {
            status: Status::NoResult,
            winner: None,
            rule: None,
            score: None,
            places: None,
        })
    }

    /// The moves a random player chooses among here: the legal moves, except that in games that
    /// capture chains it never fills a single-point eye of its own and passes only when nothing
    /// else is left (as go programs' playouts do, so that a random game ends).
    pub fn candidates(&self, out: &mut Vec<Move>) {
        self.pos.random_candidates(&self.legal(), out);
    }

    /// Plays random candidates until the game ends or `max_plies` more have been played; returns
    /// what the game was worth to each side (a game cut short counts as drawn).
    pub fn rollout(&mut self, rng: &mut impl RngCore, max_plies: usize) -> Values {
        let sides = self.rules.players.len();
        if self.end.is_none() && self.needs.fast_playout {
            // The chain games' playout applies the same policy without recording what only other
            // end rules would read; it stops at two passes in a row, where the rules' one end rule
            // is judged.
            let played = self.pos.random_playout(rng, max_plies);
            self.plies += played;
            if self.pos.passes() >= 2 {
                let rules = &*self.rules;
                let ri = self.needs.auto[0];
                let r = &rules.end_rules[ri];
                if let Some((status, winner, score)) = verdict_result(r, &self.pos, None, &[]) {
                    self.end = Some(End {
                        status,
                        winner,
                        rule: Some(ri),
                        score,
                        places: None,
                    });
                }
            }
            return self.end.as_ref().map_or(shared(sides), |e| e.values(sides));
        }
        let mut buf = Vec::with_capacity(64);
        let mut left = max_plies;
        let rolls = self.rules.roll.is_some();
        while self.end.is_none() && left > 0 {
            // Chance rolls as likely as the roll makes each result; a player picks uniformly.
            let m = match if rolls { self.pos.draw_roll(rng) } else { None } {
                Some(roll) => roll,
                None => {
                    self.candidates(&mut buf);
                    buf[below(rng, buf.len())]
                }
            };
            self.play(m);
            left -= 1;
        }
        self.end.as_ref().map_or(shared(sides), |e| e.values(sides))
    }
}

pub(crate) use crate::game::below;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Engine, Game};
    use crate::notation::uci;

    use crate::sim::tests::{assert_legal_as_defined, engine};

    /// Plays the same line in a walk and in a game record: after every move both must agree on
    /// whether the game is over, how, and who won.
    fn agree(e: &Engine, line: &[&str]) -> Option<End> {
        let mut walk = Walk::new(e.start());
        let mut game = Game::new(e.clone(), e.start());
        for t in line {
            let m = uci::find(game.current(), t).unwrap_or_else(|| panic!("{t} is legal"));
            walk.play(m);
            game.play(m);
            let o = game.outcome();
            let status = walk.end().map_or(Status::Ongoing, |e| e.status);
            assert_eq!(status, o.status, "after {t}");
            assert_eq!(walk.end().and_then(|e| e.winner), o.winner, "after {t}");
            assert_eq!(walk.end().map(|end| end.reason(e.rules()).to_string()), o.reason, "after {t}");
        }
        walk.end().cloned()
    }

    /// What a walk has recorded, all of it (the legal moves listed).
    fn state(w: &Walk) -> String {
        format!(
            "{} {:x} {:?} {} {} {:?} {:?} {:?} {:?} {:?} {:?} {} {} {} {:?}",
            w.pos.fen(),
            w.pos.hash(),
            &*w.legal(),
            w.count,
            w.count_known,
            w.boards,
            w.stones,
            w.keys,
            w.checks,
            w.moves,
            {
                let mut seen: Vec<_> = w.seen.iter().collect();
                seen.sort();
                seen
            },
            w.occurrences,
            w.plies,
            w.captures,
            w.end
        )
    }

    /// A search copies its root into the walk of its last iteration (`clone_from`, keeping the
    /// room of its position and lists): the walk is the root again, and walks on as a fresh copy.
    #[test]
    fn a_root_copied_into_a_walk_that_played_on_walks_as_a_fresh_copy() {
        use rand_chacha::ChaCha8Rng;
        use rand_chacha::rand_core::SeedableRng;
        for name in ["chess", "xiangqi", "go"] {
            let root = Walk::new(engine(name).start());
            let mut reused = root.clone();
            for seed in 0..4u64 {
                reused.clone_from(&root);
                assert_eq!(state(&reused), state(&root), "{name} seed {seed}");
                let mut fresh = root.clone();
                let a = reused.rollout(&mut ChaCha8Rng::seed_from_u64(seed), 400);
                let b = fresh.rollout(&mut ChaCha8Rng::seed_from_u64(seed), 400);
                assert!(reused.plies() > 10, "{name} seed {seed}: {} plies", reused.plies());
                assert_eq!((a, state(&reused)), (b, state(&fresh)), "{name} seed {seed}");
            }
        }
    }

    #[test]
    fn a_walk_rules_a_walled_in_position_dead_by_the_static_proof() {
        let chess = engine("chess");
        // Kings on either side of a locked chain of pawns: neither can ever give check.
        let locked = chess.from_fen("8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1").expect("a legal FEN");
        let end = Walk::new(locked.clone()).end().cloned().expect("a dead position ends the game");
        assert_eq!(end.reason(chess.rules()), "dead-position");
        assert_eq!(end.status, Status::Draw);
        assert!(locked.may_be_walled_in(&locked.legal_moves()));
        // One pawn free to advance (and promote): the cheap test lets the proof off, the game goes on.
        let open = chess.from_fen("8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K2P/8 w - - 0 1").expect("a legal FEN");
        assert!(!open.may_be_walled_in(&open.legal_moves()));
        assert!(Walk::new(open).end().is_none());
        // A capture on the board: not walled in.
        let capture = chess
            .from_fen("8/4k3/8/p1p1p1p1/P1P1P1P1/5n2/4K3/8 w - - 0 1")
            .expect("a legal FEN");
        assert!(!capture.may_be_walled_in(&capture.legal_moves()));
    }

    #[test]
    fn a_walk_ends_where_the_game_record_does() {
        let chess = engine("chess");
        let mate = agree(&chess, &["f2f3", "e7e5", "g2g4", "d8h4"]).expect("fool's mate ends the game");
        assert_eq!(mate.winner, Some(Side::SECOND));
        // Fivefold repetition ends the game; the threefold claim does not.
        let knights = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let line: Vec<&str> = knights.iter().cycle().take(16).copied().collect();
        let end = agree(&chess, &line).expect("the fifth occurrence ends it");
        assert_eq!(end.reason(chess.rules()), "fivefold-repetition");
        // Xiangqi's perpetual check: the checking side loses on the third occurrence.
        let xq = engine("xiangqi");
        let start = "4k4/9/9/9/9/9/9/9/4A4/3AK3R w - - 0 1";
        let mut walk = Walk::new(xq.from_fen(start).expect("a legal position"));
        let mut game = Game::new(xq.clone(), xq.from_fen(start).expect("a legal position"));
        for t in ["i1i10", "e10e9", "i10i9", "e9e10", "i9i10", "e10e9", "i10i9", "e9e10", "i9i10"] {
            let m = uci::find(game.current(), t).unwrap_or_else(|| panic!("{t} is legal"));
            walk.play(m);
            game.play(m);
            assert_eq!(
                walk.end().map(|e| e.winner),
                game.outcome().status.ne(&Status::Ongoing).then_some(game.outcome().winner),
                "after {t}"
            );
        }
        let end = walk.end().expect("perpetual check ends the game");
        assert_eq!(end.reason(xq.rules()), "perpetual-check");
        assert_eq!(end.winner, Some(Side::SECOND));
    }

    #[test]
    fn a_walk_rules_a_perpetual_chase_as_the_game_record_does() {
        // Red's chariot chases black's unprotected cannon: the walk replays the cycle from its
        // current position (it keeps no earlier ones) and must find the same chaser.
        let xq = engine("xiangqi");
        let start = "3k5/9/9/9/1R7/c8/9/9/9/4K4 w - - 0 1";
        let mut walk = Walk::new(xq.from_fen(start).expect("a legal position"));
        let mut game = Game::new(xq.clone(), xq.from_fen(start).expect("a legal position"));
        for t in ["b6b5", "a5a6", "b5b6", "a6a5", "b6b5", "a5a6", "b5b6", "a6a5"] {
            assert!(walk.end().is_none(), "the walk ended before {t}");
            let m = uci::find(game.current(), t).unwrap_or_else(|| panic!("{t} is legal"));
            walk.play(m);
            game.play(m);
        }
        let end = walk.end().expect("perpetual chase ends the game");
        assert_eq!(end.reason(xq.rules()), "perpetual-chase");
        assert_eq!(end.winner, Some(Side::SECOND));
        assert_eq!(game.outcome().reason.as_deref(), Some("perpetual-chase"));
    }

    #[test]
    fn random_games_end_as_the_game_record_says() {
        use rand::SeedableRng;
        for name in ["chess", "xiangqi", "tic-tac-toe", "othello", "draughts"] {
            let e = engine(name);
            for seed in 0..6u64 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut walk = Walk::new(e.start());
                let mut game = Game::new(e.clone(), e.start());
                let mut buf = Vec::new();
                while walk.end().is_none() && walk.plies() < 400 {
                    walk.candidates(&mut buf);
                    let m = buf[below(&mut rng, buf.len())];
                    walk.play(m);
                    game.play(m);
                }
                let o = game.outcome();
                assert_eq!(walk.end().map_or(Status::Ongoing, |e| e.status), o.status, "{name} seed {seed}");
                assert_eq!(walk.end().and_then(|x| x.winner), o.winner, "{name} seed {seed}");
            }
        }
    }

    /// Walks seeded random games of `e` (seeds `0..seeds`, at most `plies` plies each) and calls
    /// `at` with every position before its move, and the seed.
    fn random_walks(e: &Engine, seeds: u64, plies: usize, mut at: impl FnMut(&Walk, u64)) {
        use rand::SeedableRng;
        for seed in 0..seeds {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut walk = Walk::new(e.start());
            let mut buf = Vec::new();
            while walk.end().is_none() && walk.plies() < plies {
                at(&walk, seed);
                walk.candidates(&mut buf);
                let m = buf[below(&mut rng, buf.len())];
                walk.play(m);
            }
        }
    }

    /// Random games reach the positions perft from the start rarely does: checks at every other
    /// move, lone kings, promotions. At every ply the generator's moves (with its shortcuts out of
    /// check) are exactly those the plain definition of legality allows.
    #[test]
    fn in_random_games_the_generator_agrees_with_the_definition_of_legality() {
        for name in ["chess", "xiangqi", "breakthrough"] {
            let mut checks = 0;
            random_walks(&engine(name), 12, 300, |walk, seed| {
                let pos = walk.position();
                assert_legal_as_defined(walk.legal().to_vec(), pos, &format!("{name} seed {seed} at {}", pos.fen()));
                checks += pos.in_check() as u32;
            });
            assert!(name != "chess" || checks > 50, "{name}: only {checks} positions in check were seen");
        }
    }

    #[test]
    fn in_random_games_the_attack_query_agrees_with_the_full_scan() {
        for name in ["chess", "three-check", "crazyhouse", "seirawan", "xiangqi"] {
            let mut positions = 0;
            random_walks(&engine(name), 4, 200, |walk, seed| {
                let pos = walk.position();
                assert!(pos.attack_queries_agree(), "{name} seed {seed} at {}", pos.fen());
                positions += 1;
            });
            assert!(positions > 100, "{name}: only {positions} positions");
        }
    }

    /// A royal's steps, probed along each line of the enemy's sliders: with one slider group gone,
    /// or both, or the only slider pinned or standing where a step would take it, the steps are
    /// exactly the legal ones, and the probe agrees with the full scan.
    #[test]
    fn a_royals_steps_are_exact_whichever_slider_groups_the_enemy_has_left() {
        let e = crate::sim::tests::engine("chess");
        for fen in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/r7 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/b7 w - - 0 1",
            "8/8/4k3/8/3r4/3K4/8/8 w - - 0 1",
            "8/8/4k3/4b3/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/2q5/3K4/8/8 w - - 0 1",
            "8/8/2b1k3/8/8/3K4/8/7r w - - 0 1",
            "8/8/4k3/8/8/3K4/2n5/8 w - - 0 1",
            "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
            "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
        ] {
            let pos = e.from_fen(fen).expect("a legal FEN");
            assert_legal_as_defined(pos.legal_moves(), &pos, fen);
            assert!(pos.attack_queries_agree(), "{fen}");
        }
    }

    #[test]
    fn end_rules_are_judged_only_once_their_counts_allow() {
        let e = crate::sim::tests::engine("chess");
        let walk = Walk::new(e.start());
        let rules = walk.rules().clone();
        let gate = |reason: &str| {
            let i = walk
                .needs
                .auto
                .iter()
                .position(|&i| rules.end_rules[i].reason == reason)
                .expect(reason);
            walk.needs.gates[i]
        };
        // What the gates read of a position, with `passes` in a row and `pieces` on the board.
        let counts = |passes: u32, pieces: u32| EndCounts {
            pieces: [pieces - pieces / 2, pieces / 2],
            passes,
            counters: [0; crate::compile::MAX_COUNTERS],
            in_use: 1,
        };
        // Checkmate waits for a position without a legal move, the fivefold repetition for the
        // fifth occurrence, dead material for few pieces.
        assert!(!gate("checkmate").open(20, 1, &counts(0, 32)));
        assert!(gate("checkmate").open(0, 1, &counts(0, 32)));
        assert!(!gate("fivefold-repetition").open(20, 4, &counts(0, 32)));
        assert!(gate("fivefold-repetition").open(20, 5, &counts(0, 32)));
        // The 75-move rule waits for 150 plies on its counter.
        let quiet = |plies: u32| {
            let fen = format!("4k3/8/8/8/8/8/8/R3K3 w - - {plies} 80");
            e.from_fen(&fen).expect("a legal FEN").end_counts()
        };
        assert!(!gate("seventy-five-move-rule").open(20, 1, &quiet(149)));
        assert!(gate("seventy-five-move-rule").open(20, 1, &quiet(150)));
        assert!(gate("checkmate").open(0, 1, &quiet(0)));
        assert!(quiet(0).reset() && !quiet(1).reset());
        // K B v K B is the largest pattern of insufficient material: four pieces.
        assert!(!gate("insufficient-material").open(20, 1, &counts(0, 5)));
        assert!(gate("insufficient-material").open(20, 1, &counts(0, 4)));
        let go = Walk::new(crate::sim::tests::engine("go").start());
        assert!(
            go.needs
                .gates
                .iter()
                .all(|g| !g.open(81, 1, &counts(1, 0)) && g.open(81, 1, &counts(2, 0)))
        );
    }

    #[test]
    fn go_rollouts_take_the_fast_path_and_score_the_board() {
        use rand::SeedableRng;
        let go = Engine::new(
            crate::check::check_file(
                &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/go.rules"),
                &[("size".into(), "9".into())],
            )
            .rules
            .expect("go.rules is valid"),
        );
        let walk = Walk::new(go.start());
        assert!(walk.needs.fast_playout);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut w = walk.clone();
        let v = w.rollout(&mut rng, 1000);
        let end = w.end().expect("two passes end a playout");
        assert_eq!(end.reason(go.rules()), "score");
        assert!(end.score.is_some());
        assert_eq!(v, end.values(2));
        // The generic path, move by move, ends the same way: by two passes and a count.
        let mut slow = walk.clone();
        slow.needs.fast_playout = false;
        slow.rollout(&mut rng, 1000);
        assert_eq!(slow.end().expect("ends").reason(go.rules()), "score");
    }
}
