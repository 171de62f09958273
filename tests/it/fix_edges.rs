//! `--fix` at the edges of what it edits: the comments around a list entry a fix removes.

use crate::common::*;

/// Run `--fix` with the VS Code profile in `dir`: standard output and standard error.
fn fix(dir: &std::path::Path) -> (String, String) {
    let out = bin(dir)
        .args(["-p", "builtin:vscode", "--fail-on", "never", "--fix", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn agent(tools: &str) -> String {
    format!("---\ndescription: d\n{tools}---\nBody.\n")
}

#[test]
fn removing_a_renamed_tool_already_listed_keeps_the_comments_around_it() {
    let cases = [
        // A block item's comment stays on its line, at the dash's indent.
        (
            "tools:\n  - codebase # the code\n  - search/codebase\n",
            "tools:\n  # the code\n  - search/codebase\n",
        ),
        (
            "tools:\r\n- search/codebase\r\n- 'codebase'   # the code\r\n",
            "tools:\r\n- search/codebase\r\n# the code\r\n",
        ),
        // One flow line: the comment after the list stays.
        (
            "tools: [codebase, search/codebase] # the code, all of it,\n",
            "tools: [search/codebase] # the code, all of it,\n",
        ),
        (
            "tools: [search/codebase, codebase] # the code\n",
            "tools: [search/codebase] # the code\n",
        ),
    ];
    for (tools, fixed) in cases {
        let lib = tree(&[(".github/agents/x.agent.md", &agent(tools))]);
        let (stdout, stderr) = fix(lib.path());
        assert!(
            stdout.contains("Fixed 1 (1 safe, 0 unsafe)"),
            "{stdout}{stderr}"
        );
        let text = std::fs::read_to_string(lib.path().join(".github/agents/x.agent.md")).unwrap();
        assert_eq!(text, agent(fixed), "{tools:?}");
    }
}

#[test]
fn a_comma_in_a_comment_is_never_taken_for_the_list_own() {
    let tools = "tools: [\n  search/codebase, # the code, all of it,\n  codebase\n]\n";
    let lib = tree(&[(".github/agents/x.agent.md", &agent(tools))]);
    let (stdout, stderr) = fix(lib.path());
    assert!(
        stdout.contains("Fixed 0 (0 safe, 0 unsafe)"),
        "{stdout}{stderr}"
    );
    let text = std::fs::read_to_string(lib.path().join(".github/agents/x.agent.md")).unwrap();
    assert_eq!(text, agent(tools));
}

#[test]
fn a_removed_old_name_says_whether_the_file_or_another_rename_has_its_new_name() {
    // `runCommands` becomes four names, `read/terminalSelection` among them; `codebase` is
    // there as `search/codebase` already.
    let tools = "tools: [runCommands, terminalSelection, codebase, search/codebase]\n";
    let lib = tree(&[(".github/agents/x.agent.md", &agent(tools))]);
    let (r, _) = json_run(lib.path(), &["-p", "builtin:vscode", "--fail-on", "never"]);
    let fixes: Vec<String> = findings(&r, "SA701")
        .iter()
        .filter_map(|f| f["fix"]["message"].as_str().map(str::to_owned))
        .collect();
    assert!(
        fixes.contains(&"remove `codebase`: the list has `search/codebase` already".to_owned()),
        "{fixes:?}"
    );
    assert!(
        fixes.contains(
            &"remove `terminalSelection`: the rename of another old name in the list adds `read/terminalSelection`"
                .to_owned()
        ),
        "{fixes:?}"
    );
}
