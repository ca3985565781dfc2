//! `arbiter lsp`: a language server for `.rules` files over stdio, built on `lsp-types` for the
//! protocol's shapes and a small bounded transport of our own ([`transport`]), so that a message
//! that cannot be read is answered with a JSON-RPC error and the session goes on.
//!
//! What it offers for each open file: the checker's diagnostics as the text changes (codes,
//! related locations, help; a "did you mean" applied as a quick fix), hover (a keyword's entry in
//! the manual; a name's definition), completion (the grammar's keywords and the names defined),
//! go to definition, references and rename of the names a ruleset defines (kinds, zones,
//! directions, parameters, counts, phases, end labels, time controls, players), the outline, and
//! formatting by [`crate::syntax::format`].
//!
//! Positions are UTF-16 code units within a line, as the protocol counts them by default.

pub mod transport;

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use lsp_types as lsp;
use serde_json::{Value, json};

use crate::diag::{FileId, Severity};
use crate::syntax::TOP_KEYWORDS;
use crate::syntax::ast;

/// JSON-RPC error codes the server answers with.
mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const SERVER_NOT_INITIALIZED: i64 = -32002;
    pub const REQUEST_FAILED: i64 = -32803;
}

/// The manual, whose sections hover shows.
const MANUAL: &str = include_str!("../../../rulesets/README.md");
/// The rules of the bundled games, whose clauses hover on a citation shows.
const RULES: &str = include_str!("../../../rulesets/RULES.md");
/// The grammar, whose literals are the keywords completion offers.
const GRAMMAR: &str = include_str!("../syntax/grammar.pest");

/// The largest document the server checks: the command line's limit for a ruleset.
const RULES_LIMIT: usize = crate::input::RULES_LIMIT as usize;

/// The largest document the server holds (one larger than [`RULES_LIMIT`] is held unchecked, so
/// that the edits that shrink it can be applied): the largest a message can bring whole.
const MAX_DOCUMENT: usize = transport::MAX_MESSAGE;

/// An open document.
#[derive(Clone)]
struct Doc {
    text: String,
    version: i32,
}

impl Doc {
    /// Larger than a ruleset may be: not checked, and the features answer nothing for it.
    fn too_large(&self) -> bool {
        self.text.len() > RULES_LIMIT
    }
}

/// A request's failure: a JSON-RPC error code and message.
type Failure = (i64, String);

/// Held by each whole check off the message loop (diagnostics, live facts), so that one runs at a
/// time: a check of a 4 MB ruleset holds about 380 MB at its peak, and the two at once held twice
/// that.
static CHECKING: Mutex<()> = Mutex::new(());

/// The output, shared by the message loop and the thread that works out live facts.
type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(output: &Output, message: &Value) -> bool {
    let Ok(mut out) = output.lock() else { return false };
    transport::write(&mut *out, &message.to_string()).is_ok()
}

/// The server's state between messages.
struct Server {
    docs: HashMap<String, Doc>,
    initialized: bool,
    shutdown: bool,
    /// `exit` arrived: the loop ends.
    exit: bool,
    /// Live facts worked out so far, by document.
    facts: Arc<Mutex<HashMap<String, Facts>>>,
    /// Per document, the flag that cancels the facts being worked out for an older version.
    working: HashMap<String, Arc<AtomicBool>>,
    /// The client asks again for code lenses when told (`workspace/codeLens/refresh`).
    lens_refresh: bool,
    /// Where the open documents go to be checked, off the message loop.
    checks: Posting<(), Snapshot>,
    /// Where a document's newest version goes to have its live facts worked out.
    fact_jobs: Posting<String, FactJob>,
    /// The newest snapshot's number: a check of an older one is dropped unpublished.
    generation: Arc<AtomicU64>,
}

/// A mailbox that keeps, per key, only the newest thing sent: a sender never waits, and what
/// the reader has not taken yet is replaced, not queued. (Queued, every version of a large
/// document a fast typist made while a check ran was held at once: gigabytes.)
struct Mailbox<K, T> {
    slot: Mutex<(HashMap<K, T>, bool)>,
    ready: std::sync::Condvar,
}

/// The sending end of a [`Mailbox`]; dropped, the mailbox closes and the reader ends.
struct Posting<K, T>(Arc<Mailbox<K, T>>);

fn mailbox<K, T>() -> (Posting<K, T>, Arc<Mailbox<K, T>>) {
    let m = Arc::new(Mailbox {
        slot: Mutex::new((HashMap::new(), false)),
        ready: std::sync::Condvar::new(),
    });
    (Posting(m.clone()), m)
}

impl<K: std::hash::Hash + Eq, T> Posting<K, T> {
    fn send(&self, key: K, value: T) {
        let mut slot = self.0.slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        slot.0.insert(key, value);
        self.0.ready.notify_one();
    }
}

impl<K, T> Drop for Posting<K, T> {
    fn drop(&mut self) {
        self.0.slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).1 = true;
        self.0.ready.notify_all();
    }
}

