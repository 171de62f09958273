//! `skill-audit lsp` under a real editor: headless Neovim, its built-in client attached to the
//! server, opens a skill with a misspelt key; the test reads back the diagnostics Neovim holds.
//! Skipped (with a `SKIPPED` line) when `nvim` is missing, but only when `CI` is unset: on CI
//! a missing Neovim fails the test.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Reaper, tree};

/// Written against Neovim 0.7 (Debian 12's), which has `vim.lsp.start_client` but neither
/// `vim.lsp.start` (0.8) nor `vim.lsp.config` (0.11), nor `nvim -l`.
const SCRIPT: &str = r#"
local out = vim.env.SA_OUT
local function finish(lines)
  vim.fn.writefile(lines, out)
  vim.cmd('qa!')
end
vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.SA_FILE))
local buf = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = 'skill-audit',
  cmd = { vim.env.SA_BIN, 'lsp' },
  root_dir = vim.env.SA_ROOT,
})
if not client then
  finish({ 'no client' })
  return
end
vim.lsp.buf_attach_client(buf, client)
local function code(d)
  if d.code then return tostring(d.code) end
  local lsp = d.user_data and d.user_data.lsp
  return lsp and tostring(lsp.code) or '?'
end
vim.wait(30000, function()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if code(d) == 'SA221' then return true end
  end
  return false
end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(lines, string.format('%s %d:%d-%d:%d %s', code(d), d.lnum, d.col,
    d.end_lnum or -1, d.end_col or -1, d.source or ''))
end
vim.lsp.stop_client(client)
finish(lines)
"#;

fn nvim_present() -> bool {
    Command::new("nvim")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn neovim_shows_the_misspelt_key() {
    if !nvim_present() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but nvim is missing; install the Debian package `neovim`"
        );
        println!("SKIPPED neovim_shows_the_misspelt_key: no nvim found (CI is unset)");
        return;
    }
    let lib = tree(&[
        (
            "skills/pdf/SKILL.md",
            "---\nname: pdf\ndescriptin: Reads PDF files.\ndescription: Reads PDF files. Use when a PDF is given.\n---\n# pdf\n",
        ),
        ("script.lua", SCRIPT),
    ]);
    let root = lib.path().canonicalize().unwrap();
    let out = root.join("diagnostics.txt");
    let child = Command::new("nvim")
        .args(["--headless", "--clean", "-c", "luafile script.lua"])
        .current_dir(&root)
        .env("SA_BIN", env!("CARGO_BIN_EXE_skill-audit"))
        .env("SA_ROOT", &root)
        .env("SA_FILE", root.join("skills/pdf/SKILL.md"))
        .env("SA_OUT", &out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nvim starts");
    let mut child = Reaper(child);
    let start = Instant::now();
    while child.0.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "nvim did not finish"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let got = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(
        got.lines().any(|l| l == "SA221 2:0-2:10 skill-audit"),
        "Neovim received no SA221 diagnostic on the misspelt key; it holds:\n{got}"
    );
}
