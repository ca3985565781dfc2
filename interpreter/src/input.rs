//! Reading the files a user names — rulesets and the files they extend, game records, scenarios —
//! through one door that refuses what would hang or exhaust memory: only regular files (after
//! following symlinks) are read, and only up to a stated size.
//!
//! Invariant: every read of user input in this crate goes through [`read_text`], so a directory, a
//! device (`/dev/zero`, `/dev/urandom`) or a FIFO is answered at once with a message saying what
//! it is, and no file is read past its limit, even one that grows while it is read.

use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The most a ruleset file (or a file it extends) may hold: 4 MiB. The bundled rulesets are a few
/// kilobytes; a generated ruleset of 30,000 zones is 0.6 MB.
pub const RULES_LIMIT: u64 = 4 << 20;

/// The most a game record (PGN, WXF, SGF) may hold: 16 MiB, room for a database of thousands of games.
pub const RECORD_LIMIT: u64 = 16 << 20;

/// The most a scenario file may hold: 16 MiB.
pub const SCENARIO_LIMIT: u64 = 16 << 20;

/// Why a file was not read. Its `Display` is the reason only ("it is a directory"); callers put the
/// path in front, as in `cannot read games.pgn: it is a FIFO (named pipe), not a regular file`.
#[derive(Debug)]
pub enum ReadError {
    /// Nothing at that path (or a symlink pointing nowhere).
    NotFound,
    PermissionDenied,
    /// Something other than a regular file; the words say what (`a directory`, `a FIFO (named pipe)`).
    NotAFile(&'static str),
    /// Larger than the limit; `size` is what the file system said.
    TooLarge {
        size: u64,
        limit: u64,
    },
    /// Within the limit when looked at, but it grew past the limit while it was read.
    Grew {
        limit: u64,
    },
    /// The bytes are not UTF-8 text.
    NotUtf8,
    /// Any other failure of the operating system.
    Io(std::io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotFound => f.write_str("no such file"),
            ReadError::PermissionDenied => f.write_str("permission denied"),
            ReadError::NotAFile(what) => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge { size, limit } => {
                write!(
                    f,
                    "it is {} ({size} bytes), larger than the limit of {}",
                    bytes(*size),
                    bytes(*limit)
                )
            }
            ReadError::Grew { limit } => write!(f, "it grew past the limit of {} while it was read", bytes(*limit)),
            ReadError::NotUtf8 => f.write_str("it is not UTF-8 text"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        match e.kind() {
            std::io::ErrorKind::NotFound => ReadError::NotFound,
            std::io::ErrorKind::PermissionDenied => ReadError::PermissionDenied,
            std::io::ErrorKind::IsADirectory => ReadError::NotAFile("a directory"),
            std::io::ErrorKind::InvalidData => ReadError::NotUtf8,
            _ => ReadError::Io(e),
        }
    }
}

/// A size in the largest binary unit that keeps it at least 1: `16 MiB`, `4.5 KiB`, `512 bytes`.
fn bytes(n: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if n >= size {
            let whole = n / size;
            let tenths = (n % size) * 10 / size;
            return if tenths == 0 {
                format!("{whole} {unit}")
            } else {
                format!("{whole}.{tenths} {unit}")
            };
        }
    }
    format!("{n} bytes")
}

/// What a file type is, in words, when it is not a regular file.
fn kind(t: std::fs::FileType) -> &'static str {
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

/// What stands at `path`, in words, for a refusal to write there (`a directory`, `a FIFO (named
/// pipe)`, `a symbolic link to nothing`, `a file`); `None` where nothing does. Links are followed.
pub fn what_is_at(path: &Path) -> Option<&'static str> {
    let link = std::fs::symlink_metadata(path).ok()?;
    Some(match std::fs::metadata(path) {
        Err(_) if link.file_type().is_symlink() => "a symbolic link to nothing",
        Err(_) => "something that cannot be read",
        Ok(m) if m.is_file() => "a file",
        Ok(m) => kind(m.file_type()),
    })
}