impl<K: std::hash::Hash + Eq + Clone, T> Mailbox<K, T> {
    /// The newest thing sent under some key, waiting for one; `None` once closed and empty.
    fn recv(&self) -> Option<(K, T)> {
        let mut slot = self.slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        loop {
            if let Some(key) = slot.0.keys().next().cloned() {
                return slot.0.remove(&key).map(|v| (key, v));
            }
            if slot.1 {
                return None;
            }
            slot = self.ready.wait(slot).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

/// A document's version whose live facts are wanted.
struct FactJob {
    text: String,
    version: i32,
    cancel: Arc<AtomicBool>,
    refresh: bool,
}

/// The open documents as they stood after one change, to be checked.
struct Snapshot {
    generation: u64,
    docs: Vec<(String, Checkable)>,
}

/// An open document as the checker gets it.
enum Checkable {
    Text(Doc),
    /// Over [`RULES_LIMIT`]: not checked, and its text not copied.
    TooLarge {
        size: usize,
        version: i32,
    },
}

/// Checks the open documents on a thread of its own and publishes their diagnostics, so that a
/// long check (a file of thousands of items) never holds up hover, completion or the next edit.
/// Only the newest snapshot waits while it works (see [`Mailbox`]); a check overtaken by an
/// edit is not published (the output's lock is held from the test of the generation to the write,
/// so a document closed meanwhile never gets diagnostics after its empty list).
fn check_documents(snapshots: Arc<Mailbox<(), Snapshot>>, generation: Arc<AtomicU64>, output: Output) {
    while let Some(((), snapshot)) = snapshots.recv() {
        // A file that extends an open one is checked against its unsaved text.
        // (One too large to check is read from the disk, where the limit holds as for the CLI.)
        let open: HashMap<PathBuf, &str> = snapshot
            .docs
            .iter()
            .filter_map(|(uri, doc)| match doc {
                Checkable::Text(doc) => Some((crate::check::lexically_normal(&path_of(uri)?), doc.text.as_str())),
                Checkable::TooLarge { .. } => None,
            })
            .collect();
        for (uri, doc) in &snapshot.docs {
            if generation.load(Ordering::SeqCst) != snapshot.generation {
                break;
            }
            let notes = match doc {
                Checkable::Text(doc) => diagnose(uri, doc, &open),
                &Checkable::TooLarge { size, version } => vec![too_large_note(uri, size, version)],
            };
            let Ok(mut out) = output.lock() else { return };
            if generation.load(Ordering::SeqCst) != snapshot.generation {
                break;
            }
            for note in notes {
                if transport::write(&mut *out, &note.to_string()).is_err() {
                    return;
                }
            }
        }
    }
}

/// Runs a session on `input` and `output` until `exit` or the end of the input; the exit code
/// the protocol asks for (0 after `shutdown`, 1 otherwise).
pub fn run(mut input: impl BufRead, output: impl Write + Send + 'static) -> i32 {
    let output: Output = Arc::new(Mutex::new(Box::new(output)));
    let (checks, snapshots) = mailbox();
    let generation = Arc::new(AtomicU64::new(0));
    let checker = {
        let (generation, output) = (generation.clone(), output.clone());
        std::thread::spawn(move || check_documents(snapshots, generation, output))
    };
    let facts: Arc<Mutex<HashMap<String, Facts>>> = Arc::default();
    let (fact_jobs, jobs) = mailbox();
    {
        let (facts, output) = (facts.clone(), output.clone());
        // (Not joined: cancelled at the end, its work stops at the next test of the flag.)
        std::thread::spawn(move || work_out_facts(&jobs, &facts, &output));
    }
    let mut server = Server {
        docs: HashMap::new(),
        initialized: false,
        shutdown: false,
        exit: false,
        facts,
        working: HashMap::new(),
        lens_refresh: false,
        checks,
        fact_jobs,
        generation,
    };
    let result = serve(&mut server, &mut input, &output);
    for flag in server.working.values() {
        flag.store(true, Ordering::Relaxed);
    }
    // No check is wanted any more: the one under way is not published, and the thread ends.
    server.generation.fetch_add(1, Ordering::SeqCst);
    drop(server);
    // A panic of the checker's (its diagnostics stopped with it) is raised here, where the
    // session ends, not lost with its thread.
    if let Err(panic) = checker.join() {
        std::panic::resume_unwind(panic);
    }
    result
}

fn serve(server: &mut Server, input: &mut impl BufRead, output: &Output) -> i32 {
    let mut reader = transport::Reader::new(input);
    loop {
        let frame = match reader.read() {
            Ok(f) => f,
            Err(_) => return 1,
        };
        let body = match frame {
            transport::Frame::End => return 1,
            transport::Frame::Bad(why) => {
                if !send(output, &error_response(Value::Null, code::PARSE_ERROR, &why)) {
                    return 1;
                }
                continue;
            }
            transport::Frame::Message(m) => m,
        };
        let replies = match serde_json::from_str::<Value>(&body) {
            Ok(message) => server.handle(message),
            Err(e) => vec![error_response(
                Value::Null,
                code::PARSE_ERROR,
                &format!("the message is not JSON: {e}"),
            )],
        };
        for reply in replies {
            if !send(output, &reply) {
                return 1;
            }
        }
        if server.exit {
            return if server.shutdown { 0 } else { 1 };
        }
    }
}

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn notification(method: &str, params: impl serde::Serialize) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

/// A message's parameters, taken out of it (a document's whole text is not copied).
fn params<T: serde::de::DeserializeOwned>(message: &mut Value) -> Result<T, Failure> {
    serde_json::from_value(message.get_mut("params").map_or(Value::Null, Value::take))
        .map_err(|e| (code::INVALID_PARAMS, format!("the parameters do not fit: {e}")))
}

/// The replies to a notification that is dropped: a logged warning naming it and why, and if it
/// would have changed the server's copy of a document (`out_of_step`), a message to the user too.
fn dropped(method: &str, why: &str, out_of_step: bool) -> Vec<Value> {
    let mut replies = vec![log_warning(&format!("`{method}` was ignored: {why}"))];
    if out_of_step {
        replies.push(show_warning(&format!(
            "arbiter: a change to a document could not be applied ({why}); the server's copy may be out of date: close and reopen the file"
        )));
    }
    replies
}

/// What a feature answers for a document too large to check: no hover, no locations, no items.
fn empty_answer(method: &str) -> Option<Value> {
    match method {
        "textDocument/hover"
        | "textDocument/definition"
        | "textDocument/references"
        | "textDocument/rename"
        | "textDocument/prepareRename" => Some(Value::Null),
        "textDocument/completion"
        | "textDocument/documentSymbol"
        | "textDocument/formatting"
        | "textDocument/codeLens"
        | "textDocument/foldingRange"
        | "textDocument/codeAction" => Some(json!([])),
        "textDocument/semanticTokens/full" => Some(json!({"data": []})),
        _ => None,
    }
}

/// A `window/logMessage` warning: how the server says it dropped a notification.
fn log_warning(message: &str) -> Value {
    notification(
        "window/logMessage",
        lsp::LogMessageParams {
            typ: lsp::MessageType::WARNING,
            message: message.to_string(),
        },
    )
}

/// A `window/showMessage` warning: for what the user must act on.
fn show_warning(message: &str) -> Value {
    notification(
        "window/showMessage",
        lsp::ShowMessageParams {
            typ: lsp::MessageType::WARNING,
            message: message.to_string(),
        },
    )
}

/// A message's `jsonrpc` member as words: `"1.0"`, or `missing`.
fn jsonrpc_of(message: &Value) -> String {
    message.get("jsonrpc").map_or_else(|| "missing".into(), Value::to_string)
}

impl Server {
    /// The replies (responses and notifications) to one message.
    ///
    /// Only JSON-RPC 2.0 is served: a message that says another version (or none) is refused
    /// unexecuted, a request with an error and a notification with a logged warning. An id is a
    /// string or an integer (one that JSON numbers hold exactly): another could not be echoed
    /// back as it came (`1e+29` for a 30-digit id), so the request is refused with a null id.
    fn handle(&mut self, mut message: Value) -> Vec<Value> {
        let method = message.get("method").and_then(Value::as_str).map(str::to_string);
        let id = message.get("id").cloned();
        let version_ok = message.get("jsonrpc").and_then(Value::as_str) == Some("2.0");
        match (method, id) {
            (Some(_), Some(id)) if !(id.is_i64() || id.is_u64() || id.is_string()) => vec![error_response(
                Value::Null,
                code::INVALID_REQUEST,
                &format!("the request's id {id} is neither a string nor an integer"),
            )],
            (Some(method), Some(id)) if !version_ok => vec![error_response(
                id,
                code::INVALID_REQUEST,
                &format!("`{method}` is refused: its `jsonrpc` is {}, not \"2.0\"", jsonrpc_of(&message)),
            )],
            (Some(method), None) if !version_ok => vec![log_warning(&format!(
                "`{method}` was ignored: its `jsonrpc` is {}, not \"2.0\"",
                jsonrpc_of(&message)
            ))],
            (Some(method), None) if !self.initialized && method != "exit" => {
                vec![log_warning(&format!("`{method}` was ignored: it came before `initialize`"))]
            }
            (Some(method), Some(id)) => {
                let result = if !self.initialized && method != "initialize" {
                    Err((code::SERVER_NOT_INITIALIZED, "the first request must be `initialize`".into()))
                } else if self.shutdown {
                    Err((code::INVALID_REQUEST, "the server has been shut down".into()))
                } else if self.initialized && method == "initialize" {
                    Err((code::INVALID_REQUEST, "the server is already initialized".into()))
                } else {
                    self.request(&method, &mut message)
                };
                vec![match result {
                    Ok(value) => json!({"jsonrpc": "2.0", "id": id, "result": value}),
                    Err((code, why)) => error_response(id, code, &why),
                }]
            }
            (Some(method), None) => self.notify(&method, &mut message),
            // A response to a request of ours (we send none that need one), or not JSON-RPC.
            (None, Some(_)) if message.get("result").is_some() || message.get("error").is_some() => Vec::new(),
            (None, id) => vec![error_response(
                id.unwrap_or(Value::Null),
                code::INVALID_REQUEST,
                "a message without a method",
            )],
        }
    }

    fn request(&mut self, method: &str, message: &mut Value) -> Result<Value, Failure> {
        if let Some(uri) = message.pointer("/params/textDocument/uri").and_then(Value::as_str)
            && self.docs.get(uri).is_some_and(Doc::too_large)
            && let Some(nothing) = empty_answer(method)
        {
            return Ok(nothing);
        }
        match method {
            "initialize" => {
                self.initialized = true;
                self.lens_refresh = message
                    .pointer("/params/capabilities/workspace/codeLens/refreshSupport")
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                Ok(json!({"capabilities": capabilities(), "serverInfo": {"name": "arbiter", "version": env!("CARGO_PKG_VERSION")}}))
            }
            "shutdown" => {
                self.shutdown = true;
                Ok(Value::Null)
            }
            "textDocument/hover" => {
                let p: lsp::HoverParams = params(message)?;
                let at = &p.text_document_position_params;
                Ok(to_value(&self.hover(at.text_document.uri.as_str(), at.position)?))
            }
            "textDocument/completion" => {
                let p: lsp::CompletionParams = params(message)?;
                let at = &p.text_document_position;
                Ok(to_value(&self.completion(at.text_document.uri.as_str(), at.position)?))
            }
            "textDocument/definition" => {
                let p: lsp::GotoDefinitionParams = params(message)?;
                let at = &p.text_document_position_params;
                Ok(to_value(&self.definition(at.text_document.uri.as_str(), at.position)?))
            }
            "textDocument/references" => {
                let p: lsp::ReferenceParams = params(message)?;
                let at = &p.text_document_position;
                let uri = at.text_document.uri.as_str();
                let found = self.uses(uri, at.position, p.context.include_declaration)?;
                Ok(to_value(
                    &found.map(|all| all.into_iter().map(|(u, r)| location(&u, r)).collect::<Vec<_>>()),
                ))
            }
            "textDocument/rename" => {
                let p: lsp::RenameParams = params(message)?;
                let at = &p.text_document_position;
                Ok(to_value(&self.rename(at.text_document.uri.as_str(), at.position, &p.new_name)?))
            }
            "textDocument/prepareRename" => {
                let p: lsp::TextDocumentPositionParams = params(message)?;
                let doc = self.doc(p.text_document.uri.as_str())?;
                let names = Names::of(&doc.text);
                Ok(to_value(&names.defined_at(&doc.text, p.position).map(|(_, r)| r)))
            }
            "textDocument/documentSymbol" => {
                let p: lsp::DocumentSymbolParams = params(message)?;
                let doc = self.doc(p.text_document.uri.as_str())?;
                Ok(to_value(&outline(&doc.text)))
            }
            "textDocument/formatting" => {
                let p: lsp::DocumentFormattingParams = params(message)?;
                let doc = self.doc(p.text_document.uri.as_str())?;
                match crate::syntax::format::format(&doc.text) {
                    Ok(new) if new == doc.text => Ok(json!([])),
                    Ok(new) => Ok(to_value(&vec![lsp::TextEdit {
                        range: lsp::Range::new(lsp::Position::new(0, 0), position_of(&doc.text, doc.text.len())),
                        new_text: new,
                    }])),
                    Err(e) => Err((code::REQUEST_FAILED, e.to_string())),
                }
            }
            "textDocument/codeLens" => {
                let p: lsp::CodeLensParams = params(message)?;
                let uri = p.text_document.uri.as_str();
                let doc = self.doc(uri)?;
                let facts = self
                    .facts
                    .lock()
                    .map_err(|_| (code::REQUEST_FAILED, "the facts are lost".to_string()))?;
                Ok(to_value(&lenses(&doc.text, facts.get(uri).filter(|f| f.version == doc.version))))
            }
            "textDocument/foldingRange" => {
                let p: lsp::FoldingRangeParams = params(message)?;
                Ok(to_value(&folding(&self.doc(p.text_document.uri.as_str())?.text)))
            }
            "textDocument/semanticTokens/full" => {
                let p: lsp::SemanticTokensParams = params(message)?;
                let uri = p.text_document.uri.as_str();
                let mut defs = Vec::new();
                for (_, text) in self.family(uri) {
                    defs.extend(Names::of(&text).defs.into_iter().map(|d| (d.name, d.what)));
                }
                Ok(to_value(&lsp::SemanticTokens {
                    result_id: None,
                    data: semantic_tokens(&self.doc(uri)?.text, &defs),
                }))
            }
            "textDocument/codeAction" => {
                let p: lsp::CodeActionParams = params(message)?;
                let doc = self.doc(p.text_document.uri.as_str())?;
                Ok(to_value(&quick_fixes(&p, &doc.text)))
            }
            _ => Err((code::METHOD_NOT_FOUND, format!("`{method}` is not a request this server answers"))),
        }
    }

    fn notify(&mut self, method: &str, message: &mut Value) -> Vec<Value> {
        match method {
            "exit" => {
                self.exit = true;
                Vec::new()
            }
            "textDocument/didOpen" => {
                let p = match params::<lsp::DidOpenTextDocumentParams>(message) {
                    Ok(p) => p,
                    Err((_, why)) => return dropped(method, &why, true),
                };
                let d = p.text_document;
                let uri = d.uri.as_str().to_string();
                self.docs.insert(
                    uri.clone(),
                    Doc {
                        text: d.text,
                        version: d.version,
                    },
                );
                // Checked first: the diagnostics take the check's turn before the live facts.
                self.check_all();
                self.work_out_facts(&uri);
                Vec::new()
            }
            "textDocument/didChange" => {
                let p = match params::<lsp::DidChangeTextDocumentParams>(message) {
                    Ok(p) => p,
                    Err((_, why)) => return dropped(method, &why, true),
                };
                let uri = p.text_document.uri.as_str().to_string();
                let Some(doc) = self.docs.get_mut(&uri) else {
                    return dropped(method, &format!("`{uri}` is not open"), true);
                };
                let mut replies = Vec::new();
                let mut text = std::mem::take(&mut doc.text);
                // Where the text's lines start, kept through the edits: one change may carry
                // thousands of edits, and finding each one's line from the top of a large
                // document took minutes.
                let mut starts: Option<Vec<usize>> = None;
                for (n, change) in p.content_changes.into_iter().enumerate() {
                    let edit = match change.range {
                        None => None,
                        // A range whose start is after its end is taken with its ends swapped, as
                        // VS Code's own `Range` takes one: the edit the client most likely applied to
                        // its buffer, and the copy stays in step with it. Said in the log all the same.
                        Some(r) => {
                            let starts = starts.get_or_insert_with(|| line_starts(&text));
                            let (mut a, mut b) = (offset_in(&text, starts, r.start), offset_in(&text, starts, r.end));
                            if a > b {
                                replies.push(log_warning(&format!(
                                    "`{method}`: change {} of `{uri}` has its start after its end; taken with the two swapped",
                                    n + 1
                                )));
                                std::mem::swap(&mut a, &mut b);
                            }
                            Some((a, b))
                        }
                    };
                    let size = edit.map_or(0, |(a, b)| text.len() - (b - a)) + change.text.len();
                    if size > MAX_DOCUMENT {
                        // Held no further: the change is not applied, and the copy is out of step.
                        replies.extend(dropped(
                            method,
                            &format!(
                                "change {} would make `{uri}` {size} bytes, more than the {MAX_DOCUMENT} the server holds",
                                n + 1
                            ),
                            true,
                        ));
                        break;
                    }
                    match edit {
                        None => {
                            text = change.text;
                            starts = None;
                        }
                        Some((a, b)) => {
                            if let Some(starts) = &mut starts {
                                edit_starts(starts, a, b, &change.text);
                            }
                            text.replace_range(a..b, &change.text);
                        }
                    }
                }
                doc.text = text;
                doc.version = p.text_document.version;
                // Checked first: the diagnostics take the check's turn before the live facts.
                self.check_all();
                self.work_out_facts(&uri);
                replies
            }
            "textDocument/didClose" => {
                let p = match params::<lsp::DidCloseTextDocumentParams>(message) {
                    Ok(p) => p,
                    Err((_, why)) => return dropped(method, &why, false),
                };
                let uri = p.text_document.uri.as_str().to_string();
                self.docs.remove(&uri);
                if let Some(flag) = self.working.remove(&uri) {
                    flag.store(true, Ordering::Relaxed);
                }
                if let Ok(mut facts) = self.facts.lock() {
                    facts.remove(&uri);
                }
                self.check_all();
                vec![notification(
                    "textDocument/publishDiagnostics",
                    json!({"uri": uri, "diagnostics": []}),
                )]
            }
            _ => Vec::new(),
        }
    }

    /// Sends a document's newest version to have its live facts worked out (by
    /// [`work_out_facts`], off the message loop), cancelling the work for its older version.
    fn work_out_facts(&mut self, uri: &str) {
        let Some(doc) = self.docs.get(uri) else { return };
        if let Some(old) = self.working.remove(uri) {
            old.store(true, Ordering::Relaxed);
        }
        if doc.too_large() {
            return;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        self.working.insert(uri.to_string(), cancel.clone());
        let job = FactJob {
            text: doc.text.clone(),
            version: doc.version,
            cancel,
            refresh: self.lens_refresh,
        };
        self.fact_jobs.send(uri.to_string(), job);
    }

    fn doc(&self, uri: &str) -> Result<&Doc, Failure> {
        self.docs
            .get(uri)
            .ok_or_else(|| (code::REQUEST_FAILED, format!("`{uri}` is not open")))
    }

    /// Sends every open document to be checked (one that extends a changed file changes too);
    /// any check of an older state still under way is abandoned.
    fn check_all(&self) {
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let mut docs: Vec<(String, Checkable)> = self
            .docs
            .iter()
            .map(|(u, d)| {
                let what = if d.too_large() {
                    Checkable::TooLarge {
                        size: d.text.len(),
                        version: d.version,
                    }
                } else {
                    Checkable::Text(d.clone())
                };
                (u.clone(), what)
            })
            .collect();
        docs.sort_by(|a, b| a.0.cmp(&b.0));
        self.checks.send((), Snapshot { generation, docs });
    }

    fn hover(&self, uri: &str, at: lsp::Position) -> Result<Option<lsp::Hover>, Failure> {
        let doc = self.doc(uri)?;
        let markdown = |value: String, range: lsp::Range| {
            Some(lsp::Hover {
                contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value,
                }),
                range: Some(range),
            })
        };
        if let Some((cite, a, b)) = cite_at(&doc.text, offset_of(&doc.text, at)) {
            let file = path_of(uri).and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_string()));
            return Ok(citation(file.as_deref(), &cite).and_then(|t| markdown(t, range_of(&doc.text, a, b))));
        }
        let Some((word, range)) = word_at(&doc.text, at) else {
            return Ok(None);
        };
        if let Some((_, text, def)) = self.find_def(uri, at)? {
            let mut value = format!(
                "**{}** `{}`\n\n```\n{}\n```",
                def.what,
                def.name,
                source_lines(&text, def.item.0, def.item.1, 16)
            );
            // Pictures need the checked rules: checked once, for the kinds of name that have one.
            let engine = || checked_engine(uri, &doc.text);
            let picture = match def.what {
                "piece" => engine().and_then(|e| {
                    let parts: Vec<String> = [piece_words(e.rules(), &def.name), piece_board(&e, &def.name)]
                        .into_iter()
                        .flatten()
                        .collect();
                    (!parts.is_empty()).then(|| parts.join("\n\n"))
                }),
                "zone" => engine().and_then(|e| zone_boards(e.rules(), &def.name)),
                "parameter" => parameter_facts(&text, &def.name),
                _ => None,
            };
            if let Some(board) = picture {
                value.push_str(&format!("\n\n{board}"));
            }
            return Ok(markdown(value, range));
        }
        Ok(manual_entry(&word).and_then(|entry| markdown(entry, range)))
    }

