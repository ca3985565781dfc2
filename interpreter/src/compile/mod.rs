//! Stage 3, compile: [`Rules`] → [`Tables`], the per-square data the move generator runs on.
//! After this stage nothing looks up a name or walks a syntax tree: a move form is a table of
//! targets (leaps), of targets with block masks (lame leapers, multi-square steps), or a set of ray
//! directions (slides and hops); attacks are the same tables reversed. Zobrist keys are drawn here
//! from a fixed seed, so hashes are reproducible.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::bits::Bits;
use crate::model::*;

pub mod lines;
pub mod race;
pub mod reach;

/// How a compiled move form finds its targets.
#[derive(Clone, Debug)]
pub enum Gen<B> {
    /// Unblockable targets per square.
    Leap { targets: Vec<B> },
    /// Per square: (target, squares that must be empty).
    Lame { entries: Vec<Vec<(u16, B)>> },
    /// Ray directions (see [`Tables::ray`]); `bounded` limits the reach per square.
    /// `lines`: the same directions as whole lines, where they can be looked up so.
    Slide {
        dirs: Vec<u8>,
        bounded: Option<Vec<B>>,
        lines: Option<Vec<u16>>,
    },
    /// Ray directions and the exact number of screens.
    Hop { dirs: Vec<u8>, screens: u32 },
    /// A hop whose screens may not be of the kinds in `screen_not`, nor what it takes of the kinds
    /// in `target_not` (bit per kind).
    HopNot {
        dirs: Vec<u8>,
        screens: u32,
        screen_not: u32,
        target_not: u32,
    },
    /// Along each ray (paired with its reverse), exactly as far as there are pieces on the whole
    /// line through the start; over own pieces where `over_own`, never over an enemy's.
    Counted { dirs: Vec<(u8, u8)>, over_own: bool },
    /// A new piece onto an empty square.
    Place,
    /// A piece from the hand onto an empty square.
    Drop,
    /// Per square: (square jumped over, landing square, leg index into [`Tables::legs`]); and the
    /// ray directions, for jumps over a distance; and whether the piece may jump on at will from
    /// where it lands (`again at will`: see [`crate::model::Form::chain`]).
    Jump {
        entries: Vec<Vec<(u16, u16, u8)>>,
        dirs: Vec<u8>,
        chain: bool,
    },
    /// Along the mover's track by the roll: per result of the roll (an index into
    /// [`Tables::rolls`]), per square, the square that many on (none past the track's end).
    Track { by_roll: Vec<Vec<B>> },
}

/// What a jump passes over, and what follows it.
#[derive(Clone, Copy, Debug)]
pub struct JumpRule {
    pub over: Over,
    /// The jumped piece is removed.
    pub capturing: bool,
    /// The piece jumps again while it can.
    pub continuing: bool,
    /// Over the first piece along the line, however far, to any empty square beyond.
    pub far: bool,
    /// Each piece jumped leaves the board as it is jumped (its square free for the later legs).
    pub at_once: bool,
    /// No leg goes straight back along the one before.
    pub no_reverse: bool,
}

/// A compiled end condition (see [`Condition`]); zones as bitboards per side, directions as ray indices.
#[derive(Clone, Debug)]
pub enum CCond<B> {
    NoLegalMove,
    InCheck,
    /// Repetition and "checking throughout" need the game's history: only [`crate::game::Game`] decides them.
    History,
    /// Index into [`Tables::counters`] and the plies it must reach.
    Counter {
        index: usize,
        plies: u32,
    },
    /// Material patterns: per pattern, kind counts of the two sides (either way round), and the kind
    /// that must stand on one colour; then the most pieces any pattern has (more on the board fit none).
    Material(Vec<([[u8; MAX_KINDS]; 2], Option<KindId>)>, u32),
    NoneOf(Vec<KindId>),
    Passes(u32),
    /// Ray directions paired with their reverse (of a direction and its reverse, only one: a run
    /// along one is the same run along the other).
    InARow {
        n: u32,
        exact: bool,
        dirs: Vec<(u8, u8)>,
    },
    Captured(Option<KindId>),
    NoneLeft(Option<KindId>),
    /// Per zone, its squares for each side; a chain must touch `need` of them.
    Connects {
        zones: Vec<[B; MAX_SIDES]>,
        need: usize,
    },
    NeitherCanMove,
    KindIn(KindId, [B; MAX_SIDES]),
    /// Every piece of the player in one group: per square, its neighbours along the directions.
    AllConnected {
        whose: Whom,
        next_to: Vec<B>,
    },
    /// The player's pieces enclose a cell: the board's edge cells (fewer neighbours than most).
    Ring {
        whose: Whom,
        edge: B,
    },
    /// Two royals face each other along one of these ray directions.
    RoyalsFacing(Vec<u8>),
    /// The game is in one of these phases (a bit per phase).
    During(u32),
    /// A count of one player compared with a number.
    Compare {
        count: CCount<B>,
        whose: Whom,
        op: Cmp,
        value: i64,
    },
}

/// What a compiled comparison counts.
#[derive(Clone, Debug)]
pub enum CCount<B> {
    /// A declared count: an index into [`Tables::tallies`].
    Declared(usize),
    /// The player's pieces (of a kind), within the player's part of a zone (all squares if none).
    Pieces { kind: Option<KindId>, zone: [B; MAX_SIDES] },
}

/// A compiled end rule: its conditions, and whether it ends the game by itself (not only claimable).
#[derive(Clone, Debug)]
pub struct CEnd<B> {
    pub conds: Vec<CCond<B>>,
    pub automatic: bool,
    /// No condition asks for the game's history (repetition, checks or chases throughout, a
    /// flag, a proof over the game): the position alone can tell that the rule holds.
    pub judged_alone: bool,
    /// A condition asks for no legal move: the rule cannot hold where a move is known.
    pub no_legal_move: bool,
}

/// One movement clause of one kind for one side, ready to run.
#[derive(Clone, Debug)]
pub struct CForm<B> {
    pub kind: KindId,
    /// Index of the clause in `Rules::kinds[kind].forms`.
    pub clause: u8,
    pub how: Gen<B>,
    pub target: Target,
    /// Squares the piece may start from (all if unrestricted).
    pub from: B,
    /// Squares the piece may land on (all if unrestricted).
    pub within: B,
    pub unmoved: bool,
    pub marks_ep: bool,
    /// Jumps: what they pass over and whether they capture and continue.
    pub jump: Option<JumpRule>,
    /// Enemy runs enclosed from the landing square along these ray directions flip or are removed.
    pub enclose: Option<(Enclose, Vec<u8>)>,
    /// Legal only where the move has this effect.
    pub only_if: Option<Enclose>,
    /// Only enclosed runs of exactly this many pieces.
    pub enclose_exact: Option<u32>,
    /// Per side, squares that close a run when empty (hostile squares).
    pub enclose_against: [B; MAX_SIDES],
    /// Gravity: the ray direction the piece falls along.
    pub falling: Option<u8>,
    /// `only if it flips` (or captures) tested for all squares at once, by shifts along the
    /// enclosure's rays (see [`RayShift`]): the plain rule (no exact length, no hostile squares,
    /// no kind taken only when surrounded) on rays without cycles.
    pub flips_set_wise: bool,
    /// A placement on any empty square of its zone, with nothing else to it: no effects, no
    /// gravity, no condition, no neighbour, no other side up (generated straight from the zone).
    pub bare_place: bool,
    /// The phases in which the clause applies, a bit per phase (all bits: every phase).
    pub phases: u32,
    /// A placement or drop only next to one of the player's pieces.
    pub next_to_own: bool,
    /// Every enemy piece next to the landing square changes owner (is removed).
    pub neighbours: Option<Enclose>,
    /// The piece stays, and a copy lands.
    pub clone: bool,
    /// A drop that may also put the piece down as one of these kinds (what it promotes to).
    pub other_sides: Vec<KindId>,
    /// The clause applies only while this holds (a comparison of counts).
    pub when: Option<CCond<B>>,
    /// Drops: not on a file with an own piece of this kind.
    pub no_file_with: Option<KindId>,
    /// Drops: not a drop that checkmates.
    pub not_giving_mate: bool,
    /// Drops: squares where the piece could never move again (excluded when the clause says so).
    pub stuck: B,
    /// The move changes squares other than its own (enclosures, jumped pieces): made and undone
    /// through the effect log.
    pub effects: bool,
    /// The same targets as `how`, as a few constant shifts of the whole set of pieces (empty where
    /// the form has more than [`MAX_SHIFTS`] of them, or is not a leap): pawn-like forms then find
    /// the targets of all their free pieces at once.
    pub shifts: Vec<Shift<B>>,
    /// `along TRACK by roll` (a drop): per result of the roll, the square of the mover's track it
    /// counts to (none where the number is 0 or past the track's end).
    pub by_roll: Option<Vec<B>>,
    /// `bearing off` (a move along a track by the roll): per result of the roll, the squares of
    /// the mover's track that it takes exactly one past the end (off the board).
    pub bear_off: Option<Vec<B>>,
}

/// One constant-offset part of a leap or lame leap: a piece on a square of `from` reaches the
/// square `by` indices on, when the squares `blocks` indices on are empty.
#[derive(Clone, Debug)]
pub struct Shift<B> {
    pub by: i32,
    pub from: B,
    pub blocks: Vec<i32>,
}

/// A ray direction as shifts of whole sets: `ends` holds the squares with nothing beyond them
/// along the ray; each `(by, from)` the squares of `from`, whose next square is `by` indices on.
/// On boards of regular rows one shift states a ray; a board that wraps needs two. Held in
/// place (no pointer to follow): set-wise flips and counts read them in their innermost loops.
#[derive(Clone, Debug)]
pub struct RayShift<B> {
    pub ends: B,
    shifts: [(i32, B); MAX_SHIFTS],
    len: u8,
}

impl<B: Bits> RayShift<B> {
    /// The squares whose next square along the ray is one of `s`.
    #[inline(always)]
    pub fn back(&self, s: B) -> B {
        let mut out = B::EMPTY;
        let (by, from) = self.shifts[0];
        s.shift_and_or(-by, from, &mut out);
        if self.len > 1 {
            let (by, from) = self.shifts[1];
            s.shift_and_or(-by, from, &mut out);
        }
        out
    }

    /// The ray given by `next` (a next-square table) on the squares of `board`, if at most
    /// [`MAX_SHIFTS`] constant offsets state it and it never comes back to a square.
    fn compile(next: &[u16], board: B) -> Option<RayShift<B>> {
        let mut ends = B::EMPTY;
        let mut shifts: Vec<(i32, B)> = Vec::new();
        for sq in board.iter() {
            let n = next[sq];
            if n == u16::MAX {
                ends |= B::bit(sq);
                continue;
            }
            let by = n as i32 - sq as i32;
            match shifts.iter_mut().find(|s| s.0 == by) {
                Some(s) => s.1 |= B::bit(sq),
                None => shifts.push((by, B::bit(sq))),
            }
        }
        if shifts.len() > MAX_SHIFTS {
            return None;
        }
        // Unused places shift nothing in: no square, by no offset.
        let mut ray = RayShift {
            ends,
            shifts: [(0, B::EMPTY); MAX_SHIFTS],
            len: shifts.len() as u8,
        };
        ray.shifts[..shifts.len()].copy_from_slice(&shifts);
        // A ray that comes back to a square (a board that wraps all the way round) has a run with
        // no end: the set-wise fills would not stop where a walk does.
        let mut ended = vec![false; next.len()];
        for sq in board.iter() {
            let mut path = Vec::new();
            let mut x = sq;
            loop {
                if x >= next.len() || ended[x] || next[x] == u16::MAX {
                    break;
                }
                if path.len() > next.len() {
                    return None;
                }
                path.push(x);
                x = next[x] as usize;
            }
            for p in path {
                ended[p] = true;
            }
        }
        Some(ray)
    }
}

