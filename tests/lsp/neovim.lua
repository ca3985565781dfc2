-- Neovim's built-in LSP client against `arbiter lsp` (tests/lsp.rs runs this headless; it works with
-- Neovim 0.7, Debian's, and later). ARBITER is the binary, BASE a copy of chess.rules, VARIANT a
-- file that extends it, OUT where the results go as JSON. Every step waits for the server's answer;
-- the test reads the results and checks them.
local arbiter, base, variant, out = os.getenv("ARBITER"), os.getenv("BASE"), os.getenv("VARIANT"), os.getenv("OUT")
local results = { steps = {} }

local function finish()
  vim.fn.writefile({ vim.fn.json_encode(results) }, out)
  vim.cmd("qa!")
end

local function step(name, value)
  table.insert(results.steps, name)
  results[name] = value
end

-- Every diagnostics notification, as the server sent it (the quick fix needs its `data`).
local published, last = 0, {}
local handler = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  if result and result.uri == vim.uri_from_fname(base) then
    published = published + 1
    last = result.diagnostics
  end
  return handler(err, result, ctx, config)
end

local client = vim.lsp.start_client({ name = "arbiter", cmd = { arbiter, "lsp" }, root_dir = vim.fn.fnamemodify(base, ":h") })
if not client then
  step("error", "the client did not start")
  return finish()
end

vim.cmd("edit " .. base)
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client)
if not vim.wait(10000, function() return published >= 1 end, 20) then
  step("error", "no diagnostics for the opened file")
  return finish()
end
step("opened", #last)

-- Type a misspelt kind name where castling names its partner.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local row, col
for i, l in ipairs(lines) do
  local c = l:find("with Rook moving 2", 1, true)
  if c then row, col = i - 1, c - 1 + #"with " end
end
vim.api.nvim_buf_set_text(buf, row, col, row, col + 4, { "Rokk" })
if not vim.wait(10000, function() return #last > 0 end, 20) then
  step("error", "no diagnostic for the typo")
  return finish()
end
step("typo", { message = last[1].message, code = last[1].code, line = last[1].range.start.line, character = last[1].range.start.character })
local shown = vim.diagnostic.get(buf)
step("shown", #shown > 0 and shown[1].message or "")

-- The quick fix, asked for and applied as an editor does.
local answers = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = last[1].range,
  context = { diagnostics = last },
}, 10000)
local action = answers and answers[client] and answers[client].result and answers[client].result[1]
if not action then
  step("error", "no quick fix")
  return finish()
end
step("fix", action.title)
vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
if not vim.wait(10000, function() return #last == 0 end, 20) then
  step("error", "the diagnostic stayed after the fix")
  return finish()
end
step("fixed_line", vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1])

-- The file that extends it, opened too; then a zone of the base renamed across both.
vim.cmd("edit " .. variant)
local vbuf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(vbuf, client)
vim.wait(2000, function() return false end, 50)
vim.cmd("buffer " .. buf)
lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
for i, l in ipairs(lines) do
  local c = l:find("zone last_rank", 1, true)
  if c then row, col = i - 1, c - 1 + #"zone " end
end
local renamed = vim.lsp.buf_request_sync(buf, "textDocument/rename", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = row, character = col + 1 },
  newName = "eighth_rank",
}, 10000)
local edit = renamed and renamed[client] and renamed[client].result
if not edit then
  step("error", "no rename")
  return finish()
end
vim.lsp.util.apply_workspace_edit(edit, "utf-16")
step("base_after", table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n"))
step("variant_after", table.concat(vim.api.nvim_buf_get_lines(vbuf, 0, -1, false), "\n"))

-- Formatting: the bundled layout is already the formatter's.
local formatted = vim.lsp.buf_request_sync(buf, "textDocument/formatting", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  options = { tabSize = 2, insertSpaces = true },
}, 10000)
step("format_edits", formatted and formatted[client] and #(formatted[client].result or {}) or -1)
finish()
