//! The checked ruleset: every name resolved to an id, every parameter substituted, every zone a set
//! of squares. Produced by `check`, consumed by `compile` (the move generator's tables) and by the
//! notation and explanation code. Directions and zones are stated from the first player's side; the
//! second player's are mirrored top to bottom when compiled.

pub mod setup;

pub use setup::{CastlingRight, Setup, Wing};

/// Index of a piece kind in [`Rules::kinds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KindId(pub u8);

/// The most sides a game may have.
pub const MAX_SIDES: usize = 6;

/// Bits of a position's cell that name the side (the rest, the kind): room for [`MAX_SIDES`].
pub const SIDE_BITS: u8 = 3;
const _: () = assert!(MAX_SIDES <= 1 << SIDE_BITS && 1 + ((MAX_KINDS - 1) << SIDE_BITS) + MAX_SIDES <= 256);

/// How each side sees the board: its zones and directions are the first player's, carried over
/// by the seat's turn of the board (`seated by ...`). A side's seat is its place in `players`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seating {
    /// Two players: the second's board is the first's upside down (turned half round on hexes,
    /// which a mirror would not map onto themselves).
    #[default]
    Mirror,
    /// Each seat turns the board half round from the one before.
    HalfTurn,
    /// Each seat turns the board a quarter round (four seats on a square board).
    QuarterTurns,
    /// Each seat turns a board of hexes a sixth of a round (six seats around a hex star).
    SixthTurns,
}

impl Seating {
    /// How many seats the turns give before coming round again.
    pub fn seats(self) -> usize {
        match self {
            Seating::Mirror | Seating::HalfTurn => 2,
            Seating::QuarterTurns => 4,
            Seating::SixthTurns => 6,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Seating::Mirror => "mirror",
            Seating::HalfTurn => "half turn",
            Seating::QuarterTurns => "quarter turns",
            Seating::SixthTurns => "sixth turns",
        }
    }
}

/// A player: 0 moves first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Side(pub u8);

impl Side {
    pub const FIRST: Side = Side(0);
    pub const SECOND: Side = Side(1);
    pub fn other(self) -> Side {
        Side(self.0 ^ 1)
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Values indexed by side: one per side in play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BySide<T>(pub Vec<T>);

impl<T> std::ops::Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, s: Side) -> &T {
        &self.0[s.index()]
    }
}
impl<T> std::ops::IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, s: Side) -> &mut T {
        &mut self.0[s.index()]
    }
}

/// A set of squares (any board size), used before compilation picks a bitboard width.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet {
    words: Vec<u64>,
}

impl SquareSet {
    pub fn new(squares: usize) -> SquareSet {
        SquareSet {
            words: vec![0; squares.div_ceil(64)],
        }
    }
    pub fn full(squares: usize) -> SquareSet {
        let mut s = SquareSet::new(squares);
        for i in 0..squares {
            s.insert(i);
        }
        s
    }
    pub fn insert(&mut self, sq: usize) {
        self.words[sq / 64] |= 1 << (sq % 64);
    }
    pub fn contains(&self, sq: usize) -> bool {
        self.words.get(sq / 64).is_some_and(|w| w >> (sq % 64) & 1 == 1)
    }
    pub fn union(&mut self, o: &SquareSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a |= b;
        }
    }
    pub fn subtract(&mut self, o: &SquareSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a &= !b;
        }
    }
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(i, w)| (0..64).filter(move |b| w >> b & 1 == 1).map(move |b| i * 64 + b))
    }
}

/// The largest board side the engine supports (26 × 26; coordinate letters a–z).
pub const MAX_BOARD_SIDE: usize = 26;
/// The most piece kinds a ruleset may declare.
pub const MAX_KINDS: usize = 24;
/// The most movement clauses one piece may have.
pub const MAX_FORMS_PER_KIND: usize = 32;
/// The most screens a hop may require.
pub const MAX_SCREENS: i64 = 8;

#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub name: String,
    /// The side-to-move letter in FEN (`w`, `b`).
    pub fen: String,
    /// Its seat: its place among the players declared (which turn of the board it sees).
    pub seat: u8,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Drawing {
    /// A gap across the board between two ranks (indices, lower first).
    River { below: usize },
    /// Straight lines between two squares (palace diagonals).
    Line { from: usize, to: usize },
    /// A dot on a point (go star points).
    Mark { at: usize },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    /// Pieces stand on intersections (xiangqi, go) rather than in squares.
    pub points: bool,
    /// Cells with six neighbours: the board is a rhombus of hexagons, each rank shifted half a cell
    /// from the one below. Cell (f, r) touches (f±1, r), (f, r±1), (f+1, r−1) and (f−1, r+1).
    pub hexes: bool,
    pub file_names: Vec<String>,
    pub rank_names: Vec<String>,
    /// `Some(p)`: checkered, and squares with (file + rank) % 2 == p are dark.
    pub dark_parity: Option<usize>,
    pub drawings: Vec<Drawing>,
    /// Squares of the grid that are not on the board (`cells ZONE` leaves them out): nothing
    /// stands there or moves through them. Empty for a whole rectangle.
    pub holes: SquareSet,
}