/// The moving clauses whose free pieces (not royal, pinned or needing the full test) a count takes
/// whole, grouped by how they reach, so that counting the legal moves at a leaf steps through
/// three short lists instead of asking every clause what it is: clauses of pieces that have not
/// moved, of en passant, and those that reach other than by shifts, leaps or line tables stay
/// with the general loop, which counts the rest of every clause's pieces.
#[derive(Clone, Debug)]
pub struct Quick<B> {
    /// Clauses taken by their [`CForm::shifts`] (pawn-like forms).
    pub shifts: Vec<QuickForm<B>>,
    /// Clauses of [`Gen::Leap`], a table lookup per piece.
    pub leaps: Vec<QuickForm<B>>,
    /// Unbounded slides along line tables, a lookup per line and piece.
    pub lines: Vec<QuickForm<B>>,
    /// A bit per form index of every clause above (none where a side has more than 64 moving
    /// forms).
    pub forms: u64,
    /// Per kind, the bits of `forms` that are its clauses: those the general loop still takes
    /// for a piece of that kind that is not free.
    pub by_kind: Vec<u64>,
    /// A bit per form index of the en-passant clauses (never quick): a count skips them where
    /// no square is marked.
    pub en_passant: u64,
}

impl<B> Default for Quick<B> {
    fn default() -> Quick<B> {
        Quick {
            shifts: Vec::new(),
            leaps: Vec::new(),
            lines: Vec::new(),
            forms: 0,
            by_kind: Vec::new(),
            en_passant: 0,
        }
    }
}

/// One clause of [`Quick`]: what of its [`CForm`] a count reads, in one place.
#[derive(Clone, Debug)]
pub struct QuickForm<B> {
    /// Its index among the side's forms.
    pub form: u8,
    pub kind: KindId,
    /// Where it may land by what stands there: 0 empty or enemy, 1 empty, 2 enemy.
    pub target: u8,
    pub from: B,
    pub within: B,
    /// Its lines (the first `nlines`), for [`Quick::lines`].
    pub lines: [u16; 4],
    pub nlines: u8,
}

impl<B: Bits> Quick<B> {
    /// The quick clauses among one side's moving forms.
    fn of(forms: &[CForm<B>]) -> Quick<B> {
        let mut q = Quick::default();
        if forms.len() > 64 {
            return q;
        }
        for (i, f) in forms.iter().enumerate() {
            let target = match f.target {
                Target::Any => 0,
                Target::Empty => 1,
                Target::Enemy => 2,
                Target::EnPassant => {
                    q.en_passant |= 1 << i;
                    continue;
                }
            };
            if f.unmoved || f.when.is_some() {
                continue;
            }
            let mut entry = QuickForm {
                form: i as u8,
                kind: f.kind,
                target,
                from: f.from,
                within: f.within,
                lines: [0; 4],
                nlines: 0,
            };
            let list = match &f.how {
                _ if !f.shifts.is_empty() => &mut q.shifts,
                Gen::Leap { .. } => &mut q.leaps,
                Gen::Slide {
                    lines: Some(lines),
                    bounded: None,
                    ..
                } if lines.len() <= 4 => {
                    entry.lines[..lines.len()].copy_from_slice(lines);
                    entry.nlines = lines.len() as u8;
                    &mut q.lines
                }
                _ => continue,
            };
            list.push(entry);
            q.forms |= 1 << i;
            let k = f.kind.0 as usize;
            if q.by_kind.len() <= k {
                q.by_kind.resize(k + 1, 0);
            }
            q.by_kind[k] |= 1 << i;
        }
        q
    }
}

/// The most shifts a form is generated by set-wise: past it, a loop over the pieces does less work.
pub const MAX_SHIFTS: usize = 2;

/// `how` as set-wise shifts (see [`CForm::shifts`]), if it is a leap of at most [`MAX_SHIFTS`]
/// constant offsets, each blocked (if at all) at constant offsets; pieces start only from `from`.
fn shifts_of<B: Bits>(how: &Gen<B>, from: B) -> Vec<Shift<B>> {
    let mut parts: Vec<Shift<B>> = Vec::new();
    let mut add = |sq: usize, to: usize, block: B| {
        let by = to as i32 - sq as i32;
        let blocks: Vec<i32> = block.iter().map(|b| b as i32 - sq as i32).collect();
        match parts.iter_mut().find(|p| p.by == by && p.blocks == blocks) {
            Some(p) => p.from |= B::bit(sq),
            None => parts.push(Shift {
                by,
                from: B::bit(sq),
                blocks,
            }),
        }
    };
    match how {
        Gen::Leap { targets } => {
            for sq in from.iter() {
                for to in targets[sq].iter() {
                    add(sq, to, B::EMPTY);
                }
            }
        }
        Gen::Lame { entries } => {
            for sq in from.iter() {
                for &(to, block) in &entries[sq] {
                    add(sq, to as usize, block);
                }
            }
        }
        _ => return Vec::new(),
    }
    if parts.len() > MAX_SHIFTS {
        return Vec::new();
    }
    parts
}

/// What ends a phase, compiled.
#[derive(Clone, Debug)]
pub enum CPhaseEnd<B> {
    HandsEmpty,
    Conditions(Vec<CCond<B>>),
    /// The last phase: it never ends.
    Never,
}

/// A later part of the turn (see [`crate::model::Part`]), compiled: zones as bitboards per side,
/// directions as ray indices per side.
#[derive(Clone, Debug)]
pub struct CPart<B> {
    pub action: PartAction,
    pub optional: bool,
    pub condition: Option<CPartCond>,
    /// The squares it may act on, per side (all where unrestricted).
    pub within: [B; MAX_SIDES],
    /// Per side: the ray directions along which it reaches from the moved piece's landing square
    /// (none: any square).
    pub along: [Vec<u8>; MAX_SIDES],
    /// Per side: the rows (a ray direction and its reverse) that spare a piece from a removal.
    pub row_safe: Option<(u32, [Vec<(u8, u8)>; MAX_SIDES])>,
    /// Indices into [`Tables::part_choices`] of this part's choices (one per kind for a drop).
    pub choices: Vec<u8>,
}

/// When a later part is there, compiled.
#[derive(Clone, Debug)]
pub enum CPartCond {
    /// A row of at least `n` of the mover's pieces through the landing square, along one of the
    /// rays (a direction and its reverse) of the mover's side.
    MadeRow { n: u32, dirs: [Vec<(u8, u8)>; MAX_SIDES] },
    /// The move captured.
    Captured,
}

/// A promotion rule of one kind for one side.
#[derive(Clone, Debug)]
pub struct CPromo<B> {
    pub zone: B,
    pub choices: Vec<KindId>,
    /// The piece may stay as it is, except on `forced`.
    pub optional: bool,
    pub forced: B,
    /// A move starting in the zone may promote.
    pub leaving: bool,
    /// `optional` or `leaving`: the target set takes more than one AND to split.
    pub special: bool,
}

impl<B: Bits> CPromo<B> {
    /// Of the squares `to` a piece on `from` reaches: (those where it may promote, those where it
    /// may stay as it is).
    #[inline(always)]
    pub fn split(&self, from: usize, to: B) -> (B, B) {
        if !self.special {
            return (to & self.zone, to & !self.zone);
        }
        let promoting = if self.leaving && self.zone.has(from) { to } else { to & self.zone };
        let plain = if self.optional {
            to & !(promoting & self.forced)
        } else {
            to & !promoting
        };
        (promoting, plain)
    }
}

/// A castling rule of one kind for one side.
#[derive(Clone, Debug)]
pub struct CCastle {
    pub kind: KindId,
    /// Index in `Rules::kinds[kind].castles`.
    pub index: u8,
    pub partner: KindId,
    pub distance: u32,
    /// Horizontal ray directions (indices into rays) along which to look for the partner.
    pub dirs: [u8; 2],
    /// Which of `dirs` is the king's wing (`K` in FEN): the side's right hand as its seat turns
    /// the board (towards the higher files for the first player).
    pub king_wing: u8,
    /// The two directions as one line looked up whole, where the board has it: a castler with
    /// no partner first along it either way (most positions) is passed over at once.
    pub line: Option<u16>,
    pub unmoved: bool,
    pub partner_unmoved: bool,
    pub not_in_check: bool,
    pub path_safe: bool,
}

/// Slides or hops of some kinds along one line, reversed: from the attacked square back along
/// `dir` to the attacker.
#[derive(Clone, Debug)]
pub struct RayAttack<B> {
    /// The reversed direction (see [`Tables::ray`]).
    pub dir: u8,
    /// The kinds that attack so, a bit per kind (at most `MAX_KINDS`, 24).
    pub kinds: u32,
    /// Slides: the longest distance, if bounded.
    pub max: Option<u32>,
    /// Hops: the exact number of screens (0 for slides).
    pub screens: u32,
    /// Hops: the kinds that may not be screens, a bit per kind.
    pub screen_not: u32,
    /// The squares the clause may land on (its `within`).
    pub within: B,
    /// The squares the attacker may start from (its `from`).
    pub from: B,
    /// The attacker must not have moved.
    pub unmoved: bool,
}

impl<B: Bits> RayAttack<B> {
    /// May the piece of `kind` on `sq` make this attack (`virgin`: the unmoved pieces)?
    #[inline(always)]
    pub fn by(&self, sq: usize, kind: KindId, virgin: B) -> bool {
        self.kinds >> kind.0 & 1 == 1 && self.from.has(sq) && (!self.unmoved || virgin.has(sq))
    }
}

/// Attack tables of one side: from which squares its pieces attack a given square.
#[derive(Clone, Debug, Default)]
pub struct Attacks<B> {
    /// (kind, per target square: squares a piece of that kind attacks it from, needs unmoved).
    pub leaps: Vec<(KindId, Vec<B>, bool)>,
    /// (kind, per target square: (attacker square, squares that must be empty)).
    pub lame: Vec<(KindId, Vec<Vec<(u16, B)>>)>,
    /// Slides, reversed, but those in `line_slides`.
    pub slides: Vec<RayAttack<B>>,
    /// Slides looked up a whole line at a time (see [`lines`]): the line, the kinds (a bit per
    /// kind). Nothing but the kind limits them: no bound, zone or first-move condition.
    pub line_slides: Vec<(u16, u32)>,
    /// Hops, reversed (`screens` exact, `screen_not` empty).
    pub hops: Vec<RayAttack<B>>,
    /// Hops with kinds that may not be screens (`screen_not`). Their lines make every move take
    /// the full test.
    pub hops_not: Vec<RayAttack<B>>,
    /// Per square: the squares any leap attacks it from — a quick test before the leaps' tables.
    pub leap_reach: Vec<B>,
    /// Per square: the union of all slide and hop rays towards it — a quick test before casting.
    pub reach: Vec<B>,
    /// The kinds that attack along those rays (a bit per kind): a square whose reach holds none
    /// of them is attacked along no ray.
    pub ray_kinds: u32,
    /// Only leaps and slides, and only royal safety makes a move illegal (no facing rule, no
    /// effects): a check is met by taking the checker or stepping between it and the royal (no
    /// lame leaper's block point or hopper's screen to change).
    pub simple_checks: bool,
    /// Every attack is a leap by kind or a slide along a line table (no lame leap, hop, first-move
    /// condition or slide left to the rays): the attack query is a few lookups (`Pos::attacked`).
    pub lookups_only: bool,
}

