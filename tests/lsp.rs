//! `arbiter lsp` driven as an editor drives it, through the real binary on pipes: initialize, open a
//! ruleset, introduce and fix a typo, hover, completion, definition, references, rename,
//! formatting, a quick fix, the outline, shutdown and exit — each answer checked. And the bad
//! input every door gets: frames and JSON that cannot be read, unknown methods, requests before
//! `initialize`, a rename to a non-name — each answered with an error, the session going on.

use crate::common;

use std::io::Write;

use serde_json::{Value, json};

use common::root;

/// A language server session on pipes.
struct Session {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    messages: std::sync::mpsc::Receiver<Value>,
    /// What arrived while the test waited for something else (diagnostics are published from a
    /// thread of the server's own, so they may come before or after a request's answer).
    backlog: std::cell::RefCell<std::collections::VecDeque<Value>>,
    next_id: i64,
}

impl Session {
    fn start() -> Session {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("lsp")
            .current_dir(root())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("arbiter lsp starts");
        let stdin = child.stdin.take().expect("piped");
        let mut stdout = std::io::BufReader::new(child.stdout.take().expect("piped"));
        let (tx, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::{BufRead, Read};
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        length = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("every message has a Content-Length")];
                if stdout.read_exact(&mut body).is_err() {
                    return;
                }
                let v: Value = serde_json::from_slice(&body).expect("the server writes JSON");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Session {
            child,
            stdin,
            messages,
            backlog: Default::default(),
            next_id: 1,
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("the server reads");
        self.stdin.flush().expect("the server reads");
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message that `pick` accepts, within 20 s.
    fn wait(&self, what: &str, pick: impl Fn(&Value) -> bool) -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut backlog = self.backlog.borrow_mut();
        if let Some(i) = backlog.iter().position(&pick) {
            return backlog.remove(i).expect("found");
        }
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(m) if pick(&m) => return m,
                Ok(m) => backlog.push_back(m),
                Err(_) => panic!("no {what} within 20 s; the server said {backlog:#?}"),
            }
        }
    }

    /// Sends a request and returns its response (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(&format!("answer to {method}"), |m| m.get("id") == Some(&json!(id)))
    }

    /// `initialize` with no client capabilities.
    fn initialize(&mut self) -> Value {
        self.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}))
    }

    /// `didOpen` for a `.rules` document at version 1.
    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "arbiter-rules", "version": 1, "text": text}}),
        );
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&self, uri: &str) -> Vec<Value> {
        let m = self.wait("diagnostics", |m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        m["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn at(line: u32, character: u32) -> Value {
    json!({"line": line, "character": character})
}

/// The (line, character) where `needle` first starts in `text`, counted as the protocol counts.
fn find(text: &str, needle: &str) -> (u32, u32) {
    let offset = text.find(needle).unwrap_or_else(|| panic!("`{needle}` is in the text"));
    let line = text[..offset].matches('\n').count() as u32;
    let col = text[..offset].rsplit('\n').next().unwrap_or("").encode_utf16().count() as u32;
    (line, col)
}

#[test]
fn an_editor_session_gets_every_answer_it_asks_for() {
    let path = root().join("rulesets/chess.rules");
    let uri = format!("file://{}", path.display());
    let text = std::fs::read_to_string(&path).expect("chess.rules");
    let mut s = Session::start();

    let early = s.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": at(0, 0)}));
    assert_eq!(early["error"]["code"], -32002, "{early}");
    let init = s.initialize();
    let caps = &init["result"]["capabilities"];
    for cap in [
        "hoverProvider",
        "completionProvider",
        "definitionProvider",
        "referencesProvider",
        "renameProvider",
        "documentSymbolProvider",
        "documentFormattingProvider",
        "codeActionProvider",
    ] {
        assert!(!caps[cap].is_null(), "{cap} is offered: {caps}");
    }
    s.notify("initialized", json!({}));

    // A bundled ruleset: no diagnostics.
    s.open(&uri, &text);
    assert_eq!(s.diagnostics(&uri), Vec::<Value>::new());

    // A typo in a kind's name, typed in: the checker's diagnostic, with its code and help.
    let (line, col) = find(&text, "with Rook moving 2");
    let rook = col + "with ".len() as u32;
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": at(line, rook), "end": at(line, rook + 4)}, "text": "Rokk"}
        ]}),
    );
    let said = s.diagnostics(&uri);
    let typo = said
        .iter()
        .find(|d| d["message"].as_str().is_some_and(|m| m.contains("Rokk")))
        .unwrap_or_else(|| panic!("a diagnostic names the typo: {said:#?}"));
    assert_eq!(typo["severity"], 1);
    assert!(typo["code"].as_str().is_some_and(|c| c.starts_with('E')), "{typo}");
    assert_eq!(typo["range"]["start"], at(line, rook), "{typo}");
    assert!(typo["message"].as_str().unwrap_or("").contains("did you mean `Rook`?"), "{typo}");
    // The same diagnostic `arbiter check` prints for the same text.
    let broken = std::env::temp_dir().join(format!("arbiter-lsp-{}.rules", std::process::id()));
    std::fs::write(&broken, text.replacen("with Rook moving 2", "with Rokk moving 2", 1)).expect("a temporary file");
    let check = common::arbiter(&["check", broken.to_str().expect("a UTF-8 path")]);
    let _ = std::fs::remove_file(&broken);
    let first_line = typo["message"].as_str().unwrap_or("").lines().next().unwrap_or("").to_string();
    assert!(
        check.stdout.contains(&first_line) || check.stderr.contains(&first_line),
        "check says: {}{}",
        check.stdout,
        check.stderr
    );

    // The quick fix puts the name right.
    let actions = s.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": typo["range"], "context": {"diagnostics": [typo]}}),
    );
    let edit = &actions["result"][0]["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], "Rook", "{actions}");
    assert_eq!(edit["range"], typo["range"]);
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"range": edit["range"], "text": "Rook"}]}),
    );
    assert_eq!(s.diagnostics(&uri), Vec::<Value>::new(), "the fix clears it");

    // Hover: a keyword's manual entry; a name's definition.
    let (l, c) = find(&text, "slide orthogonal");
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at(l, c + 1)}),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(shown.contains("`slide"), "the manual on slide: {hover}");
    let (l, c) = find(&text, "on last_rank to");
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at(l, c + 4)}),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(shown.contains("**zone** `last_rank`") && shown.contains("rank 8"), "{hover}");

    // A citation: the clause from the rules of the bundled games; a piece: its moves drawn.
    let (l2, c2) = find(&text, "[3.3]");
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at(l2, c2 + 2)}),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(
        shown.contains("*Chess*") && shown.contains("**3.3** The rook moves any distance along a rank or a file."),
        "{hover}"
    );
    let (l2, c2) = find(&text, "Knight \"N\"");
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at(l2, c2 + 1)}),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(shown.contains("Moves from d4 on an otherwise empty board (8 of them)"), "{hover}");
    assert!(
        shown.contains("In words:\n\n- leaps (1,2) in 8 directions, over anything between"),
        "{shown}"
    );
    assert!(
        shown.contains(" 6 . . * . * . . .") && shown.contains(" 5 . * . . . * . .") && shown.contains(" 4 . . . N . . . ."),
        "{shown}"
    );
    let (l2, c2) = find(&text, "Pawn \"P\"");
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at(l2, c2 + 1)}),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    for line in [
        "- steps 1 square forward, only onto an empty square",
        "- steps 2 squares forward, only onto an empty square, from its starting zone",
        "- steps 1 square diagonally forward, only to capture",
        "- steps 1 square diagonally forward, capturing en passant",
        "- promotes to Queen, Rook, Bishop, Knight",
    ] {
        assert!(shown.contains(line), "`{line}` in {shown}");
    }

    // A zone: its squares for each player.
    let (l2, c2) = find(&text, "pawn_start =");
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at(l2, c2 + 1)}),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(shown.contains("Its squares for each player"), "{hover}");
    assert!(
        shown.contains(" 2 # # # # # # # #     2 . . . . . . . .") && shown.contains(" 7 . . . . . . . .     7 # # # # # # # #"),
        "white's rank 2, black's rank 7: {shown}"
    );

    // Folds for blocks and comment runs; semantic tokens for keywords, names, strings, citations.
    let folds = s.request("textDocument/foldingRange", json!({"textDocument": {"uri": uri}}));
    let folds = folds["result"].as_array().cloned().unwrap_or_default();
    let (end_line, _) = find(&text, "end {");
    assert!(
        folds.iter().any(|f| f["startLine"] == end_line && f["kind"] == "region"),
        "{folds:?}"
    );
    assert!(folds.iter().any(|f| f["startLine"] == 0 && f["kind"] == "comment"), "{folds:?}");
    let tokens = s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}}));
    let data: Vec<u64> = tokens["result"]["data"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    assert!(data.len() > 500 && data.len().is_multiple_of(5), "{} numbers", data.len());
    // Decode: the first token is the first comment, at (0, 0), a whole line long.
    assert_eq!(&data[..5], &[0, 0, text.lines().next().unwrap_or("").len() as u64, 9, 0]);
    let legend = &init["result"]["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"];
    assert_eq!(legend[1], "class", "pieces are classes: {legend}");

    // What the cursor's place allows: letters in the setup, items at the top, verdicts after `->`.
    let complete = |s: &mut Session, line: u32, character: u32| -> Vec<String> {
        let done = s.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": at(line, character)}),
        );
        done["result"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["label"].as_str().map(str::to_string))
            .collect()
    };
    let (sl, sc) = find(&text, "setup \"rnbq");
    let letters = complete(&mut s, sl, sc + 8);
    assert!(
        letters.contains(&"N".to_string()) && letters.contains(&"n".to_string()) && !letters.contains(&"slide".to_string()),
        "{letters:?}"
    );
    let top = complete(&mut s, sl, 0);
    assert!(
        top.contains(&"piece".to_string()) && top.contains(&"zone".to_string()) && !top.contains(&"slide".to_string()),
        "{top:?}"
    );
    // What the grammar accepts there: a movement's words in a piece block (not an end rule's),
    // a zone's name after `promotes on`, with the manual's line for a keyword.
    let (ml, mc) = find(&text, "slide orthogonal");
    let done = s.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": at(ml, mc + 3)}),
    );
    let slide = done["result"].as_array().into_iter().flatten().find(|i| i["label"] == "slide");
    assert!(
        slide.is_some_and(|i| i["detail"].as_str().is_some_and(|d| !d.is_empty())),
        "`slide` with the manual's line: {done}"
    );
    let moves = complete(&mut s, ml, mc);
    for want in ["slide", "step", "leap", "promotes", "castle"] {
        assert!(moves.contains(&want.to_string()), "`{want}` is offered in a piece: {moves:?}");
    }
    for not in ["checkmate", "draw", "files", "Knight", "piece"] {
        assert!(!moves.contains(&not.to_string()), "`{not}` is not offered in a piece: {moves:?}");
    }
    let (zl, zc) = find(&text, "last_rank to");
    let zones = complete(&mut s, zl, zc);
    assert!(
        zones.contains(&"last_rank".to_string()) && zones.contains(&"pawn_start".to_string()) && !zones.contains(&"slide".to_string()),
        "{zones:?}"
    );
    let (vl, vc) = find(&text, "side to move loses       [5.1.1]");
    let verdicts = complete(&mut s, vl, vc);
    assert!(
        verdicts.contains(&"draw".to_string()) && verdicts.contains(&"white".to_string()) && !verdicts.contains(&"Knight".to_string()),
        "{verdicts:?}"
    );

    // Definition, references, rename of a zone.
    let def = s.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": at(l, c + 4)}),
    );
    let (dl, dc) = find(&text, "last_rank  =");
    assert_eq!(def["result"]["range"]["start"], at(dl, dc), "{def}");
    let refs = s.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": at(l, c + 4), "context": {"includeDeclaration": true}}),
    );
    assert_eq!(
        refs["result"].as_array().map(Vec::len),
        Some(text.matches("last_rank").count()),
        "{refs}"
    );
    let bad = s.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": at(l, c + 4), "newName": "last rank"}),
    );
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let clash = s.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": at(l, c + 4), "newName": "pawn_start"}),
    );
    assert!(
        clash["error"]["message"].as_str().is_some_and(|m| m.contains("already defined")),
        "{clash}"
    );
    let rename = s.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": at(l, c + 4), "newName": "eighth"}),
    );
    let edits = rename["result"]["changes"][&uri].as_array().cloned().unwrap_or_default();
    assert_eq!(edits.len(), text.matches("last_rank").count(), "{rename}");
    assert!(edits.iter().all(|e| e["newText"] == "eighth"));

    // The outline and formatting.
    let outline = s.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let names: Vec<&str> = outline["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["name"].as_str())
        .collect();
    for want in ["King", "Pawn", "pawn_start", "checkmate", "classical", "white"] {
        assert!(names.contains(&want), "`{want}` in the outline: {names:?}");
    }
    let format = s.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(format["result"], json!([]), "the bundled ruleset is formatted: {format}");

    // Bad input: each gets an error, and the session goes on.
    s.raw(b"Content-Length: 5\r\n\r\n{oops");
    let e = s.wait("a parse error", |m| m["error"]["code"] == -32700);
    assert!(e["error"]["message"].as_str().is_some_and(|m| m.contains("not JSON")), "{e}");
    s.raw(b"Content-Type: nothing\r\n\r\n");
    s.wait("a frame error", |m| {
        m["error"]["message"].as_str().is_some_and(|t| t.contains("Content-Length"))
    });
    let unknown = s.request("workspace/frobnicate", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let unopened = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.rules"}, "position": at(0, 0)}),
    );
    assert!(
        unopened["error"]["message"].as_str().is_some_and(|m| m.contains("not open")),
        "{unopened}"
    );
    let shapeless = s.request("textDocument/hover", json!({"position": "here"}));
    assert_eq!(shapeless["error"]["code"], -32602, "{shapeless}");
    // An id the protocol does not allow: refused, not taken as a shutdown.
    s.send(&json!({"jsonrpc": "2.0", "id": [7], "method": "shutdown", "params": null}));
    let odd_id = s.wait("an invalid request", |m| m["error"]["code"] == -32600);
    assert!(odd_id["id"].is_null(), "the reply names no id: {odd_id}");
    assert!(odd_id["error"]["message"].as_str().is_some_and(|m| m.contains("[7]")), "{odd_id}");

    let bye = s.request("shutdown", Value::Null);
    assert!(bye.get("error").is_none(), "{bye}");
    s.notify("exit", Value::Null);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        if let Some(status) = s.child.try_wait().expect("waits") {
            assert_eq!(status.code(), Some(0), "exit after shutdown is a clean exit");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A file that does not parse still gets diagnostics (the parser never stops at the first error),
/// and formatting it is refused with a reason rather than mangling it.
#[test]
fn a_broken_file_gets_its_diagnostics_and_is_not_formatted() {
    let mut s = Session::start();
    s.initialize();
    let uri = "file:///tmp/arbiter-lsp-broken.rules";
    let text = "game \"X\" {\n  players white \"w\", black \"b\"\n}\nboard 3 x 3 squares {\n  files a..c\n  ranks 1..3\n}\npiece Man \"M\" { step forward }\nbogus line here\nsetup \"3/3/M2 w - - 0 1\"\n";
    s.open(uri, text);
    let said = s.diagnostics(uri);
    assert!(
        said.iter().any(|d| d["range"]["start"]["line"] == 8),
        "the bad line is named: {said:#?}"
    );
    let format = s.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert!(
        format["error"]["message"].as_str().is_some_and(|m| m.contains("syntax error")),
        "{format}"
    );
    s.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
    assert_eq!(s.diagnostics(uri), Vec::<Value>::new(), "closing clears the file's diagnostics");
}

/// A long name the checker quotes (an unknown piece of 100,000 characters) comes back cut short
/// in the diagnostic's message, as the terminal's report cuts it; its range still marks it whole.
#[test]
fn a_long_name_is_quoted_cut_short_in_a_diagnostic() {
    let mut s = Session::start();
    s.initialize();
    let uri = "file:///tmp/arbiter-lsp-long-name.rules";
    let long = "Z".repeat(100_000);
    let text = tic_tac_toe().replacen("no legal move ->", &format!("no legal move, no {long} left ->"), 1);
    assert_ne!(text, tic_tac_toe(), "the end rule names a piece");
    s.open(uri, &text);
    let said = s.diagnostics(uri);
    let d = said
        .iter()
        .find(|d| d["message"].as_str().is_some_and(|m| m.contains("ZZZZ…")))
        .unwrap_or_else(|| panic!("{said:#?}"));
    let message = d["message"].as_str().unwrap_or_default();
    assert!(message.len() < 1_000, "a message of {} bytes", message.len());
    let width = d["range"]["end"]["character"].as_u64().unwrap_or(0) - d["range"]["start"]["character"].as_u64().unwrap_or(0);
    assert_eq!(width, 100_000, "{d}");
}

/// A rename from a file that extends another reaches the definition's file, and one from the
/// definition reaches the open files that extend it; definitions are found across the two.
#[test]
fn names_are_followed_across_extends() {
    let dir = common::scratch("lsp-extends");
    let base = dir.join("base.rules");
    let chess = std::fs::read_to_string(root().join("rulesets/chess.rules")).expect("chess.rules");
    std::fs::write(&base, &chess).expect("writable");
    let variant = dir.join("hill.rules");
    let text = "extends \"base.rules\"\nzone hill = d4..e5\nend {\n  hill: King in hill -> mover wins\n}\n";
    std::fs::write(&variant, text).expect("writable");
    let (base_uri, variant_uri) = (format!("file://{}", base.display()), format!("file://{}", variant.display()));
    let mut s = Session::start();
    s.initialize();
    s.open(&variant_uri, text);
    assert_eq!(s.diagnostics(&variant_uri), Vec::<Value>::new());
    let (l, c) = find(text, "King in");
    let def = s.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": variant_uri}, "position": at(l, c + 1)}),
    );
    assert_eq!(def["result"]["uri"], base_uri.as_str(), "{def}");
    assert_eq!(def["result"]["range"]["start"], {
        let (dl, dc) = find(&chess, "King \"K\" royal");
        at(dl, dc)
    });
    let rename = s.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": variant_uri}, "position": at(l, c + 1), "newName": "Monarch"}),
    );
    let changes = &rename["result"]["changes"];
    assert_eq!(changes[&variant_uri].as_array().map(Vec::len), Some(1), "{rename}");
    assert!(
        changes[&base_uri].as_array().is_some_and(|e| !e.is_empty()),
        "the definition's file too: {rename}"
    );
    // The base opened and edited without saving (its King renamed): the variant is checked
    // against the edit, not the disk, and its `King` is now unknown.
    s.open(&base_uri, &chess);
    let edited = chess.replacen("piece King \"K\"", "piece Monarch \"K\"", 1);
    assert_ne!(edited, chess);
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": base_uri, "version": 2}, "contentChanges": [{"text": edited}]}),
    );
    let unknown = s.wait("the variant's diagnostics after the base's edit", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == variant_uri.as_str()
            && m["params"]["diagnostics"]
                .as_array()
                .is_some_and(|d| d.iter().any(|d| d["code"] == "E0101" && d["range"]["start"] == at(l, c)))
    });
    assert!(
        unknown["params"]["diagnostics"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("King")),
        "{unknown}"
    );
}