    /// What may be written at the cursor: inside the `setup` string, the pieces' FEN letters;
    /// elsewhere what the grammar accepts there ([`crate::syntax::expected_at`]): its keywords with
    /// the manual's line, punctuation, and where it reads a name, the names the rules define
    /// (across `extends`). Where the text before the cursor does not read (a line being broken),
    /// the places a rule of thumb knows: items at the top, verdicts after `->`, else everything.
    fn completion(&self, uri: &str, at: lsp::Position) -> Result<Vec<lsp::CompletionItem>, Failure> {
        let doc = self.doc(uri)?;
        let offset = offset_of(&doc.text, at);
        let line_start = doc.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let before = &doc.text[line_start..offset];
        let keyword = |word: &str| lsp::CompletionItem {
            label: word.to_string(),
            kind: Some(lsp::CompletionItemKind::KEYWORD),
            detail: manual_line(word),
            ..Default::default()
        };
        // Inside the setup's string: the letters (first player's upper case, second's lower).
        if before.trim_start().starts_with("setup") && before.matches('"').count() % 2 == 1 {
            return Ok(self.letter_items(uri, false));
        }
        // What the grammar accepts here: its words, and the names, numbers or letters it reads.
        if let Some(expected) = crate::syntax::expected_at(&doc.text, offset) {
            let word_len = before.len()
                - before
                    .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                    .len();
            use crate::syntax::Expect;
            let mut items: Vec<lsp::CompletionItem> = Vec::new();
            for e in &expected {
                match e {
                    Expect::Word(w) if w.starts_with(|c: char| c.is_ascii_alphabetic()) => items.push(keyword(w)),
                    Expect::Word(w) => items.push(lsp::CompletionItem {
                        label: w.to_string(),
                        kind: Some(lsp::CompletionItemKind::OPERATOR),
                        ..Default::default()
                    }),
                    // A name after `->` is a player's (`white wins`).
                    Expect::Name if before[..before.len() - word_len].trim_end().ends_with("->") => {
                        items.extend(self.name_items(uri, |what| what == "player"))
                    }
                    Expect::Name => items.extend(self.name_items(uri, |_| true)),
                    Expect::Number if !expected.contains(&Expect::Name) => items.extend(self.name_items(uri, |what| what == "parameter")),
                    Expect::Letter => items.extend(self.letter_items(uri, true)),
                    _ => {}
                }
            }
            let mut seen = std::collections::HashSet::new();
            items.retain(|i| seen.insert(i.label.clone()));
            return Ok(items);
        }
        let depth = depth_at(&doc.text, line_start);
        if depth == 0 && before.chars().all(|c| c.is_ascii_alphabetic() || c.is_whitespace()) && !before.trim().contains(' ') {
            return Ok(TOP_KEYWORDS.iter().map(|w| keyword(w)).collect());
        }
        if let Some(after) = before.rsplit("->").next().filter(|_| before.contains("->"))
            && !after.trim().contains(' ')
        {
            // The verdict words, and the players (`white wins`).
            let mut items: Vec<lsp::CompletionItem> = VERDICTS.iter().map(|w| keyword(w)).collect();
            for (_, text) in self.family(uri) {
                items.extend(
                    Names::of(&text)
                        .defs
                        .into_iter()
                        .filter(|d| d.what == "player")
                        .map(|d| lsp::CompletionItem {
                            label: d.name,
                            kind: Some(lsp::CompletionItemKind::REFERENCE),
                            detail: Some("player".into()),
                            ..Default::default()
                        }),
                );
            }
            return Ok(items);
        }
        let mut items = self.name_items(uri, |_| true);
        items.extend(keywords().into_iter().filter(|w| !TOP_KEYWORDS.contains(w)).map(keyword));
        Ok(items)
    }

    /// The names the rules define (across `extends`), as completion items; `keep` picks by what
    /// each names (`piece`, `zone`, `parameter`…).
    fn name_items(&self, uri: &str, keep: impl Fn(&str) -> bool) -> Vec<lsp::CompletionItem> {
        let mut items: Vec<lsp::CompletionItem> = Vec::new();
        // Each name once (a ruleset and the ones it extends may define it twice), looked up in a
        // set: a search of the list for each name took seconds past tens of thousands of names.
        let mut named = std::collections::HashSet::new();
        for (_, text) in self.family(uri) {
            for d in Names::of(&text).defs {
                if !keep(d.what) || !named.insert(d.name.clone()) {
                    continue;
                }
                items.push(lsp::CompletionItem {
                    label: d.name.clone(),
                    kind: Some(match d.what {
                        "piece" => lsp::CompletionItemKind::CLASS,
                        "parameter" => lsp::CompletionItemKind::CONSTANT,
                        "count" => lsp::CompletionItemKind::VARIABLE,
                        _ => lsp::CompletionItemKind::REFERENCE,
                    }),
                    detail: Some(d.what.to_string()),
                    ..Default::default()
                });
            }
        }
        items
    }

    /// The pieces' letters: the first player's upper case and (unless `upper_only`) the
    /// second's lower case.
    fn letter_items(&self, uri: &str, upper_only: bool) -> Vec<lsp::CompletionItem> {
        let mut diags = crate::diag::Diagnostics::default();
        let mut letters = Vec::new();
        for (_, text) in self.family(uri) {
            for item in crate::syntax::parse_file(&text, FileId(0), &mut diags).items {
                if let ast::Item::Piece(p) = item {
                    let both = [(p.letter.value.to_uppercase(), "first"), (p.letter.value.to_lowercase(), "second")];
                    for (letter, side) in both.into_iter().take(if upper_only { 1 } else { 2 }) {
                        letters.push(lsp::CompletionItem {
                            label: letter,
                            kind: Some(lsp::CompletionItemKind::VALUE),
                            detail: Some(format!("{} ({} player)", p.name.name, side)),
                            ..Default::default()
                        });
                    }
                }
            }
        }
        letters
    }

    /// The document and the files it is read with: those it extends (from their open buffers, else
    /// from disk), and the open documents that extend it. Each as (URI, text).
    fn family(&self, uri: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        let Some(doc) = self.docs.get(uri).filter(|d| !d.too_large()) else {
            return out;
        };
        out.push((uri.to_string(), doc.text.clone()));
        // What it extends, depth first (a cycle, or more than 16 files, stops the walk).
        let mut i = 0;
        while i < out.len() && out.len() <= 16 {
            let (u, text) = out[i].clone();
            for target in extended(&u, &text) {
                if out.iter().any(|(o, _)| *o == target) {
                    continue;
                }
                let text = match self.docs.get(&target) {
                    Some(d) if d.too_large() => None,
                    Some(d) => Some(d.text.clone()),
                    None => path_of(&target).and_then(|p| crate::input::read_text(&p, crate::input::RULES_LIMIT).ok()),
                };
                if let Some(text) = text {
                    out.push((target, text));
                }
            }
            i += 1;
        }
        // Open documents that extend it (directly or through others).
        let mut others: Vec<&String> = self
            .docs
            .iter()
            .filter(|(u, d)| *u != uri && !d.too_large())
            .map(|(u, _)| u)
            .collect();
        others.sort();
        for other in others {
            if out.iter().any(|(o, _)| o == other) {
                continue;
            }
            let mut chain = vec![other.clone()];
            let mut seen = 0;
            while seen < chain.len() && chain.len() <= 16 {
                let text = self
                    .docs
                    .get(&chain[seen])
                    .filter(|d| !d.too_large())
                    .map(|d| d.text.clone())
                    .or_else(|| path_of(&chain[seen]).and_then(|p| crate::input::read_text(&p, crate::input::RULES_LIMIT).ok()));
                for t in text.map(|t| extended(&chain[seen], &t)).unwrap_or_default() {
                    if !chain.contains(&t) {
                        chain.push(t);
                    }
                }
                seen += 1;
            }
            if chain.iter().any(|u| u == uri) {
                out.push((other.clone(), self.docs[other].text.clone()));
            }
        }
        out
    }

