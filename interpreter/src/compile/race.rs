//! The compiled rules of race games (see [`crate::game::race`], which moves by them): the dice
//! states a turn goes through, each clause's track, the stacking rule.
//!
//! The dice still to use are a *state* (an index into [`RaceTables::states`]): a whole roll's
//! state first (one per result of the roll, in the results' order, so that chance's move sets it
//! as in every other game of chance), then the states the turn reaches as it uses them.

use super::Tables;
use crate::bits::Bits;
use crate::model::*;

/// The compiled rules of a race game (see the module's documentation).
#[derive(Clone, Debug)]
pub struct RaceTables {
    /// The dice states: first one per result of the roll (in its order), then the states a turn
    /// reaches.
    pub states: Vec<DiceState>,
    /// `pieces stack`: `Some(block)`, where `block` is the enemy pieces that close a square
    /// (`None`: any enemy stack may be hit whole).
    pub stack: Option<Option<u32>>,
    /// `must enter from hand first`.
    pub enter_first: bool,
    /// `must enter from hand when it can`.
    pub enter_when_can: bool,
    /// `must move from the start of TRACK first`: per side, the track's first square.
    pub start_first: Option<[u16; MAX_SIDES]>,
    /// `must use the most dice`: `Some(higher)`, with `, else the higher`.
    pub most_dice: Option<bool>,
    /// Per side, per compiled clause (`Tables::forms`): the track it moves along.
    pub forms: [Vec<RaceForm>; MAX_SIDES],
    /// Zobrist keys of a square's count of pieces: a count `n` hashes as `key × n`.
    pub z_stack: Vec<u64>,
}

/// The dice still to use in a turn.
#[derive(Clone, Debug, PartialEq)]
pub struct DiceState {
    /// The numbers, highest first.
    pub dice: Vec<u32>,
    /// A whole roll's state (the turn has used none of its dice yet).
    pub fresh: bool,
    /// Each different number and the state after a piece moves by it (`None`: the turn's last).
    pub steps: Vec<(u32, Option<u8>)>,
}

/// A clause of a race game: along which squares it moves.
#[derive(Clone, Debug)]
pub struct RaceForm {
    /// The mover's track, in order.
    pub squares: Vec<u16>,
    /// Per square: 1 + its index on the track, or 0 off it.
    pub index: Vec<u8>,
    /// A drop along the track (entering from hand).
    pub drop: bool,
    pub bear_off: bool,
    /// `bearing off once all in ZONE`: per square, in the mover's zone.
    pub home: Option<Vec<bool>>,
    pub overshoot: bool,
    /// `at the start of TRACK` (a drop): onto the track's first square, by any number it may use.
    pub at_start: bool,
    /// `on a roll of N`: only by these numbers.
    pub on_roll: Option<Vec<u32>>,
}

/// No square: a side with no track.
pub const NO_SQUARE: u16 = u16::MAX;

/// The most states a roll's dice may reach: `Pos::roll` holds 1 + a state's index in a byte. The
/// checker's bounds (at most 4 dice used one by one, at most 64 results) keep every roll below it
/// (a test walks them all).
const MAX_STATES: usize = 255;

/// Every multiset of dice a turn may hold: a whole roll's (doubles twice where the roll says),
/// then those a turn reaches by using its dice one at a time.
fn dice_states(roll: &Roll) -> Vec<DiceState> {
    let whole: Vec<Vec<u32>> = roll
        .results
        .iter()
        .map(|&(v, _)| {
            let d = roll.dice(v);
            match roll.apart {
                Some(a) if a.doubles_twice && d.len() > 1 && d.iter().all(|&x| x == d[0]) => [d.clone(), d].concat(),
                _ => d,
            }
        })
        .collect();
    let mut states: Vec<DiceState> = whole
        .iter()
        .map(|d| DiceState {
            dice: d.clone(),
            fresh: true,
            steps: Vec::new(),
        })
        .collect();
    let mut i = 0;
    while i < states.len() {
        let dice = states[i].dice.clone();
        let mut steps = Vec::new();
        for (j, &v) in dice.iter().enumerate() {
            if steps.iter().any(|s: &(u32, Option<u8>)| s.0 == v) {
                continue;
            }
            // Where the dice are summed, the roll is one number: used, the turn is over.
            let mut rest = dice.clone();
            rest.remove(j);
            let next = if rest.is_empty() || roll.apart.is_none() {
                None
            } else {
                let k = match states.iter().position(|s| !s.fresh && s.dice == rest) {
                    Some(k) => k,
                    None => {
                        states.push(DiceState {
                            dice: rest,
                            fresh: false,
                            steps: Vec::new(),
                        });
                        states.len() - 1
                    }
                };
                debug_assert!(k < MAX_STATES, "the checker's bounds keep a roll's states below {MAX_STATES}");
                Some(k as u8)
            };
            steps.push((v, next));
        }
        states[i].steps = steps;
        i += 1;
    }
    states
}