impl Board {
    pub fn squares(&self) -> usize {
        self.width * self.height
    }
    pub fn file(&self, sq: usize) -> usize {
        sq % self.width
    }
    pub fn rank(&self, sq: usize) -> usize {
        sq / self.width
    }
    pub fn square(&self, file: usize, rank: usize) -> usize {
        rank * self.width + file
    }
    /// The square `(dx, dy)` away, if on the board.
    pub fn offset(&self, sq: usize, dx: i32, dy: i32) -> Option<usize> {
        let f = self.file(sq) as i32 + dx;
        let r = self.rank(sq) as i32 + dy;
        (f >= 0 && r >= 0 && (f as usize) < self.width && (r as usize) < self.height)
            .then(|| self.square(f as usize, r as usize))
            .filter(|&x| !self.holes.contains(x))
    }
    /// Is `sq` a cell of the board (not left out by `cells`)?
    pub fn has(&self, sq: usize) -> bool {
        sq < self.squares() && !self.holes.contains(sq)
    }
    /// The square the side in `seat` sees where the first player sees `sq` (see [`Seating`]);
    /// `None` where the turn carries it off the board (a board the turn does not map onto itself).
    pub fn seat_square(&self, seating: Seating, seat: u8, sq: usize) -> Option<usize> {
        let (w, h) = (self.width, self.height);
        let (mut f, mut r) = (self.file(sq) as i64, self.rank(sq) as i64);
        let k = seat as usize % seating.seats();
        match seating {
            Seating::Mirror if k == 1 => return Some(self.mirror(sq)),
            Seating::Mirror => {}
            Seating::HalfTurn if k == 1 => (f, r) = (w as i64 - 1 - f, h as i64 - 1 - r),
            Seating::HalfTurn => {}
            Seating::QuarterTurns => {
                // A quarter turn clockwise per seat about the board's centre: the second player
                // sits at the first's left.
                for _ in 0..k {
                    (f, r) = (r, w as i64 - 1 - f);
                }
            }
            Seating::SixthTurns => {
                // A sixth of a turn per seat about the centre cell, in the cells' own axes: the
                // neighbour along +file goes to the one along +rank, that one to (−file, +rank).
                let c = (w as i64 - 1) / 2;
                for _ in 0..k {
                    (f, r) = (2 * c - r, f + r - c);
                }
            }
        }
        (f >= 0 && r >= 0 && (f as usize) < w && (r as usize) < h)
            .then(|| self.square(f as usize, r as usize))
            .filter(|&x| !self.holes.contains(x))
    }
    /// A direction as the side in `seat` sees it (see [`Board::seat_square`]).
    pub fn seat_dir(&self, seating: Seating, seat: u8, d: (i32, i32)) -> (i32, i32) {
        let k = seat as usize % seating.seats();
        let mut d = d;
        match seating {
            Seating::Mirror | Seating::HalfTurn if k == 1 => {
                // Boards of hexes turn half round for the second player (a mirror would break
                // their geometry).
                let fx = if self.hexes || seating == Seating::HalfTurn { -1 } else { 1 };
                d = (d.0 * fx, -d.1);
            }
            Seating::QuarterTurns => {
                for _ in 0..k {
                    d = (d.1, -d.0);
                }
            }
            Seating::SixthTurns => {
                for _ in 0..k {
                    d = (-d.1, d.0 + d.1);
                }
            }
            _ => {}
        }
        d
    }
    /// The square seen from the other side: top and bottom swapped, or on a board of hexes (which
    /// a mirror would not map onto itself) turned half round.
    pub fn mirror(&self, sq: usize) -> usize {
        let file = if self.hexes {
            self.width - 1 - self.file(sq)
        } else {
            self.file(sq)
        };
        self.square(file, self.height - 1 - self.rank(sq))
    }
    pub fn name(&self, sq: usize) -> String {
        format!("{}{}", self.file_names[self.file(sq)], self.rank_names[self.rank(sq)])
    }
    /// Reads a square name (`e4`, `a10`, `D4`).
    pub fn parse_square(&self, s: &str) -> Option<usize> {
        let split = s.find(|c: char| c.is_ascii_digit())?;
        let (f, r) = s.split_at(split);
        let file = self.file_names.iter().position(|n| n == f)?;
        let rank = self.rank_names.iter().position(|n| n == r)?;
        Some(self.square(file, rank))
    }
    pub fn is_dark(&self, sq: usize) -> Option<bool> {
        self.dark_parity.map(|p| (self.file(sq) + self.rank(sq)) % 2 == p)
    }
    /// The offsets of a cell's neighbours: four on squares and points, six on hexes.
    pub fn neighbour_offsets(&self) -> &'static [(i32, i32)] {
        if self.hexes { &HEX_NEIGHBOURS } else { &ORTHOGONAL }
    }
    /// The offsets of every cell around one (the direction `any`): eight on squares and points,
    /// orthogonal ones first, six on hexes.
    pub fn around_offsets(&self) -> Vec<(i32, i32)> {
        if self.hexes {
            HEX_NEIGHBOURS.to_vec()
        } else {
            ORTHOGONAL.iter().chain(&DIAGONAL).copied().collect()
        }
    }
    /// The cells next to `sq` (see [`Board::neighbour_offsets`]).
    pub fn neighbours(&self, sq: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbour_offsets().iter().filter_map(move |&(dx, dy)| self.offset(sq, dx, dy))
    }
}

/// The four orthogonal offsets.
pub const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// The four diagonal offsets.
pub const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// The six neighbours of a hex cell.
pub const HEX_NEIGHBOURS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// What a move form may land on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Empty or enemy (the default).
    Any,
    Empty,
    Enemy,
    /// The en-passant square; captures the piece that marked it.
    EnPassant,
}

/// The geometric primitive of a move form; offsets from the first player's side.
#[derive(Clone, Debug, PartialEq)]
pub enum Primitive {
    /// Exactly `distance` squares along each direction, intermediate squares empty.
    Step { dirs: Vec<(i32, i32)>, distance: u32 },
    /// Any number of squares up to `max` along each direction through empty squares.
    Slide { dirs: Vec<(i32, i32)>, max: Option<u32> },
    /// To each offset, unless its block point (relative to the start) is occupied.
    /// To each offset, unless one of its block points (relative to the start) is occupied.
    Leap { offsets: Vec<((i32, i32), Vec<(i32, i32)>)> },
    /// Along each direction over exactly `screens` pieces.
    Hop { dirs: Vec<(i32, i32)>, screens: u32 },
    /// A new piece from the player's supply onto an empty square.
    Place,
    /// A piece from the player's hand onto an empty square.
    Drop,
    /// To any square of the board.
    Fly,
    /// `move along TRACK by roll`: as many squares on along the mover's track (an index into
    /// [`Rules::tracks`]) as the roll shows, from a square on it.
    Run { track: usize },
    /// Over an adjacent piece (of the kind `over` allows) to the empty square beyond it; `far`: over
    /// the first piece along the line, however far, to any empty square beyond it.
    Jump { dirs: Vec<(i32, i32)>, over: Over, far: bool },
}

/// What a jump may pass over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    Enemy,
    Own,
    Any,
}

/// What happens to enemy runs a move encloses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enclose {
    /// They change owner (Othello).
    Flip,
    /// They are removed (custodial capture).
    Capture,
}

