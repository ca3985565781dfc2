//! The hot-reload watcher in a bare `App` (MinimalPlugins, time advanced by hand, no window): a
//! ruleset in a temporary folder is opened, broken, then fixed; the watcher notices each write by the
//! file's modification time (set explicitly, so the test never sleeps).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use sandbox::session::Session;

/// Each `update` advances time by this much; the watcher polls every 0.4 s.
const STEP: Duration = Duration::from_millis(100);

fn go_rules(size: usize) -> String {
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/go.rules");
    let text = std::fs::read_to_string(&bundled).expect("the bundled go ruleset");
    assert!(text.contains("param size = 19 "), "go.rules declares `param size = 19`");
    text.replace("param size = 19 ", &format!("param size = {size} "))
}

/// Writes `text` with a modification time `n` seconds past a fixed instant (distinct per write,
/// whatever the file system's timestamp granularity).
fn write(path: &Path, text: &str, n: u64) {
    std::fs::write(path, text).expect("write the ruleset");
    let file = File::options().write(true).open(path).expect("open the ruleset");
    file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + n))
        .expect("set the modification time");
}

fn session(app: &App) -> &Session {
    app.world().resource::<Session>()
}

fn width(app: &App) -> usize {
    session(app).engine.rules().board.width
}

/// Runs the app until `done` holds, for at most 3 s of app time; returns how many updates it took.
fn run_until(app: &mut App, done: impl Fn(&Session) -> bool) -> Option<usize> {
    (1..=30).find(|_| {
        app.update();
        done(session(app))
    })
}

#[test]
fn a_broken_ruleset_shows_its_errors_and_keeps_the_engine_then_a_fixed_one_is_loaded() {
    let dir = std::env::temp_dir().join(format!("arbiter-sandbox-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let path: PathBuf = dir.join("small-go.rules");
    write(&path, &go_rules(9), 0);

    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(TimeUpdateStrategy::ManualDuration(STEP))
        .add_plugins((sandbox::logic, sandbox::window::reload::plugin));
    let opened = sandbox::session::source::open(path.to_str()).unwrap_or_else(|e| panic!("{e}"));
    app.insert_resource(Session::new(opened));
    app.update();
    assert_eq!((width(&app), session(&app).generation), (9, 0));
    assert!(
        run_until(&mut app, |s| s.generation > 0 || !s.rule_errors.is_empty()).is_none(),
        "an unchanged file is not reloaded"
    );

    write(&path, &format!("{}this is not a rule\n", go_rules(13)), 1);
    let took = run_until(&mut app, |s| !s.rule_errors.is_empty());
    assert!(took.is_some(), "the watcher saw the broken file within 3 s");
    let s = session(&app);
    assert!(
        s.rule_errors.iter().any(|e| e.contains("small-go.rules:") && e.contains("E0001")),
        "errors name the file, the place and the code: {:?}",
        s.rule_errors
    );
    assert_eq!((width(&app), session(&app).generation), (9, 0), "the last good engine is kept");

    write(&path, &go_rules(13), 2);
    assert!(
        run_until(&mut app, |s| s.generation > 0).is_some(),
        "the watcher saw the fixed file"
    );
    let s = session(&app);
    assert!(s.rule_errors.is_empty(), "{:?}", s.rule_errors);
    assert_eq!((width(&app), s.generation), (13, 1), "the new rules are in use");
    assert_eq!(s.game.current().rules().board.width, 13, "the game runs on the new rules");

    // A vanished file is no error: the watcher waits for it to come back.
    std::fs::remove_file(&path).expect("remove the ruleset");
    assert!(run_until(&mut app, |s| s.generation > 1 || !s.rule_errors.is_empty()).is_none());
    write(&path, &go_rules(9), 3);
    assert!(run_until(&mut app, |s| s.generation > 1).is_some(), "reloaded once it is back");
    assert_eq!(width(&app), 9);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_change_to_a_file_the_ruleset_extends_reloads_it_too() {
    let dir = std::env::temp_dir().join(format!("arbiter-sandbox-reload-extends-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let base = dir.join("base-go.rules");
    let variant = dir.join("variant.rules");
    write(&base, &go_rules(9), 0);
    write(
        &variant,
        "extends \"base-go.rules\"\n\noverride game \"Go, a variant\" {\n  cite \"Weiqi\"\n  players black \"b\", white \"w\"\n}\n",
        0,
    );

    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(TimeUpdateStrategy::ManualDuration(STEP))
        .add_plugins((sandbox::logic, sandbox::window::reload::plugin));
    let opened = sandbox::session::source::open(variant.to_str()).unwrap_or_else(|e| panic!("{e}"));
    app.insert_resource(Session::new(opened));
    app.update();
    assert_eq!(session(&app).engine.rules().name, "Go, a variant");
    assert_eq!((width(&app), session(&app).generation), (9, 0));

    // Only the base changes: the variant is reloaded with the base's new board.
    write(&base, &go_rules(13), 1);
    assert!(
        run_until(&mut app, |s| s.generation > 0).is_some(),
        "the watcher saw the base change"
    );
    assert_eq!((width(&app), session(&app).engine.rules().name.as_str()), (13, "Go, a variant"));

    // A broken base shows its errors, naming the base file.
    write(&base, &format!("{}this is not a rule\n", go_rules(9)), 2);
    assert!(run_until(&mut app, |s| !s.rule_errors.is_empty()).is_some());
    assert!(
        session(&app).rule_errors.iter().any(|e| e.contains("base-go.rules:")),
        "{:?}",
        session(&app).rule_errors
    );
    assert_eq!(width(&app), 13, "the last good rules stay");
    let _ = std::fs::remove_dir_all(&dir);
}