/// Neovim's own LSP client (Debian's `neovim`, headless, scripted in Lua: tests/lsp/neovim.lua)
/// opens a ruleset and gets no diagnostics, gets the diagnostic `arbiter check` prints for a
/// misspelt kind typed in, applies the quick fix, renames a zone across a file that extends it,
/// and asks for formatting.
#[test]
fn neovim_s_client_checks_fixes_renames_and_formats() {
    let dir = common::scratch("lsp-neovim");
    let base = dir.join("base.rules");
    let chess = std::fs::read_to_string(root().join("rulesets/chess.rules")).expect("chess.rules");
    std::fs::write(&base, &chess).expect("writable");
    let variant = dir.join("variant.rules");
    std::fs::write(
        &variant,
        "extends \"base.rules\"\nend {\n  home: Pawn in last_rank -> mover wins\n}\n",
    )
    .expect("writable");
    let out = dir.join("results.json");
    let mut child = std::process::Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", root().join("tests/lsp/neovim.lua").display()))
        .env("ARBITER", env!("CARGO_BIN_EXE_arbiter"))
        .env("BASE", &base)
        .env("VARIANT", &variant)
        .env("OUT", &out)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("Neovim is installed (run scripts/setup)");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    while child.try_wait().expect("waits").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("Neovim did not finish within 90 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let results: Value = serde_json::from_str(&std::fs::read_to_string(&out).expect("the script wrote its results")).expect("JSON");
    assert!(results.get("error").is_none(), "{results:#}");
    assert_eq!(results["opened"], 0, "no diagnostics for chess.rules: {results:#}");
    let typo = &results["typo"];
    let first = typo["message"].as_str().unwrap_or("").lines().next().unwrap_or("").to_string();
    assert!(first.contains("Rokk"), "{results:#}");
    assert_eq!(
        results["shown"].as_str().map(|s| s.lines().next().unwrap_or("")),
        Some(first.as_str()),
        "Neovim shows it"
    );
    let broken = dir.join("typo.rules");
    std::fs::write(&broken, chess.replacen("with Rook moving 2", "with Rokk moving 2", 1)).expect("writable");
    let check = common::arbiter(&["check", broken.to_str().expect("a UTF-8 path")]);
    let printed = format!("{}{}", check.stdout, check.stderr);
    let code = typo["code"].as_str().unwrap_or("?");
    assert!(
        printed.contains(&format!("error[{code}]: {first}")),
        "the same as `arbiter check`:\n{printed}\nvs {first}"
    );
    let (line, col) = find(&chess, "Rook moving 2");
    assert_eq!(
        (typo["line"].as_u64(), typo["character"].as_u64()),
        (Some(line as u64), Some(col as u64))
    );
    assert_eq!(results["fix"], "replace with `Rook`");
    assert!(
        results["fixed_line"]
            .as_str()
            .is_some_and(|l| l.contains("castle with Rook moving 2")),
        "{results:#}"
    );
    let base_after = results["base_after"].as_str().unwrap_or("");
    assert!(
        !base_after.contains("last_rank") && base_after.contains("zone eighth_rank"),
        "{base_after}"
    );
    assert!(base_after.contains("promotes on eighth_rank to"), "{base_after}");
    assert_eq!(
        results["variant_after"],
        "extends \"base.rules\"\nend {\n  home: Pawn in eighth_rank -> mover wins\n}"
    );
    // The rename lengthened a zone name: formatting realigns the run of zone lines.
    assert_eq!(results["format_edits"], 1, "{results:#}");
}

/// The VS Code extension (editors/vscode) is whole: its manifest names files that exist, a
/// language for `.rules` files and the grammar; and the grammar tokenises every bundled ruleset,
/// through vscode-textmate and vscode-oniguruma as VS Code does (tests/editors, installed by
/// scripts/setup), exactly as the golden files in tests/editors/golden say. `ARBITER_BLESS=1`
/// writes the golden files anew after a deliberate change to the grammar.
#[test]
fn the_extension_s_grammar_tokenises_every_bundled_ruleset_as_its_golden_file() {
    let ext = root().join("editors/vscode");
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(ext.join("package.json")).expect("the manifest")).expect("JSON");
    let contributes = &manifest["contributes"];
    assert_eq!(contributes["languages"][0]["extensions"], json!([".rules"]));
    assert_eq!(contributes["grammars"][0]["scopeName"], "source.arbiter");
    for rel in [
        manifest["main"].as_str().expect("main"),
        contributes["languages"][0]["configuration"].as_str().expect("configuration"),
        contributes["grammars"][0]["path"].as_str().expect("grammar"),
    ] {
        assert!(ext.join(rel).is_file(), "{rel} is in editors/vscode");
    }
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(ext.join("language-configuration.json")).expect("readable")).expect("JSON");
    assert_eq!(config["comments"]["lineComment"], "#");

    let mut rulesets: Vec<String> = std::fs::read_dir(root().join("rulesets"))
        .expect("rulesets/")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".rules"))
        .collect();
    rulesets.sort();
    let mut args = vec![
        "tests/editors/tokenize.mjs".to_string(),
        "editors/vscode/syntaxes/arbiter.tmLanguage.json".to_string(),
    ];
    args.extend(rulesets.iter().map(|r| format!("rulesets/{r}")));
    let out = std::process::Command::new("node")
        .args(&args)
        .current_dir(root())
        .output()
        .expect("node runs (run scripts/setup)");
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "tokenize.mjs failed (run scripts/setup): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bless = std::env::var_os("ARBITER_BLESS").is_some();
    let golden_dir = root().join("tests/editors/golden");
    let sections: Vec<&str> = said.split("== rulesets/").skip(1).collect();
    assert_eq!(sections.len(), rulesets.len(), "one section per ruleset");
    let mut differ = Vec::new();
    for section in sections {
        let (name, tokens) = section.split_once('\n').expect("a header line");
        let golden = golden_dir.join(name.replace(".rules", ".tokens"));
        if bless {
            std::fs::create_dir_all(&golden_dir).expect("writable");
            std::fs::write(&golden, tokens).expect("writable");
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if want != tokens {
            let line = want
                .lines()
                .zip(tokens.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(want.lines().count().min(tokens.lines().count()));
            differ.push(format!(
                "{name}: from token {}: golden `{}`, now `{}`",
                line + 1,
                want.lines().nth(line).unwrap_or("(end)"),
                tokens.lines().nth(line).unwrap_or("(end)")
            ));
        }
        if name == "chess.rules" {
            for want in [
                "21:7-10 entity.name.type.piece.arbiter King",
                "22:3-6 keyword.other.movement.arbiter step",
                "1:1-76 comment.line.number-sign.arbiter #",
                "markup.underline.link.citation.arbiter [3.8.2]",
                "entity.name.function.label.arbiter checkmate",
                "keyword.other.verdict.arbiter loses",
            ] {
                assert!(tokens.contains(want), "chess.rules has `{want}`:\n{tokens}");
            }
        }
    }
    assert!(
        differ.is_empty(),
        "tokens differ from tests/editors/golden (ARBITER_BLESS=1 after a deliberate change):\n{}",
        differ.join("\n")
    );
}

/// Live facts as code lenses: the legal moves and perft from the setup over the `setup` line, each
/// piece's moves over the piece, worked out on a thread of their own after each edit; the client
/// is told to fetch them again when they are known, and an edit's facts replace the last ones.
#[test]
fn live_facts_follow_the_edits_as_code_lenses() {
    let path = root().join("rulesets/chess.rules");
    let uri = format!("file://{}", path.display());
    let text = std::fs::read_to_string(&path).expect("chess.rules");
    let mut s = Session::start();
    s.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {"workspace": {"codeLens": {"refreshSupport": true}}}}),
    );
    let lenses = |s: &mut Session| -> Vec<String> {
        let got = s.request("textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
        got["result"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| l["command"]["title"].as_str().map(str::to_string))
            .collect()
    };
    s.open(&uri, &text);
    let refresh = s.wait("a code lens refresh", |m| m["method"] == "workspace/codeLens/refresh");
    s.send(&json!({"jsonrpc": "2.0", "id": refresh["id"], "result": null}));
    let titles = lenses(&mut s);
    assert!(
        titles.contains(&"20 legal moves from the setup · perft 1: 20 · perft 2: 400 · perft 3: 8902".to_string()),
        "{titles:?}"
    );
    assert!(
        titles.contains(&"4 moves from the setup".to_string()),
        "the knights' moves: {titles:?}"
    );
    assert!(titles.contains(&"0 moves from the setup".to_string()), "the king's: {titles:?}");

    // Two edits in a row: the facts that stand are the last edit's.
    let (line, col) = find(&text, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let old = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".len() as u32;
    let range = json!({"start": at(line, col), "end": at(line, col + old)});
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": range, "text": "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"}]}),
    );
    let new_len = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1".len() as u32;
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
            {"range": {"start": at(line, col), "end": at(line, col + new_len)}, "text": "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}
        ]}),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let titles = lenses(&mut s);
        if titles
            .iter()
            .any(|t| t.starts_with("5 legal moves from the setup · perft 1: 5 · perft 2: 25"))
        {
            assert!(
                !titles.iter().any(|t| t.contains("legal moves") && !t.starts_with("5 legal")),
                "{titles:?}"
            );
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the last edit's facts never came: {titles:?}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }

    // An edit that breaks the ruleset: the lens says it has errors, not that it is working the
    // facts out (which it said for as long as the errors stood).
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": [
            {"range": {"start": at(0, 0), "end": at(0, 0)}, "text": "piece piece piece\n"}
        ]}),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let titles = lenses(&mut s);
        if titles == ["no legal moves or perft: the ruleset has errors"] {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the broken ruleset's lens: {titles:?}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A parameter's hover gives its default, range and purpose (go's `komi`).
#[test]
fn a_parameter_s_hover_gives_its_default_range_and_purpose() {
    let path = root().join("rulesets/go.rules");
    let uri = format!("file://{}", path.display());
    let text = std::fs::read_to_string(&path).expect("go.rules");
    let mut s = Session::start();
    s.initialize();
    s.open(&uri, &text);
    let (l, c) = find(&text, "param komi");
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at(l, c + 7)}),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(
        shown.contains("Default `7.5`, from -1000 to 1000: points white receives"),
        "{hover}"
    );
    assert!(shown.contains("--param komi=VALUE"), "{shown}");
}