/// Restrictions on where a piece may be dropped from the hand.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DropRules {
    /// Not on a file that already holds an own piece of this kind.
    pub no_file_with: Option<KindId>,
    /// Not a drop that checkmates at once.
    pub not_giving_mate: bool,
    /// Not where the piece would have no move ever after.
    pub not_stuck: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub primitive: Primitive,
    pub target: Target,
    /// The piece must start in this zone (per side).
    pub from: Option<BySide<SquareSet>>,
    /// The piece must land in this zone (per side).
    pub within: Option<BySide<SquareSet>>,
    /// The piece must not have moved yet.
    pub unmoved: bool,
    /// Leaves the en-passant mark on the squares it passed.
    pub marks_en_passant: bool,
    /// A jump removes the piece it jumps over.
    pub capturing: bool,
    /// After a capturing jump, the same piece must jump again while it can (one move in all).
    pub continuing: bool,
    /// `capturing at once`: each piece jumped leaves the board as it is jumped.
    pub capture_at_once: bool,
    /// `never turning back`: no leg of a continuing jump goes straight back along the one before.
    pub no_reverse: bool,
    /// `again at will`: a jump that captures nothing may go on jumping, never landing twice on one
    /// square; each square it can end on is a move.
    pub chain: bool,
    /// Gravity: the piece comes to rest on the first square along this direction whose next
    /// square is taken or off the board.
    pub falling: Option<(i32, i32)>,
    /// Enemy runs enclosed along these directions from the landing square change owner or are removed.
    pub enclose: Option<(Enclose, Vec<(i32, i32)>)>,
    /// Legal only where the move has this effect (flips or captures something).
    pub only_if: Option<Enclose>,
    /// Restrictions on a drop.
    pub drop: DropRules,
    /// `as many squares as pieces on its line` (a slide): it goes exactly as far as there are pieces
    /// on the whole line through its start along the direction, itself included.
    pub counted: bool,
    /// `over own` (a slide): it may pass over its own side's pieces.
    pub over_own: bool,
    /// `capturing enclosed exactly N`: only runs of exactly this many pieces.
    pub enclose_exact: Option<u32>,
    /// `or against ZONE`: an empty square of the zone (per side) closes a run as an own piece would.
    pub enclose_against: Option<BySide<SquareSet>>,
    /// `next to own` (a placement or drop): only next to one of the player's pieces.
    pub next_to_own: bool,
    /// `flipping neighbours` / `capturing neighbours`: every enemy piece next to the landing square
    /// changes owner (is removed).
    pub neighbours: Option<Enclose>,
    /// `leaving a copy`: the piece stays, and a new one of its kind lands.
    pub clone: bool,
    /// `either side up` (a drop): the piece may also be put down as what it promotes to.
    pub either_side: bool,
    /// `when COUNT ...`: the clause applies only while this comparison holds (with the mover as
    /// `mover`).
    pub when: Option<Box<Condition>>,
    /// `during PHASE`: the phases (a bit per index into [`Rules::phases`]) in which the clause
    /// applies; `None`: in every phase.
    pub during: Option<u32>,
    /// A hop may not use pieces of these kinds as screens.
    pub screen_not: Vec<KindId>,
    /// The move may not take pieces of these kinds.
    pub target_not: Vec<KindId>,
    /// `along TRACK by roll` (a drop): onto the square of the mover's track (an index into
    /// [`Rules::tracks`]) that the roll counts to.
    pub by_roll: Option<usize>,
    /// `bearing off` (a move along a track by the roll): a roll that takes the piece exactly one
    /// square past the track's end takes it off the board.
    pub bear_off: bool,
    /// `bearing off once all in ZONE`: only while every piece of the mover's stands in the zone
    /// (per side), none in hand.
    pub bear_home: Option<BySide<SquareSet>>,
    /// `overshooting from the rearmost`: a larger number bears off the piece farthest back.
    pub overshoot: bool,
    /// `at the start of TRACK` (a drop, whose track is then [`Form::by_roll`]): onto the track's
    /// first square, whatever the number used.
    pub at_start: bool,
    /// `on a roll of N [or M]`: only by these numbers (the die the piece moves by).
    pub on_roll: Option<Vec<u32>>,
    pub cite: Option<String>,
    /// The clause as written, for explanations.
    pub text: String,
}

impl Form {
    /// Can this clause take a piece on the square it lands on?
    pub fn captures(&self) -> bool {
        matches!(self.target, Target::Any | Target::Enemy)
            && (!matches!(self.primitive, Primitive::Place | Primitive::Drop | Primitive::Jump { .. }) || self.enters_hitting())
    }

    /// A drop onto a track that may land on an enemy piece and hit it (`to empty or enemy`).
    pub fn enters_hitting(&self) -> bool {
        self.primitive == Primitive::Drop && self.by_roll.is_some() && self.target == Target::Any
    }

    /// Does this clause move only as the generator of track games plays it (bearing off from
    /// home, overshooting, entering at the track's start or hitting, moving on some numbers)?
    pub fn runs_the_race(&self) -> bool {
        self.bear_home.is_some() || self.overshoot || self.at_start || self.on_roll.is_some() || self.enters_hitting()
    }

    /// The offsets (file, rank) a clause that moves a piece may land on from its start, on an open
    /// board no wider or taller than `span`; `None` for a clause that lands anywhere (`fly`). Empty
    /// for clauses that do not move a piece by offsets (placements, drops, jumps: their moves are
    /// told apart by what they pass over).
    pub fn offsets(&self, span: i32) -> Option<Vec<(i32, i32)>> {
        let along = |dirs: &[(i32, i32)], ks: std::ops::RangeInclusive<i32>| -> Vec<(i32, i32)> {
            dirs.iter().flat_map(|d| ks.clone().map(move |k| (d.0 * k, d.1 * k))).collect()
        };
        Some(match &self.primitive {
            Primitive::Step { dirs, distance } => along(dirs, *distance as i32..=*distance as i32),
            Primitive::Slide { dirs, max } => along(dirs, 1..=max.map_or(span, |m| (m as i32).min(span))),
            Primitive::Leap { offsets } => offsets.iter().map(|o| o.0).collect(),
            Primitive::Hop { dirs, .. } => along(dirs, 2..=span),
            Primitive::Fly | Primitive::Run { .. } => return None,
            Primitive::Place | Primitive::Drop | Primitive::Jump { .. } => Vec::new(),
        })
    }

    /// May this clause and `other` (of the same piece) give the same move, from one square to
    /// another? Their landing squares (by target) and their offsets must meet.
    pub fn may_overlap(&self, other: &Form, span: i32) -> bool {
        use Target::*;
        let disjoint = |a: Target, b: Target| matches!((a, b), (Empty, Enemy) | (Enemy, Empty) | (Enemy, EnPassant) | (EnPassant, Enemy));
        if disjoint(self.target, other.target) {
            return false;
        }
        match (self.offsets(span), other.offsets(span)) {
            (Some(a), Some(b)) => a.iter().any(|o| b.contains(o)),
            (None, Some(o)) | (Some(o), None) => !o.is_empty(),
            (None, None) => true,
        }
    }