    /// The definition of the name under a position, searched in the document and then in the
    /// files it extends: (its file's URI, its text, the definition).
    fn find_def(&self, uri: &str, at: lsp::Position) -> Result<Option<(String, String, Def)>, Failure> {
        let doc = self.doc(uri)?;
        let Some((word, _)) = word_at(&doc.text, at) else { return Ok(None) };
        for (u, text) in self.family(uri) {
            if let Some(def) = Names::of(&text).defs.into_iter().find(|d| d.name == word) {
                return Ok(Some((u, text, def)));
            }
        }
        Ok(None)
    }

    fn definition(&self, uri: &str, at: lsp::Position) -> Result<Option<lsp::Location>, Failure> {
        Ok(self
            .find_def(uri, at)?
            .map(|(u, text, d)| location(&u, range_of(&text, d.span.0, d.span.1))))
    }

    /// Every use of the name under a position, in each file read with the document.
    fn uses(&self, uri: &str, at: lsp::Position, with_definition: bool) -> Result<Option<Vec<(String, lsp::Range)>>, Failure> {
        let Some((def_uri, _, def)) = self.find_def(uri, at)? else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for (u, text) in self.family(&def_uri).into_iter().chain(self.family(uri)) {
            if out.iter().any(|(o, _): &(String, lsp::Range)| *o == u) {
                continue;
            }
            let lines = Lines::new(&text);
            let ranges: Vec<lsp::Range> = words(&text)
                .into_iter()
                .filter(|&(a, b)| text[a..b] == def.name && (with_definition || u != def_uri || (a, b) != def.span))
                .map(|(a, b)| lines.range(a, b))
                .collect();
            out.extend(ranges.into_iter().map(|r| (u.clone(), r)));
        }
        Ok(Some(out))
    }

    fn rename(&self, uri: &str, at: lsp::Position, new_name: &str) -> Result<Option<lsp::WorkspaceEdit>, Failure> {
        if !is_ident(new_name) {
            return Err((
                code::INVALID_PARAMS,
                format!("`{new_name}` is not a name: letters, digits, `_` and inner `-`, starting with a letter or `_`"),
            ));
        }
        if self
            .family(uri)
            .iter()
            .any(|(_, text)| Names::of(text).defs.iter().any(|d| d.name == new_name))
        {
            return Err((code::REQUEST_FAILED, format!("`{new_name}` is already defined")));
        }
        let Some(uses) = self.uses(uri, at, true)? else {
            return Err((code::REQUEST_FAILED, "only a name the rules define can be renamed".into()));
        };
        // The protocol's own map type; a URI's hash never changes once built.
        #[allow(clippy::mutable_key_type)]
        let mut changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = HashMap::new();
        for (u, range) in uses {
            let key = lsp::Uri::from_str(&u).map_err(|e| (code::INVALID_PARAMS, format!("`{u}`: {e}")))?;
            changes.entry(key).or_default().push(lsp::TextEdit {
                range,
                new_text: new_name.to_string(),
            });
        }
        Ok(Some(lsp::WorkspaceEdit {
            changes: Some(changes),
            ..Default::default()
        }))
    }
}

/// The URIs of the files a document `extends`, resolved beside it.
fn extended(uri: &str, text: &str) -> Vec<String> {
    let mut diags = crate::diag::Diagnostics::default();
    let file = crate::syntax::parse_file(text, FileId(0), &mut diags);
    let dir = path_of(uri).and_then(|p| p.parent().map(Path::to_path_buf));
    file.items
        .iter()
        .filter_map(|item| match item {
            ast::Item::Extends(target) => {
                let path = Path::new(&target.value);
                let full = match &dir {
                    Some(d) if path.is_relative() => d.join(path),
                    _ => path.to_path_buf(),
                };
                Some(uri_of(&full))
            }
            _ => None,
        })
        .collect()
}

/// A result as JSON (results are plain data; a failure would be a bug, answered as null).
fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(lsp::TextDocumentSyncKind::INCREMENTAL)),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions::default()),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Simple(true)),
        folding_range_provider: Some(lsp::FoldingRangeProviderCapability::Simple(true)),
        code_lens_provider: Some(lsp::CodeLensOptions {
            resolve_provider: Some(false),
        }),
        semantic_tokens_provider: Some(lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
            lsp::SemanticTokensOptions {
                legend: lsp::SemanticTokensLegend {
                    token_types: TOKEN_TYPES.to_vec(),
                    token_modifiers: Vec::new(),
                },
                full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: Default::default(),
            },
        )),
        ..Default::default()
    }
}

fn location(uri: &str, range: lsp::Range) -> lsp::Location {
    lsp::Location {
        uri: lsp::Uri::from_str(uri).unwrap_or_else(|_| lsp::Uri::from_str("file:///").expect("a literal URI")),
        range,
    }
}

/// The file a `file:` URI names.
fn path_of(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(v) = rest.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// The `file:` URI of a path.
fn uri_of(path: &Path) -> String {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// What the server publishes after an edit of the document `uri` holding `text`: its
/// `publishDiagnostics` notifications (the benchmark of edits measures this).
pub fn diagnostics_after_edit(uri: &str, text: &str) -> Vec<Value> {
    diagnose(
        uri,
        &Doc {
            text: text.to_string(),
            version: 0,
        },
        &HashMap::new(),
    )
}

/// The checker's diagnostics for a document, as `publishDiagnostics` notifications: one for the
/// document, and one for each file it extends that has problems of its own. A file it extends is
/// read from `open` (the editor's unsaved text, by path) before the disk.
fn diagnose(uri: &str, doc: &Doc, open: &HashMap<PathBuf, &str>) -> Vec<Value> {
    let path = path_of(uri);
    let name = path.as_ref().map_or_else(|| uri.to_string(), |p| p.display().to_string());
    let dir = path.as_ref().and_then(|p| p.parent());
    let _one_at_a_time = CHECKING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let checked = crate::check::check_source_with(&name, &doc.text, dir, &[], open);
    let sources = &checked.sources;
    let mut by_file: HashMap<FileId, Vec<lsp::Diagnostic>> = HashMap::new();
    by_file.insert(FileId(0), Vec::new());
    let uri_for = |file: FileId| -> String {
        if sources.name(file) == name {
            uri.to_string()
        } else {
            uri_of(Path::new(sources.name(file)))
        }
    };
    let mut lines: HashMap<FileId, Lines<'_>> = HashMap::new();
    let mut range = |file: FileId, a: u32, b: u32| -> lsp::Range {
        lines
            .entry(file)
            .or_insert_with(|| Lines::new(sources.text(file)))
            .range(a as usize, b as usize)
    };
    if checked.rules.as_ref().is_some_and(|r| r.cite_prefix.is_none())
        && let Some(hint) = cite_source_hint(&doc.text, &mut Lines::new(&doc.text))
    {
        by_file.entry(FileId(0)).or_default().push(hint);
    }
    // Each file's diagnostics, in source order; at most MAX_PUBLISHED of each are published.
    let mut found: HashMap<FileId, Vec<&crate::diag::Diagnostic>> = HashMap::new();
    for d in checked.diagnostics.sorted() {
        found.entry(d.span.file).or_default().push(d);
    }
    for (file, all) in found {
        let published = by_file.entry(file).or_default();
        let room = MAX_PUBLISHED.saturating_sub(published.len());
        let (kept, left_out) = bounded(&all, room);
        for d in kept {
            let related: Vec<lsp::DiagnosticRelatedInformation> = d
                .labels
                .iter()
                .map(|(span, what)| lsp::DiagnosticRelatedInformation {
                    location: location(&uri_for(span.file), range(span.file, span.start, span.end)),
                    message: crate::diag::shorten_quoted(what),
                })
                .collect();
            // A long token is quoted cut short, as the terminal's report quotes it: the range
            // marks it whole.
            let mut message = crate::diag::shorten_quoted(&d.message);
            for h in &d.help {
                message.push_str(&format!("\nhelp: {}", crate::diag::shorten_quoted(h)));
            }
            let fix = d
                .help
                .iter()
                .find_map(|h| h.strip_prefix("did you mean `").and_then(|r| r.strip_suffix("`?")));
            published.push(lsp::Diagnostic {
                range: range(d.span.file, d.span.start, d.span.end),
                severity: Some(severity(d.severity)),
                code: Some(lsp::NumberOrString::String(d.code.to_string())),
                source: Some("arbiter".into()),
                message,
                related_information: (!related.is_empty()).then_some(related),
                data: fix.map(|f| json!({"replace": f})),
                ..Default::default()
            });
        }
        if let Some(first) = left_out.first() {
            let errors = left_out.iter().filter(|d| d.severity == Severity::Error).count();
            let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
            published.push(lsp::Diagnostic {
                range: range(file, first.span.start, first.span.end),
                severity: Some(severity(if errors > 0 { Severity::Error } else { Severity::Warning })),
                source: Some("arbiter".into()),
                message: format!(
                    "… and {} more ({}, {}), from here on; `arbiter check --json` lists them all",
                    left_out.len(),
                    count(errors, "error"),
                    count(left_out.len() - errors, "warning")
                ),
                ..Default::default()
            });
        }
    }
    let mut files: Vec<FileId> = by_file.keys().copied().collect();
    files.sort_by_key(|f| f.0);
    files
        .into_iter()
        .map(|file| {
            let diagnostics = by_file.remove(&file).unwrap_or_default();
            let mut p = json!({"uri": uri_for(file), "diagnostics": diagnostics});
            if file == FileId(0) {
                p["version"] = json!(doc.version);
            }
            notification("textDocument/publishDiagnostics", p)
        })
        .collect()
}

/// The most diagnostics published for one file. A file of 150,000 duplicate pieces has as many
/// errors; published whole they were 55 MB of JSON and 1.7 GB of memory on their way out, and no
/// editor shows them all. The rest are counted in one more diagnostic.
const MAX_PUBLISHED: usize = 1000;

/// Of a file's diagnostics (in source order), the at most `room` published — errors before
/// warnings, each kind in source order — in source order; and those left out, in source order.
fn bounded<'d>(all: &[&'d crate::diag::Diagnostic], room: usize) -> (Vec<&'d crate::diag::Diagnostic>, Vec<&'d crate::diag::Diagnostic>) {
    if all.len() <= room {
        return (all.to_vec(), Vec::new());
    }
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by_key(|&i| all[i].severity != Severity::Error);
    let mut keep = vec![false; all.len()];
    for &i in &order[..room] {
        keep[i] = true;
    }
    let (kept, left_out): (Vec<_>, Vec<_>) = all.iter().zip(keep).partition(|(_, k)| *k);
    (
        kept.into_iter().map(|(d, _)| *d).collect(),
        left_out.into_iter().map(|(d, _)| *d).collect(),
    )
}

fn severity(s: Severity) -> lsp::DiagnosticSeverity {
    match s {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
    }
}