/// An unused definition (the checker's W0001) is removed, all its lines, by its quick fix.
#[test]
fn an_unused_piece_is_removed_by_its_quick_fix() {
    let mut s = Session::start();
    s.initialize();
    let uri = "file:///tmp/arbiter-lsp-unused.rules";
    let text = "game \"X\" {\n  players white \"w\", black \"b\"\n}\nboard 3 x 3 squares {\n  files a..c\n  ranks 1..3\n}\npiece Man \"M\" { step forward }\npiece Ghost \"G\" {\n  step any\n}\nend {\n  stuck: no legal move -> side to move loses\n}\nsetup \"3/3/M2 w - - 0 1\"\n";
    s.open(uri, text);
    let said = s.diagnostics(uri);
    let unused = said
        .iter()
        .find(|d| d["code"] == "W0001")
        .unwrap_or_else(|| panic!("a warning for Ghost: {said:#?}"));
    let actions = s.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": unused["range"], "context": {"diagnostics": [unused]}}),
    );
    let action = &actions["result"][0];
    assert_eq!(action["title"], "remove the unused piece `Ghost`", "{actions}");
    let edit = &action["edit"]["changes"][uri][0];
    assert_eq!(edit["newText"], "");
    assert_eq!(
        edit["range"],
        json!({"start": at(8, 0), "end": at(11, 0)}),
        "the piece's three lines"
    );
}