    /// Does a move this clause gives do what the same move given by `other` does? Everything but
    /// how the piece gets there and when the clause applies must agree.
    pub fn same_effects(&self, other: &Form) -> bool {
        let bare = |f: &Form| Form {
            primitive: Primitive::Fly,
            target: Target::Any,
            from: None,
            within: None,
            unmoved: false,
            when: None,
            during: None,
            cite: None,
            text: String::new(),
            ..f.clone()
        };
        bare(self) == bare(other)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Promotion {
    pub zone: BySide<SquareSet>,
    pub choices: Vec<KindId>,
    /// A continuing move stops where the piece promotes.
    pub ends_move: bool,
    /// A continuing capture goes on as the promoted kind from where the piece promotes.
    pub at_once: bool,
    /// The piece may also stay as it is (except in `forced`).
    pub optional: bool,
    /// Where promotion is not optional (per side).
    pub forced: Option<BySide<SquareSet>>,
    /// A move that starts in the zone may promote too.
    pub leaving: bool,
    pub cite: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Castle {
    pub partner: KindId,
    pub distance: u32,
    pub cite: Option<String>,
    pub unmoved: Option<Option<String>>,
    pub partner_unmoved: Option<Option<String>>,
    pub empty_between: Option<Option<String>>,
    pub not_in_check: Option<Option<String>>,
    pub path_safe: Option<Option<String>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Kind {
    pub name: String,
    /// The FEN letter of the first player's piece (uppercase); the second player's is lowercase.
    pub letter: char,
    /// Written `+` and the letter (`+P`): a promoted kind that shares the letter of the kind it
    /// promotes from.
    pub plus: bool,
    pub royal: bool,
    /// Belongs to no player: never moves by itself, is never captured, and blocks every line; a
    /// turn's later part puts it on the board (a duck, a hole). Its FEN letter is the same for
    /// everyone (`*`).
    pub neutral: bool,
    /// Written without its letter in SAN (the chess pawn).
    pub unlettered: bool,
    /// What the board draws, per side (defaults to the FEN letters).
    pub glyphs: [String; 2],
    /// The letter move notations (SAN, WXF) use: the FEN letter unless `written` says otherwise.
    pub written: char,
    pub forms: Vec<Form>,
    pub promotion: Option<Promotion>,
    pub castles: Vec<Castle>,
    /// `captured only when surrounded ...`: never taken in an enclosed run, only when surrounded.
    pub surround: Option<Surround>,
}

impl Kind {
    /// What the board draws for `side`'s piece: a third side and later draw the first's glyph (in
    /// their own colour).
    pub fn glyph(&self, side: Side) -> &str {
        &self.glyphs[if side.index() < 2 { side.index() } else { 0 }]
    }
}

/// `captured only when surrounded along DIRS, or against ZONE, or against the edge`.
#[derive(Clone, Debug, PartialEq)]
pub struct Surround {
    pub dirs: Vec<(i32, i32)>,
    /// Empty squares of this zone (per side of the piece's owner's enemy) count as surrounding.
    pub against: Option<BySide<SquareSet>>,
    /// Off the board counts as surrounding.
    pub edge: bool,
    pub cite: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// The side to move loses.
    ToMoveLoses,
    /// The side to move wins.
    ToMoveWins,
    /// The player who made the last move loses.
    MoverLoses,
    /// The player who made the last move wins.
    MoverWins,
    /// The player who made the last move finishes: among more than two players it takes the next
    /// place from the top and leaves the turn (see [`Verdict::puts_out`]); between two it wins.
    MoverFinishes,
    /// The player with more pieces on the board wins; equal counts draw.
    MostPieces,
    CheckerLoses,
    /// The side that chased throughout the repetition loses (`chasing side loses`).
    ChaserLoses,
    ClaimableDraw,
    Draw,
    /// Count stones plus empty points surrounded by one side (shared points halved); `komi` is added
    /// to the second player's count.
    ScoreByArea {
        komi: f64,
    },
    /// The game ends without a result.
    NoResult,
    /// This player wins (`wins`) or loses.
    Player {
        side: Side,
        wins: bool,
    },
    /// The higher total of points wins (the table is [`Rules::points`] at this index).
    Points(usize),
}

impl Verdict {
    /// Among `sides` players, does this verdict put a side out of the game rather than end it:
    /// `mover finishes` (the next place from the top), `side to move loses` or `mover loses` (the
    /// next from the bottom)? Only among more than two; the last side left takes the last place.
    pub fn puts_out(&self, rules: &Rules) -> bool {
        rules.players.len() > 2
            && rules.teams.is_empty()
            && matches!(self, Verdict::MoverFinishes | Verdict::ToMoveLoses | Verdict::MoverLoses)
    }
}

/// `highest points wins, points KIND N, ...`: what a verdict by points counts.
#[derive(Clone, Debug, PartialEq)]
pub struct PointsTable {
    /// Per kind, its points (0 for kinds not named).
    pub values: Vec<f64>,
    /// A player's bonus.
    pub bonus: Option<(Side, f64)>,
    /// Who equal totals go to (`None`: a draw).
    pub tie: Option<Side>,
}

impl PointsTable {
    /// Each player's total in a position whose pieces, by side, are `material` (kinds).
    pub fn totals(&self, material: &[Vec<KindId>; 2]) -> [f64; 2] {
        let mut t = [0.0; 2];
        for s in 0..2 {
            t[s] = material[s]
                .iter()
                .map(|k| self.values.get(k.0 as usize).copied().unwrap_or(0.0))
                .sum();
        }
        if let Some((side, b)) = self.bonus {
            t[side.index()] += b;
        }
        t
    }
}

/// A later part of a turn: after the move of a piece, a choice the mover makes (`then ...`).
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub action: PartAction,
    /// `may`: the mover may leave it out.
    pub optional: bool,
    /// The part is there only when this holds after the turn so far.
    pub condition: Option<PartCondition>,
    /// Only onto (or from) these squares, per side.
    pub within: Option<BySide<SquareSet>>,
    /// Only squares a slide along these directions from the moved piece's landing square reaches.
    pub along: Option<Vec<(i32, i32)>>,
    pub cite: Option<String>,
    /// The part as written, for explanations.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PartAction {
    /// A piece of this kind (neutral, or the mover's own) onto an empty square; `moving`: the one
    /// on the board leaves its square.
    Place { kind: KindId, moving: bool },
    /// An enemy piece leaves the board; `row_safe`: except pieces standing in a row of that many
    /// along those directions, unless every enemy piece does.
    Remove { row_safe: Option<(u32, Vec<(i32, i32)>)> },
    /// A piece of one of these kinds from the mover's hand onto a square the move left empty
    /// (gating); `unmoved`: only where the piece that left it had not moved before.
    Gate { kinds: Vec<KindId>, unmoved: bool },
}

#[derive(Clone, Debug, PartialEq)]
pub enum PartCondition {
    /// The turn so far made a row of at least `n` of the mover's pieces along one of the
    /// directions, through the square the piece landed on.
    MadeRow { n: u32, dirs: Vec<(i32, i32)> },
    /// The turn's move captured.
    Captured,
}

/// Which earlier positions a move may not recreate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// The board before the opponent's last move (simple ko).
    Ko,
    /// Any earlier board (positional superko).
    Positional,
    /// Any earlier board with the same side to move (situational superko).
    Situational,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MaterialPattern {
    /// Exact multisets of kinds for the two sides (either way round).
    pub a: Vec<KindId>,
    pub b: Vec<KindId>,
    /// All pieces of this kind stand on squares of one colour.
    pub same_colour: Option<KindId>,
}

impl MaterialPattern {
    /// The most pieces on the board any of `patterns` allows: with more, none fits.
    pub fn most_pieces(patterns: &[MaterialPattern]) -> u32 {
        patterns.iter().map(|p| (p.a.len() + p.b.len()) as u32).max().unwrap_or(0)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    NoLegalMove,
    InCheck,
    /// The position has occurred this many times.
    Repetition(u32),
    /// This many moves by each side (2n plies) without a capture or a move of the kind.
    Counter {
        plies: u32,
        resetting_kind: Option<KindId>,
    },
    Material(Vec<MaterialPattern>),
    /// None of these kinds is left on the board.
    NoneOf(Vec<KindId>),
    /// In the repetition cycle, one side gave check with every move and the other did not.
    CheckingThroughout,
    /// In the repetition cycle, one side chased (as [`Rules::chase`] defines it) with every move
    /// and the other did not.
    ChasingThroughout,
    /// The last moves were this many passes in a row.
    Passes(u32),
    /// The side to move's flag fell: its time ran out under the game's clock.
    FlagFallen,
    /// The mover has `n` (exactly `n`, when `exact`) pieces in a row along one of the directions.
    InARow {
        n: u32,
        exact: bool,
        dirs: Vec<(i32, i32)>,
    },
    /// The last move captured a piece (of this kind).
    Captured(Option<KindId>),
    /// The side to move has no piece (of this kind) left.
    NoneLeft(Option<KindId>),
    /// A chain of the mover's adjacent pieces touches at least `need` of the mover's zones.
    Connects {
        zones: Vec<BySide<SquareSet>>,
        need: usize,
    },
    /// Neither player has a move other than a pass.
    NeitherCanMove,
    /// No series of legal moves leads this player (either player, for [`Contender::Either`]) to a
    /// position an end rule scores as its win: proved by [`crate::game::Position::winnability`].
    CannotWin(Contender),
    /// A piece of the mover's of this kind stands in the mover's zone.
    KindIn(KindId, BySide<SquareSet>),
    /// A count of one player compared with a number.
    Compare {
        count: CountOf,
        whose: Whom,
        op: Cmp,
        value: i64,
    },
    /// Every piece of the player is in one group, each next to another along the directions.
    AllConnected {
        whose: Whom,
        dirs: Vec<(i32, i32)>,
    },
    /// The player's pieces enclose a cell that no path through other cells joins to the board's edge.
    Ring(Whom),
    /// Two royals face each other along one of the directions with nothing between.
    RoyalsFacing(Vec<(i32, i32)>),
    /// The game is in one of these phases (a bit per phase).
    During(u32),
}

/// What a comparison counts.
#[derive(Clone, Debug, PartialEq)]
pub enum CountOf {
    /// A declared count (an index into [`Rules::counts`]).
    Declared(usize),
    /// The player's pieces on the board (of a kind; in the player's part of a zone).
    Pieces {
        kind: Option<KindId>,
        zone: Option<BySide<SquareSet>>,
    },
}

/// Whose count a comparison reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whom {
    /// The player who made the last move.
    Mover,
    /// The player to move.
    ToMove,
    /// This player.
    Player(Side),
}

impl Whom {
    /// The player meant, when `stm` is to move and `mover` made the last move (the same side
    /// after a move that earned another turn; among more than two, not always the one before).
    pub fn side(self, stm: Side, mover: Side) -> Side {
        match self {
            Whom::Mover => mover,
            Whom::ToMove => stm,
            Whom::Player(s) => s,
        }
    }
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Ge,
    Le,
    Gt,
    Lt,
}

impl Cmp {
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Ge => a >= b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Lt => a < b,
        }
    }
    /// As written in a rule.
    pub fn text(self) -> &'static str {
        match self {
            Cmp::Eq => "is",
            Cmp::Ne => "is not",
            Cmp::Ge => ">=",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Lt => "<",
        }
    }
}