/// The one diagnostic of a document too large to check, at its start.
fn too_large_note(uri: &str, size: usize, version: i32) -> Value {
    let why = crate::input::ReadError::TooLarge {
        size: size as u64,
        limit: crate::input::RULES_LIMIT,
    };
    let d = lsp::Diagnostic {
        range: lsp::Range::default(),
        severity: Some(lsp::DiagnosticSeverity::ERROR),
        source: Some("arbiter".into()),
        message: format!("this document is not checked: {why} (a ruleset's limit, as for `arbiter check`)"),
        ..Default::default()
    };
    notification(
        "textDocument/publishDiagnostics",
        json!({"uri": uri, "diagnostics": [d], "version": version}),
    )
}

/// Quick fixes for the diagnostics the client sends back: "did you mean" applied (a diagnostic
/// that carries a replacement), and an unused definition removed, its whole lines.
fn quick_fixes(p: &lsp::CodeActionParams, text: &str) -> Vec<lsp::CodeAction> {
    let Ok(uri) = lsp::Uri::from_str(p.text_document.uri.as_str()) else {
        return Vec::new();
    };
    let action = |title: String, d: &lsp::Diagnostic, range: lsp::Range, new_text: String| lsp::CodeAction {
        title,
        kind: Some(lsp::CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        edit: Some(lsp::WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), vec![lsp::TextEdit { range, new_text }])])),
            ..Default::default()
        }),
        is_preferred: Some(true),
        ..Default::default()
    };
    let names = Names::of(text);
    let mut out = Vec::new();
    for d in &p.context.diagnostics {
        if let Some(replace) = d.data.as_ref().and_then(|v| v.get("replace")).and_then(Value::as_str) {
            out.push(action(format!("replace with `{replace}`"), d, d.range, replace.to_string()));
        }
        if let Some(insert) = d.data.as_ref().and_then(|v| v.get("insert"))
            && let Ok(at) = serde_json::from_value::<lsp::Position>(insert["at"].clone())
            && let Some(line) = insert["text"].as_str()
        {
            out.push(action(
                format!("add `{}` to the game block", line.trim()),
                d,
                lsp::Range::new(at, at),
                line.to_string(),
            ));
        }
        let unused = matches!(&d.code, Some(lsp::NumberOrString::String(c)) if c == crate::diag::codes::UNUSED);
        if unused
            && let Some(def) = names.defs.iter().find(|def| range_of(text, def.span.0, def.span.1) == d.range)
            && matches!(def.what, "piece" | "zone" | "direction" | "parameter" | "count")
        {
            // From the start of the definition's first line to the start of the line after it.
            let from = text[..def.item.0].rfind('\n').map_or(0, |i| i + 1);
            let to = text[def.item.1..].find('\n').map_or(text.len(), |i| def.item.1 + i + 1);
            out.push(action(
                format!("remove the unused {} `{}`", def.what, def.name),
                d,
                range_of(text, from, to),
                String::new(),
            ));
        }
    }
    out
}

// ------------------------------------------------------------------ positions

/// The protocol's position (line, UTF-16 column) of a byte offset.
fn position_of(text: &str, offset: usize) -> lsp::Position {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col: usize = before[start..].chars().map(char::len_utf16).sum();
    lsp::Position::new(line as u32, col as u32)
}

/// The byte offset of a protocol position (clamped to the line and the text).
fn offset_of(text: &str, at: lsp::Position) -> usize {
    let mut start = 0;
    for _ in 0..at.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    offset_in_line(text, start, end, at.character)
}

/// The byte offset of the `character`th UTF-16 unit of the line `text[start..end]` (clamped to it).
fn offset_in_line(text: &str, start: usize, end: usize, character: u32) -> usize {
    let mut units = 0u32;
    for (i, c) in text[start..end].char_indices() {
        if units >= character {
            return start + i;
        }
        units += c.len_utf16() as u32;
    }
    end
}

/// Where each line of `text` starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// [`offset_of`], the text's [`line_starts`] given.
fn offset_in(text: &str, starts: &[usize], at: lsp::Position) -> usize {
    let line = at.line as usize;
    let Some(&start) = starts.get(line) else { return text.len() };
    let end = starts.get(line + 1).map_or(text.len(), |&next| next - 1);
    offset_in_line(text, start, end, at.character)
}

/// [`line_starts`] kept through the edit that puts `inserted` in place of `text[a..b]`: the lines
/// that started inside the range go, those after it move, and the inserted text's begin.
fn edit_starts(starts: &mut Vec<usize>, a: usize, b: usize, inserted: &str) {
    let lo = starts.partition_point(|&s| s <= a);
    let hi = starts.partition_point(|&s| s <= b);
    let removed = b - a;
    for s in &mut starts[hi..] {
        *s = *s - removed + inserted.len();
    }
    starts.splice(lo..hi, inserted.match_indices('\n').map(|(i, _)| a + i + 1));
}

/// Where each line of a text starts, for turning many offsets into positions (a file of 30,000
/// declarations has as many warnings).
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text,
            starts: line_starts(text),
        }
    }

    fn position(&self, offset: usize) -> lsp::Position {
        let offset = self.text.floor_char_boundary(offset.min(self.text.len()));
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let col: usize = self.text[self.starts[line]..offset].chars().map(char::len_utf16).sum();
        lsp::Position::new(line as u32, col as u32)
    }

    fn range(&self, start: usize, end: usize) -> lsp::Range {
        lsp::Range::new(self.position(start), self.position(end))
    }
}

fn range_of(text: &str, start: usize, end: usize) -> lsp::Range {
    lsp::Range::new(position_of(text, start), position_of(text, end))
}

// ------------------------------------------------------------------ names

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !s.ends_with('-')
        && !s.contains("--")
}

/// The byte ranges of the words in code (strings, citations and comments skipped).
fn words(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let skip_to = |from: usize, stop: u8| -> usize {
        bytes[from..]
            .iter()
            .position(|&b| b == stop || b == b'\n')
            .map_or(bytes.len(), |p| from + p + usize::from(bytes[from + p] == stop))
    };
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_to(i + 1, b'"'),
            b'[' => i = skip_to(i + 1, b']'),
            b'#' => i = skip_to(i + 1, b'\n'),
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric()
                        || bytes[i] == b'_'
                        || (bytes[i] == b'-' && bytes.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric() || *n == b'_')))
                {
                    i += 1;
                }
                out.push((start, i));
            }
            b if b.is_ascii_digit() => {
                // A square (`e4`) or a number: not a name.
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The word under a position, and its range.
fn word_at(text: &str, at: lsp::Position) -> Option<(String, lsp::Range)> {
    let offset = offset_of(text, at);
    words(text)
        .into_iter()
        .find(|&(a, b)| a <= offset && offset <= b)
        .map(|(a, b)| (text[a..b].to_string(), range_of(text, a, b)))
}

/// A name the file defines.
struct Def {
    name: String,
    /// `piece`, `zone`...
    what: &'static str,
    /// The name's bytes at its definition.
    span: (usize, usize),
    /// The whole definition's bytes.
    item: (usize, usize),
}

/// The names a file defines, from its syntax tree.
struct Names {
    defs: Vec<Def>,
}

impl Names {
    fn of(text: &str) -> Names {
        let mut diags = crate::diag::Diagnostics::default();
        let file = crate::syntax::parse_file(text, FileId(0), &mut diags);
        let mut defs = Vec::new();
        let mut add = |id: &ast::Ident, what: &'static str, item: Option<crate::diag::Span>| {
            let span = (id.span.start as usize, id.span.end as usize);
            let item = item.map_or(span, |s| (s.start as usize, s.end as usize));
            defs.push(Def {
                name: id.name.clone(),
                what,
                span,
                item: (item.0.min(span.0), item.1.max(span.1)),
            });
        };
        for item in &file.items {
            match item {
                ast::Item::Game(g) => g.players.iter().for_each(|p| add(&p.name, "player", None)),
                ast::Item::Param(p) => add(&p.name, "parameter", None),
                ast::Item::Zone(z) => add(&z.name, "zone", Some(z.expr.span)),
                ast::Item::Direction(d) => add(&d.name, "direction", Some(d.span)),
                ast::Item::Piece(p) => add(&p.name, "piece", Some(p.span)),
                ast::Item::Count(c) => add(&c.name, "count", Some(c.span)),
                ast::Item::Phase(p) => add(&p.name, "phase", Some(p.span)),
                ast::Item::End(rules) => rules.iter().for_each(|r| add(&r.label, "end rule", Some(r.verdict.1))),
                ast::Item::Clock(cs) => cs.iter().for_each(|c| add(&c.name, "time control", Some(c.span))),
                _ => {}
            }
        }
        Names { defs }
    }

    /// The definition whose name is under a position (`prepareRename`).
    fn defined_at(&self, text: &str, at: lsp::Position) -> Option<(&Def, lsp::Range)> {
        let (word, range) = word_at(text, at)?;
        self.defs.iter().find(|d| d.name == word).map(|d| (d, range))
    }
}