/// Citations that are bare article numbers in a ruleset whose game block names no book get the
/// server's hint (H0001); its quick fix adds the `cite` line, after which the hint is gone and the
/// file still checks cleanly.
#[test]
fn a_missing_citation_source_is_added_by_its_quick_fix() {
    let mut s = Session::start();
    s.initialize();
    let uri = "file:///tmp/arbiter-lsp-cite.rules";
    let text = "game \"Tiny\" {\n  players white \"w\", black \"b\"\n}\nboard 3 x 3 squares {\n  files a..c\n  ranks 1..3\n}\npiece Man \"M\" { step forward [2.1] }\nend {\n  stuck: no legal move -> side to move loses [4]\n}\nsetup \"3/3/M2 w - - 0 1\"\n";
    s.open(uri, text);
    let said = s.diagnostics(uri);
    assert_eq!(said.len(), 1, "only the hint: {said:#?}");
    let hint = &said[0];
    assert_eq!(hint["code"], "H0001");
    assert_eq!(hint["severity"], 4, "a hint, not a warning");
    assert_eq!(hint["range"], json!({"start": at(0, 5), "end": at(0, 11)}), "on the game's name");
    assert!(
        hint["message"].as_str().is_some_and(|m| m.starts_with("2 citations like `[2.1]`")),
        "{hint}"
    );
    let actions = s.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": hint["range"], "context": {"diagnostics": [hint]}}),
    );
    let action = &actions["result"][0];
    assert_eq!(action["title"], "add `cite \"Tiny\"` to the game block", "{actions}");
    let edit = &action["edit"]["changes"][uri][0];
    assert_eq!(edit["range"], json!({"start": at(1, 0), "end": at(1, 0)}));
    assert_eq!(edit["newText"], "  cite \"Tiny\"\n");
    // Applied, the file has no diagnostic left.
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": edit["range"], "text": edit["newText"]}]}),
    );
    let after = s.wait("the diagnostics of version 2", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri && m["params"]["version"] == 2
    });
    assert_eq!(after["params"]["diagnostics"], json!([]), "{after}");
}