/// Why a new file cannot be made at `path`, where something is there already: `the file exists`,
/// or what is there (`a directory is there`).
pub fn in_the_way(path: &Path) -> String {
    match what_is_at(path) {
        Some("a file") | None => "the file exists".to_string(),
        Some(what) => format!("{what} is there"),
    }
}

/// Makes a new file at `path` for output: a new one only, so nothing there is overwritten and
/// nothing that is not a regular file (a FIFO, a device) is written to or waited on.
///
/// # Errors
/// Why not, as a phrase to follow the path: what is in the way (`the file exists; nothing was
/// overwritten`), a folder that does not exist, a folder the user may not write in, or the
/// operating system's error.
pub fn create_new(path: &Path) -> Result<std::fs::File, String> {
    std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(|err| {
        let folder = || {
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            dir.display().to_string()
        };
        match err.kind() {
            std::io::ErrorKind::AlreadyExists => format!("{}; nothing was overwritten", in_the_way(path)),
            std::io::ErrorKind::NotFound => format!("there is no folder {} to make it in", folder()),
            std::io::ErrorKind::PermissionDenied => format!("no permission to make a file in {}", folder()),
            _ => err.to_string(),
        }
    })
}

/// Writes `text` into `file`, just made at `path` by [`create_new`], through to the disk. Where it
/// cannot (a full disk), the part written is removed: no truncated file is left to pass for a
/// whole one, or to stand in the way of the next try.
///
/// # Errors
/// The operating system's error, and whether the part written was removed, as a phrase.
pub fn write_new(mut file: std::fs::File, path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write as _;
    let written = file.write_all(text.as_bytes()).and_then(|()| file.sync_all());
    drop(file);
    written.map_err(|err| {
        let removed = std::fs::remove_file(path);
        format!(
            "{err}; {}",
            if removed.is_ok() {
                "the part written was removed"
            } else {
                "the part written could not be removed"
            }
        )
    })
}