/// The lines from the one holding `start` to the one holding `end`, at most `max` of them.
fn source_lines(text: &str, start: usize, end: usize, max: usize) -> String {
    let from = text[..start.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let to = text[end.min(text.len())..].find('\n').map_or(text.len(), |i| end + i);
    let lines: Vec<&str> = text[from..to].lines().collect();
    let mut shown = lines[..lines.len().min(max)].join("\n");
    if lines.len() > max {
        shown.push_str("\n…");
    }
    shown
}

/// The outline: one symbol per item that has a name or a heading of its own.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be given; it is always `None`.
fn outline(text: &str) -> Vec<lsp::DocumentSymbol> {
    let names = Names::of(text);
    let lines = Lines::new(text);
    let symbol = |name: String, detail: &str, kind: lsp::SymbolKind, item: (usize, usize), sel: (usize, usize)| lsp::DocumentSymbol {
        name,
        detail: Some(detail.to_string()),
        kind,
        tags: None,
        deprecated: None,
        range: lines.range(item.0, item.1),
        selection_range: lines.range(sel.0, sel.1),
        children: None,
    };
    names
        .defs
        .iter()
        .map(|d| {
            let kind = match d.what {
                "piece" => lsp::SymbolKind::CLASS,
                "zone" => lsp::SymbolKind::ARRAY,
                "direction" => lsp::SymbolKind::ENUM_MEMBER,
                "parameter" => lsp::SymbolKind::CONSTANT,
                "count" => lsp::SymbolKind::VARIABLE,
                "phase" => lsp::SymbolKind::EVENT,
                "end rule" => lsp::SymbolKind::FUNCTION,
                "time control" => lsp::SymbolKind::PROPERTY,
                _ => lsp::SymbolKind::OBJECT,
            };
            symbol(d.name.clone(), d.what, kind, d.item, d.span)
        })
        .collect()
}

// ------------------------------------------------------------------ live facts

/// Facts about a ruleset's play, worked out in the background for one version of a document.
struct Facts {
    version: i32,
    /// Over the `setup` line: the legal moves from the setup and perft 1–3 (as deep as stays
    /// under the budget).
    setup: Option<((usize, usize), String)>,
    /// Over each piece: its moves from the setup.
    pieces: Vec<((usize, usize), String)>,
}

/// The most leaves a fact counts (perft past it is left out, and says so).
const FACT_LEAVES: u64 = 5_000_000;

/// The engine of the rules a document checks to (read beside its file, for what it extends), if
/// it checks: compiled once, by the check.
fn checked_engine(uri: &str, text: &str) -> Option<crate::game::Engine> {
    let path = path_of(uri);
    let label = path.as_ref().map_or_else(|| uri.to_string(), |p| p.display().to_string());
    crate::check::check_source(&label, text, path.as_ref().and_then(|p| p.parent()), &[]).engine
}

/// Works out the live facts of each document's newest version sent (see [`Server::work_out_facts`]),
/// one document at a time; when they are known, the client is asked to fetch code lenses again.
fn work_out_facts(jobs: &Mailbox<String, FactJob>, store: &Mutex<HashMap<String, Facts>>, output: &Output) {
    while let Some((uri, job)) = jobs.recv() {
        if job.cancel.load(Ordering::Relaxed) {
            continue;
        }
        let facts = live_facts(&uri, &job.text, job.version, &job.cancel);
        if job.cancel.load(Ordering::Relaxed) {
            continue;
        }
        // Not cancelled and no facts: the ruleset does not check. The lens says so, where it
        // said it was working them out for as long as the errors stood.
        let facts = facts.unwrap_or_else(|| {
            let at = job.text.find("setup").unwrap_or(0);
            Facts {
                version: job.version,
                setup: Some(((at, at), "no legal moves or perft: the ruleset has errors".into())),
                pieces: Vec::new(),
            }
        });
        if let Ok(mut all) = store.lock() {
            all.insert(uri.clone(), facts);
        }
        if job.refresh {
            let version = job.version;
            send(
                output,
                &json!({"jsonrpc": "2.0", "id": format!("refresh-{uri}-{version}"), "method": "workspace/codeLens/refresh"}),
            );
        }
    }
}

/// Works out the facts, or `None` if the ruleset does not check or the work was cancelled.
fn live_facts(uri: &str, text: &str, version: i32, cancel: &AtomicBool) -> Option<Facts> {
    let engine = {
        let _one_at_a_time = CHECKING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // An edit while this waited its turn: the facts of this version are not wanted.
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        checked_engine(uri, text)?
    };
    let rules = engine.rules().clone();
    let start = engine.start();
    let legal = start.legal_moves();
    let mut diags = crate::diag::Diagnostics::default();
    let file = crate::syntax::parse_file(text, FileId(0), &mut diags);
    let mut pieces = Vec::new();
    for item in &file.items {
        if let ast::Item::Piece(p) = item
            && let Some(kind) = rules.kinds.iter().position(|k| k.name == p.name.name)
        {
            let kind = crate::model::KindId(kind as u8);
            let n = legal
                .iter()
                .filter(|m| start.piece_at(m.from as usize).is_some_and(|(k, _)| k == kind) || start.form_of_place(**m) == Some(kind))
                .count();
            let what = if n == 1 { "move" } else { "moves" };
            pieces.push((
                (p.name.span.start as usize, p.name.span.end as usize),
                format!("{n} {what} from the setup"),
            ));
        }
    }
    let mut said = vec![format!("{} legal moves from the setup", legal.len())];
    let mut counts: Vec<u64> = Vec::new();
    for depth in 1..=3u32 {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        // The next count is about the last times the branching.
        let estimate = counts.last().map_or(1, |&c| c.saturating_mul(legal.len().max(1) as u64));
        if estimate > FACT_LEAVES {
            said.push(format!("perft {depth}: past {FACT_LEAVES} leaves, left to `arbiter perft`"));
            break;
        }
        counts.push(start.perft(depth));
        said.push(format!("perft {depth}: {}", counts[counts.len() - 1]));
    }
    let setup = file.items.iter().find_map(|item| match item {
        ast::Item::Setup(s) => Some((s.fen.span.start as usize, s.fen.span.end as usize)),
        _ => None,
    });
    Some(Facts {
        version,
        setup: setup.map(|span| (span, said.join(" · "))),
        pieces,
    })
}

/// The code lenses of a document: its facts where they are known for this version, else one lens
/// saying they are being worked out.
fn lenses(text: &str, facts: Option<&Facts>) -> Vec<lsp::CodeLens> {
    let lens = |span: (usize, usize), title: String| lsp::CodeLens {
        range: range_of(text, span.0, span.1),
        command: Some(lsp::Command {
            title,
            command: String::new(),
            arguments: None,
        }),
        data: None,
    };
    match facts {
        Some(f) => f
            .setup
            .iter()
            .cloned()
            .chain(f.pieces.iter().cloned())
            .map(|(span, title)| lens(span, title))
            .collect(),
        None => {
            let at = text.find("setup").unwrap_or(0);
            vec![lens((at, at), "working out the legal moves and perft…".into())]
        }
    }
}

// ------------------------------------------------------------------ pictures and citations

/// The citation `[...]` around a byte offset: its text and bytes.
fn cite_at(text: &str, offset: usize) -> Option<(String, usize, usize)> {
    let line_start = text[..offset.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i);
    cites_in(&text[line_start..line_end])
        .into_iter()
        .map(|(c, a, b)| (c, line_start + a, line_start + b))
        .find(|(_, a, b)| *a <= offset && offset <= *b)
}

/// Every citation in `text` (outside strings and comments): its text and its byte range,
/// brackets included.
fn cites_in(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'"' => i += 1 + line[i + 1..].find('"').map_or(line.len(), |p| p + 1),
                b'#' => break,
                b'[' => {
                    let Some(close) = line[i..].find(']').map(|p| i + p) else { break };
                    out.push((line[i + 1..close].to_string(), line_start + i, line_start + close + 1));
                    i = close + 1;
                }
                _ => i += 1,
            }
        }
        line_start += line.len();
    }
    out
}

/// The language server's own hint: a ruleset whose citations are bare article numbers (`[3.7]`)
/// while its game block names no source (`cite "FIDE"`), so that rulings quote `3.7` of no book.
/// Put on the game's name, with the fix's text in `data` (a `cite` line naming the game).
fn cite_source_hint(text: &str, lines: &mut Lines<'_>) -> Option<lsp::Diagnostic> {
    // The text scan first: a file without bare citations is not parsed again.
    let bare: Vec<(String, usize, usize)> = cites_in(text)
        .into_iter()
        .filter(|(c, _, _)| !c.trim().starts_with(|ch: char| ch.is_alphabetic()))
        .collect();
    let (first, a, b) = bare.first()?;
    let mut diags = crate::diag::Diagnostics::default();
    let file = crate::syntax::parse_file(text, FileId(0), &mut diags);
    let game = file.items.iter().find_map(|i| match i {
        ast::Item::Game(g) => Some(g),
        _ => None,
    })?;
    if game.cite_prefix.is_some() {
        return None;
    }
    let name = &game.name.value;
    // The line after the game's `{`, indented as a clause.
    let brace = text[game.span.start as usize..].find('{').map(|i| game.span.start as usize + i)?;
    let insert_at = text[brace..].find('\n').map_or(text.len(), |i| brace + i + 1);
    Some(lsp::Diagnostic {
        range: lines.range(game.name.span.start as usize, game.name.span.end as usize),
        severity: Some(lsp::DiagnosticSeverity::HINT),
        code: Some(lsp::NumberOrString::String(crate::diag::codes::CITE_SOURCE.to_string())),
        source: Some("arbiter".into()),
        message: format!(
            "{} citation{} like `[{first}]` name no rule book: the game block has no `cite` line\nhelp: add `cite \"{name}\"` (or the book's short name) to the game block; it is put in front of every citation that starts with a number",
            bare.len(),
            if bare.len() == 1 { "" } else { "s" }
        ),
        related_information: None,
        data: Some(json!({
            "insert": {"at": lines.position(insert_at), "text": format!("  cite \"{name}\"\n")},
            "first": lines.range(*a, *b),
        })),
        ..Default::default()
    })
}

/// The clause a citation names, from the manual of the bundled games (rulesets/RULES.md): in the
/// section of the ruleset's own file where there is one, else anywhere.
fn citation(file: Option<&str>, cite: &str) -> Option<String> {
    let lines: Vec<&str> = RULES.lines().collect();
    let marker = format!("**{}**", cite.trim());
    let section = file.and_then(|f| {
        let link = format!("]({f})");
        let start = lines.iter().position(|l| l.contains(&link))?;
        let head = lines[..start].iter().rposition(|l| l.starts_with("## "))?;
        let end = lines[head + 1..]
            .iter()
            .position(|l| l.starts_with("## "))
            .map_or(lines.len(), |e| head + 1 + e);
        Some((head, end))
    });
    let find_in = |(from, to): (usize, usize)| {
        lines[from..to]
            .iter()
            .position(|l| l.trim_start().starts_with(&format!("- {marker}")))
            .map(|i| from + i)
    };
    let hit = section.and_then(find_in).or_else(|| find_in((0, lines.len())))?;
    let indent = lines[hit].len() - lines[hit].trim_start().len();
    let mut out = vec![lines[hit].trim_start()];
    for l in &lines[hit + 1..] {
        if l.trim().is_empty() || l.len() - l.trim_start().len() <= indent || l.trim_start().starts_with("- ") {
            break;
        }
        out.push(l.trim());
    }
    let heading = lines[..hit]
        .iter()
        .rev()
        .find(|l| l.starts_with("## "))
        .map_or("", |h| h.trim_start_matches("## "));
    Some(format!("*{heading}*\n\n{}", out.join(" ")))
}