/// The extension packages as VS Code's tooling packages it (`vsce package`, pinned in
/// tests/editors): the `.vsix` holds the manifest as written, the client, the grammar, the language
/// configuration and the language client library it needs at run time.
#[test]
fn the_extension_packages_as_a_vsix() {
    let out_dir = std::env::temp_dir().join(format!("arbiter-vsix-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("a temporary directory");
    let vsix = out_dir.join("arbiter-rules.vsix");
    let vsce = root().join("tests/editors/node_modules/@vscode/vsce/vsce");
    assert!(vsce.is_file(), "scripts/setup installs @vscode/vsce in tests/editors");
    let run = std::process::Command::new("node")
        .arg(&vsce)
        .args(["package", "--allow-missing-repository", "--skip-license", "--out"])
        .arg(&vsix)
        .current_dir(root().join("editors/vscode"))
        .output()
        .expect("node runs vsce");
    assert!(
        run.status.success(),
        "vsce package: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    // What the archive holds, read with Python's zipfile (a .vsix is a zip).
    let list = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nprint('\\n'.join(z.namelist()))\nsys.stderr.write(z.read('extension/package.json').decode())",
        ])
        .arg(&vsix)
        .output()
        .expect("python3 reads the archive");
    assert!(list.status.success(), "{}", String::from_utf8_lossy(&list.stderr));
    let names = String::from_utf8_lossy(&list.stdout).to_string();
    for want in [
        "extension.vsixmanifest",
        "extension/package.json",
        "extension/extension.js",
        "extension/language-configuration.json",
        "extension/syntaxes/arbiter.tmLanguage.json",
        "extension/node_modules/vscode-languageclient/package.json",
    ] {
        assert!(names.lines().any(|n| n == want), "{want} in the .vsix: {names}");
    }
    let packed: Value = serde_json::from_slice(&list.stderr).expect("the packaged manifest is JSON");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("editors/vscode/package.json")).expect("the manifest")).expect("JSON");
    assert_eq!(packed["contributes"], written["contributes"]);
    assert_eq!(packed["main"], written["main"]);
    let _ = std::fs::remove_dir_all(&out_dir);
}