/// The Zobrist key of each cell (a kind and side, see `game::position::cell`) on each point, in
/// one table: a key is one load behind one bounds check, where a table per cell made it two of
/// each on the hottest paths (every placement and capture).
#[derive(Clone, Debug)]
pub struct PieceKeys {
    keys: Vec<u64>,
    /// Points per cell.
    stride: usize,
}

impl PieceKeys {
    /// From a row of `points` keys per cell (an empty row for a cell no piece can be: its keys
    /// are 0, never asked for).
    fn new(rows: Vec<Vec<u64>>, points: usize) -> PieceKeys {
        let mut keys = vec![0; rows.len() * points];
        for (c, row) in rows.iter().enumerate() {
            keys[c * points..][..row.len()].copy_from_slice(row);
        }
        PieceKeys { keys, stride: points }
    }

    /// The key of cell `c` on point `sq`.
    #[inline(always)]
    pub fn key(&self, c: u8, sq: usize) -> u64 {
        self.keys[c as usize * self.stride + sq]
    }

    /// The keys of cell `c`, a point each.
    #[inline]
    pub fn row(&self, c: u8) -> &[u64] {
        &self.keys[c as usize * self.stride..][..self.stride]
    }
}

/// Everything the generator needs, for one bitboard width.
#[derive(Clone, Debug)]
pub struct Tables<B: Bits> {
    pub squares: usize,
    pub width: usize,
    pub board_mask: B,
    /// Ray directions: offset, and whether square indices grow along it.
    pub dirs: Vec<(i32, i32, bool)>,
    /// The squares from `sq` (exclusive) to the edge along `dir`, at `dir * squares + sq`: one
    /// table, so that a lookup is one load (see [`Tables::ray`]).
    rays: Vec<B>,
    /// Whole lines looked up in one step, for the slides that have them (see [`lines`]).
    pub lines: lines::Lines<B>,
    /// Forms per side: first those that move a piece, grouped by kind in order, then those that
    /// place, drop or jump (from `moving_forms` on).
    pub forms: [Vec<CForm<B>>; MAX_SIDES],
    /// Per side: how many forms move a piece (the rest place, drop or jump).
    pub moving_forms: [usize; MAX_SIDES],
    /// Per side and form: the first form of the same piece whose moves do the same (see
    /// [`Form::same_effects`]) and may coincide with this one's (itself if none). Two clauses
    /// giving one move (`step any` and `slide orthogonal` both reach the next square) give it once.
    pub form_class: [Vec<u8>; MAX_SIDES],
    /// Per side: the moving clauses a count takes whole for the pieces free to move (see
    /// [`Quick`]).
    pub quick: Box<[Quick<B>; MAX_SIDES]>,
    /// Some two clauses may give the same move: generation drops the repeats.
    pub overlapping: bool,
    /// `overlapping`, or a roll starts each turn: generation's one test for both.
    pub unusual_generation: bool,
    /// Some clause applies only in some phases or under a `when`.
    pub gated: bool,
    /// Some clause leaves a copy behind (see [`CForm::clone`]).
    pub clones: bool,
    /// Some clause of a royal kind leaves a copy behind: a royal's move then leaves a royal on
    /// both its squares, and every move of a royal takes the full test.
    pub royal_clones: bool,
    pub castles: [Vec<CCastle>; MAX_SIDES],
    /// Attacks made by each side.
    pub attacks: [Attacks<B>; MAX_SIDES],
    pub royal_kinds: Vec<KindId>,
    /// [`Tables::royal_kinds`] as a bit per kind.
    pub royal_bits: u32,
    pub royal_safety: bool,
    /// Orthogonal neighbours of each square, for chains. A neighbour off the board is `squares`:
    /// one border point shared by all edges, so chain code never tests for a missing neighbour.
    pub neighbours: Vec<[u16; 4]>,
    /// Chains without liberties are captured after each move.
    pub chains: bool,
    pub suicide_forbidden: bool,
    pub repetition: Option<RepetitionRule>,
    /// A player may pass.
    pub pass: bool,
    /// Directions (ray indices) along which two royals may not face each other.
    pub facing: Vec<u8>,
    /// Promotion per side and kind.
    pub promotion: [Vec<Option<CPromo<B>>>; MAX_SIDES],
    /// Per kind: promoting ends a continuing move.
    pub promotion_ends: Vec<bool>,
    /// Counters kept: which kind's move also resets each (None: only captures).
    pub counters: Vec<Option<KindId>>,
    pub dark: B,
    /// Zobrist keys: piece (a cell on a square), side to move, castling rights, en-passant square.
    pub z_piece: PieceKeys,
    pub z_side: u64,
    /// In a game of more than two players, the key of each side to move (the first's is 0).
    pub z_turn: [u64; MAX_SIDES],
    /// The sides in play.
    pub sides: u8,
    /// More than two sides: `make` passes the turn round, and a side's enemies are all the
    /// others (see [`crate::game::position::Pos::enemies`]).
    pub many: bool,
    /// Among more than two sides: each side's team (`teams`); where sides play for themselves,
    /// its own index, so that a side's partners are itself alone.
    pub team: [u8; MAX_SIDES],
    /// More than two sides with royal pieces to keep safe, or with partners: moves are tried one by
    /// one (see [`crate::game::position::Pos::generate_guarded`]), since a royal may be attacked by
    /// any enemy, and partners' pieces are neither own nor enemy (the plain generator sums those two).
    pub guarded_many: bool,
    pub z_virgin: Vec<u64>,
    pub z_ep: Vec<u64>,
    /// Zobrist keys of hands: per side, per kind; a count `c` hashes as `key × c`.
    pub z_hand: [Vec<u64>; MAX_SIDES],
    /// Captured pieces go to the captor's hand.
    pub hand: bool,
    /// `captures go back to hand`: to the captured piece's owner's hand instead.
    pub hand_back: bool,
    /// Per kind: the kind a promoted piece of it joins the hand as (itself where nothing promotes to it).
    pub demote: Vec<KindId>,
    /// Promoted pieces are tracked (for `~` in FEN and for demotion).
    pub track_promoted: bool,
    /// `must capture`: Some(most).
    pub must_capture: Option<bool>,
    pub pass_only_when_stuck: bool,
    pub swap: bool,
    /// Ray directions of jumps: a continuing move's legs are indices into this list.
    pub legs: Vec<u8>,
    /// Bits of a leg naming its direction (the rest, [`Tables::dist_bits`], how far beyond the
    /// piece jumped it lands: 0 for one square).
    pub dir_bits: u32,
    /// Bits of a leg for its landing distance (0 where no jump goes over a distance).
    pub dist_bits: u32,
    /// Bits of the route that legs may use (after the 4 of the count).
    pub route_bits: u32,
    /// Per ray direction, the opposite one (`u8::MAX` where it has none).
    pub reverse: Vec<u8>,
    /// Per kind: promoting goes on capturing as the new kind (`at once`).
    pub promotion_at_once: Vec<bool>,
    /// Bits per leg in [`crate::game::Move::route`].
    pub leg_bits: u32,
    /// The squares of each file.
    pub files: Vec<B>,
    /// The neighbours of each square (four on squares and points, six on hexes), for connections.
    pub adjacency: Vec<B>,
    /// next[dir][sq]: the square one step along ray direction `dir` (NO_SQ off the board).
    pub next: Vec<Vec<u16>>,
    /// Each ray direction of `next` as whole-set shifts, where a few state it (see [`RayShift`]).
    pub ray_shifts: Vec<Option<RayShift<B>>>,
    /// In games that capture chains, each of the four neighbour directions of `neighbours` as
    /// whole-set shifts (the empty points with an empty neighbour at once), where they state it.
    pub adjacent: Option<Vec<RayShift<B>>>,
    /// The end rules, compiled (history conditions left to the game).
    pub ends: Vec<CEnd<B>>,
    /// Among more than two players, the end rules that put a side out rather than end the game
    /// (an index into `ends`, and how): `make` settles them after each move (see
    /// [`Verdict::puts_out`]). Those rules are not automatic ends.
    pub outs: Vec<(usize, Out)>,
    /// Keys of a side's place once it is out: `side * (MAX_SIDES + 1) + place`.
    pub z_place: Vec<u64>,
    /// Some clause has effects beyond its own squares, drops from a hand, or the game tracks hands:
    /// `make` takes its general path.
    pub general: bool,
    /// Where each kind can ever stand and how many there can be (`None` if the setup is unreadable):
    /// what a position must obey to be one a game could reach.
    pub reach: Option<reach::Reach<B>>,
    /// The later parts of every turn (empty: a turn is one move).
    pub parts: Vec<CPart<B>>,
    /// Per kind: it is neutral (belongs to no player; stands on `Pos::walls`).
    pub kinds_neutral: Vec<bool>,
    /// A later part's choices: (index into `parts`, the kind it drops where it chooses one). A
    /// move's part slot holds an index into this list.
    pub part_choices: Vec<(u8, Option<KindId>)>,
    /// Per square, its neighbours along every direction (eight on squares, six on hexes): `next to`.
    pub around: Vec<B>,
    /// Per kind, `captured only when surrounded`: the ray directions, the squares that count as
    /// surrounding when empty (per side of the surrounder), and whether off the board does.
    pub surround: Vec<Option<(Vec<u8>, [B; MAX_SIDES], bool)>>,
    /// The kinds with a `surround` rule, a bit per kind: never taken in an enclosed run.
    pub surround_kinds: u32,
    /// `captures explode`: per square, the squares around it (the blast); a bit per kind spared.
    pub explosion: Option<(Vec<B>, u32)>,
    /// What ends each phase but the last (see [`crate::model::Phase`]).
    pub phase_ends: Vec<CPhaseEnd<B>>,
    /// Zobrist keys of the phases (the first's is 0).
    pub z_phase: Vec<u64>,
    /// The roll's results, each the number shown and its weight (see [`crate::model::Roll`]);
    /// empty in a game without chance.
    pub rolls: Vec<(u32, u64)>,
    /// Zobrist keys of the roll's state ([`crate::game::position::Pos::roll`]): 0 for "to roll",
    /// then one per result.
    pub z_roll: Vec<u64>,
    /// Some clause bears pieces off (see [`CForm::bear_off`]).
    pub bears_off: bool,
    /// `another turn after landing in ZONE`: per side, the squares where a landing earns it.
    pub again_zone: [B; MAX_SIDES],
    /// `another turn after rolling N`: a bit per result of the roll (index into `rolls`).
    pub again_rolls: u64,
    /// Some move may earn another turn (`another turn after ...`): `make` asks only then.
    pub turn_kept: bool,
    /// A roll starts each turn, or some move may earn another turn: `unmake` restores
    /// [`crate::game::position::Pos::roll`] and `again` only then.
    pub turn_state: bool,
    /// The declared counts (see [`crate::model::Tally`]).
    pub tallies: Vec<Tally>,
    /// Zobrist keys of counts: per side, per count; a value `v` hashes as `key × v`.
    pub z_tally: [[u64; MAX_TALLIES]; 2],
    /// Some count changes with checks given (so `make` asks whether the move gives check).
    pub tally_checks: bool,
    /// Some count changes with captures (so `make` counts the pieces a move removed).
    pub tally_captures: bool,
    /// Each whole turn is made and tested for an exposed royal: a part moves a neutral piece, which
    /// may open a line to a royal (a turn's move is legal by itself in any case).
    pub turn_decides_legality: bool,
    /// A race game's rules (stacks, dice used one by one...), which take their own generator and
    /// `make` (see [`crate::game::race`]); `None` in every other game.
    pub race: Option<Box<race::RaceTables>>,
}

