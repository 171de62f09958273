//! Words a skill's `tools` list may hold that name products (the hosts a skill is for), not
//! tools: `tools: [claude, cursor]`.

/// Products a `tools` list names instead of tools: which hosts the skill is for (compared
/// ignoring case).
const PRODUCTS: [&str; 31] = [
    "aider",
    "amp",
    "anthropic",
    "antigravity",
    "augment",
    "chatgpt",
    "claude",
    "claude-code",
    "claude-desktop",
    "cline",
    "codex",
    "codex-cli",
    "continue",
    "copilot",
    "cursor",
    "gemini",
    "gemini-cli",
    "github-copilot",
    "goose",
    "hermes",
    "jetbrains",
    "kiro",
    "openai",
    "openclaw",
    "opencode",
    "roo",
    "roo-code",
    "trae",
    "vscode",
    "windsurf",
    "zed",
];

/// Which of `names` (a skill's `tools`, in order) name products. A name is a product when the
/// table lists it and no built-in host defines it as a tool; a list that names a product names
/// only products, so its other plain words (a product the table lacks) are read the same way,
/// unless a host knows them as tools.
pub(crate) fn products(names: &[String]) -> Vec<bool> {
    let product = |name: &str| {
        PRODUCTS.iter().any(|p| p.eq_ignore_ascii_case(name)) && !super::builtin::any_defines(name)
    };
    let all = names.iter().any(|n| product(n))
        && names.iter().all(|n| {
            product(n)
                || (!n.contains(['/', '_', '*', '(', '.']) && !super::builtin::any_defines(n))
        });
    names.iter().map(|n| all || product(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_products_names_only_products() {
        let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(products(&names(&["claude", "Cursor"])), [true, true]);
        assert_eq!(products(&names(&["claude", "windsurf-next"])), [true, true]);
        assert_eq!(products(&names(&["claude", "get_order"])), [true, false]);
        assert_eq!(products(&names(&["read", "get_order"])), [false, false]);
    }
}