/// A file of 30,000 declarations takes a while to check; the check runs off the message loop, so
/// a completion asked right after an edit is answered before that edit's diagnostics are published, and
/// of a burst of edits the newest is the one whose diagnostics come last.
#[test]
fn a_long_check_holds_up_neither_answers_nor_the_newest_edit() {
    let mut s = Session::start();
    s.initialize();
    let uri = "file:///tmp/arbiter-lsp-large.rules";
    let mut text = std::fs::read_to_string(root().join("rulesets/chess.rules")).expect("chess.rules");
    for i in 0..30_000 {
        text.push_str(&format!("zone area_{i} = rank {}\n", i % 8 + 1));
    }
    s.open(uri, &text);
    // A question that costs little (what may follow in the game block, near the top): answered
    // while the whole file is being checked, before its diagnostics.
    let (l, _) = find(&text, "notation san");
    let done = s.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": at(l, 2)}),
    );
    let labels: Vec<&str> = done["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["label"].as_str())
        .collect();
    assert!(labels.contains(&"notation") && labels.contains(&"players"), "{labels:?}");
    assert!(
        s.backlog.borrow().iter().all(|m| m["method"] != "textDocument/publishDiagnostics"),
        "the completion was answered while the file was being checked"
    );
    // Five edits in a row (each adds a line): the last diagnostics published are the fifth's.
    let lines = text.lines().count() as u32;
    for version in 2..=6 {
        s.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"range": {"start": at(lines, 0), "end": at(lines, 0)}, "text": format!("zone extra_{version} = rank 1\n")}]}),
        );
    }
    let last = s.wait("the diagnostics of version 6", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 6
    });
    let said = last["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
    assert_eq!(said.len(), 1_001, "a thousand warnings, and one counting the rest");
    let rest = said[1_000]["message"].as_str().unwrap_or_default();
    assert!(rest.starts_with("… and 29005 more (0 errors, 29005 warnings)"), "{rest}");
    // No older check is published after the newest (the server was asked something and answered
    // meanwhile).
    let seen = s.backlog.borrow().len();
    let after = s.request("shutdown", json!(null));
    assert!(after.get("error").is_none(), "{after}");
    let stale: Vec<Value> = s
        .backlog
        .borrow()
        .iter()
        .skip(seen)
        .filter(|m| m["params"]["uri"] == uri)
        .cloned()
        .collect();
    assert!(
        stale.is_empty(),
        "published after the newest: {:?}",
        stale.iter().map(|m| &m["params"]["version"]).collect::<Vec<_>>()
    );
}