/// `count NAME = START, plus N for each EVENT`: a number each player has, kept in the position.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    pub name: String,
    pub start: i64,
    /// Each change: the amount (negative for `less`) per event.
    pub changes: Vec<(i64, TallyEvent)>,
    pub cite: Option<String>,
}

/// What changes a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TallyEvent {
    /// The player's turn left the other player in check.
    CheckGiven,
    /// Each piece (of this kind) the player's turn captured.
    Captured(Option<KindId>),
    /// Each turn the player made.
    Turn,
    /// Each piece the player's turn bore off (took off the board past its track's end).
    BorneOff,
}

/// `phase NAME [until ...]`: a stage of the game; clauses `during` it apply only then.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    pub name: String,
    /// What ends it, checked after each turn (`None`: the last phase).
    pub until: Option<PhaseEnd>,
    pub cite: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PhaseEnd {
    /// Neither player holds a piece in hand.
    HandsEmpty,
    /// All these conditions hold (as in an end rule).
    Conditions(Vec<Condition>),
}

/// The most phases a ruleset may declare.
pub const MAX_PHASES: usize = 8;

/// The most counts a ruleset may declare.
pub const MAX_TALLIES: usize = 4;
/// The bounds of a count's value.
pub const TALLY_MIN: i64 = -10_000;
pub const TALLY_MAX: i64 = 10_000;

/// Whose win a [`Condition::CannotWin`] rules out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Contender {
    /// Neither player can win.
    Either,
    /// The player who made the last move.
    Mover,
    /// The player to move.
    ToMove,
}