/// The race tables of `rules`, where it is a race game (see [`Rules::race`]): dice used one by
/// one, stacks, entering first, or a clause bearing off from home or overshooting.
pub(crate) fn compile<B: Bits>(rules: &Rules, t: &Tables<B>) -> Option<RaceTables> {
    let roll = rules.roll.as_ref()?;
    let forms = rules.kinds.iter().flat_map(|k| &k.forms);
    let home = forms.clone().any(|f| f.runs_the_race());
    if roll.apart.is_none() && !rules.race.any() && !home {
        return None;
    }
    let states = dice_states(roll);
    let squares = t.squares;
    let side_forms = |s: usize| -> Vec<RaceForm> {
        t.forms[s]
            .iter()
            .map(|cf| {
                let f = &rules.kinds[cf.kind.0 as usize].forms[cf.clause as usize];
                let track = match f.primitive {
                    Primitive::Run { track } => Some(track),
                    _ => f.by_roll,
                };
                let path: Vec<u16> = track.map_or(Vec::new(), |tr| rules.tracks[tr].squares.0[s].iter().map(|&q| q as u16).collect());
                let mut index = vec![0u8; squares];
                for (i, &q) in path.iter().enumerate() {
                    index[q as usize] = (i + 1).min(255) as u8;
                }
                RaceForm {
                    squares: path,
                    index,
                    drop: f.by_roll.is_some(),
                    bear_off: f.bear_off,
                    home: f.bear_home.as_ref().map(|z| (0..squares).map(|q| z.0[s].contains(q)).collect()),
                    overshoot: f.overshoot,
                    at_start: f.at_start,
                    on_roll: f.on_roll.clone(),
                }
            })
            .collect()
    };
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(0x57AC_2026);
    Some(RaceTables {
        states,
        stack: rules.race.stack.as_ref().map(|s| s.block),
        enter_first: rules.race.enter_first.is_some(),
        enter_when_can: rules.race.enter_when_can.is_some(),
        start_first: rules.race.start_first.as_ref().map(|&(tr, _)| {
            let firsts = &rules.tracks[tr].squares.0;
            std::array::from_fn(|s| firsts.get(s).and_then(|q| q.first()).map_or(NO_SQUARE, |&q| q as u16))
        }),
        most_dice: rules.race.most_dice.as_ref().map(|m| m.higher),
        forms: std::array::from_fn(|s| if s < rules.players.len() { side_forms(s) } else { Vec::new() }),
        z_stack: (0..squares).map(|_| rng.next_u64()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(dice: u32, faces: u32, twice: bool) -> Roll {
        let mut results = Vec::new();
        let mut all = vec![vec![]];
        for _ in 0..dice {
            all = all
                .into_iter()
                .flat_map(|t: Vec<u32>| {
                    let top = t.last().copied().unwrap_or(faces);
                    (1..=top).map(move |d| [t.clone(), vec![d]].concat())
                })
                .collect();
        }
        for t in all {
            results.push((Roll::pack(&t), 1));
        }
        results.sort();
        Roll {
            results,
            text: String::new(),
            cite: None,
            apart: Some(Apart {
                dice,
                faces,
                doubles_twice: twice,
            }),
        }
    }

    /// Every roll the checker lets through (1 to 4 dice used one by one, any faces, at most 64
    /// results) has fewer dice states than a byte can index.
    #[test]
    fn every_roll_the_checker_allows_has_its_states_indexed_by_a_byte() {
        let mut most = 0;
        for dice in 1..=MAX_DICE_APART as u32 {
            for faces in 2..=MAX_FACES as u32 {
                // Results: multisets of `dice` numbers from 1 to `faces`.
                let results = (0..dice).fold(1u64, |n, i| n * (faces + i) as u64 / (i + 1) as u64);
                if results > MAX_ROLL_RESULTS as u64 {
                    break;
                }
                for twice in [false, true] {
                    most = most.max(dice_states(&roll(dice, faces, twice)).len());
                }
            }
        }
        assert!(most < MAX_STATES, "{most} states");
        assert!(most > 64, "the walk reached the largest rolls: {most}");
    }

    #[test]
    fn two_dice_used_one_by_one_reach_every_smaller_set_once() {
        let states = dice_states(&roll(2, 6, true));
        // 21 throws, then the single dice (6) and the doubles' three, two and one left (6 × 3).
        assert_eq!(states.iter().filter(|s| s.fresh).count(), 21);
        assert_eq!(states.len(), 21 + 6 + 6 * 2);
        let five_three = states.iter().find(|s| s.dice == [5, 3]).expect("5-3");
        assert!(five_three.fresh);
        let after_five = &states[five_three.steps.iter().find(|s| s.0 == 5).unwrap().1.unwrap() as usize];
        assert_eq!(after_five.dice, [3]);
        assert_eq!(after_five.steps, vec![(3, None)]);
        let doubles = states.iter().find(|s| s.dice == [4, 4, 4, 4]).expect("4-4 used twice");
        assert_eq!(doubles.steps.len(), 1);
        let three = &states[doubles.steps[0].1.unwrap() as usize];
        assert_eq!((three.dice.as_slice(), three.fresh), (&[4, 4, 4][..], false));
        // Without doubles twice, a double is two dice like any other throw.
        let plain = dice_states(&roll(2, 6, false));
        assert!(plain.iter().any(|s| s.dice == [4, 4] && s.fresh));
        assert_eq!(plain.len(), 21 + 6);
    }
}