/// Reads the UTF-8 text of the regular file at `path` (symlinks followed), at most `limit` bytes.
///
/// The file's type and size are checked before it is opened (opening a FIFO would wait for a
/// writer) and again on the open handle; then at most `limit + 1` bytes are read, so a file that
/// grows while it is read is refused too, never read to its end.
///
/// # Errors
/// A [`ReadError`] saying why: not found, not a regular file (and what it is), too large (with
/// the size and the limit), not UTF-8, or the operating system's error.
///
/// # Examples
/// ```
/// use arbiter::input::{read_text, ReadError};
/// let err = read_text(std::env::temp_dir().as_path(), 1 << 20).unwrap_err();
/// assert!(matches!(err, ReadError::NotAFile("a directory")));
/// assert_eq!(err.to_string(), "it is a directory, not a regular file");
/// ```
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    let regular = |meta: &std::fs::Metadata| -> Result<(), ReadError> {
        if !meta.is_file() {
            return Err(ReadError::NotAFile(kind(meta.file_type())));
        }
        if meta.len() > limit {
            return Err(ReadError::TooLarge { size: meta.len(), limit });
        }
        Ok(())
    };
    regular(&std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    // The path may have been replaced between the two looks; the open handle is what is read.
    regular(&file.metadata()?)?;
    let mut buf = Vec::new();
    file.take(limit + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(ReadError::Grew { limit });
    }
    String::from_utf8(buf).map_err(|_| ReadError::NotUtf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh, empty folder under the system's temporary folder.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-input-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
        dir
    }

    #[test]
    fn a_regular_file_within_the_limit_is_read() {
        let dir = scratch("ok");
        let f = dir.join("a.txt");
        std::fs::write(&f, "board 8 x 8").expect("writable");
        assert_eq!(read_text(&f, 11).expect("exactly at the limit"), "board 8 x 8");
        #[cfg(unix)]
        {
            let link = dir.join("link.txt");
            std::os::unix::fs::symlink(&f, &link).expect("symlinks work here");
            assert_eq!(read_text(&link, 100).expect("a symlink to a file is followed"), "board 8 x 8");
        }
    }

    #[test]
    fn a_file_over_the_limit_is_refused_with_its_size_and_the_limit() {
        let dir = scratch("large");
        let f = dir.join("big.pgn");
        // A sparse file: its size is 5 MiB without writing 5 MiB.
        File::create(&f).and_then(|h| h.set_len(5 << 20)).expect("writable");
        let err = read_text(&f, 4 << 20).expect_err("over the limit");
        assert!(matches!(err, ReadError::TooLarge { size, limit } if size == 5 << 20 && limit == 4 << 20));
        assert_eq!(err.to_string(), "it is 5 MiB (5242880 bytes), larger than the limit of 4 MiB");
        assert_eq!(
            read_text(&dir.join("missing"), 10).expect_err("missing").to_string(),
            "no such file"
        );
        std::fs::write(&f, [0xff, 0xfe]).expect("writable");
        assert!(matches!(read_text(&f, 10), Err(ReadError::NotUtf8)));
    }

    /// A new output file is made only where nothing is: what is in the way, a missing folder
    /// and a folder the user may not write in are each said; what was written is kept whole.
    #[test]
    fn an_output_file_is_made_only_where_nothing_is() {
        let dir = scratch("out");
        let f = dir.join("game.pgn");
        write_new(create_new(&f).expect("a new file"), &f, "1. e4 *").expect("written");
        assert_eq!(std::fs::read_to_string(&f).expect("readable"), "1. e4 *");
        assert_eq!(create_new(&f).expect_err("there"), "the file exists; nothing was overwritten");
        assert_eq!(
            create_new(&dir).expect_err("there"),
            "a directory is there; nothing was overwritten"
        );
        assert_eq!(std::fs::read_to_string(&f).expect("readable"), "1. e4 *", "nothing overwritten");
        let missing = dir.join("no-such-folder").join("game.pgn");
        assert_eq!(
            create_new(&missing).expect_err("no folder"),
            format!("there is no folder {} to make it in", dir.join("no-such-folder").display())
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let shut = dir.join("shut");
            std::fs::create_dir(&shut).expect("a folder");
            std::fs::set_permissions(&shut, std::fs::Permissions::from_mode(0o500)).expect("permissions");
            // (Root may write anywhere: then the file is made.)
            match create_new(&shut.join("x")) {
                Err(why) => assert_eq!(why, format!("no permission to make a file in {}", shut.display())),
                Ok(_) => assert!(std::fs::remove_file(shut.join("x")).is_ok()),
            }
            let _ = std::fs::set_permissions(&shut, std::fs::Permissions::from_mode(0o700));
        }
    }

    #[test]
    fn a_directory_is_refused_as_one() {
        let dir = scratch("dir");
        assert_eq!(
            read_text(&dir, 10).expect_err("a directory").to_string(),
            "it is a directory, not a regular file"
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_without_reading_them() {
        // `/dev/zero` never ends: reading it would fill memory.
        assert_eq!(
            read_text(Path::new("/dev/zero"), 1 << 20).expect_err("a device").to_string(),
            "it is a device, not a regular file"
        );
        let dir = scratch("fifo");
        let fifo = dir.join("moves.pgn");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(made.success(), "mkfifo failed");
        // Opening a FIFO without a writer would wait forever; it is refused before it is opened.
        assert_eq!(
            read_text(&fifo, 1 << 20).expect_err("a FIFO").to_string(),
            "it is a FIFO (named pipe), not a regular file"
        );
    }

    /// Files under `/proc` say their size is 0 and then give more: the read itself stops at the limit.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_that_gives_more_than_its_size_is_cut_at_the_limit() {
        let err = read_text(Path::new("/proc/self/status"), 10).expect_err("longer than 10 bytes");
        assert!(matches!(err, ReadError::Grew { limit: 10 }), "{err:?}");
        assert_eq!(err.to_string(), "it grew past the limit of 10 bytes while it was read");
    }

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(bytes(512), "512 bytes");
        assert_eq!(bytes(4 << 20), "4 MiB");
        assert_eq!(bytes(3 << 9), "1.5 KiB");
    }
}
