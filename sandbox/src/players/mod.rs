//! The players room: who moves besides the person at the board — the computer ([`computer`]),
//! the clocks that time both ([`clocks`]) and simulations of many games ([`simulate`]). Uses the
//! session and timeline rooms.

pub mod clocks;
pub mod computer;
pub mod simulate;

/// The players room's plugin, the clocks aside ([`clocks::plugin`], which a real window's app
/// adds): the computer's turn and simulations.
pub fn plugin(app: &mut bevy::prelude::App) {
    app.add_plugins((computer::plugin, simulate::plugin));
}