impl<B: Bits> Tables<B> {
    /// Is `kind` royal (see [`Tables::royal_bits`])?
    #[inline]
    pub fn is_royal(&self, kind: KindId) -> bool {
        self.royal_bits >> kind.0 & 1 != 0
    }

    /// The side that moves after `s`.
    #[inline(always)]
    pub fn next_side(&self, s: Side) -> Side {
        if s.0 + 1 >= self.sides { Side::FIRST } else { Side(s.0 + 1) }
    }
    /// The side that moved before `s`.
    #[inline(always)]
    pub fn previous_side(&self, s: Side) -> Side {
        if s.0 == 0 { Side(self.sides - 1) } else { Side(s.0 - 1) }
    }
}

/// How an end rule puts a side out of a game of more than two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    /// `mover finishes`: the mover takes the next place from the top.
    MoverFinishes,
    /// `side to move loses`: the side to move takes the next place from the bottom.
    ToMoveLoses,
    /// `mover loses`: the mover takes the next place from the bottom.
    MoverLoses,
}

/// The most legs a continuing move may have: its route holds the count in 4 bits and the legs in
/// `route_bits`.
pub fn max_legs(leg_bits: u32, route_bits: u32) -> u32 {
    if leg_bits == 0 { 15 } else { (route_bits / leg_bits).min(15) }
}

/// The number of distinct counter definitions a ruleset may use.
pub const MAX_COUNTERS: usize = 4;

impl<B: Bits> Tables<B> {
    /// Which of [`Tables::counters`] a rule of plies without a capture or a move of `resetting`
    /// reads (the first, where more counters were asked for than are kept).
    pub fn counter_index(&self, resetting: Option<KindId>) -> usize {
        self.counters.iter().position(|c| *c == resetting).unwrap_or(0)
    }

    pub fn ray_index(&mut self, d: (i32, i32), board: &Board) -> u8 {
        if let Some(i) = self.dirs.iter().position(|x| (x.0, x.1) == d) {
            return i as u8;
        }
        let grows = d.1 > 0 || (d.1 == 0 && d.0 > 0);
        self.dirs.push((d.0, d.1, grows));
        self.next.push(
            (0..self.squares)
                .map(|sq| board.offset(sq, d.0, d.1).map_or(u16::MAX, |x| x as u16))
                .collect(),
        );
        for sq in 0..self.squares {
            let mut r = B::EMPTY;
            let mut cur = sq;
            while let Some(n) = board.offset(cur, d.0, d.1) {
                r |= B::bit(n);
                cur = n;
            }
            self.rays.push(r);
        }
        (self.dirs.len() - 1) as u8
    }

    /// The squares from `sq` (exclusive) to the edge along `dir`.
    #[inline(always)]
    pub fn ray(&self, dir: usize, sq: usize) -> B {
        self.rays[dir * self.squares + sq]
    }

    /// Squares reached along `dir` from `sq` up to and including the first occupied one.
    #[inline(always)]
    pub fn ray_attacks(&self, dir: usize, sq: usize, occ: B) -> B {
        let ray = self.ray(dir, sq);
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let b = if self.dirs[dir].2 { blockers.lsb() } else { blockers.msb() };
        ray ^ self.ray(dir, b)
    }

    /// The line of direction `a` and, if given, its opposite `b`, built on first use (see
    /// [`lines::Lines::find_or_build`]).
    pub fn line(&mut self, a: u8, b: Option<u8>) -> Option<u16> {
        let mut lines = std::mem::take(&mut self.lines);
        let l = lines.find_or_build(a, b, &|d, sq| self.ray(d as usize, sq), &|d, sq, occ| {
            self.ray_attacks(d as usize, sq, occ)
        });
        self.lines = lines;
        l
    }

    /// The lines that together cover the directions `dirs` (a direction and its opposite make one
    /// line), or `None` where some cannot be looked up whole.
    pub fn lines_of(&mut self, dirs: &[u8]) -> Option<Vec<u16>> {
        let mut out = Vec::new();
        let mut done = vec![false; dirs.len()];
        for i in 0..dirs.len() {
            if done[i] {
                continue;
            }
            done[i] = true;
            let opposite = (i + 1..dirs.len()).find(|&j| !done[j] && self.opposite(dirs[i], dirs[j]));
            if let Some(j) = opposite {
                done[j] = true;
            }
            out.push(self.line(dirs[i], opposite.map(|j| dirs[j]))?);
        }
        Some(out)
    }

    /// Do directions `a` and `b` point opposite ways (one line between them)?
    pub fn opposite(&self, a: u8, b: u8) -> bool {
        let (dx, dy, _) = self.dirs[a as usize];
        let (ex, ey, _) = self.dirs[b as usize];
        (ex, ey) == (-dx, -dy)
    }

    /// The squares from `from` (exclusive) to `to` (inclusive) along line `l`, where `to` lies.
    #[inline(always)]
    pub fn line_segment(&self, l: u16, from: usize, to: usize) -> B {
        let (a, b) = self.lines.dirs[l as usize];
        let d = match b {
            Some(b) if !self.ray(a as usize, from).has(to) => b,
            _ => a,
        } as usize;
        self.ray(d, from) & !self.ray(d, to)
    }

    /// The first occupied square along `dir` from `sq`.
    #[inline(always)]
    pub fn first_blocker(&self, dir: usize, sq: usize, occ: B) -> Option<usize> {
        let blockers = self.ray(dir, sq) & occ;
        if blockers.is_empty() {
            None
        } else if self.dirs[dir].2 {
            Some(blockers.lsb())
        } else {
            Some(blockers.msb())
        }
    }
}

fn set_to_bits<B: Bits>(s: &SquareSet) -> B {
    let mut b = B::EMPTY;
    for sq in s.iter() {
        b |= B::bit(sq);
    }
    b
}