impl Contender {
    /// The players whose win is ruled out, when `stm` is to move.
    pub fn sides(self, stm: Side) -> Vec<Side> {
        match self {
            Contender::Either => vec![Side::FIRST, Side::SECOND],
            Contender::Mover => vec![stm.other()],
            Contender::ToMove => vec![stm],
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EndRule {
    /// The reason code reported (`checkmate`, `fifty-move-rule`).
    pub reason: String,
    pub conditions: Vec<Condition>,
    pub verdict: Verdict,
    pub cite: Option<String>,
}

/// `captures go to hand`.
#[derive(Clone, Debug, PartialEq)]
pub struct Hand {
    /// A promoted piece goes to the hand as the kind it promoted from.
    pub demote: bool,
    /// `captures go back to hand`: a captured piece goes back to its owner's hand (a race game's
    /// hit), not to the captor's.
    pub back: bool,
    pub cite: Option<String>,
}

/// `chase { ... }`: what counts as chasing a piece, for the end condition `one side chasing
/// throughout`. A move chases an enemy piece when, after it, one of the mover's pieces could capture
/// that piece and could not before (a new attack), the piece is no royal (that is check), and nothing
/// could take back on its square after the capture (it is unprotected) — except as the clauses say.
#[derive(Clone, Debug, PartialEq)]
pub struct ChaseRule {
    /// `never KINDS [within ZONE]`: pieces of these kinds (standing in the zone of their own side,
    /// when one is given) are never chased.
    pub never: Vec<(KindId, Option<BySide<SquareSet>>)>,
    /// `never by KINDS`: attacks by these kinds are never chases.
    pub never_by: Vec<KindId>,
    /// `even protected KINDS by KINDS`: an attack on a victim of the first kinds by an attacker of
    /// the second is a chase even when the victim is protected.
    pub even_protected: Vec<(Vec<KindId>, Vec<KindId>)>,
    /// `not an exchange`: a victim of the attacker's own kind that could capture the attacker back
    /// is offered an exchange, not chased.
    pub exchanges_allowed: bool,
    /// `checks count`: a move that gives check counts as a move of the chase (one check, one chase).
    pub checks_count: bool,
    pub cite: Option<String>,
}

/// `captures explode[, sparing KINDS]`: a capture also removes the capturing piece and every piece
/// next to the square it lands on, except the kinds spared. Under `forbid royal attacked`, a royal
/// is attacked only by a capture that would not blow up the attacker's own royal (so a royal next
/// to the enemy's is never attacked), a move may not blow up the mover's own royal, and a move
/// that blows up every enemy royal is legal whatever it leaves attacked.
#[derive(Clone, Debug, PartialEq)]
pub struct Explosion {
    pub sparing: Vec<KindId>,
    pub cite: Option<String>,
}

/// `must capture`.
#[derive(Clone, Debug, PartialEq)]
pub struct MustCapture {
    /// Only the moves that capture the most pieces.
    pub most: bool,
    pub cite: Option<String>,
}

/// How game records write moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// From and to squares: `e2e4`, `h3e3`.
    #[default]
    Coordinates,
    /// Standard algebraic notation: `Nf3`, `O-O`, `exd8=Q+`.
    San,
    /// WXF (xiangqi): piece, file counted from the mover's right, direction, destination: `C2.5`.
    Wxf,
    /// Points (race games, as backgammon writes them): the mover's track numbered from its end,
    /// `13/8`, `bar/22`, `6/off`, a hit `13/8*`, the roll `5-3:`.
    Points,
}

/// A format a game's records are kept in: what a tool may export the game as (`records pgn`).
///
/// Not [`crate::notation::record::Format`], which names what a record being *read* is written in
/// (a WXF file among them): this is what the ruleset says its games are *kept* as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// PGN: tag pairs and the moves in the ruleset's notation (SAN, WXF or coordinates).
    Pgn,
    /// SGF (FF[4]): the record of a game that places stones and captures chains, as go's are kept.
    Sgf,
}

impl RecordFormat {
    /// Every format, with the name a ruleset writes it by (`records pgn`).
    pub const ALL: [(&'static str, RecordFormat); 2] = [("pgn", RecordFormat::Pgn), ("sgf", RecordFormat::Sgf)];

    /// The name a ruleset writes, which is also the file extension (`pgn`, `sgf`).
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "pgn",
            RecordFormat::Sgf => "sgf",
        }
    }

    /// The formats of a ruleset without a `records` clause: PGN where moves are written in a
    /// notation players keep records in (SAN, WXF), SGF where the game captures chains (the
    /// criterion of [`crate::game::Position::chain_game`], which is `after each move capture
    /// chains without liberties`), both where both hold, and none otherwise: a game written in
    /// bare coordinates has no record format its players would recognise, so it declares one.
    pub fn derived(notation: Notation, captures_chains: bool) -> Vec<RecordFormat> {
        let mut out = Vec::new();
        if matches!(notation, Notation::San | Notation::Wxf) {
            out.push(RecordFormat::Pgn);
        }
        if captures_chains {
            out.push(RecordFormat::Sgf);
        }
        out
    }
}

/// A checked ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub name: String,
    /// The sides in play, in turn order (2 to [`MAX_SIDES`]).
    pub players: Vec<Player>,
    /// How each side sees the board.
    pub seating: Seating,
    /// The FEN letters of the players declared but not in play (see `play ... when`).
    pub absent: Vec<String>,
    pub board: Board,
    pub kinds: Vec<Kind>,
    /// `forbid royal attacked`, with its citation.
    pub royal_safety: Option<Option<String>>,
    /// `forbid royals facing along ...`: directions, citation.
    pub royals_facing: Option<(Vec<(i32, i32)>, Option<String>)>,
    /// `allow pass`, with its citation.
    pub pass: Option<Option<String>>,
    /// `allow pass when no other move`: a pass only when nothing else is legal.
    pub pass_only_when_stuck: bool,
    /// `allow swap` (and its parameter is not 0): the second player's first move may take over the
    /// first player's piece, mirrored across the long diagonal.
    pub swap: Option<Option<String>>,
    /// `captures go to hand`: captured pieces join the captor's hand; `demote`: a promoted piece
    /// as the kind it promoted from.
    pub hand: Option<Hand>,
    /// `must capture [the most]`.
    pub must_capture: Option<MustCapture>,
    /// `captures explode`.
    pub explosion: Option<Explosion>,
    /// The tables of the verdicts by points (see [`Verdict::Points`]).
    pub points: Vec<PointsTable>,
    /// `after each move capture chains without liberties`, with its citation.
    pub chain_capture: Option<Option<String>>,
    /// `forbid suicide`, with its citation.
    pub suicide_forbidden: Option<Option<String>>,
    /// `forbid repetition ...`, with its citation.
    pub repetition_forbidden: Option<(RepetitionRule, Option<String>)>,
    /// `chase { ... }`: what `one side chasing throughout` counts as a chase.
    pub chase: Option<ChaseRule>,
    /// `turn { move  then ... }`: the later parts of every turn (none: a turn is one move).
    pub turn: Vec<Part>,
    /// `count ...`: numbers each player has, kept in the position.
    pub counts: Vec<Tally>,
    /// `phase ...`: the stages of the game, in order (none: one stage throughout).
    pub phases: Vec<Phase>,
    pub end_rules: Vec<EndRule>,
    /// The setup position, as read from the `setup` line (with a handicap's stones on their
    /// points); [`crate::game::Engine::start`] turns it into a position.
    pub setup: Setup,
    /// Parameter values in force, for display.
    pub params: Vec<(String, String)>,
    /// How game records write moves.
    pub notation: Notation,
    /// The formats the game's records are kept in, in the order declared: what a tool may export
    /// the game as (empty: none). Resolved when the ruleset is checked: the `records` clause, or
    /// without one [`RecordFormat::derived`] from the notation and whether chains are captured.
    pub records: Vec<RecordFormat>,
    /// The prefix of citations (`FIDE`).
    pub cite_prefix: Option<String>,
    /// The named time controls of the `clock` section, in order (`--clock NAME`).
    pub clocks: Vec<crate::clock::TimeControl>,
    /// The named zones and their squares for each player, by name (for showing them: the
    /// compiled rules carry each zone where it is used).
    pub zones: Vec<(String, BySide<SquareSet>)>,
    /// `roll ...`: the chance event that starts every turn (none: a game without chance).
    pub roll: Option<Roll>,
    /// `track ...`: the squares pieces run along, in order, per player.
    pub tracks: Vec<Track>,
    /// `another turn after ...`: when the player who moved moves again.
    pub again: Vec<Again>,
    /// `pieces stack`, `must enter from hand first`, `must use the most dice`.
    pub race: Race,
    /// `teams red + yellow, blue + green`: each side's team (0 or 1), in the order of
    /// [`Rules::players`]; empty where every side plays for itself.
    pub teams: Vec<u8>,
    /// The citation of `teams`.
    pub teams_cite: Option<String>,
}

