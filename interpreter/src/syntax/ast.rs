//! The syntax tree of one `.rules` file: what was written, with spans, before any name is resolved.
//! Knows nothing about any game.

use crate::diag::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `[3.8.2]`
#[derive(Clone, Debug, PartialEq)]
pub struct Cite {
    pub text: String,
    pub span: Span,
}

/// A whole number, or the name of a parameter that holds one, or a sum of products of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Count {
    Int(i64, Span),
    Param(Ident),
    /// `(2 * size - 1)`: terms added (true) or subtracted, each a product of numbers and parameters.
    Expr(Vec<(bool, Vec<Count>)>, Span),
}

impl Count {
    pub fn span(&self) -> Span {
        match self {
            Count::Int(_, s) | Count::Expr(_, s) => *s,
            Count::Param(i) => i.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct StringLit {
    pub value: String,
    pub span: Span,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RulesFile {
    pub items: Vec<Item>,
    /// The keywords of items that could not be read (`board` for a `board 8 y 8 ...` line), so
    /// that the checker does not also report them missing.
    pub unreadable: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Extends(StringLit),
    Game(Game),
    Param(Param),
    Board(Board),
    Zone(ZoneDecl),
    Direction(DirectionDecl),
    Piece(PieceDecl),
    Forbid(Forbid),
    Allow(Allow),
    /// `after each move capture chains without liberties`.
    After(Span, Option<Cite>),
    /// `captures go to hand [, unpromoted]`.
    Hand(HandDecl),
    /// `captures explode[, sparing KINDS]`.
    Explode(ExplodeDecl),
    /// `must capture [the most]`.
    Must(MustDecl),
    /// `chase { ... }`: what counts as a chase.
    Chase(ChaseDecl),
    /// `turn { move  then ... }`: turns of several parts.
    Turn(TurnDecl),
    /// `count NAME = N, plus 1 for each EVENT`: a number each player has.
    Count(CountDecl),
    /// `phase NAME [until ...]`.
    Phase(PhaseDecl),
    End(Vec<EndRule>),
    /// `clock { NAME: STAGE, then STAGE ... }`.
    Clock(Vec<ClockControl>),
    Setup(Setup),
    /// `roll ...`: the chance event that starts every turn.
    Roll(RollDecl),
    /// `track NAME = SQUARES`: the squares pieces run along, in order.
    Track(TrackDecl),
    /// `another turn after ...`: when the player who moved moves again.
    Again(AgainDecl),
    /// `pieces stack`, `must enter from hand first`, `must use the most dice`.
    Race(RaceDecl),
}

/// One of the rules of race games that count pieces and dice.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceDecl {
    pub rule: RaceRule,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RaceRule {
    /// `pieces stack[, N or more block]`.
    Stack { block: Option<(i64, Span)> },
    /// `must enter from hand first`; `when_can`: `must enter from hand when it can`.
    EnterFirst { when_can: bool },
    /// `must move from the start of TRACK first`.
    StartFirst { track: (String, Span) },
    /// `must use the most dice[, else the higher]`.
    MostDice { higher: bool },
}

/// `another turn after landing in ZONE` / `another turn after rolling 6, 5`.
#[derive(Clone, Debug, PartialEq)]
pub struct AgainDecl {
    pub after: AgainAfter,
    pub cite: Option<Cite>,
    pub span: Span,
}

/// What earns another turn.
#[derive(Clone, Debug, PartialEq)]
pub enum AgainAfter {
    /// A move that lands a piece in the zone (seen from the mover).
    Landing(ZoneExpr),
    /// A move by a roll that showed one of these numbers.
    Rolling(Vec<(i64, Span)>),
}

/// `roll 2 dice of 6 summed`, `roll 4 coins summed`, `roll one of 1, 2, 2, 3`.
#[derive(Clone, Debug, PartialEq)]
pub struct RollDecl {
    pub overrides: bool,
    pub what: RollWhat,
    pub cite: Option<Cite>,
    pub span: Span,
}

/// What a roll throws.
#[derive(Clone, Debug, PartialEq)]
pub enum RollWhat {
    /// `N dice of S` (1 to S each) or `N coins` (`faces` None: 0 or 1 each); `summed` where written.
    Dice {
        count: Count,
        faces: Option<Count>,
        summed: Option<Span>,
        /// `used one by one[, doubles twice]`: where written, and whether doubles count twice.
        apart: Option<(Span, bool)>,
    },
    /// `one of 1, 2, 2, 3`: each entry as likely as any other.
    List(Vec<(i64, Span)>),
}

/// `track lane = a1, b1, c1 [for both]`.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackDecl {
    pub overrides: bool,
    pub name: Ident,
    pub squares: Vec<(String, Span)>,
    /// `for both`: the same squares for both players (not mirrored).
    pub both: bool,
    pub cite: Option<Cite>,
    pub span: Span,
}

/// `phase NAME [until each hand is empty | until CONDITIONS]`.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseDecl {
    pub name: Ident,
    /// `None`: the last phase. `Some(vec![])` stands for `each hand is empty`.
    pub until: Option<PhaseEnd>,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PhaseEnd {
    /// `each hand is empty`.
    HandsEmpty(Span),
    /// End conditions, all of which must hold.
    Conditions(Vec<Condition>),
}

/// `count NAME = START, (plus|less) N for each EVENT ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct CountDecl {
    pub name: Ident,
    pub start: Count,
    /// Each change: the amount (negative for `less`), the event, and where it is written.
    pub changes: Vec<(i64, CountEvent, Span)>,
    pub cite: Option<Cite>,
    pub span: Span,
}

/// What changes a count.
#[derive(Clone, Debug, PartialEq)]
pub enum CountEvent {
    /// `check given`.
    CheckGiven,
    /// `capture` (each piece captured).
    Capture,
    /// `KIND captured`.
    KindCaptured(Ident),
    /// `turn`.
    Turn,
    /// `piece borne off`.
    BorneOff,
}

/// `turn [cite] { move [cite]  then ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnDecl {
    /// The citation of the turn as a whole, and of its first part (`move`).
    pub cite: Option<Cite>,
    pub first_cite: Option<Cite>,
    pub parts: Vec<TurnPart>,
    pub span: Span,
}

/// `then [if COND:] [may] ACTION[, OPTION]*`: a later part of a turn.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnPart {
    pub condition: Option<PartCondition>,
    /// `may`: optional.
    pub optional: Option<Span>,
    pub action: PartAction,
    pub options: Vec<PartOption>,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PartCondition {
    /// `if it made N in a row along DIRS:`.
    MadeRow { n: Count, dirs: Vec<Ident>, span: Span },
    /// `if it captured:`.
    Captured(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum PartAction {
    /// `place KIND on empty`.
    Place(Ident, Span),
    /// `remove enemy`.
    Remove(Span),
    /// `drop KIND [or KIND]* on the square it left`.
    Gate(Vec<Ident>, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum PartOption {
    /// `moving it`.
    Moving(Span),
    /// `within ZONE`.
    Within(ZoneExpr),
    /// `if it had not moved`.
    Unmoved(Span),
    /// `not in a row of N along DIRS unless all are`.
    RowSafe { n: Count, dirs: Vec<Ident>, span: Span },
    /// `along DIRS from where it landed`.
    Along(Vec<Ident>, Span),
}

/// One named time control of a `clock` section.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockControl {
    pub overrides: bool,
    pub name: Ident,
    pub stages: Vec<ClockStage>,
    /// `plus 30 s per move`.
    pub increment: Option<Duration>,
    /// `with 5 s delay`.
    pub delay: Option<Duration>,
    pub cite: Option<Cite>,
    pub span: Span,
}

/// A stage: `40 moves in 90 min`, `30 min`, `10 moves in 15 min repeatedly`, or byo-yomi
/// `5 periods of 60 s`.
#[derive(Clone, Debug, PartialEq)]
pub enum ClockStage {
    Time {
        moves: Option<(i64, Span)>,
        time: Duration,
        repeat: bool,
        span: Span,
    },
    Periods {
        count: (i64, Span),
        each: Duration,
        span: Span,
    },
}

impl ClockStage {
    pub fn span(&self) -> Span {
        match self {
            ClockStage::Time { span, .. } | ClockStage::Periods { span, .. } => *span,
        }
    }
}

/// A length of time as written: its value in seconds (NaN if unreadable) and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Duration {
    pub seconds: f64,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HandDecl {
    pub unpromoted: bool,
    /// `captures go back to hand`: to the captured piece's owner, not the captor.
    pub back: bool,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ExplodeDecl {
    /// Kinds the explosion leaves standing.
    pub sparing: Vec<Ident>,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MustDecl {
    /// `must capture the most`: only the moves capturing the most pieces.
    pub most: bool,
    pub cite: Option<Cite>,
    pub span: Span,
}

/// `chase [cite] { ... }`: what `one side chasing throughout` counts as a chase.
#[derive(Clone, Debug, PartialEq)]
pub struct ChaseDecl {
    pub clauses: Vec<ChaseClause>,
    pub cite: Option<Cite>,
    pub span: Span,
}

/// One clause of a `chase` block.
#[derive(Clone, Debug, PartialEq)]
pub enum ChaseClause {
    /// `never KINDS [within ZONE]`: never chased.
    Never(Vec<Ident>, Option<ZoneExpr>, Span),
    /// `never by KINDS`: attacks by these are never chases.
    NeverBy(Vec<Ident>, Span),
    /// `even protected KINDS by KINDS`.
    EvenProtected(Vec<Ident>, Vec<Ident>, Span),
    /// `not an exchange`.
    NotAnExchange(Span),
    /// `checks count`.
    ChecksCount(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub overrides: bool,
    pub name: StringLit,
    pub cite_prefix: Option<StringLit>,
    /// `notation san`: how game records write moves.
    pub notation: Option<Ident>,
    /// `records pgn, sgf`: the formats the game's records are kept in, as written (the checker
    /// reads the names, so an unknown one is reported where it stands).
    pub records: Option<Records>,
    pub players: Vec<Player>,
    pub players_cite: Option<Cite>,
    /// `seated by quarter turns`: how each side sees the board (see [`crate::model::Seating`]).
    pub seating: Option<(crate::model::Seating, Span)>,
    /// `play red, green when players = 2`: the lines choosing who takes part.
    pub plays: Vec<PlayLine>,
    /// `teams red + yellow, blue + green`: the partners (a second clause is reported, not merged).
    pub teams: Vec<Teams>,
    pub span: Span,
}

/// `teams red + yellow, blue + green`: each team's players as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Teams {
    pub teams: Vec<Vec<Ident>>,
    pub cite: Option<Cite>,
    pub span: Span,
}

/// `play red, green when players = 2`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayLine {
    pub sides: Vec<Ident>,
    pub param: Ident,
    pub value: u32,
    pub value_span: Span,
    pub cite: Option<Cite>,
    pub span: Span,
}

/// `records pgn, sgf` (or `records none`). A second `records` clause in the same block adds its
/// formats to the first's, so a format named in both is reported as named twice rather than one
/// clause silently replacing the other.
#[derive(Clone, Debug, PartialEq)]
pub struct Records {
    /// The format names in the order written (`none` among them, if written).
    pub formats: Vec<Ident>,
    pub cite: Option<Cite>,
    /// The first clause, keyword to its last name or citation.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub name: Ident,
    pub fen: Option<StringLit>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    Number(f64, Span),
    Word(Ident),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub overrides: bool,
    pub name: Ident,
    pub value: ParamValue,
    pub range: Option<(f64, f64, Span)>,
    pub doc: Option<StringLit>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub overrides: bool,
    pub width: Count,
    pub height: Count,
    pub points: bool,
    /// `hexes`: cells with six neighbours.
    pub hexes: bool,
    pub cite: Option<Cite>,
    pub files: Option<Names>,
    pub ranks: Option<Names>,
    pub checkered: Option<(String, bool, Span)>,
    pub drawings: Vec<Drawing>,
    /// `cells ZONE`: only these cells exist.
    pub cells: Option<ZoneExpr>,
    pub span: Span,
}

/// How the coordinates along one edge are named.
#[derive(Clone, Debug, PartialEq)]
pub enum Names {
    /// `a..h`, `1..size`, `A.. skip I`.
    Range {
        first: String,
        last: Option<Count>,
        skip: Option<String>,
        span: Span,
    },
    /// `a b c d`.
    List(Vec<String>, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Drawing {
    River { between: (String, String), span: Span },
    Lines { segments: Vec<(String, String)>, span: Span },
    Marks { squares: Vec<String>, span: Span },
    Stars(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ZoneDecl {
    pub overrides: bool,
    pub name: Ident,
    pub expr: ZoneExpr,
    /// `zone goal = rank 11 for red, file k for blue`: the player `expr` is for, and the other
    /// player's own zone and name.
    pub per_player: Option<(Ident, ZoneExpr, Ident)>,
    /// `for both`: the same squares for both players.
    pub both: bool,
    pub cite: Option<Cite>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ZoneExpr {
    pub first: ZoneTerm,
    pub rest: Vec<(bool, ZoneTerm)>, // (is_union, term)
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ZoneTerm {
    Rect(String, String, Span),
    Ranks(String, String, Span),
    Files(String, String, Span),
    All(Span),
    Square(String, Span),
    List(Vec<String>, Span),
    Ref(Ident),
    /// `where LIN OP LIN [and ...]`: squares whose file and rank numbers (from 1) meet every
    /// comparison.
    Where(Vec<(Lin, LinCmp, Lin)>, Span),
}

impl ZoneTerm {
    pub fn span(&self) -> Span {
        match self {
            ZoneTerm::Rect(_, _, s)
            | ZoneTerm::Ranks(_, _, s)
            | ZoneTerm::Files(_, _, s)
            | ZoneTerm::All(s)
            | ZoneTerm::Square(_, s)
            | ZoneTerm::List(_, s)
            | ZoneTerm::Where(_, s) => *s,
            ZoneTerm::Ref(id) => id.span,
        }
    }
}

/// A sum of `file`, `rank`, numbers and parameters, each added or subtracted.
#[derive(Clone, Debug, PartialEq)]
pub struct Lin {
    pub terms: Vec<(bool, LinTerm)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LinTerm {
    File,
    Rank,
    Count(Count),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinCmp {
    Le,
    Ge,
    Lt,
    Gt,
    Eq,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DirectionDecl {
    pub name: Ident,
    /// Offsets written out, each with its span (the checker quotes it as written).
    pub offsets: Vec<(i32, i32, Span)>,
    /// Directions named (built-in or declared earlier).
    pub names: Vec<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PieceDecl {
    pub overrides: bool,
    pub name: Ident,
    pub letter: StringLit,
    pub royal: bool,
    pub unlettered: bool,
    /// `neutral`: belongs to no player.
    pub neutral: Option<Span>,
    pub glyphs: Vec<StringLit>,
    /// The letter move notations use, where it differs from the FEN letter.
    pub written: Option<StringLit>,
    pub cite: Option<Cite>,
    pub forms: Vec<MoveForm>,
    pub promotions: Vec<Promotion>,
    pub castles: Vec<Castle>,
    /// `captured only when surrounded along DIRS, or against ZONE, or against the edge`.
    pub surround: Option<Surround>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Surround {
    pub dirs: Vec<Ident>,
    pub against: Vec<ZoneExpr>,
    pub edge: bool,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Primitive {
    Step {
        dirs: Vec<Ident>,
        distance: Option<(i64, Span)>,
    },
    Slide {
        dirs: Vec<Ident>,
        max: Option<Count>,
    },
    Leap {
        offset: (i32, i32, Span),
        /// The block points (empty: the leap jumps).
        block: Vec<(i32, i32, Span)>,
    },
    Hop {
        dirs: Vec<Ident>,
        screens: Count,
    },
    Place,
    /// `drop`: from the player's hand.
    Drop,
    /// `fly`: to any square of the board.
    Fly,
    /// `move along TRACK by roll`: as many squares on along the track as the roll shows.
    Run {
        track: Ident,
    },
    /// `jump DIRS [over enemy|own|any]`: over an adjacent piece to the empty square beyond.
    Jump {
        dirs: Vec<Ident>,
        over: Option<(JumpOver, Span)>,
        /// `at any distance`.
        far: Option<Span>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpOver {
    Enemy,
    Own,
    Any,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Modifier {
    /// `along TRACK by roll` (a drop): onto the track's square the roll counts to.
    ByRoll(Ident, Span),
    /// `bearing off [once all in ZONE]` (a move along a track by the roll): one square past the
    /// end leaves the board (only while all the player's pieces stand in the zone).
    BearingOff(Option<ZoneExpr>, Span),
    /// `overshooting from the rearmost` (with `bearing off`).
    Overshooting(Span),
    /// `at the start of TRACK` (a drop): onto the track's first square.
    AtStart(Ident, Span),
    /// `on a roll of 6 [or 5]`: only by these numbers.
    OnRoll(Vec<(i64, Span)>, Span),
    ToEmpty(Span),
    /// `to empty or enemy`.
    ToEmptyOrEnemy(Span),
    ToEnemy(Span),
    /// `not KIND | KIND` after a hop's count (`screens`) or after `to enemy` (not the screens).
    KindsNot {
        screens: bool,
        kinds: Vec<Ident>,
        span: Span,
    },
    ToEnPassant(Span),
    From(ZoneExpr),
    Within(ZoneExpr),
    Unmoved(Span),
    MarksEnPassant(Span),
    /// `flipping enclosed along DIRS` (`flip`) or `capturing enclosed [exactly N] along DIRS`.
    Enclosing {
        flip: bool,
        exact: Option<(i64, Span)>,
        dirs: Vec<Ident>,
        span: Span,
    },
    /// `or against ZONE`: its empty squares close an enclosed run.
    EncloseAgainst(ZoneExpr),
    /// `either side up`.
    EitherSide(Span),
    /// `capturing`: a jump removes the piece it jumps over.
    Capturing(Span),
    /// `continuing`: capturing jumps go on while the piece can make one.
    Continuing(Span),
    /// `falling DIR`: gravity.
    Falling(Vec<Ident>, Span),
    /// `only if it flips` (`flips`) / `only if it captures`.
    OnlyIf {
        flips: bool,
        span: Span,
    },
    /// `not on a file with own KIND`.
    NoFileWith(Ident, Span),
    /// `not giving checkmate`.
    NotGivingMate(Span),
    /// `not where it cannot move`.
    NotStuck(Span),
    /// `during PHASE [| PHASE]*`.
    During(Vec<Ident>, Span),
    /// `as many squares as pieces on its line`.
    Counted(Span),
    /// `over own`.
    OverOwn(Span),
    /// `capturing at once`.
    CapturingAtOnce(Span),
    /// `never turning back`.
    NeverBack(Span),
    /// `again at will`: a jump chains as far as the player likes.
    AgainAtWill(Span),
    /// `next to own`.
    NextToOwn(Span),
    /// `flipping neighbours` (`flip`) / `capturing neighbours`.
    Neighbours {
        flip: bool,
        span: Span,
    },
    /// `leaving a copy`.
    LeavingCopy(Span),
    /// `when COUNT of WHOSE OP N`.
    When(Box<Condition>, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub struct MoveForm {
    pub primitive: Primitive,
    pub modifiers: Vec<Modifier>,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Promotion {
    pub zone: ZoneExpr,
    pub kinds: Vec<Ident>,
    /// `, ending the move`: a continuing move stops where the piece promotes.
    pub ends_move: Option<Span>,
    /// `, at once`: a continuing capture goes on as the promoted kind.
    pub at_once: Option<Span>,
    /// `, optionally`: the piece may also stay as it is.
    pub optional: Option<Span>,
    /// `, must on ZONE`: where promotion is not optional.
    pub forced: Option<ZoneExpr>,
    /// `, also leaving it`: a move starting in the zone may promote too.
    pub leaving: Option<Span>,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastleCondKind {
    Unmoved,
    PartnerUnmoved,
    EmptyBetween,
    NotInCheck,
    PathSafe,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CastleCond {
    pub kind: CastleCondKind,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Castle {
    pub partner: Ident,
    pub distance: (i64, Span),
    pub cite: Option<Cite>,
    pub conditions: Vec<CastleCond>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ForbidKind {
    RoyalAttacked,
    RoyalsFacing(Vec<Ident>),
    Suicide,
    Repetition(Ident),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Forbid {
    pub kind: ForbidKind,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Allow {
    pub what: Ident,
    /// `when no other move`.
    pub when_stuck: Option<Span>,
    /// `if PARAM`: only when the parameter is not 0.
    pub if_param: Option<Ident>,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub first: Vec<(char, Span)>,
    pub second: Vec<(char, Span)>,
    pub same_colour: Option<(char, Span)>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    NoLegalMove(Span),
    InCheck(Span),
    Repetition(Count, Span),
    Counter {
        moves: Count,
        /// Counted in turns (any player's), not moves (one of each player's).
        turns: bool,
        resetting_kind: Option<Ident>,
        span: Span,
    },
    Material(Vec<Material>, Span),
    NoneOf(Vec<Ident>, Span),
    CheckingThroughout(Span),
    /// `one side chasing throughout`.
    ChasingThroughout(Span),
    Passes(Count, Span),
    FlagFallen(Span),
    /// `[exactly] N in a row along DIRS`.
    InARow {
        exact: bool,
        n: Count,
        dirs: Vec<Ident>,
        span: Span,
    },
    /// `captured [KIND]`.
    Captured(Option<Ident>, Span),
    /// `no pieces left` (None) / `no KIND left`.
    NoneLeft(Option<Ident>, Span),
    /// `connects [N of] ZONE, ZONE ... and ZONE`: one chain touches all the zones (N of them).
    Connects(Option<Count>, Vec<ZoneExpr>, Span),
    /// `neither side can move`.
    NeitherCanMove(Span),
    /// `neither side can win`, `mover cannot win`, `side to move cannot win`.
    CannotWin(Whose, Span),
    /// `KIND in ZONE`.
    KindIn(Ident, ZoneExpr, Span),
    /// `WHOSE surrounds a cell`.
    Ring(Whom, Span),
    /// `during PHASE [| PHASE]`.
    During(Vec<Ident>, Span),
    /// `royals facing along DIRS`.
    RoyalsFacing(Vec<Ident>, Span),
    /// `all pieces of WHOSE connected [along DIRS]`.
    AllConnected {
        whose: Whom,
        dirs: Vec<Ident>,
        span: Span,
    },
    /// `COUNT [in ZONE] of WHOSE OP N`.
    Compare {
        /// The count's name, a kind's name, or `None` for `pieces`.
        what: Option<Ident>,
        zone: Option<ZoneExpr>,
        whose: Whom,
        op: CmpOp,
        value: Count,
        span: Span,
    },
}

/// Whose count a comparison reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Whom {
    Mover,
    ToMove,
    /// A player, by name.
    Player(Ident),
}

/// A comparison of a count with a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Ge,
    Le,
    Gt,
    Lt,
}

/// Whose win a `cannot win` condition rules out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// `neither side can win`.
    Neither,
    /// `mover cannot win`: the player who made the last move.
    Mover,
    /// `side to move cannot win`.
    ToMove,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    ToMoveLoses,
    ToMoveWins,
    /// The player who made the last move.
    MoverLoses,
    MoverWins,
    /// `mover finishes`.
    MoverFinishes,
    MostPieces,
    CheckerLoses,
    ChaserLoses,
    ClaimableDraw,
    Draw,
    ScoreByArea,
    NoResult,
    /// `PLAYER wins` (true) / `PLAYER loses`: the player is [`EndRule::player`].
    Player(bool),
    /// `highest points wins, points ...`.
    Points,
}

/// `highest points wins, points KIND N, ..., plus N to PLAYER, a tie to PLAYER`.
#[derive(Clone, Debug, PartialEq)]
pub struct PointsVerdict {
    pub values: Vec<(Ident, f64, Span)>,
    pub bonus: Option<(f64, Ident)>,
    pub tie: Option<Ident>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EndRule {
    pub overrides: bool,
    pub label: Ident,
    pub conditions: Vec<Condition>,
    pub verdict: (Verdict, Span),
    /// `score by area with komi`: the parameter holding the second player's compensation.
    pub komi: Option<Ident>,
    /// `highest points wins, ...`: the table of points.
    pub points: Option<PointsVerdict>,
    /// `PLAYER wins`: the player named.
    pub player: Option<Ident>,
    pub cite: Option<Cite>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub overrides: bool,
    /// `setup empty`: an empty board, first player to move.
    pub empty: bool,
    pub fen: StringLit,
    pub handicap: Option<Handicap>,
}

/// `, plus handicap Stone on handicap points[, white receives handicap instead of komi]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Handicap {
    /// How many stones (a parameter, usually).
    pub count: Count,
    pub piece: Ident,
    /// The side compensated, what it receives, and the parameter that compensation replaces.
    pub compensation: Option<(Ident, Count, Ident)>,
    pub cite: Option<Cite>,
    pub span: Span,
}