/// Builds the tables for one width. The caller has checked `board.squares() <= B::CAPACITY`.
pub fn compile<B: Bits>(rules: &Rules) -> Tables<B> {
    let board = &rules.board;
    let n = board.squares();
    let mut board_mask = B::EMPTY;
    for sq in (0..n).filter(|&sq| board.has(sq)) {
        board_mask |= B::bit(sq);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0x00A7_B17E_2026);
    // The keys of the first two sides' pieces are drawn first, in the order of kind then side, so
    // that a game of two players hashes as it always has; a third side's and later come from a
    // generator of their own.
    let two: Vec<Vec<u64>> = (0..1 + 2 * rules.kinds.len())
        .map(|_| (0..n).map(|_| rng.next_u64()).collect())
        .collect();
    let mut more = ChaCha8Rng::seed_from_u64(0x00A7_B17E_0006);
    let sides = rules.players.len();
    let bits = SIDE_BITS;
    let cells = 1 + (rules.kinds.len().max(1) << bits);
    let z_piece = (0..cells)
        .map(|c| {
            let (k, s) = (c.saturating_sub(1) >> bits, c.saturating_sub(1) & ((1 << bits) - 1));
            if c == 0 {
                two[0].clone()
            } else if s < 2 && k < rules.kinds.len() {
                two[1 + 2 * k + s].clone()
            } else if s < sides && k < rules.kinds.len() {
                (0..n).map(|_| more.next_u64()).collect()
            } else {
                Vec::new()
            }
        })
        .collect();
    let z_piece = PieceKeys::new(z_piece, n);
    let z_turn = std::array::from_fn(|i| if i == 0 || i >= sides { 0 } else { more.next_u64() });
    let z_side = rng.next_u64();
    let z_virgin = (0..n).map(|_| rng.next_u64()).collect();
    let z_ep = (0..n).map(|_| rng.next_u64()).collect();
    let mut z_hand: [Vec<u64>; MAX_SIDES] = Default::default();
    for s in 0..2 {
        z_hand[s] = rules.kinds.iter().map(|_| rng.next_u64() | 1).collect();
    }
    // The further sides' hands from the second stream (the first two's keys stay as they were).
    for hand in z_hand.iter_mut().take(sides).skip(2) {
        *hand = rules.kinds.iter().map(|_| more.next_u64() | 1).collect();
    }
    let z_tally_keys = [0, 1].map(|_| [0; MAX_TALLIES].map(|_: u64| rng.next_u64() | 1));
    let z_phase: Vec<u64> = (0..rules.phases.len()).map(|i| if i == 0 { 0 } else { rng.next_u64() }).collect();
    let mut dark = B::EMPTY;
    for sq in 0..n {
        if board.is_dark(sq) == Some(true) {
            dark |= B::bit(sq);
        }
    }
    let mut t = Tables {
        squares: n,
        width: board.width,
        board_mask,
        dirs: Vec::new(),
        rays: Vec::new(),
        lines: lines::Lines::new(n),
        forms: Default::default(),
        moving_forms: [0; MAX_SIDES],
        form_class: Default::default(),
        quick: Box::new(std::array::from_fn(|_| Quick::default())),
        overlapping: false,
        unusual_generation: rules.roll.is_some(),
        gated: false,
        clones: false,
        royal_clones: false,
        castles: Default::default(),
        attacks: std::array::from_fn(|_| Attacks::default()),
        royal_kinds: rules
            .kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.royal)
            .map(|(i, _)| KindId(i as u8))
            .collect(),
        royal_bits: rules
            .kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.royal)
            .fold(0, |m, (i, _)| m | 1 << i),
        royal_safety: rules.royal_safety.is_some(),
        neighbours: (0..n)
            .map(|sq| {
                let mut a = [n as u16; 4];
                for (i, (dx, dy)) in [(0, 1), (1, 0), (0, -1), (-1, 0)].into_iter().enumerate() {
                    if let Some(m) = board.offset(sq, dx, dy) {
                        a[i] = m as u16;
                    }
                }
                a
            })
            .collect(),
        chains: rules.chain_capture.is_some(),
        suicide_forbidden: rules.suicide_forbidden.is_some(),
        repetition: rules.repetition_forbidden.as_ref().map(|r| r.0),
        pass: rules.pass.is_some(),
        facing: Vec::new(),
        promotion: Default::default(),
        promotion_ends: rules
            .kinds
            .iter()
            .map(|k| k.promotion.as_ref().is_some_and(|p| p.ends_move))
            .collect(),
        counters: Vec::new(),
        dark,
        z_piece,
        z_side,
        z_turn,
        sides: rules.players.len() as u8,
        many: rules.players.len() > 2,
        team: std::array::from_fn(|s| rules.teams.get(s).copied().unwrap_or(s as u8)),
        guarded_many: rules.players.len() > 2 && (rules.royal_safety.is_some() || !rules.teams.is_empty()),
        z_virgin,
        z_ep,
        z_hand,
        hand: rules.hand.is_some(),
        hand_back: rules.hand.as_ref().is_some_and(|h| h.back),
        demote: (0..rules.kinds.len())
            .map(|k| {
                let id = KindId(k as u8);
                match &rules.hand {
                    Some(h) if h.demote => rules
                        .kinds
                        .iter()
                        .position(|o| o.promotion.as_ref().is_some_and(|p| p.choices.contains(&id)))
                        .map_or(id, |o| KindId(o as u8)),
                    _ => id,
                }
            })
            .collect(),
        track_promoted: rules.hand.as_ref().is_some_and(|h| h.demote),
        must_capture: rules.must_capture.as_ref().map(|m| m.most),
        pass_only_when_stuck: rules.pass_only_when_stuck,
        swap: rules.swap.is_some(),
        legs: Vec::new(),
        leg_bits: 0,
        dir_bits: 0,
        dist_bits: 0,
        route_bits: if rules.turn.is_empty() { 60 } else { 28 },
        reverse: Vec::new(),
        promotion_at_once: rules
            .kinds
            .iter()
            .map(|k| k.promotion.as_ref().is_some_and(|p| p.at_once))
            .collect(),
        files: (0..board.width)
            .map(|f| {
                let mut b = B::EMPTY;
                for r in 0..board.height {
                    b |= B::bit(board.square(f, r));
                }
                b
            })
            .collect(),
        adjacency: (0..n)
            .map(|sq| {
                let mut b = B::EMPTY;
                for x in board.neighbours(sq) {
                    b |= B::bit(x);
                }
                b
            })
            .collect(),
        next: Vec::new(),
        ray_shifts: Vec::new(),
        adjacent: None,
        ends: Vec::new(),
        outs: Vec::new(),
        z_place: Vec::new(),
        general: rules.hand.is_some()
            || rules.roll.is_some()
            || !rules.again.is_empty()
            || rules.kinds.iter().any(|k| {
                k.forms.iter().any(|f| {
                    f.enclose.is_some() || f.neighbours.is_some() || matches!(f.primitive, Primitive::Jump { .. } | Primitive::Drop)
                })
            }),
        reach: None,
        surround: Vec::new(),
        surround_kinds: rules
            .kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.surround.is_some())
            .fold(0u32, |m, (i, _)| m | 1 << i),
        around: leap_table::<B>(board, &board.around_offsets()),
        explosion: rules.explosion.as_ref().map(|e| {
            let around = board.around_offsets();
            (leap_table::<B>(board, &around), e.sparing.iter().fold(0u32, |m, k| m | 1 << k.0))
        }),
        phase_ends: Vec::new(),
        z_phase: Vec::new(),
        rolls: rules.roll.as_ref().map(|r| r.results.clone()).unwrap_or_default(),
        // Keys of their own, drawn apart from the others (which a game without chance keeps).
        z_roll: {
            let mut rng = ChaCha8Rng::seed_from_u64(0x0D1C_E2026);
            let results = rules.roll.as_ref().map_or(0, |r| r.results.len());
            (0..=results).map(|i| if i == 0 { 0 } else { rng.next_u64() }).collect()
        },
        bears_off: rules.kinds.iter().any(|k| k.forms.iter().any(|f| f.bear_off)),
        again_zone: std::array::from_fn(|s| {
            rules.again.iter().fold(B::EMPTY, |b, a| match a {
                crate::model::Again::Landing(z, _) => b | z.0.get(s).map_or(B::EMPTY, set_to_bits::<B>),
                crate::model::Again::Rolling(..) => b,
            })
        }),
        turn_kept: !rules.again.is_empty(),
        turn_state: rules.roll.is_some() || !rules.again.is_empty(),
        again_rolls: rules.again.iter().fold(0u64, |m, a| match (a, &rules.roll) {
            (crate::model::Again::Rolling(values, _), Some(r)) => values.iter().filter_map(|v| r.index_of(*v)).fold(m, |m, i| m | 1 << i),
            _ => m,
        }),
        tallies: rules.counts.clone(),
        z_tally: [[0; MAX_TALLIES]; 2],
        tally_checks: rules.counts.iter().any(|c| c.changes.iter().any(|e| e.1 == TallyEvent::CheckGiven)),
        tally_captures: rules
            .counts
            .iter()
            .any(|c| c.changes.iter().any(|e| matches!(e.1, TallyEvent::Captured(_)))),
        parts: Vec::new(),
        kinds_neutral: rules.kinds.iter().map(|k| k.neutral).collect(),
        part_choices: Vec::new(),
        turn_decides_legality: false,
        race: None,
    };
    // Jump directions first, so that a route's leg is an index into a short list.
    for side in 0..rules.players.len() {
        for kind in &rules.kinds {
            for f in &kind.forms {
                if let Primitive::Jump { dirs, .. } = &f.primitive {
                    for d in dirs {
                        let i = t.ray_index(turned(rules, side, *d), board);
                        if !t.legs.contains(&i) {
                            t.legs.push(i);
                        }
                    }
                }
            }
        }
    }
    t.dir_bits = match t.legs.len() {
        0 | 1 => 0,
        l => usize::BITS - (l - 1).leading_zeros(),
    };
    // A jump over a distance lands 1 to (side − 2) squares beyond the piece it jumps.
    let far = rules
        .kinds
        .iter()
        .any(|k| k.forms.iter().any(|f| matches!(f.primitive, Primitive::Jump { far: true, .. })));
    t.dist_bits = if far {
        let most = board.width.max(board.height).saturating_sub(2).max(2);
        usize::BITS - (most - 1).leading_zeros()
    } else {
        0
    };
    t.leg_bits = t.dir_bits + t.dist_bits;
    for r in &rules.end_rules {
        for c in &r.conditions {
            if let Condition::Counter { resetting_kind, .. } = c
                && !t.counters.contains(resetting_kind)
                && t.counters.len() < MAX_COUNTERS
            {
                t.counters.push(*resetting_kind);
            }
        }
    }
    if let Some((dirs, _)) = &rules.royals_facing {
        for &d in dirs {
            let i = t.ray_index(d, board);
            t.facing.push(i);
        }
    }
    for s in 0..rules.players.len() {
        let side = Side(s as u8);
        // Directions as this side sees them (the first player's, turned by its seat).
        let tr = |d: (i32, i32)| turned(rules, s, d);
        let go = |sq: usize, d: (i32, i32)| {
            let (dx, dy) = tr(d);
            board.offset(sq, dx, dy)
        };
        for (ki, kind) in rules.kinds.iter().enumerate() {
            let kid = KindId(ki as u8);
            t.promotion[s].push(kind.promotion.as_ref().map(|p| CPromo {
                zone: set_to_bits::<B>(&p.zone[side]),
                choices: p.choices.clone(),
                optional: p.optional,
                forced: p.forced.as_ref().map_or(B::EMPTY, |z| set_to_bits::<B>(&z[side])),
                leaving: p.leaving,
                special: p.optional || p.leaving,
            }));
            for (ci, f) in kind.forms.iter().enumerate() {
                let from = f.from.as_ref().map_or(board_mask, |z| set_to_bits(&z[side]));
                let within = f.within.as_ref().map_or(board_mask, |z| set_to_bits(&z[side]));
                let how = match &f.primitive {
                    Primitive::Step { dirs, distance: 1 } => {
                        let offs: Vec<(i32, i32)> = dirs.iter().map(|d| tr(*d)).collect();
                        Gen::Leap {
                            targets: leap_table(board, &offs),
                        }
                    }
                    Primitive::Step { dirs, distance } => {
                        let mut entries = vec![Vec::new(); n];
                        for (sq, e) in entries.iter_mut().enumerate() {
                            for d in dirs {
                                let (dx, dy) = tr(*d);
                                let mut path = B::EMPTY;
                                let mut cur = Some(sq);
                                for _ in 1..*distance {
                                    cur = cur.and_then(|c| board.offset(c, dx, dy));
                                    if let Some(c) = cur {
                                        path |= B::bit(c);
                                    }
                                }
                                if let Some(to) = cur.and_then(|c| board.offset(c, dx, dy)) {
                                    e.push((to as u16, path));
                                }
                            }
                        }
                        Gen::Lame { entries }
                    }
                    Primitive::Leap { offsets } if offsets.iter().all(|o| o.1.is_empty()) => {
                        let offs: Vec<(i32, i32)> = offsets.iter().map(|(o, _)| tr(*o)).collect();
                        Gen::Leap {
                            targets: leap_table(board, &offs),
                        }
                    }
                    Primitive::Leap { offsets } => {
                        let mut entries = vec![Vec::new(); n];
                        for (sq, e) in entries.iter_mut().enumerate() {
                            for (o, blk) in offsets {
                                if let Some(to) = go(sq, *o) {
                                    let mut mask = B::EMPTY;
                                    for b in blk {
                                        mask |= go(sq, *b).map_or(B::EMPTY, B::bit);
                                    }
                                    e.push((to as u16, mask));
                                }
                            }
                        }
                        Gen::Lame { entries }
                    }
                    Primitive::Slide { dirs, .. } if f.counted => Gen::Counted {
                        dirs: dirs
                            .iter()
                            .map(|d| {
                                (
                                    t.ray_index(tr(*d), board),
                                    t.ray_index(
                                        {
                                            let (x, y) = tr(*d);
                                            (-x, -y)
                                        },
                                        board,
                                    ),
                                )
                            })
                            .collect(),
                        over_own: f.over_own,
                    },
                    Primitive::Slide { dirs, max } => {
                        let idx: Vec<u8> = dirs.iter().map(|d| t.ray_index(tr(*d), board)).collect();
                        let bounded = max.map(|m| {
                            (0..n)
                                .map(|sq| {
                                    let mut b = B::EMPTY;
                                    for d in dirs {
                                        let mut cur = sq;
                                        for _ in 0..m {
                                            match go(cur, *d) {
                                                Some(x) => {
                                                    b |= B::bit(x);
                                                    cur = x;
                                                }
                                                None => break,
                                            }
                                        }
                                    }
                                    b
                                })
                                .collect()
                        });
                        let lines = t.lines_of(&idx);
                        Gen::Slide { dirs: idx, bounded, lines }
                    }
                    Primitive::Place => Gen::Place,
                    Primitive::Drop => Gen::Drop,
                    Primitive::Run { track } => {
                        let path = &rules.tracks[*track].squares[side];
                        let results = rules.roll.as_ref().map_or(&[][..], |r| &r.results[..]);
                        Gen::Track {
                            by_roll: results
                                .iter()
                                .map(|&(v, _)| {
                                    let mut to = vec![B::EMPTY; n];
                                    for (i, &sq) in path.iter().enumerate() {
                                        if v > 0
                                            && let Some(&x) = path.get(i + v as usize)
                                        {
                                            to[sq] = B::bit(x);
                                        }
                                    }
                                    to
                                })
                                .collect(),
                        }
                    }
                    // Anywhere on the board: a leap to every other cell.
                    Primitive::Fly => Gen::Leap {
                        targets: (0..n).map(|sq| t.board_mask & !B::bit(sq)).collect(),
                    },
                    Primitive::Jump { dirs, .. } => {
                        let rays: Vec<u8> = dirs.iter().map(|d| t.ray_index(tr(*d), board)).collect();
                        let mut entries = vec![Vec::new(); n];
                        for (sq, e) in entries.iter_mut().enumerate() {
                            for d in dirs {
                                let (dx, dy) = tr(*d);
                                let ray = t.ray_index((dx, dy), board);
                                let leg = t.legs.iter().position(|&l| l == ray).unwrap_or(0) as u8;
                                if let Some(over) = board.offset(sq, dx, dy)
                                    && let Some(land) = board.offset(over, dx, dy)
                                {
                                    e.push((over as u16, land as u16, leg));
                                }
                            }
                        }
                        Gen::Jump {
                            entries,
                            dirs: rays,
                            chain: f.chain,
                        }
                    }
                    Primitive::Hop { dirs, screens } => {
                        let idx: Vec<u8> = dirs.iter().map(|d| t.ray_index(tr(*d), board)).collect();
                        let mask = |ks: &[KindId]| ks.iter().fold(0u32, |m, k| m | 1 << k.0);
                        if f.screen_not.is_empty() && f.target_not.is_empty() {
                            Gen::Hop {
                                dirs: idx,
                                screens: *screens,
                            }
                        } else {
                            Gen::HopNot {
                                dirs: idx,
                                screens: *screens,
                                screen_not: mask(&f.screen_not),
                                target_not: mask(&f.target_not),
                            }
                        }
                    }
                };
                let enclose = f.enclose.as_ref().map(|(e, dirs)| {
                    let idx: Vec<u8> = dirs.iter().map(|d| t.ray_index(tr(*d), board)).collect();
                    (*e, idx)
                });
                // Gravity pulls the same way for both players: not mirrored.
                let falling = f.falling.map(|d| t.ray_index(d, board));
                let jump = match &f.primitive {
                    Primitive::Jump { over, far, .. } => Some(JumpRule {
                        over: *over,
                        capturing: f.capturing,
                        continuing: f.continuing,
                        far: *far,
                        at_once: f.capture_at_once,
                        no_reverse: f.no_reverse,
                    }),
                    _ => None,
                };
                let mut stuck = B::EMPTY;
                if f.drop.not_stuck {
                    stuck = stuck_squares::<B>(rules, kind, s);
                }
                // Set-wise generation knows nothing of en passant, of effects, or of promotions that
                // depend on the square a move starts from.
                let plain = f.target != Target::EnPassant
                    && enclose.is_none()
                    && f.only_if.is_none()
                    && falling.is_none()
                    && !kind.promotion.as_ref().is_some_and(|p| p.leaving);
                let shifts = if plain { shifts_of(&how, from) } else { Vec::new() };
                let when = f.when.as_ref().map(|c| {
                    let rule = EndRule {
                        reason: String::new(),
                        conditions: vec![(**c).clone()],
                        verdict: Verdict::Draw,
                        cite: None,
                    };
                    compile_end(&mut t, rules, &rule).conds.remove(0)
                });
                let bare_place = matches!(how, Gen::Place)
                    && enclose.is_none()
                    && !jump.is_some_and(|j| j.capturing)
                    && f.neighbours.is_none()
                    && falling.is_none()
                    && f.only_if.is_none()
                    && !f.next_to_own
                    && !f.either_side;
                t.forms[s].push(CForm {
                    kind: kid,
                    clause: ci as u8,
                    how,
                    target: f.target,
                    from,
                    within,
                    unmoved: f.unmoved,
                    marks_ep: f.marks_en_passant,
                    effects: enclose.is_some() || jump.is_some_and(|j| j.capturing) || f.neighbours.is_some(),
                    jump,
                    enclose,
                    only_if: f.only_if,
                    enclose_exact: f.enclose_exact,
                    enclose_against: f.enclose_against.as_ref().map_or([B::EMPTY; MAX_SIDES], sides_bits),
                    falling,
                    flips_set_wise: false,
                    bare_place,
                    phases: f.during.unwrap_or(u32::MAX),
                    next_to_own: f.next_to_own,
                    neighbours: f.neighbours,
                    clone: f.clone,
                    other_sides: if f.either_side {
                        kind.promotion.as_ref().map(|p| p.choices.clone()).unwrap_or_default()
                    } else {
                        Vec::new()
                    },
                    when,
                    no_file_with: f.drop.no_file_with,
                    not_giving_mate: f.drop.not_giving_mate,
                    stuck,
                    shifts,
                    by_roll: f.by_roll.map(|track| {
                        let path = &rules.tracks[track].squares[side];
                        let results = rules.roll.as_ref().map_or(&[][..], |r| &r.results[..]);
                        results
                            .iter()
                            .map(|&(v, _)| match (v as usize).checked_sub(1).and_then(|i| path.get(i)) {
                                Some(&sq) => B::bit(sq),
                                None => B::EMPTY,
                            })
                            .collect()
                    }),
                    bear_off: match f.primitive {
                        Primitive::Run { track } if f.bear_off => {
                            let path = &rules.tracks[track].squares[side];
                            let results = rules.roll.as_ref().map_or(&[][..], |r| &r.results[..]);
                            // A roll of v bears off from the square v before the end: one past the last.
                            Some(
                                results
                                    .iter()
                                    .map(
                                        |&(v, _)| match (v as usize).checked_sub(1).and_then(|k| path.len().checked_sub(k + 1)) {
                                            Some(i) if v > 0 => B::bit(path[i]),
                                            _ => B::EMPTY,
                                        },
                                    )
                                    .collect(),
                            )
                        }
                        _ => None,
                    },
                });
            }
            for (ci, c) in kind.castles.iter().enumerate() {
                // Along the side's own back rank, as its seat turns it: the higher squares' way
                // first (a castling move towards higher squares goes along `dirs[0]`).
                let (right, left) = (turned(rules, s, (1, 0)), turned(rules, s, (-1, 0)));
                let grows = right.1 > 0 || (right.1 == 0 && right.0 > 0);
                let (up, down, king_wing) = if grows { (right, left, 0) } else { (left, right, 1) };
                let dirs = [t.ray_index(up, board), t.ray_index(down, board)];
                let line = t.line(dirs[0], Some(dirs[1]));
                t.castles[s].push(CCastle {
                    kind: kid,
                    index: ci as u8,
                    partner: c.partner,
                    distance: c.distance,
                    dirs,
                    king_wing,
                    line,
                    unmoved: c.unmoved.is_some(),
                    partner_unmoved: c.partner_unmoved.is_some(),
                    not_in_check: c.not_in_check.is_some(),
                    path_safe: c.path_safe.is_some(),
                });
            }
        }
    }
    for side in 0..rules.players.len() {
        // A stable sort: moving clauses first, each group in kind order.
        t.forms[side].sort_by_key(|f| matches!(f.how, Gen::Place | Gen::Drop | Gen::Jump { .. }));
        t.moving_forms[side] = t.forms[side]
            .iter()
            .filter(|f| !matches!(f.how, Gen::Place | Gen::Drop | Gen::Jump { .. }))
            .count();
        let span = board.width.max(board.height) as i32;
        let model = |f: &CForm<B>| &rules.kind(f.kind).forms[f.clause as usize];
        let mut class: Vec<u8> = (0..t.forms[side].len()).map(|i| i as u8).collect();
        for i in 0..t.moving_forms[side] {
            let fi = &t.forms[side][i];
            if let Some(j) = (0..i).find(|&j| {
                let fj = &t.forms[side][j];
                fj.kind == fi.kind && model(fj).same_effects(model(fi)) && model(fj).may_overlap(model(fi), span)
            }) {
                class[i] = class[j];
                t.overlapping = true;
                t.unusual_generation = true;
            }
        }
        t.form_class[side] = class;
        t.quick[side] = Quick::of(&t.forms[side][..t.moving_forms[side]]);
        t.attacks[side] = attacks(&mut t, rules, side);
    }
    let mut ends: Vec<CEnd<B>> = rules.end_rules.iter().map(|r| compile_end(&mut t, rules, r)).collect();
    for (i, r) in rules.end_rules.iter().enumerate() {
        if r.verdict.puts_out(rules) {
            let out = match r.verdict {
                Verdict::MoverFinishes => Out::MoverFinishes,
                Verdict::MoverLoses => Out::MoverLoses,
                _ => Out::ToMoveLoses,
            };
            t.outs.push((i, out));
            ends[i].automatic = false;
        }
    }
    if !t.outs.is_empty() {
        use rand_chacha::rand_core::{RngCore, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x0075_2026);
        t.z_place = (0..MAX_SIDES * (MAX_SIDES + 1)).map(|_| rng.next_u64()).collect();
    }
    // Passes and captures are counted where an end rule or a pass can ask for them.
    t.general |= t.attacks.iter().any(|a| !a.hops_not.is_empty());
    // `must capture` filters the finished list, which only the general path's tail does.
    t.general |= t.pass
        || t.swap
        || t.must_capture.is_some()
        || ends
            .iter()
            .flat_map(|e| &e.conds)
            .any(|c| matches!(c, CCond::Captured(_) | CCond::Passes(_)));
    t.ends = ends;
    // More than two players take the general path: `make` and `unmake` look for them only there,
    // so that the plain path of two-player games pays nothing for them.
    t.general |= t.many;
    t.unusual_generation |= t.guarded_many;
    t.surround = rules
        .kinds
        .iter()
        .map(|k| {
            k.surround.as_ref().map(|sr| {
                let dirs: Vec<u8> = sr.dirs.iter().map(|&d| t.ray_index(d, board)).collect();
                (dirs, sr.against.as_ref().map_or([B::EMPTY; MAX_SIDES], sides_bits), sr.edge)
            })
        })
        .collect();
    t.reverse = t
        .dirs
        .iter()
        .map(|&(dx, dy, _)| {
            t.dirs
                .iter()
                .position(|&(x, y, _)| (x, y) == (-dx, -dy))
                .map_or(u8::MAX, |i| i as u8)
        })
        .collect();
    t.z_tally = z_tally_keys;
    t.z_phase = z_phase;
    t.phase_ends = rules
        .phases
        .iter()
        .map(|p| match &p.until {
            None => CPhaseEnd::Never,
            Some(PhaseEnd::HandsEmpty) => CPhaseEnd::HandsEmpty,
            Some(PhaseEnd::Conditions(cs)) => {
                let rule = EndRule {
                    reason: String::new(),
                    conditions: cs.clone(),
                    verdict: Verdict::Draw,
                    cite: None,
                };
                CPhaseEnd::Conditions(compile_end(&mut t, rules, &rule).conds)
            }
        })
        .collect();
    t.general |= !t.phase_ends.is_empty();
    t.general |= !t.tallies.is_empty() || t.explosion.is_some();
    compile_parts(&mut t, rules);
    t.race = race::compile(rules, &t).map(Box::new);
    if let Some(race) = &t.race {
        // The dice states a turn reaches past the whole rolls' have keys too.
        let mut rng = ChaCha8Rng::seed_from_u64(0x0D1C_E2027);
        while t.z_roll.len() <= race.states.len() {
            t.z_roll.push(rng.next_u64());
        }
        t.general = true;
    }
    // Evasions are simple only where, besides the attacks, nothing else makes a move illegal.
    let plain = t.royal_safety && t.facing.is_empty() && !t.general;
    for a in &mut t.attacks {
        a.simple_checks &= plain;
    }
    t.gated = t.forms.iter().flatten().any(|f| f.phases != u32::MAX || f.when.is_some());
    t.clones = t.forms.iter().flatten().any(|f| f.clone);
    t.royal_clones = t.forms.iter().flatten().any(|f| f.clone && t.is_royal(f.kind));
    t.ray_shifts = t.next.iter().map(|n| RayShift::compile(n, t.board_mask)).collect();
    if t.chains {
        let n = t.squares;
        t.adjacent = (0..4)
            .map(|i| {
                let next: Vec<u16> = t.neighbours[..n]
                    .iter()
                    .map(|a| if a[i] as usize == n { u16::MAX } else { a[i] })
                    .collect();
                RayShift::compile(&next, t.board_mask)
            })
            .collect();
    }
    let surround_kinds = t.surround_kinds;
    let explosion = t.explosion.is_some();
    for side in 0..rules.players.len() {
        for i in 0..t.forms[side].len() {
            // Where captures explode each capture takes the full test (`LegalCtx::tested`): no
            // clause emits its targets as whole sets past it.
            if explosion {
                t.forms[side][i].shifts.clear();
            }
            let f = &t.forms[side][i];
            let set_wise = f.only_if.is_some()
                && f.enclose_exact.is_none()
                && f.enclose_against.iter().all(|a| a.is_empty())
                && surround_kinds == 0
                && f.enclose
                    .as_ref()
                    .is_some_and(|(_, dirs)| dirs.iter().all(|&d| t.ray_shifts[d as usize].is_some()));
            t.forms[side][i].flips_set_wise = set_wise;
        }
    }
    t.reach = reach::compute(rules, &t);
    t
}