/// A server whose output is closed (the editor has gone) exits at its next answer instead of
/// reading on; one whose input ends without `exit` exits too, with code 1.
#[test]
fn a_server_without_its_client_exits() {
    let start = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("lsp")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("arbiter lsp starts")
    };
    let wait = |child: &mut std::process::Child| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            if let Some(status) = child.try_wait().expect("waits") {
                return status.code();
            }
            assert!(std::time::Instant::now() < deadline, "still running without its client");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    };
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}).to_string();
    let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());

    let mut closed = start();
    drop(closed.stdout.take());
    let mut stdin = closed.stdin.take().expect("piped");
    let _ = stdin.write_all(frame.as_bytes());
    let _ = stdin.flush();
    assert_eq!(wait(&mut closed), Some(1), "output closed: an error exit, not a signal");

    let mut ended = start();
    let mut stdin = ended.stdin.take().expect("piped");
    let _ = stdin.write_all(frame.as_bytes());
    drop(stdin);
    assert_eq!(wait(&mut ended), Some(1), "input ended without exit");
}

/// The next `window/logMessage` or `window/showMessage` (by `method`) whose text holds `needle`.
fn said(s: &Session, method: &str, needle: &str) -> Value {
    s.wait(&format!("{method} saying `{needle}`"), |m| {
        m["method"] == method && m["params"]["message"].as_str().is_some_and(|t| t.contains(needle))
    })
}

/// The bundled tic-tac-toe ruleset's text.
fn tic_tac_toe() -> String {
    std::fs::read_to_string(root().join("rulesets/tic-tac-toe.rules")).expect("tic-tac-toe.rules")
}

/// A document over a ruleset's limit (4 MiB, as for `arbiter check`) is held but not checked: one
/// diagnostic says so and the features answer nothing, until an edit brings it under the limit.
/// A document is never held past the largest message: a change that would grow it further is
/// not applied, and the user is told the server's copy is out of date.
#[test]
fn a_document_over_the_ruleset_limit_is_held_unchecked_and_not_grown_without_bound() {
    let mut s = Session::start();
    s.initialize();
    let uri = "file:///tmp/arbiter-lsp-over-the-limit.rules";
    let rules = tic_tac_toe();
    let mut text = rules.clone();
    while text.len() <= 4 << 20 {
        text.push_str("piece P \"P\" { leap (1,2) }\n");
    }
    s.open(uri, &text);
    let said_once = s.diagnostics(uri);
    assert_eq!(said_once.len(), 1, "{said_once:#?}");
    assert_eq!(said_once[0]["range"]["start"], at(0, 0));
    let message = said_once[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("not checked") && message.contains("larger than the limit of 4"),
        "{message}"
    );
    let hover = s.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": at(0, 1)}));
    assert_eq!(hover["result"], Value::Null, "{hover}");
    let outline = s.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    assert_eq!(outline["result"], json!([]), "{outline}");
    let tokens = s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}}));
    assert_eq!(tokens["result"]["data"], json!([]), "{tokens}");

    // Cut back to the ruleset: checked again.
    let end = text.lines().count() as u32;
    let from = rules.lines().count() as u32;
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": {"start": at(from, 0), "end": at(end, 0)}, "text": ""}]}),
    );
    let checked = s.wait("the diagnostics of version 2", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 2
    });
    assert_eq!(checked["params"]["diagnostics"], json!([]), "{checked}");
    let outline = s.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    assert!(outline["result"].as_array().is_some_and(|o| !o.is_empty()), "{outline}");

    // Two inserts of 20 MB: the first is held (unchecked), the second would pass 32 MiB.
    let chunk = "#".repeat(20 << 20);
    for version in [3, 4] {
        s.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"range": {"start": at(0, 0), "end": at(0, 0)}, "text": chunk}]}),
        );
    }
    said(&s, "window/logMessage", "more than the 33554432 the server holds");
    said(&s, "window/showMessage", "reopen");
}