/// The rules of race games that count pieces and dice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Race {
    /// `pieces stack`: any number of one player's pieces share a square.
    pub stack: Option<Stack>,
    /// `must enter from hand first`: while a player has pieces in hand, only they move (the
    /// citation, if any).
    pub enter_first: Option<Option<String>>,
    /// `must enter from hand when it can`: only where a piece can enter do the others wait.
    pub enter_when_can: Option<Option<String>>,
    /// `must move from the start of TRACK first` (the track's index, the citation): while a
    /// player has pieces in hand, its piece on the track's first square moves first, where it can.
    pub start_first: Option<(usize, Option<String>)>,
    /// `must use the most dice`.
    pub most_dice: Option<MostDice>,
}

impl Race {
    /// Does the game need the generator of track games (stacks, dice used one by one, pieces
    /// that must enter first)?
    pub fn any(&self) -> bool {
        self.stack.is_some()
            || self.enter_first.is_some()
            || self.enter_when_can.is_some()
            || self.start_first.is_some()
            || self.most_dice.is_some()
    }
}

/// `pieces stack[, N or more block]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    /// A square this many enemy pieces hold is closed (`None`: any enemy stack may be hit whole).
    pub block: Option<u32>,
    pub cite: Option<String>,
}

/// `must use the most dice[, else the higher]`.
#[derive(Clone, Debug, PartialEq)]
pub struct MostDice {
    /// When only one of two different numbers can be used, the higher must be where it can.
    pub higher: bool,
    pub cite: Option<String>,
}

/// The most dice a roll used one by one may throw.
pub const MAX_DICE_APART: i64 = 4;

/// How a die's number is packed into a roll's result where the dice are used one by one: each
/// die takes this many bits, the highest die first (see [`Roll::dice`]).
const DIE_BITS: u32 = 7;

/// `another turn after ...`: what earns the player who moved another turn.
#[derive(Clone, Debug, PartialEq)]
pub enum Again {
    /// A move that lands a piece on one of these squares (per player).
    Landing(BySide<SquareSet>, Option<String>),
    /// A move by a roll that showed one of these numbers.
    Rolling(Vec<u32>, Option<String>),
}

/// The most results a roll may have (each a child of a chance node, and a key in the hash).
pub const MAX_ROLL_RESULTS: usize = 64;
/// The most dice (or coins) one roll throws.
pub const MAX_DICE: i64 = 8;
/// The most faces a die may have.
pub const MAX_FACES: i64 = 100;
/// The largest number a roll may show.
pub const MAX_ROLL_VALUE: i64 = 1000;

/// `roll ...`: what a turn's chance event may give, and how likely each result is.
#[derive(Clone, Debug, PartialEq)]
pub struct Roll {
    /// Each result: the number shown and its weight (its chance is the weight over the weights'
    /// sum), numbers ascending, each once, weights above 0. At most [`MAX_ROLL_RESULTS`].
    pub results: Vec<(u32, u64)>,
    /// The roll as written (`2 dice of 6 summed`), for explanations.
    pub text: String,
    pub cite: Option<String>,
    /// `used one by one`: each result's number packs its dice (see [`Roll::dice`]), and each die
    /// is a part of the turn.
    pub apart: Option<Apart>,
}

/// `N dice of S used one by one[, doubles twice]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Apart {
    pub dice: u32,
    pub faces: u32,
    /// When every die shows the same number, each is used twice.
    pub doubles_twice: bool,
}

impl Roll {
    /// The sum of the weights: a result's chance is its weight over this.
    pub fn total(&self) -> u64 {
        self.results.iter().map(|r| r.1).sum()
    }
    /// The index among [`Roll::results`] of the result showing `value`.
    pub fn index_of(&self, value: u32) -> Option<usize> {
        self.results.iter().position(|r| r.0 == value)
    }
    /// Packs dice (any order) into a result's number: highest first.
    pub fn pack(dice: &[u32]) -> u32 {
        let mut d = dice.to_vec();
        d.sort_unstable_by(|a, b| b.cmp(a));
        d.iter().fold(0, |acc, &x| acc << DIE_BITS | x)
    }
    /// A result's dice, highest first (the number itself where the dice are summed).
    pub fn dice(&self, value: u32) -> Vec<u32> {
        if self.apart.is_none() {
            return vec![value];
        }
        let mut out = Vec::new();
        let mut v = value;
        while v != 0 {
            out.push(v & ((1 << DIE_BITS) - 1));
            v >>= DIE_BITS;
        }
        out.reverse();
        out
    }
    /// A result as written: `5`, or its dice `5-3` where they are used one by one.
    pub fn show(&self, value: u32) -> String {
        self.dice(value).iter().map(u32::to_string).collect::<Vec<_>>().join("-")
    }
    /// The result `text` names (`5`, or `5-3` / `3-5` where the dice are used one by one).
    pub fn read(&self, text: &str) -> Option<u32> {
        let v = match self.apart {
            Some(a) => Roll::pack(&self.read_dice(text).filter(|d| d.len() <= a.dice as usize)?),
            None => text.trim().parse().ok()?,
        };
        self.index_of(v).map(|_| v)
    }
    /// The dice a side may still have to use, as a FEN's roll field writes them (`5-3` after the
    /// roll, `3` once the 5 is used, `4-4-4` partway through a double used twice), packed; for a
    /// summed roll, a result's number.
    pub fn read_left(&self, text: &str) -> Option<u32> {
        let Some(a) = self.apart else { return self.read(text) };
        let dice = self.read_dice(text)?;
        let n = dice.len() as u32;
        let double = dice.iter().all(|&d| d == dice[0]);
        (n <= a.dice || (a.doubles_twice && double && n <= 2 * a.dice)).then(|| Roll::pack(&dice))
    }
    /// Dice written `5-3`: at least one, each a face of the roll's dice.
    fn read_dice(&self, text: &str) -> Option<Vec<u32>> {
        let faces = self.apart?.faces;
        let dice: Vec<u32> = text
            .split('-')
            .map(|d| d.trim().parse::<u32>().ok().filter(|&d| (1..=faces).contains(&d)))
            .collect::<Option<_>>()?;
        (!dice.is_empty()).then_some(dice)
    }
    /// The results, as written (`1, 2, 3` or `1-1, 2-1, ...`).
    pub fn shown_results(&self) -> String {
        self.results.iter().map(|r| self.show(r.0)).collect::<Vec<_>>().join(", ")
    }
}