/// The turn's later parts: their zones, rays and choices per side.
fn compile_parts<B: Bits>(t: &mut Tables<B>, rules: &Rules) {
    let board = &rules.board;
    for (pi, part) in rules.turn.iter().enumerate() {
        let mut per_side = |d: &[(i32, i32)], rev: bool| -> [Vec<(u8, u8)>; MAX_SIDES] {
            let mut out: [Vec<(u8, u8)>; MAX_SIDES] = Default::default();
            for (side, o) in out.iter_mut().enumerate().take(rules.players.len()) {
                *o = d
                    .iter()
                    .map(|&d| {
                        let (dx, dy) = turned(rules, side, d);
                        let a = t.ray_index((dx, dy), board);
                        let b = if rev { t.ray_index((-dx, -dy), board) } else { a };
                        (a, b)
                    })
                    .collect();
            }
            out
        };
        let condition = part.condition.as_ref().map(|c| match c {
            PartCondition::MadeRow { n, dirs } => CPartCond::MadeRow {
                n: *n,
                dirs: per_side(dirs, true),
            },
            PartCondition::Captured => CPartCond::Captured,
        });
        let row_safe = match &part.action {
            PartAction::Remove { row_safe: Some((n, dirs)) } => Some((*n, per_side(dirs, true))),
            _ => None,
        };
        let along = part
            .along
            .as_ref()
            .map(|d| per_side(d, false).map(|v| v.into_iter().map(|x| x.0).collect()))
            .unwrap_or_default();
        let within = match &part.within {
            Some(z) => sides_bits(z),
            None => [t.board_mask; MAX_SIDES],
        };
        let kinds: Vec<Option<KindId>> = match &part.action {
            PartAction::Gate { kinds, .. } => kinds.iter().map(|k| Some(*k)).collect(),
            _ => vec![None],
        };
        let mut choices = Vec::new();
        for k in kinds {
            choices.push(t.part_choices.len() as u8);
            t.part_choices.push((pi as u8, k));
        }
        t.parts.push(CPart {
            action: part.action.clone(),
            optional: part.optional,
            condition,
            within: within.map(|w| w & t.board_mask),
            along,
            row_safe,
            choices,
        });
    }
    if !t.parts.is_empty() {
        t.general = true;
        // Under `forbid royal attacked` (or facing royals) the turn's move must be legal by itself,
        // as Fairy-Stockfish judges gating: a piece dropped or placed later never shields the
        // royal. A later part may expose one all the same — a piece moved away, a royal placed
        // where it is attacked or facing, a piece removed from between facing royals: then each
        // whole turn is made and looked at as well.
        let may_expose = t.parts.iter().any(|p| match p.action {
            PartAction::Place { moving, kind } => moving || t.is_royal(kind),
            PartAction::Remove { .. } => true,
            PartAction::Gate { .. } => false,
        });
        t.turn_decides_legality = (t.royal_safety || !t.facing.is_empty()) && may_expose;
    }
}