/// After a frame the server cannot read — its length not a number, missing, too small, given
/// twice, or its headers without the blank line — it answers with an error and serves the next
/// well-framed message.
#[test]
fn after_a_frame_it_cannot_read_the_server_serves_the_next_message() {
    let mut s = Session::start();
    s.initialize();
    let body = r#"{"jsonrpc":"2.0","id":999,"method":"shutdown"}"#;
    let bad = [
        format!("Content-Length: abc\r\n\r\n{body}"),
        format!("Content-Type: x\r\n\r\n{body}"),
        format!("Content-Length: 10\r\n\r\n{body}"),
        format!("Content-Length: {}\r\nContent-Length: 9\r\n\r\n{body}", body.len()),
        format!("Content-Length: {}\r\n{body}", body.len()),
    ];
    for frame in bad {
        s.raw(frame.as_bytes());
        s.wait("an error for the bad frame", |m| m["error"]["code"] == -32700 && m["id"].is_null());
        let next = s.request("workspace/frobnicate", json!({}));
        assert_eq!(next["error"]["code"], -32601, "after {frame:?}: {next}");
    }
    let bye = s.request("shutdown", Value::Null);
    assert!(bye.get("error").is_none(), "no bad frame's shutdown was executed: {bye}");
}

/// Changes the server cannot apply as sent are never dropped silently: a range whose start is
/// after its end is taken with the two swapped and logged; a change whose parameters do not
/// read, or to a document that is not open, is logged and the user told to reopen the file.
#[test]
fn a_change_the_server_cannot_apply_as_sent_is_said() {
    let mut s = Session::start();
    s.initialize();
    let uri = "file:///tmp/arbiter-lsp-drift.rules";
    let text = tic_tac_toe();
    s.open(uri, &text);
    s.diagnostics(uri);
    // The first line removed, its range written end first.
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": {"start": at(1, 0), "end": at(0, 0)}, "text": ""}]}),
    );
    said(&s, "window/logMessage", "start after its end");
    let outline = s.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let (line, _) = find(&text, "players cross");
    assert_eq!(outline["result"][0]["name"], "cross", "{outline}");
    assert_eq!(
        outline["result"][0]["selectionRange"]["start"]["line"],
        line - 1,
        "the first line is gone, every other a line up: {outline}"
    );

    for (params, why) in [
        (
            json!({"textDocument": {"uri": uri, "version": 3},
                   "contentChanges": [{"range": {"start": at(0, 0), "end": {"line": -1, "character": 0}}, "text": "x"}]}),
            "invalid value",
        ),
        (
            json!({"textDocument": {"uri": "file:///tmp/never-opened.rules", "version": 1},
                   "contentChanges": [{"text": "x"}]}),
            "is not open",
        ),
    ] {
        s.notify("textDocument/didChange", params);
        said(&s, "window/logMessage", why);
        said(&s, "window/showMessage", "reopen");
    }
}

/// JSON-RPC 2.0 and the protocol's order: another `jsonrpc` is refused and not executed; a second
/// `initialize` is refused; notifications before `initialize` are dropped; an id that is neither
/// a string nor an exact integer is refused with a null id.
#[test]
fn messages_outside_the_protocol_are_refused_and_not_executed() {
    let mut s = Session::start();
    let uri = "file:///tmp/arbiter-lsp-early.rules";
    let text = tic_tac_toe();
    s.open(uri, &text);
    said(&s, "window/logMessage", "before `initialize`");
    let init = s.initialize();
    assert!(init.get("result").is_some(), "{init}");
    let again = s.initialize();
    assert_eq!(again["error"]["code"], -32600, "{again}");
    let hover = s.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": at(0, 0)}));
    assert!(
        hover["error"]["message"].as_str().is_some_and(|m| m.contains("not open")),
        "the early didOpen was dropped: {hover}"
    );

    // Another version: a request refused with its id, a notification logged; neither executed.
    s.send(&json!({"jsonrpc": "1.0", "id": 77, "method": "shutdown"}));
    let refused = s.wait("the refusal", |m| m["id"] == 77);
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    s.send(&json!({"method": "textDocument/didOpen",
                   "params": {"textDocument": {"uri": uri, "languageId": "arbiter-rules", "version": 1, "text": text}}}));
    said(&s, "window/logMessage", "its `jsonrpc` is missing");
    let hover = s.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": at(0, 0)}));
    assert!(
        hover["error"]["message"].as_str().is_some_and(|m| m.contains("not open")),
        "the didOpen without `jsonrpc` was dropped: {hover}"
    );

    // Ids that could not be echoed back as they came.
    for id in ["1.5", "123456789012345678901234567890"] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"shutdown"}}"#);
        s.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
        let e = s.wait("the refusal", |m| m["error"]["code"] == -32600);
        assert!(e["id"].is_null(), "{e}");
    }
    let bye = s.request("shutdown", Value::Null);
    assert!(bye.get("error").is_none(), "none of the refused shutdowns was executed: {bye}");
}