/// `track NAME = SQUARES`: the squares a player's pieces run along, in order, per player.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    pub name: String,
    pub squares: BySide<Vec<usize>>,
}

impl Rules {
    /// Who wins when `side` loses: the other player between two; among teams, the first side of
    /// the other team (its partner wins with it: see [`Rules::team_places`]).
    pub fn rival(&self, side: Side) -> Side {
        match self.teams.get(side.index()) {
            Some(&t) => Side(self.teams.iter().position(|&u| u != t).unwrap_or(0) as u8),
            None => side.other(),
        }
    }

    /// Among teams, each side's place when `winner` won: 1 for its team, 2 for the other.
    pub fn team_places(&self, winner: Option<Side>) -> Option<Vec<u8>> {
        let w = *self.teams.get(winner?.index())?;
        Some(self.teams.iter().map(|&t| if t == w { 1 } else { 2 }).collect())
    }

    /// The sides of `side`'s team (itself alone where there are no teams), in turn order.
    pub fn team_of(&self, side: Side) -> Vec<Side> {
        match self.teams.get(side.index()) {
            Some(&t) => (0..self.teams.len())
                .filter(|&s| self.teams[s] == t)
                .map(|s| Side(s as u8))
                .collect(),
            None => vec![side],
        }
    }

    /// The sides in play, in turn order.
    pub fn sides_in_play(&self) -> impl Iterator<Item = Side> + use<> {
        (0..self.players.len()).map(|s| Side(s as u8))
    }
    /// A citation as shown to users: `FIDE 3.8.2`. A citation that starts with a word names its
    /// own source (`[Crazyhouse 2]` in a ruleset citing FIDE) and takes no prefix.
    pub fn citation(&self, cite: &Option<String>) -> Option<String> {
        cite.as_ref().map(|c| match &self.cite_prefix {
            Some(p) if !c.starts_with(|ch: char| ch.is_alphabetic()) => format!("{p} {c}"),
            _ => c.clone(),
        })
    }
    /// The formats a tool may export this game as ([`Rules::records`]), in the ruleset's order;
    /// empty when the game keeps no records (`records none`, or nothing to derive one from).
    pub fn record_formats(&self) -> &[RecordFormat] {
        &self.records
    }
    pub fn kind_by_letter(&self, c: char) -> Option<(KindId, Side)> {
        let up = c.to_ascii_uppercase();
        let k = self.kinds.iter().position(|k| k.letter == up && !k.plus && !k.neutral)?;
        Some((KindId(k as u8), if c.is_ascii_uppercase() { Side::FIRST } else { Side::SECOND }))
    }
    pub fn letter(&self, kind: KindId, side: Side) -> char {
        let l = self.kinds[kind.0 as usize].letter;
        if side == Side::FIRST { l } else { l.to_ascii_lowercase() }
    }
    /// Do the players keep hands: do captures go to hand, or does any piece come from one (a
    /// drop, a turn's part that drops on the square a move left)? FEN then writes the hands.
    pub fn keeps_hands(&self) -> bool {
        self.hand.is_some()
            || self.kinds.iter().any(|k| k.forms.iter().any(|f| f.primitive == Primitive::Drop))
            || self.turn.iter().any(|p| matches!(p.action, PartAction::Gate { .. }))
    }
    /// The squares a turn's drop on the square a move left may use, per side (its `within`).
    pub fn gate_zone(&self) -> Option<&BySide<SquareSet>> {
        self.turn.iter().find_map(|p| match p.action {
            PartAction::Gate { .. } => p.within.as_ref(),
            _ => None,
        })
    }
    /// The neutral kind written with this letter (the same for everyone).
    pub fn neutral_by_letter(&self, c: char) -> Option<KindId> {
        let up = c.to_ascii_uppercase();
        self.kinds.iter().position(|k| k.neutral && k.letter == up).map(|k| KindId(k as u8))
    }
    /// The kind written `+` and this letter, and its side.
    pub fn kind_by_plus_letter(&self, c: char) -> Option<(KindId, Side)> {
        let up = c.to_ascii_uppercase();
        let k = self.kinds.iter().position(|k| k.letter == up && k.plus)?;
        Some((KindId(k as u8), if c.is_ascii_uppercase() { Side::FIRST } else { Side::SECOND }))
    }
    /// The komi of the ruleset's count by area, where it has one: in a handicap game the
    /// compensation the ruleset gives instead (`white receives handicap instead of komi`).
    pub fn area_komi(&self) -> Option<f64> {
        self.end_rules.iter().find_map(|r| match r.verdict {
            Verdict::ScoreByArea { komi } => Some(komi),
            _ => None,
        })
    }
    /// The kind a piece's text names, as FEN writes it (`P`, `p`, `+P`), and its side by case.
    pub fn kind_by_text(&self, text: &str) -> Option<(KindId, Side)> {
        let mut chars = text.chars();
        let found = match chars.next()? {
            '+' => self.kind_by_plus_letter(chars.next()?),
            c => self.kind_by_letter(c),
        };
        chars.next().is_none().then_some(found?)
    }
    /// FEN writes each piece as its side's letter and its kind's (`rM`): in a game declared for more
    /// than two players, however many play.
    pub fn sided_fen(&self) -> bool {
        self.players.len() > 2 || !self.absent.is_empty()
    }
    /// How FEN writes a piece: its letter, after `+` for a promoted kind that has one; with more
    /// than two players declared, its side's letter and its kind's.
    pub fn fen_text(&self, kind: KindId, side: Side) -> String {
        if self.sided_fen() {
            return format!("{}{}", self.players[side.index()].fen, self.kind(kind).letter);
        }
        let l = self.letter(kind, side);
        if self.kind(kind).plus { format!("+{l}") } else { l.to_string() }
    }
    pub fn kind(&self, k: KindId) -> &Kind {
        &self.kinds[k.0 as usize]
    }
    pub fn side_by_name(&self, name: &str) -> Option<Side> {
        self.players.iter().position(|p| p.name == name).map(|i| Side(i as u8))
    }
}