/// The squares from which a piece of `kind` has no move on an empty board, ever (a drop there
/// would leave it stuck): no clause reaches any square from there.
fn stuck_squares<B: Bits>(rules: &Rules, kind: &Kind, side: usize) -> B {
    let mut stuck = B::EMPTY;
    for sq in 0..rules.board.squares() {
        if !could_move_from(rules, kind, sq, side) {
            stuck |= B::bit(sq);
        }
    }
    stuck
}

/// Could a piece of `kind` move from `sq` on an empty board (for `side`, whose directions its
/// seat turns)? A drop `not where it could not move` is refused where it could not.
pub(crate) fn could_move_from(rules: &Rules, kind: &Kind, sq: usize, side: usize) -> bool {
    let board = &rules.board;
    kind.forms.iter().any(|f| {
        let offs: Vec<(i32, i32)> = match &f.primitive {
            Primitive::Step { dirs, distance } => dirs.iter().map(|d| (d.0 * *distance as i32, d.1 * *distance as i32)).collect(),
            Primitive::Slide { dirs, .. } | Primitive::Hop { dirs, .. } => dirs.clone(),
            Primitive::Leap { offsets } => offsets.iter().map(|o| o.0).collect(),
            Primitive::Jump { dirs, .. } => dirs.iter().map(|d| (2 * d.0, 2 * d.1)).collect(),
            Primitive::Place | Primitive::Drop => Vec::new(),
            Primitive::Fly | Primitive::Run { .. } => return true,
        };
        offs.iter().any(|&o| {
            let (dx, dy) = turned(rules, side, o);
            board.offset(sq, dx, dy).is_some()
        })
    })
}

fn sides_bits<B: Bits>(z: &BySide<SquareSet>) -> [B; MAX_SIDES] {
    std::array::from_fn(|s| z.0.get(s).map_or(B::EMPTY, set_to_bits))
}

/// A direction written from the first player's side, as `side` sees it (its seat's turn).
pub(crate) fn turned(rules: &Rules, side: usize, d: (i32, i32)) -> (i32, i32) {
    let seat = rules.players.get(side).map_or(side as u8, |p| p.seat);
    rules.board.seat_dir(rules.seating, seat, d)
}

fn compile_end<B: Bits>(t: &mut Tables<B>, rules: &Rules, r: &EndRule) -> CEnd<B> {
    let conds: Vec<CCond<B>> = r
        .conditions
        .iter()
        .map(|c| match c {
            Condition::NoLegalMove => CCond::NoLegalMove,
            Condition::InCheck => CCond::InCheck,
            // `cannot win` is a search, run where the game asks for it (see `Game::outcome`), never
            // inside perft or the search itself.
            Condition::Repetition(_)
            | Condition::CheckingThroughout
            | Condition::ChasingThroughout
            | Condition::FlagFallen
            | Condition::CannotWin(_) => CCond::History,
            Condition::Counter { plies, resetting_kind } => CCond::Counter {
                index: t.counter_index(*resetting_kind),
                plies: *plies,
            },
            Condition::Material(pats) => CCond::Material(
                pats.iter()
                    .map(|p| {
                        let count = |ks: &[KindId]| {
                            let mut v = [0u8; MAX_KINDS];
                            for k in ks {
                                v[k.0 as usize] = v[k.0 as usize].saturating_add(1);
                            }
                            v
                        };
                        ([count(&p.a), count(&p.b)], p.same_colour)
                    })
                    .collect(),
                MaterialPattern::most_pieces(pats),
            ),
            Condition::NoneOf(ks) => CCond::NoneOf(ks.clone()),
            Condition::Passes(n) => CCond::Passes(*n),
            Condition::InARow { n, exact, dirs } => CCond::InARow {
                n: *n,
                exact: *exact,
                // A run along a direction is the same run along its reverse: of the two, only the
                // one along which square indices grow is looked along, so that a run is still found
                // from its lowest square, in the order the walk over both always found it.
                dirs: {
                    let pairs: Vec<_> = dirs
                        .iter()
                        .map(|&d| (d, (t.ray_index(d, &rules.board), t.ray_index((-d.0, -d.1), &rules.board))))
                        .collect();
                    let up = |r: u8| t.next[r as usize].iter().enumerate().any(|(s, &n)| n != u16::MAX && n as usize > s);
                    pairs
                        .into_iter()
                        .filter(|&(d, (r, _))| up(r) || !dirs.contains(&(-d.0, -d.1)))
                        .map(|(_, pair)| pair)
                        .collect()
                },
            },
            Condition::Captured(k) => CCond::Captured(*k),
            Condition::NoneLeft(k) => CCond::NoneLeft(*k),
            Condition::Connects { zones, need } => CCond::Connects {
                zones: zones.iter().map(sides_bits).collect(),
                need: *need,
            },
            Condition::NeitherCanMove => CCond::NeitherCanMove,
            Condition::KindIn(k, z) => CCond::KindIn(*k, sides_bits(z)),
            Condition::AllConnected { whose, dirs } => {
                let both: Vec<(i32, i32)> = dirs.iter().flat_map(|&(a, b)| [(a, b), (-a, -b)]).collect();
                CCond::AllConnected {
                    whose: *whose,
                    next_to: leap_table(&rules.board, &both),
                }
            }
            Condition::During(mask) => CCond::During(*mask),
            Condition::Ring(whose) => {
                let most = t.adjacency.iter().map(|a| a.count()).max().unwrap_or(0);
                let mut edge = B::EMPTY;
                for sq in t.board_mask.iter() {
                    if t.adjacency[sq].count() < most {
                        edge |= B::bit(sq);
                    }
                }
                CCond::Ring { whose: *whose, edge }
            }
            Condition::RoyalsFacing(dirs) => CCond::RoyalsFacing(dirs.iter().map(|&d| t.ray_index(d, &rules.board)).collect()),
            Condition::Compare { count, whose, op, value } => CCond::Compare {
                count: match count {
                    CountOf::Declared(i) => CCount::Declared(*i),
                    CountOf::Pieces { kind, zone } => CCount::Pieces {
                        kind: *kind,
                        zone: zone.as_ref().map_or([t.board_mask; MAX_SIDES], sides_bits),
                    },
                },
                whose: *whose,
                op: *op,
                value: *value,
            },
        })
        .collect();
    CEnd {
        // Over when a history condition is there: the position alone never says it holds.
        judged_alone: !conds.iter().any(|c| matches!(c, CCond::History)),
        no_legal_move: conds.iter().any(|c| matches!(c, CCond::NoLegalMove)),
        conds,
        automatic: r.verdict != Verdict::ClaimableDraw,
    }
}