/// Directions in words: `orthogonally`, `diagonally`, `in any direction`, else each by name.
fn directions_in_words(dirs: &[(i32, i32)]) -> String {
    let has = |set: &[(i32, i32)]| set.iter().all(|d| dirs.contains(d)) && dirs.len() == set.len();
    let orth = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let diag = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let all: Vec<(i32, i32)> = orth.iter().chain(&diag).copied().collect();
    if has(&all) {
        return "in any direction".into();
    }
    if has(&orth) {
        return "orthogonally".into();
    }
    if has(&diag) {
        return "diagonally".into();
    }
    let mut names: Vec<&str> = Vec::new();
    for &(dx, dy) in dirs {
        let name = match (dx.signum(), dy.signum()) {
            (0, 1) => "forward",
            (0, -1) => "backward",
            (_, 0) => "sideways",
            (_, 1) => "diagonally forward",
            (_, -1) => "diagonally backward",
            _ => "along its lines",
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(" or ")
}

/// A piece's movement in words, one line per clause: `slides any distance orthogonally`,
/// `steps 1 square forward, only onto an empty square`.
fn piece_words(rules: &crate::model::Rules, name: &str) -> Option<String> {
    use crate::model::{Primitive, Target};
    let kind = rules.kinds.iter().find(|k| k.name == name)?;
    let plural = |n: u32, one: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") };
    let mut lines = Vec::new();
    for f in &kind.forms {
        let mut line = match &f.primitive {
            Primitive::Step { dirs, distance } => format!("steps {} {}", plural(*distance, "square"), directions_in_words(dirs)),
            Primitive::Slide { dirs, max: None } => format!("slides any distance {}", directions_in_words(dirs)),
            Primitive::Slide { dirs, max: Some(m) } => format!("slides up to {} {}", plural(*m, "square"), directions_in_words(dirs)),
            Primitive::Leap { offsets } => {
                let (dx, dy) = offsets.first().map_or((0, 0), |o| o.0);
                let (a, b) = (dx.abs().min(dy.abs()), dx.abs().max(dy.abs()));
                let lame = if offsets.iter().any(|o| !o.1.is_empty()) {
                    ", unless the way is blocked"
                } else {
                    ", over anything between"
                };
                format!(
                    "leaps ({a},{b}) in {} direction{}{lame}",
                    offsets.len(),
                    if offsets.len() == 1 { "" } else { "s" }
                )
            }
            Primitive::Hop { dirs, screens } => format!("hops {} over exactly {}", directions_in_words(dirs), plural(*screens, "piece")),
            Primitive::Place => "is placed from the supply onto an empty square".into(),
            Primitive::Drop if f.by_roll.is_some() => format!(
                "enters from the hand on the square of the track `{}` the roll counts to",
                rules.tracks.get(f.by_roll.unwrap_or(0)).map_or("?", |t| t.name.as_str())
            ),
            Primitive::Drop => "is dropped from the hand onto an empty square".into(),
            Primitive::Fly => "flies to any square".into(),
            Primitive::Run { track } => format!(
                "moves on along the track `{}` by the number rolled",
                rules.tracks.get(*track).map_or("?", |t| t.name.as_str())
            ),
            Primitive::Jump { dirs, far: false, .. } => {
                format!("jumps {} over an adjacent piece to the square beyond", directions_in_words(dirs))
            }
            Primitive::Jump { dirs, far: true, .. } => format!(
                "jumps {} over the first piece however far, to a square beyond",
                directions_in_words(dirs)
            ),
        };
        match f.target {
            Target::Empty if !matches!(f.primitive, Primitive::Place | Primitive::Drop) => line.push_str(", only onto an empty square"),
            Target::Enemy => line.push_str(", only to capture"),
            Target::EnPassant => line.push_str(", capturing en passant"),
            _ => {}
        }
        if f.from.is_some() {
            line.push_str(", from its starting zone");
        }
        if f.unmoved {
            line.push_str(", on its first move");
        }
        if f.capturing {
            line.push_str(", capturing what it jumps");
        }
        if f.continuing {
            line.push_str(", and may go on jumping");
        }
        lines.push(format!("- {line}"));
    }
    if let Some(p) = &kind.promotion {
        let to: Vec<&str> = p.choices.iter().map(|&k| rules.kind(k).name.as_str()).collect();
        lines.push(format!(
            "- {} to {}",
            if p.optional { "may promote" } else { "promotes" },
            to.join(", ")
        ));
    }
    (!lines.is_empty()).then(|| format!("In words:\n\n{}", lines.join("\n")))
}

/// A piece's moves from a square near the middle of an otherwise empty board (the royals of the
/// setup kept where rules need them), drawn in Markdown: the piece by its letter, `*` where it
/// can go.
fn piece_board(engine: &crate::game::Engine, name: &str) -> Option<String> {
    let rules = engine.rules();
    let kind = rules.kinds.iter().position(|k| k.name == name)?;
    let kind = crate::model::KindId(kind as u8);
    let b = rules.board.clone();
    if b.width > 26 || b.height > 26 {
        return None;
    }
    let mut setup = rules.setup.clone();
    for cell in setup.board.iter_mut() {
        if cell.is_some_and(|(k, _)| !rules.kind(k).royal) {
            *cell = None;
        }
    }
    setup.castling.clear();
    setup.ep = None;
    setup.hands.clear();
    setup.promoted.clear();
    setup.neutral.clear();
    setup.stm = crate::model::Side::FIRST;
    let (cx, cy) = ((b.width - 1) / 2, (b.height - 1) / 2);
    let mut squares: Vec<usize> = (0..b.squares()).filter(|&sq| b.has(sq) && setup.board[sq].is_none()).collect();
    squares.sort_by_key(|&sq| (b.file(sq).abs_diff(cx) + b.rank(sq).abs_diff(cy), sq));
    for &sq in squares.iter().take(4) {
        let mut try_setup = setup.clone();
        try_setup.board[sq] = Some((kind, crate::model::Side::FIRST));
        let Ok(pos) = engine.position(&try_setup) else { continue };
        let targets: Vec<usize> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.from as usize == sq && !matches!(m.kind, crate::game::MoveKind::Place(_) | crate::game::MoveKind::Drop(_)))
            .map(|m| m.to as usize)
            .collect();
        if targets.is_empty() {
            return None;
        }
        let mut rows = Vec::new();
        for rank in (0..b.height).rev() {
            let mut row = format!("{:>2} ", b.rank_names[rank]);
            for file in 0..b.width {
                let here = b.square(file, rank);
                let c = if !b.has(here) {
                    ' '
                } else if here == sq {
                    rules.kind(kind).letter.to_ascii_uppercase()
                } else if targets.contains(&here) {
                    '*'
                } else if let Some((k, side)) = try_setup.board[here] {
                    let l = rules.kind(k).letter;
                    if side == crate::model::Side::FIRST {
                        l.to_ascii_uppercase()
                    } else {
                        l.to_ascii_lowercase()
                    }
                } else {
                    '.'
                };
                row.push(c);
                row.push(' ');
            }
            rows.push(row.trim_end().to_string());
        }
        let files: Vec<&str> = b.file_names.iter().map(String::as_str).collect();
        rows.push(format!("   {}", files.join(" ")));
        return Some(format!(
            "Moves from {} on an otherwise empty board ({} of them):\n\n```\n{}\n```",
            b.name(sq),
            targets.len(),
            rows.join("\n")
        ));
    }
    None
}

/// A parameter's default, its range and what it is for, in words; how to set it.
fn parameter_facts(text: &str, name: &str) -> Option<String> {
    let mut diags = crate::diag::Diagnostics::default();
    let file = crate::syntax::parse_file(text, FileId(0), &mut diags);
    let p = file.items.iter().find_map(|item| match item {
        ast::Item::Param(p) if p.name.name == name => Some(p),
        _ => None,
    })?;
    let value = match &p.value {
        ast::ParamValue::Number(n, _) => n.to_string(),
        ast::ParamValue::Word(w) => w.name.clone(),
    };
    let mut said = format!("Default `{value}`");
    if let Some((lo, hi, _)) = p.range {
        said.push_str(&format!(", from {lo} to {hi}"));
    }
    if let Some(doc) = &p.doc {
        said.push_str(&format!(": {}", doc.value));
    }
    said.push_str(&format!(".\n\nSet it with `--param {name}=VALUE` (or a scenario's `params`)."));
    Some(said)
}

/// A zone's squares for each player, drawn side by side in Markdown (`#` in the zone).
fn zone_boards(rules: &crate::model::Rules, name: &str) -> Option<String> {
    let (_, sets) = rules.zones.iter().find(|(n, _)| n == name)?;
    let b = &rules.board;
    if b.width > 26 || b.height > 26 {
        return None;
    }
    let sides = [crate::model::Side::FIRST, crate::model::Side::SECOND];
    let width = 3 + 2 * b.width;
    let mut rows = vec![
        sides
            .iter()
            .map(|&s| format!("{:<width$}", format!("{}:", rules.players[s.index()].name)))
            .collect::<Vec<_>>()
            .join("   ")
            .trim_end()
            .to_string(),
    ];
    for rank in (0..b.height).rev() {
        let row: Vec<String> = sides
            .iter()
            .map(|&side| {
                let mut r = format!("{:>2} ", b.rank_names[rank]);
                for file in 0..b.width {
                    let sq = b.square(file, rank);
                    r.push(if !b.has(sq) {
                        ' '
                    } else if sets[side].contains(sq) {
                        '#'
                    } else {
                        '.'
                    });
                    r.push(' ');
                }
                format!("{r:<width$}")
            })
            .collect();
        rows.push(row.join("   ").trim_end().to_string());
    }
    let files = format!("{:<width$}", format!("   {}", b.file_names.join(" ")));
    rows.push(format!("{files}   {files}").trim_end().to_string());
    Some(format!("Its squares for each player:\n\n```\n{}\n```", rows.join("\n")))
}

/// Blocks that span lines, and runs of comment lines, as folds.
fn folding(text: &str) -> Vec<lsp::FoldingRange> {
    let mut out = Vec::new();
    let mut open: Vec<u32> = Vec::new();
    let mut comment_run: Option<(u32, u32)> = None;
    for (n, line) in text.lines().enumerate() {
        let n = n as u32;
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') {
            comment_run = Some(comment_run.map_or((n, n), |(a, _)| (a, n)));
        } else if let Some((a, b)) = comment_run.take()
            && b > a
        {
            out.push(lsp::FoldingRange {
                start_line: a,
                end_line: b,
                kind: Some(lsp::FoldingRangeKind::Comment),
                ..Default::default()
            });
        }
        let mut in_string = false;
        let mut in_cite = false;
        for c in line.chars() {
            match c {
                '"' if !in_cite => in_string = !in_string,
                '[' if !in_string => in_cite = true,
                ']' if !in_string => in_cite = false,
                '#' if !in_string && !in_cite => break,
                '{' if !in_string && !in_cite => open.push(n),
                '}' if !in_string && !in_cite => {
                    if let Some(start) = open.pop()
                        && n > start
                    {
                        out.push(lsp::FoldingRange {
                            start_line: start,
                            end_line: n.saturating_sub(1).max(start),
                            kind: Some(lsp::FoldingRangeKind::Region),
                            ..Default::default()
                        });
                    }
                }
                _ => {}
            }
        }
    }
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out
}

/// The semantic token types, in the legend's order.
const TOKEN_TYPES: [lsp::SemanticTokenType; 11] = [
    lsp::SemanticTokenType::KEYWORD,
    lsp::SemanticTokenType::CLASS,
    lsp::SemanticTokenType::VARIABLE,
    lsp::SemanticTokenType::ENUM_MEMBER,
    lsp::SemanticTokenType::PARAMETER,
    lsp::SemanticTokenType::FUNCTION,
    lsp::SemanticTokenType::PROPERTY,
    lsp::SemanticTokenType::STRING,
    lsp::SemanticTokenType::NUMBER,
    lsp::SemanticTokenType::COMMENT,
    lsp::SemanticTokenType::DECORATOR,
];

/// Every token worth colouring, encoded as the protocol wants (deltas of line and start): keywords,
/// the names the rules define by what they name, strings, numbers, comments and citations.
fn semantic_tokens(text: &str, defs: &[(String, &'static str)]) -> Vec<lsp::SemanticToken> {
    let keywords = keywords();
    // By name, the first definition of each (a file of 150,000 pieces has as many names).
    let mut defined: HashMap<&str, &str> = HashMap::with_capacity(defs.len());
    for (name, what) in defs {
        defined.entry(name.as_str()).or_insert(what);
    }
    let mut spans: Vec<(usize, usize, u32)> = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let end_of = |stop: u8, from: usize| -> usize {
            bytes[from..]
                .iter()
                .position(|&b| b == stop || b == b'\n')
                .map_or(bytes.len(), |p| from + p + usize::from(bytes[from + p] == stop))
        };
        match bytes[i] {
            b'"' => {
                let e = end_of(b'"', i + 1);
                spans.push((i, e, 7));
                i = e;
            }
            b'[' => {
                let e = end_of(b']', i + 1);
                spans.push((i, e, 10));
                i = e;
            }
            b'#' => {
                let e = end_of(b'\n', i + 1);
                let e = if e > i && bytes.get(e - 1) == Some(&b'\n') { e - 1 } else { e };
                spans.push((i, e, 9));
                i = e;
            }
            b if b.is_ascii_digit() => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                    i += 1;
                }
                // A number, not the digits of a square or a name.
                if start == 0 || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
                    spans.push((start, i, 8));
                }
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric()
                        || bytes[i] == b'_'
                        || (bytes[i] == b'-' && bytes.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric())))
                {
                    i += 1;
                }
                let word = &text[start..i];
                let kind = match defined.get(word).copied() {
                    Some("piece") => Some(1),
                    Some("zone" | "count" | "phase") => Some(2),
                    Some("direction") => Some(3),
                    Some("parameter") => Some(4),
                    Some("end rule") => Some(5),
                    Some(_) => Some(6),
                    None if keywords.contains(&word) => Some(0),
                    None => None,
                };
                if let Some(k) = kind {
                    spans.push((start, i, k));
                }
            }
            _ => i += 1,
        }
    }
    let mut out = Vec::with_capacity(spans.len());
    let (mut line, mut col) = (0u32, 0u32);
    // Positions found by walking forward from the last token (one pass over the text in all).
    let (mut at, mut at_line, mut at_col) = (0usize, 0u32, 0u32);
    for (a, b, kind) in spans {
        for c in text[at..a].chars() {
            if c == '\n' {
                at_line += 1;
                at_col = 0;
            } else {
                at_col += c.len_utf16() as u32;
            }
        }
        at = a;
        let p = lsp::Position::new(at_line, at_col);
        let length: u32 = text[a..b].chars().map(|c| c.len_utf16() as u32).sum();
        out.push(lsp::SemanticToken {
            delta_line: p.line - line,
            delta_start: if p.line == line { p.character - col } else { p.character },
            length,
            token_type: kind,
            token_modifiers_bitset: 0,
        });
        (line, col) = (p.line, p.character);
    }
    out
}