fn leap_table<B: Bits>(board: &Board, offs: &[(i32, i32)]) -> Vec<B> {
    (0..board.squares())
        .map(|sq| {
            let mut b = B::EMPTY;
            for &(dx, dy) in offs {
                if let Some(x) = board.offset(sq, dx, dy) {
                    b |= B::bit(x);
                }
            }
            b
        })
        .collect()
}

/// Reverses the capturing forms of `side` into "attacked from" tables.
fn attacks<B: Bits>(t: &mut Tables<B>, rules: &Rules, side: usize) -> Attacks<B> {
    let n = t.squares;
    let board = &rules.board;
    let mut a = Attacks::<B> {
        reach: vec![B::EMPTY; n],
        ..Default::default()
    };
    let forms = t.forms[side].clone();
    for f in forms.iter().filter(|f| matches!(f.target, Target::Any | Target::Enemy)) {
        match &f.how {
            // (A move by the roll attacks nothing a royal would need to fear: the checker refuses
            // the two together.)
            Gen::Place | Gen::Drop | Gen::Jump { .. } | Gen::Counted { .. } | Gen::Track { .. } => {}
            Gen::HopNot {
                dirs,
                screens,
                screen_not,
                target_not,
            } => {
                // A hop that may not take a royal kind attacks no royal.
                let royal_mask = t.royal_bits;
                if royal_mask != 0 && target_not & royal_mask == royal_mask {
                    continue;
                }
                for &d in dirs {
                    let (dx, dy, _) = t.dirs[d as usize];
                    let rd = t.ray_index((-dx, -dy), board);
                    a.hops_not.push(RayAttack {
                        dir: rd,
                        kinds: 1 << f.kind.0,
                        max: None,
                        screens: *screens,
                        screen_not: *screen_not,
                        within: f.within,
                        from: f.from,
                        unmoved: f.unmoved,
                    });
                }
            }
            Gen::Leap { targets } => {
                let mut rev = vec![B::EMPTY; n];
                for from in f.from.iter() {
                    for to in (targets[from] & f.within).iter() {
                        rev[to] |= B::bit(from);
                    }
                }
                match a.leaps.iter_mut().find(|(k, _, u)| *k == f.kind && *u == f.unmoved) {
                    Some((_, r, _)) => {
                        for (x, y) in r.iter_mut().zip(rev) {
                            *x |= y;
                        }
                    }
                    None => a.leaps.push((f.kind, rev, f.unmoved)),
                }
            }
            Gen::Lame { entries } => {
                let mut rev: Vec<Vec<(u16, B)>> = vec![Vec::new(); n];
                for from in f.from.iter() {
                    for &(to, block) in &entries[from] {
                        if f.within.has(to as usize) {
                            rev[to as usize].push((from as u16, block));
                        }
                    }
                }
                a.lame.push((f.kind, rev));
            }
            Gen::Slide { dirs, bounded, .. } => {
                let max = bounded.as_ref().map(|_| {
                    // Recover the bound from the first square's table: the longest reach along one ray.
                    let k = rules.kind(f.kind);
                    match &k.forms[f.clause as usize].primitive {
                        Primitive::Slide { max, .. } => max.unwrap_or(u32::MAX),
                        _ => u32::MAX,
                    }
                });
                for &d in dirs {
                    add_ray_attack(&mut a.slides, t, board, d, f, max, 0);
                }
            }
            Gen::Hop { dirs, screens } => {
                for &d in dirs {
                    add_ray_attack(&mut a.hops, t, board, d, f, None, *screens);
                }
            }
        }
    }
    for sq in 0..n {
        for r in a.slides.iter().chain(&a.hops).chain(&a.hops_not) {
            a.reach[sq] |= t.ray(r.dir as usize, sq);
        }
    }
    a.leap_reach = (0..n)
        .map(|sq| a.leaps.iter().fold(B::EMPTY, |b, (_, rev, _)| b | rev[sq]))
        .collect();
    // Slides with nothing to them but their kinds (no bound, zone or first-move condition) go a
    // whole line at a time, the two ways of a line together where the same kinds slide both.
    let board_mask = t.board_mask;
    let simple = |r: &RayAttack<B>| r.max.is_none() && !r.unmoved && (board_mask & !(r.within & r.from)).is_empty();
    let slides = std::mem::take(&mut a.slides);
    let mut used = vec![false; slides.len()];
    for i in 0..slides.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let s = &slides[i];
        if simple(s) {
            let opposite = (i + 1..slides.len())
                .find(|&j| !used[j] && simple(&slides[j]) && slides[j].kinds == s.kinds && t.opposite(s.dir, slides[j].dir));
            if let Some(l) = t.line(s.dir, opposite.map(|j| slides[j].dir)) {
                if let Some(j) = opposite {
                    used[j] = true;
                }
                a.line_slides.push((l, s.kinds));
                continue;
            }
        }
        a.slides.push(s.clone());
    }
    a.ray_kinds =
        a.slides.iter().chain(&a.hops).chain(&a.hops_not).fold(0, |k, r| k | r.kinds) | a.line_slides.iter().fold(0, |k, l| k | l.1);
    a.simple_checks = a.lame.is_empty() && a.hops.is_empty() && a.hops_not.is_empty();
    a.lookups_only = a.simple_checks && a.slides.is_empty() && a.leaps.iter().all(|(_, _, unmoved)| !unmoved);
    a
}

/// Adds the reversed line of direction `d` of clause `f` to `list`, joining a line that differs
/// only in its kinds.
fn add_ray_attack<B: Bits>(
    list: &mut Vec<RayAttack<B>>,
    t: &mut Tables<B>,
    board: &Board,
    d: u8,
    f: &CForm<B>,
    max: Option<u32>,
    screens: u32,
) {
    let (dx, dy, _) = t.dirs[d as usize];
    let dir = t.ray_index((-dx, -dy), board);
    let same = |r: &&mut RayAttack<B>| {
        r.dir == dir && r.max == max && r.screens == screens && r.within == f.within && r.from == f.from && r.unmoved == f.unmoved
    };
    match list.iter_mut().find(same) {
        Some(r) => {
            r.kinds |= 1 << f.kind.0;
        }
        None => list.push(RayAttack {
            dir,
            kinds: 1 << f.kind.0,
            max,
            screens,
            screen_not: 0,
            within: f.within,
            from: f.from,
            unmoved: f.unmoved,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(ruleset: &str) -> Tables<u64> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets").join(ruleset);
        let checked = crate::check::check_file(&path, &[]);
        compile::<u64>(&checked.rules.expect("bundled rules are valid"))
    }

    /// The shifts of each clause of `kind` for `side`, as (by, how many squares start it, blocks).
    fn shifts(t: &Tables<u64>, kind: KindId, side: usize) -> Vec<Vec<(i32, u32, Vec<i32>)>> {
        t.forms[side]
            .iter()
            .filter(|f| f.kind == kind)
            .map(|f| f.shifts.iter().map(|s| (s.by, s.from.count(), s.blocks.clone())).collect())
            .collect()
    }

    #[test]
    fn pawn_like_clauses_become_shifts_and_others_do_not() {
        let t = tables("chess.rules");
        // Kinds in declaration order: King, Queen, Rook, Bishop, Knight, Pawn.
        let (knight, pawn, king) = (KindId(4), KindId(5), KindId(0));
        assert_eq!(
            shifts(&t, pawn, 0),
            vec![
                // One step forward from everywhere but the last rank.
                vec![(8, 56, vec![])],
                // Two steps from rank 2 over an empty square.
                vec![(16, 8, vec![8])],
                // Forward-diagonal captures: seven files reach left, seven right.
                vec![(9, 49, vec![]), (7, 49, vec![])],
                // En passant takes the per-piece path.
                vec![],
            ]
        );
        // Black's pawns go the other way.
        assert_eq!(shifts(&t, pawn, 1)[1], vec![(-16, 8, vec![-8])]);
        // Eight offsets are more than a loop over two knights costs.
        assert_eq!(shifts(&t, knight, 0), vec![Vec::new()]);
        assert_eq!(shifts(&t, king, 0), vec![Vec::new()]);
    }

    #[test]
    fn quick_clauses_are_the_plain_moving_ones_by_how_they_reach() {
        let t = tables("chess.rules");
        let (king, queen, rook, bishop, knight, pawn) = (0, 1, 2, 3, 4, 5);
        for side in 0..2 {
            let q = &t.quick[side];
            let forms = &t.forms[side];
            let kinds = |list: &[QuickForm<u64>]| list.iter().map(|c| c.kind.0).collect::<Vec<_>>();
            // The pawn's push, double step and captures; not en passant.
            assert_eq!(kinds(&q.shifts), vec![pawn; 3]);
            assert!(q.shifts.iter().all(|c| forms[c.form as usize].target != Target::EnPassant));
            assert_eq!(kinds(&q.leaps), vec![king, knight]);
            assert_eq!(kinds(&q.lines), vec![queen, rook, bishop]);
            // A queen's four lines, a rook's and a bishop's two.
            assert_eq!(q.lines.iter().map(|c| c.nlines).collect::<Vec<_>>(), vec![4, 2, 2]);
            // The en passant clause alone stays with the general loop.
            let all = (1u64 << t.moving_forms[side]) - 1;
            assert_eq!((all & !q.forms).count_ones(), 1);
            let ep = (all & !q.forms).trailing_zeros() as usize;
            assert_eq!(forms[ep].target, Target::EnPassant);
            // ... and is the one a count skips where no square is marked.
            assert_eq!(q.en_passant, 1 << ep);
            // Each entry names its clause, whose bit is in `forms` and under its kind.
            for c in q.shifts.iter().chain(&q.leaps).chain(&q.lines) {
                let i = c.form as usize;
                assert_eq!(c.kind, forms[i].kind);
                assert_ne!(q.forms & 1 << i, 0);
                assert_ne!(q.by_kind[c.kind.0 as usize] & 1 << i, 0);
            }
            assert_eq!(q.by_kind.iter().fold(0, |a, b| a | b), q.forms);
        }
        // A drop, a placement or a first-move clause is never quick.
        let t = tables("crazyhouse.rules");
        for side in 0..2 {
            for (i, f) in t.forms[side].iter().enumerate() {
                let quick = t.quick[side].forms >> i & 1 == 1;
                assert!(!quick || (i < t.moving_forms[side] && !f.unmoved), "{i}");
            }
        }
    }
}