// ------------------------------------------------------------------ the manual

/// What may follow `->` in an end rule.
const VERDICTS: [&str; 10] = [
    "side",
    "mover",
    "checking",
    "chasing",
    "claimable",
    "draw",
    "most",
    "score",
    "no",
    "highest",
];

/// How many blocks are open at a byte offset (strings, citations and comments skipped).
fn depth_at(text: &str, offset: usize) -> usize {
    let mut depth = 0usize;
    for line in text[..offset.min(text.len())].lines() {
        let (mut in_string, mut in_cite) = (false, false);
        for c in line.chars() {
            match c {
                '"' if !in_cite => in_string = !in_string,
                '[' if !in_string => in_cite = true,
                ']' if !in_string => in_cite = false,
                '#' if !in_string && !in_cite => break,
                '{' if !in_string && !in_cite => depth += 1,
                '}' if !in_string && !in_cite => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    depth
}

/// The words the grammar spells out, each once.
fn keywords() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    // Each `"word"` in the grammar (skipping comments, which quote examples).
    for line in GRAMMAR.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let mut rest = line;
        while let Some(open) = rest.find('"') {
            let after = &rest[open + 1..];
            let len = after.find(|c: char| !(c.is_ascii_lowercase() || c == '-')).unwrap_or(after.len());
            let word = &after[..len];
            if after[len..].starts_with('"') && len > 1 && !out.contains(&word) {
                out.push(word);
                rest = &after[len + 1..];
            } else {
                rest = after;
            }
        }
    }
    out.sort_unstable();
    out
}

/// The manual's section on `word` (`### \`word\``), or its first paragraph that names the word
/// in backquotes, as Markdown.
fn manual_entry(word: &str) -> Option<String> {
    let heading = format!("`{word}`");
    let lines: Vec<&str> = MANUAL.lines().collect();
    if let Some(start) = lines.iter().position(|l| l.starts_with("###") && l.contains(&heading)) {
        let end = lines[start + 1..]
            .iter()
            .position(|l| l.starts_with("## ") || l.starts_with("### "))
            .map_or(lines.len(), |e| start + 1 + e);
        let mut text = lines[start..end.min(start + 40)].join("\n");
        if end > start + 40 {
            text.push_str("\n\n… (rulesets/README.md has the rest)");
        }
        return Some(text);
    }
    let mention = format!("`{word}");
    let hit = lines.iter().position(|l| !l.starts_with('#') && l.contains(&mention))?;
    let start = lines[..hit].iter().rposition(|l| l.trim().is_empty()).map_or(0, |i| i + 1);
    let end = lines[hit..]
        .iter()
        .position(|l| l.trim().is_empty())
        .map_or(lines.len(), |e| hit + e);
    Some(lines[start..end.min(start + 20)].join("\n"))
}

/// One line of the manual about `word`, for completion's detail.
fn manual_line(word: &str) -> Option<String> {
    let mention = format!("`{word}");
    MANUAL
        .lines()
        .find(|l| !l.starts_with('#') && l.contains(&mention))
        .map(|l| l.trim().trim_start_matches(['-', '*', '|', ' ']).chars().take(100).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mailbox keeps only the newest thing sent under each key, hands each key's once, and
    /// ends its reader once the sender is gone and nothing waits.
    #[test]
    fn a_mailbox_keeps_only_the_newest_per_key() {
        let (posting, inbox) = mailbox::<&str, u32>();
        for version in 1..=3 {
            posting.send("a.rules", version);
        }
        posting.send("b.rules", 7);
        let mut got = vec![inbox.recv(), inbox.recv()];
        got.sort();
        assert_eq!(got, [Some(("a.rules", 3)), Some(("b.rules", 7))]);
        posting.send("a.rules", 4);
        drop(posting);
        assert_eq!(inbox.recv(), Some(("a.rules", 4)), "what was sent before the close is taken");
        assert_eq!(inbox.recv(), None);
        // A reader waiting when the sender goes is woken, and ends.
        let (posting, inbox) = mailbox::<(), u32>();
        let reader = std::thread::spawn(move || inbox.recv());
        std::thread::sleep(std::time::Duration::from_millis(50));
        drop(posting);
        assert_eq!(reader.join().expect("the reader ends"), None);
    }

    #[test]
    fn positions_count_utf16_units_and_clamp() {
        let text = "a\n€x𝄞y\n";
        assert_eq!(position_of(text, 2), lsp::Position::new(1, 0));
        assert_eq!(position_of(text, 5), lsp::Position::new(1, 1), "after the euro sign");
        assert_eq!(position_of(text, 10), lsp::Position::new(1, 4), "the clef is two units");
        assert_eq!(offset_of(text, lsp::Position::new(1, 4)), 10);
        assert_eq!(offset_of(text, lsp::Position::new(1, 99)), 11, "past the end of the line");
        assert_eq!(offset_of(text, lsp::Position::new(9, 0)), text.len());
        // With the line starts known and kept through edits, the same offsets.
        let mut edited = String::from(text);
        let mut starts = line_starts(&edited);
        let mut rng = 7u64;
        for _ in 0..400 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let (a, b) = ((rng >> 33) as usize % (edited.len() + 1), (rng >> 13) as usize % (edited.len() + 1));
            let (a, b) = (a.min(b), a.max(b));
            let (a, b) = (floor(&edited, a), floor(&edited, b));
            let inserted = ["", "x", "\n", "ab\ncd\n", "é\n"][(rng >> 50) as usize % 5];
            edit_starts(&mut starts, a, b, inserted);
            edited.replace_range(a..b, inserted);
            assert_eq!(starts, line_starts(&edited), "{edited:?}");
            for line in 0..starts.len() as u32 + 2 {
                for character in 0..4 {
                    let at = lsp::Position::new(line, character);
                    assert_eq!(offset_in(&edited, &starts, at), offset_of(&edited, at), "{edited:?} {at:?}");
                }
            }
        }
        fn floor(text: &str, mut i: usize) -> usize {
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        }
        let lines = Lines::new(text);
        for offset in [0, 1, 2, 5, 10, 11, 12] {
            assert_eq!(lines.position(offset), position_of(text, offset), "at {offset}");
        }
    }

    #[test]
    fn words_skip_strings_citations_comments_and_squares() {
        let text = "piece Rook \"R\" { slide orthogonal [3.3] } # Rook\nzone z = e4 + rank-2";
        let got: Vec<&str> = words(text).into_iter().map(|(a, b)| &text[a..b]).collect();
        assert_eq!(got, ["piece", "Rook", "slide", "orthogonal", "zone", "z", "e4", "rank-2"]);
    }

    #[test]
    fn uris_and_paths_go_both_ways() {
        let p = Path::new("/tmp/my rules/chess+.rules");
        let u = uri_of(p);
        assert_eq!(u, "file:///tmp/my%20rules/chess%2B.rules");
        assert_eq!(path_of(&u).as_deref(), Some(p));
        assert_eq!(path_of("untitled:1"), None);
    }

    #[test]
    fn the_manual_answers_for_keywords_and_the_grammar_lists_them() {
        let kw = keywords();
        assert!(
            kw.contains(&"slide") && kw.contains(&"promotes") && kw.contains(&"checkered") && kw.contains(&"records"),
            "{kw:?}"
        );
        let piece = manual_entry("piece").expect("a section");
        assert!(piece.starts_with("### `piece`"), "{piece}");
        assert!(manual_entry("slide").is_some());
        assert!(
            manual_entry("records").is_some_and(|e| e.contains("pgn")),
            "the manual documents `records`"
        );
        assert_eq!(manual_entry("no-such-word-anywhere"), None);
    }

    #[test]
    fn a_file_s_published_diagnostics_are_bounded_errors_first_in_source_order() {
        use crate::diag::{Diagnostic, Span};
        let at = |n: u32| Span {
            file: FileId(0),
            start: n,
            end: n + 1,
        };
        // Warnings at 0..6, errors at 6..9.
        let all: Vec<Diagnostic> = (0..9)
            .map(|n| match n {
                0..6 => Diagnostic::warning("W0001", at(n), "w"),
                _ => Diagnostic::error("E0001", at(n), "e"),
            })
            .collect();
        let refs: Vec<&Diagnostic> = all.iter().collect();
        let (kept, left_out) = bounded(&refs, 5);
        let starts = |v: &[&Diagnostic]| v.iter().map(|d| d.span.start).collect::<Vec<_>>();
        assert_eq!(starts(&kept), [0, 1, 6, 7, 8], "the errors, then the first warnings");
        assert_eq!(starts(&left_out), [2, 3, 4, 5]);
        assert_eq!(bounded(&refs, 9).1.len(), 0);
    }

    /// The published diagnostics of a file with more problems than are published: the bound, and
    /// one more counting the rest; a document over the ruleset limit: one, unchecked.
    #[test]
    fn a_file_with_thousands_of_errors_publishes_a_bounded_list() {
        let mut text = String::from("game \"g\" { players a, b }\n");
        for _ in 0..(MAX_PUBLISHED + 500) {
            text.push_str("piece P \"P\" { leap (1,2) }\n");
        }
        let notes = diagnostics_after_edit("file:///tmp/many.rules", &text);
        let list = notes[0]["params"]["diagnostics"].as_array().expect("a list");
        assert_eq!(list.len(), MAX_PUBLISHED + 1, "the bound and a count of the rest");
        let last = list.last().and_then(|d| d["message"].as_str()).unwrap_or_default();
        assert!(last.starts_with("… and ") && last.contains(" more ("), "{last}");
        let note = too_large_note("file:///tmp/big.rules", RULES_LIMIT + 1, 3);
        let list = note["params"]["diagnostics"].as_array().expect("a list");
        assert_eq!(list.len(), 1);
        assert_eq!(
            list[0]["range"],
            json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}})
        );
        assert!(
            list[0]["message"]
                .as_str()
                .is_some_and(|m| m.contains("larger than the limit of 4")),
            "{note}"
        );
    }
}
