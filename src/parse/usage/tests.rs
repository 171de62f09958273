use super::body::*;
use super::mentions::*;
use super::shell::*;
use super::*;

/// What [`named_in_prose`] answers, a line and a name at a time.
fn names_variable(line: &str, name: &str) -> bool {
    if name.contains('_') {
        return line.contains(name);
    }
    [
        format!("${name}"),
        format!("${{{name}}}"),
        format!("`{name}`"),
    ]
    .iter()
    .any(|written| line.contains(written.as_str()))
}

#[test]
fn prose_names_variables_as_each_line_is_searched_for_each() {
    let prose = [
        "Set `URL` and $PORT, then ${HOST}.",
        "The tenant is MY_TENANT_ID_2; the URL is plain prose.",
        "TOKEN alone is a word",
    ];
    let names = [
        "URL",
        "PORT",
        "HOST",
        "TENANT_ID",
        "TOKEN",
        "ID_2",
        "OTHER_NAME",
    ];
    let named = named_in_prose(&prose, &names);
    for name in names {
        let one_by_one = prose.iter().any(|l| names_variable(l, name));
        assert_eq!(named.contains(name), one_by_one, "{name}");
    }
    assert_eq!(named.len(), 5, "{named:?}");
    assert!(named_in_prose(&prose, &[]).is_empty());
}

#[test]
fn prose_names_variables_as_searched_in_generated_text() {
    // Lines and names built from the pieces the spellings are made of, every name asked
    // of every set of lines.
    let pieces = [
        "$", "{", "}", "`", "_", "A", "B", "1", "a", " ", "${", "AB_",
    ];
    let mut seed: u64 = 7;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) as usize % n
    };
    let names = [
        "A", "B", "AB", "A1", "A_B", "AB_A", "_A", "B_", "A_", "AB_AB",
    ];
    for _ in 0..2_000 {
        let lines: Vec<String> = (0..1 + next(3))
            .map(|_| (0..next(9)).map(|_| pieces[next(pieces.len())]).collect())
            .collect();
        let prose: Vec<&str> = lines.iter().map(String::as_str).collect();
        let named = named_in_prose(&prose, &names);
        for name in names {
            let one_by_one = prose.iter().any(|l| names_variable(l, name));
            assert_eq!(named.contains(name), one_by_one, "{name} in {prose:?}");
        }
    }
}

#[test]
fn mentioned_names_agree_with_mentions() {
    // Texts and names built from the pieces that decide a mention: word characters, `-`,
    // `.`, spaces and a non-ASCII letter, so every boundary case meets every other.
    let pieces = [
        "jq", "q", "-", "_", ".", " ", "é", "1", "jq-1.7", "--", "KEY",
    ];
    let mut pick = crate::generated::picker(7);
    let mut names: Vec<String> = Vec::new();
    for _ in 0..400 {
        let len = 1 + pick(3);
        names.push((0..len).map(|_| pieces[pick(pieces.len())]).collect());
    }
    for _ in 0..500 {
        let len = pick(12);
        let text: String = (0..len).map(|_| pieces[pick(pieces.len())]).collect();
        let found = mentioned(&text, names.iter().map(String::as_str));
        for name in &names {
            assert_eq!(
                found.contains(name.as_str()),
                mentions(&text, name),
                "{name:?} in {text:?}"
            );
        }
    }
}

/// Whether `line` leaves a quote open, read whole.
fn open_quote(line: &str) -> bool {
    let (mut single, mut double) = (false, false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if !single => {
                chars.next();
            }
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double => return false,
            _ => {}
        }
    }
    single || double
}

#[test]
fn quotes_read_in_pieces_agree_with_the_whole_line() {
    let pieces = ["'", "\"", "\\", "#", "a", " ", "é"];
    let mut pick = crate::generated::picker(5);
    for _ in 0..5000 {
        let parts: Vec<String> = (0..1 + pick(4))
            .map(|_| (0..pick(6)).map(|_| pieces[pick(pieces.len())]).collect())
            .collect();
        let mut quotes = Quotes::default();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                quotes.read(" ");
            }
            quotes.read(part);
        }
        assert_eq!(quotes.open(), open_quote(&parts.join(" ")), "{parts:?}");
    }
}

#[test]
fn an_import_is_placed_at_its_module() {
    // Not where its name first stands inside another word (`rt` in `import`, `fr` in
    // `from`).
    let u = of_script(
        "a.py",
        "import os, rt\nfrom fr import a\n",
        &Local::default(),
    );
    let at: Vec<(&str, u32, u32)> = u
        .iter()
        .map(|u| (u.name.as_str(), u.line, u.column))
        .collect();
    assert_eq!(at, [("rt", 1, 12), ("fr", 2, 6)]);
}

#[test]
fn mentions_a_word_not_part_of_one() {
    assert!(mentions("run `jq .` then", "jq"));
    assert!(mentions("echo $API_KEY", "API_KEY"));
    assert!(mentions("jq-1.7 is fine", "jq"));
    assert!(!mentions("uses jquery", "jq"));
    assert!(!mentions("set MY_API_KEY", "API_KEY"));
    assert!(!mentions("pass --jq here", "jq"));
    assert!(!mentions("anything", ""));
}

fn names(uses: &[Use], kind: DepKind) -> Vec<String> {
    uses.iter()
        .filter(|u| u.kind == kind)
        .map(|u| u.name.clone())
        .collect()
}

/// Each use where it is written, and the text of that line as its evidence.
#[test]
fn a_continued_line_places_each_use_on_its_own_line() {
    let body = "```bash\ncurl -s \\\n  -H \"Authorization: $API_TOKEN\" \\\n  \"$BASE_URL/x\" | jq .\n```\n";
    let u = of_body(body, 10, &[]);
    let at: Vec<(&str, u32, u32, &str)> = u
        .iter()
        .map(|u| (u.name.as_str(), u.line, u.column, u.evidence.as_str()))
        .collect();
    assert_eq!(
        at,
        [
            ("curl", 11, 1, "curl -s \\"),
            ("API_TOKEN", 12, 22, "-H \"Authorization: $API_TOKEN\" \\"),
            ("BASE_URL", 13, 4, "\"$BASE_URL/x\" | jq ."),
            ("jq", 13, 19, "\"$BASE_URL/x\" | jq ."),
        ]
    );
}

#[test]
fn commands_of_a_shell_block() {
    let body = "Run:\n\n```bash\nsudo gh pr list | jq '.[]' && cd x\nFOO=1 terraform plan\nexport A=1\necho $A $GITHUB_TOKEN ${B:-x}\nfor f in *; do az login; done\n./scripts/run.py --x\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(
        names(&u, DepKind::Bins),
        ["gh", "jq", "terraform", "az", "python3"]
    );
    assert_eq!(names(&u, DepKind::Env), ["GITHUB_TOKEN"]);
    let gh = &u[0];
    assert_eq!((gh.line, gh.column), (4, 6));
}

#[test]
fn sessions_user_blocks_and_other_languages() {
    let body = "```console\n$ docker ps\nCONTAINER ID\nkubectl stuff\n```\n\n## Installation\n\n```bash\nclawhub install x\n```\n\n## Use\nIn your terminal:\n```sh\nbrew install y\n```\n```python\nimport os\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["docker"]);
}

/// What one of several ways runs is no need, unless another way runs it too.
#[test]
fn ways_among_others_and_optional_steps() {
    let body = "## Expose\n\n**Option A: Cloudflare Tunnel** (Recommended)\n```bash\ncloudflared tunnel run\ngit pull\n```\n\n**Option B: Tailscale Funnel**\n```bash\ntailscale funnel 80\ngit pull\n```\n\n## Run\n```bash\ngh pr list\n```\nOr add it directly:\n```bash\nclawdbot cron add\n```\n### Monitor (Alternative)\n```bash\nwatch -n 5 ls\n```\n## Quick Reference (MCP)\n\n> Skip this section if using the CLI backend.\n\n| Search | `mcp__atlassian__search` |\n## Installation & Setup\n### Option 1: pip\n```bash\npip install x\n```\n## After Installation\n```bash\nsystemctl status x\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["gh", "systemctl", "git"]);
    assert!(names(&u, DepKind::Tools).is_empty());
    // Nothing but ways: one of them is needed, so they are all kept.
    let only =
        "**Option A:**\n```bash\ncloudflared run\n```\n**Option B:**\n```bash\ntailscale up\n```\n";
    let u = of_body(only, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["cloudflared", "tailscale"]);
    // Each way runs one of its own: one of them is needed.
    assert!(u.iter().all(|u| u.one_of), "{u:?}");
    // A way that runs two of its own: which pairs with which cannot be said in one `any`
    // list, so each is kept as needed; so is what both ways run.
    let two = "**Option A:**\n```bash\ncloudflared run\ncurl -s x\n```\n**Option B:**\n```bash\ntailscale up\n```\n";
    let u = of_body(two, 1, &[]);
    assert_eq!(
        names(&u, DepKind::Bins),
        ["cloudflared", "curl", "tailscale"]
    );
    assert!(u.iter().all(|u| !u.one_of), "{u:?}");
    let shared = "**Option A:**\n```bash\ncloudflared run\ngit pull\n```\n**Option B:**\n```bash\ntailscale up\ngit pull\n```\n";
    let u = of_body(shared, 1, &[]);
    let either: Vec<&str> = u
        .iter()
        .filter(|u| u.one_of)
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(either, ["cloudflared", "tailscale"]);
    assert!(u.iter().any(|u| u.name == "git" && !u.one_of), "{u:?}");
    // A tip for when something fails is run in that case only.
    let tips = "## Run\n```bash\nphoenix serve\n```\n## Common issues\n```bash\npsql $DB_URL -c 'SELECT 1'\nphoenix serve --port 1\n```\n## Troubleshooting\n### Not found\n```bash\npip install phoenix\n```\n";
    let u = of_body(tips, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["phoenix"]);
    assert!(names(&u, DepKind::Packages).is_empty());
}

/// A section pairing the skill's tool with others shows choices, not needs; a section about
/// an integration the skill itself makes is its work.
#[test]
fn pairings_with_other_tools_are_optional() {
    let body = "## Search\n```bash\nfzf --preview 'cat {}'\n```\n## Integration Examples\n### With ripgrep\n```bash\nrg --files | fzf\n```\n## Integration with other tools\n```bash\nfd -e md | fzf\n```\n## AI Integrations\n```bash\nax ai-integrations list\n```\n";
    let u = of_body(body, 1, &[]);
    let mut bins = names(&u, DepKind::Bins);
    bins.sort_unstable();
    bins.dedup();
    assert_eq!(bins, ["ax", "fzf"]);
}

#[test]
fn tools_named_only_in_a_table_beside_others_named_in_steps_are_a_reference() {
    let body = "| Tool | Purpose |\n|---|---|\n| `mcp__penpot__execute_code` | Run code |\n| `mcp__penpot__import_image` | Import images |\n\n1. Draw with `mcp__penpot__execute_code`.\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(
        names(&u, DepKind::Tools),
        ["penpot/execute_code", "penpot/execute_code"]
    );
    // Called "only when" something holds: not always called.
    let only = "- Use `mcp__docs__search` to find pages. Use `mcp__docs__list` only when you need to browse.\n- Use `mcp__docs__fetch` ONLY IF asked; `mcp__docs__get` to read.\n";
    let u = of_body(only, 1, &[]);
    assert_eq!(names(&u, DepKind::Tools), ["docs/search", "docs/get"]);
    assert!(u.iter().all(|u| !u.one_of), "a step names the one it calls");
    // Only tables: all of them stay, each one of those the skill may call.
    let table = body.lines().take(4).collect::<Vec<_>>().join("\n");
    let u = of_body(&table, 1, &[]);
    assert_eq!(
        names(&u, DepKind::Tools),
        ["penpot/execute_code", "penpot/import_image"]
    );
    assert!(u.iter().all(|u| u.one_of));
    // A table of one tool names what the skill calls.
    let one = body.lines().take(3).collect::<Vec<_>>().join("\n");
    let u = of_body(&one, 1, &[]);
    assert_eq!(names(&u, DepKind::Tools), ["penpot/execute_code"]);
    assert!(!u[0].one_of);
}

#[test]
fn blocks_inside_a_markdown_template_are_the_template_s() {
    let body = "```markdown\n# {Project}\n\n```bash\ncargo build --release\n```\n\n## Usage\n\n```bash\ncargo run\n```\n```\n\n```bash\nmake check\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["make"]);
    // Elsewhere a bare fence closes the block, as CommonMark reads it: the README's second
    // block is read, and its stray closing fence opens a block that hides the last one.
    let plain = body.replacen("```markdown", "```text", 1);
    let u = of_body(&plain, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["cargo"]);
}

#[test]
fn a_full_screen_program_is_the_person_s_example() {
    let body =
        "```bash\nbat config.yaml && vim config.yaml\nnano notes.md\nhtop\ntop -l 2 -n 0\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["bat", "top"]);
}

#[test]
fn a_downloaded_script_run_by_a_shell_is_an_installer() {
    let body = "```bash\ncurl -sL https://aka.ms/InstallAzureCLIDeb | sudo bash  # Linux\nsh -c \"$(curl -fsSL https://x.dev/install.sh)\"\nbash <(wget -qO- https://y.dev/i.sh)\naz login\ncurl -s https://api.x.dev | jq .\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["az", "curl", "jq"]);
    assert!(runs_a_download("wget -qO- https://x | /bin/sh"));
    assert!(!runs_a_download("cat x.sh | bash"));
}

#[test]
fn a_language_package_manager_installing_needs_what_it_installs() {
    let body = "```bash\npip install Pillow -q\nnpm ci\nnpm install -D @azure/swa-cli@1 gsap@3\npip install -r requirements.txt -e .\nuv pip install --index-url https://x.org/simple httpx\nuv tool install ruff\nnpm install\nnpm run build\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(
        names(&u, DepKind::Packages),
        ["Pillow", "npm:@azure/swa-cli", "npm:gsap", "httpx"]
    );
    assert_eq!(names(&u, DepKind::Bins), ["npm"]);
    assert_eq!((u[1].line, u[1].column), (4, 16));
    // A skill whose work is installing needs the manager it installs with.
    let u = of_body(&format!("# Markstream Install\n{body}"), 1, &[]);
    assert!(names(&u, DepKind::Bins).starts_with(&["pip".to_owned()]));
}

#[test]
fn an_import_the_script_can_do_without_is_no_need() {
    let text = "import requests\ntry:\n    x = fetch()\n    try:\n        import defusedxml.ElementTree as ET\n        root = ET.parse(x)\n    except ImportError:\n        import xml.etree.ElementTree as ET\nexcept OSError:\n    pass\ntry:\n    import yaml\nexcept ImportError:\n    print('pip install pyyaml')\n    sys.exit(1)\ntry:\n    import numpy\nexcept ValueError:\n    pass\ntry:\n    import openai\nexcept ImportError:\n    _die('openai is not installed')\ndef onnx_info(p):\n    try:\n        import onnx\n        return onnx.load(p)\n    except ImportError:\n        log.warning('onnx not installed, skipping')\n        return {}\n";
    let u = of_script("scripts/a.py", text, &Local::default());
    assert_eq!(
        names(&u, DepKind::Packages),
        ["requests", "PyYAML", "numpy", "openai"]
    );
}

#[test]
fn a_comment_offering_another_way_in_a_block() {
    let body = "```bash\n# Install with pip\npip3 freeze\n# Or with uv (faster)\nuv add x\nuv lock\n\nmake build\n# Optional: watch\nentr -r make\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["pip3", "make"]);
}

#[test]
fn a_tool_the_body_offers_a_way_round_is_no_need() {
    let body = "Run #tool:runSubagent now. If #tool:runSubagent is unavailable, do it yourself.\nUse the `web` tool or another suitable MCP method. Use the `fetch` tool.\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Tools), ["fetch"]);
    // An executable too, where the text says what to do without it.
    let body = "**If shell or `gh` CLI access is unavailable:** ask for the files.\n\n```bash\ngh run list\njq . x.json\nvardoger status\n```\n\nUse `jq` or another JSON tool.\nvardoger is not installed.\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["vardoger"]);
}

/// The person's one-time set-up: a section titled for it and nothing else, or one whose first
/// line tells the reader to set something up (with its numbered steps below), a service
/// registered to start with the machine, and a script only that set-up names. What it installs
/// and what it exports stay the skill's; a body that shows nothing else runs its set-up.
#[test]
fn the_person_s_one_time_set_up_is_not_what_the_agent_runs() {
    let body = "# Nest\n\n## Setup\n\n```bash\ncurl -X POST https://oauth2.example.com/token\npip install requests\nexport NEST_TOKEN=x\n```\n\n## Usage\n\n```bash\npython3 scripts/nest.py list --token $NEST_TOKEN\n```\n\n## Real-Time Events\n\nFor doorbell alerts, you need to set up a webhook once.\n\n### 2. Create Pub/Sub Topic\n\n```bash\ngcloud pubsub topics create nest-events\n```\n\n### 5. Create systemd Services\n\n```ini\nExecStart=/usr/bin/python3 scripts/hook.py\n```\n\n```bash\nsudo systemctl enable --now nest-webhook\n```\n";
    let u = read_body(body, 1, &[]);
    assert_eq!(names(&u.uses, DepKind::Bins), ["python3"]);
    assert_eq!(names(&u.uses, DepKind::Packages), ["requests"]);
    assert_eq!(names(&u.uses, DepKind::Env), ["NEST_TOKEN"]);
    assert_eq!(u.scripts_of_other_ways, ["hook.py"]);
    assert_eq!(
        installers_named("## Setup\nRun `bash setup.sh` once.\n"),
        [] as [&str; 0]
    );
    // A skill whose work is that set-up runs it, and the script its service runs.
    let work = body.replacen("# Nest", "# Nest Webhook Setup", 1);
    let u = read_body(&work, 1, &[]);
    assert_eq!(
        names(&u.uses, DepKind::Bins),
        ["curl", "pip", "python3", "gcloud", "systemctl"]
    );
    assert!(u.scripts_of_other_ways.is_empty());
    // Titles of the set-up alone, and of other things set up.
    for title in [
        "Setup",
        "Prerequisites",
        "1. First-Time Setup (Required)",
        "Setup & Configuration",
        "Step 2: Initial Setup",
        "🔧 Set up",
    ] {
        assert!(setup_heading(title), "{title}");
    }
    for title in [
        "Project Setup",
        "Bot Setup",
        "Establishing Brand Voice (First Time Setup)",
        "After Setup",
        "Configuration",
        "Verify setup",
        "Set the model",
    ] {
        assert!(!setup_heading(title), "{title}");
    }
    assert!(!setup_lead(
        "First determine whether you need to set up monitoring or diagnose an issue."
    ));
    // The skill's title section is not a step of a set-up.
    let top = "# Monitor\n\nYou need to set up a probe.\n\n```bash\nprobe run\n```\n";
    assert_eq!(names(&of_body(top, 1, &[]), DepKind::Bins), ["probe"]);
    // All the body runs is under its set-up: one of those is the skill's way.
    let only = "## Setup\n\n### Option B: CLI\n\n```bash\nnpx -y @transloadit/node assemblies create --input a.mp4\n```\n";
    assert_eq!(names(&of_body(only, 1, &[]), DepKind::Bins), ["npx"]);
    // Registering a service is set-up wherever it is written; asking after one is not.
    let run = "## Run\n```bash\nsudo systemctl enable --now x\nlaunchctl load x.plist\nsystemctl status x\n```\n";
    assert_eq!(names(&of_body(run, 1, &[]), DepKind::Bins), ["systemctl"]);
    // What the person does with what the skill made.
    let made = "Create the files.\n\n## Running the Generated Server\n\nAfter generation:\n\n```bash\ncargo build\n```\n";
    assert!(of_body(made, 1, &[]).is_empty());
}

#[test]
fn a_skill_whose_work_is_installing_runs_its_install_sections() {
    let body = "```bash\n# Not the title\n```\n# Sandbox npm Install\n\n## Step-by-Step Installation\n\n```bash\nbash scripts/install.sh\nnpm test\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["bash", "npm"]);
    assert_eq!(installers_named(body), ["install.sh"]);
    let other = body.replace("# Sandbox npm Install", "# Sandbox");
    assert!(of_body(&other, 1, &[]).is_empty());
    assert!(installers_named(&other).is_empty());
}

#[test]
fn an_install_step_needs_what_it_installs_not_the_package_manager() {
    // One tool, installed a way per system: no machine has all three managers.
    let body = "## Setup\n\n```bash\nbrew install azure-cli  # macOS\nsudo apt-get -y update && sudo apt install python3\nwinget install Microsoft.AzureCLI\npacman -Syu jq\nbrew --prefix\napt-get source hello\naz login\n```\n```powershell\nwinget.exe install Git.Git\nchoco list\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["brew", "apt-get", "az", "choco"]);
}

#[test]
fn a_virtual_environment_brings_its_own_pip_and_python() {
    let body = "```bash\npip freeze\npython3 -m venv .venv && source .venv/bin/activate\npip list\npython run.py\n```\n```bash\n. \"$HOME/env/bin/activate\"\npip3 list\n```\n```bash\npython x.py\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["pip", "python3", "python"]);
    let script = "#!/bin/bash\nsource venv/bin/activate\npip check\n";
    let u = of_script("scripts/run.sh", script, &Local::default());
    assert_eq!(names(&u, DepKind::Bins), ["bash"]);
}

#[test]
fn installer_scripts_a_text_names() {
    let text = "Run the setup.sh included in resources, then `bash scripts/install.sh --x`.\nSee [it](./wizard/go.py); notes.md, setup.md and run.sh are none. `uninstall.ps1`\n";
    assert_eq!(
        installers_named(text),
        ["go.py", "install.sh", "setup.sh", "uninstall.ps1"]
    );
    // What a section for the person installing the skill names is theirs to run; a
    // comment in a block is no heading.
    let text = "## Quick Install\n\n```bash\nsudo bash wizard/wizard.sh\n```\n## Use\n```bash\n# Install first\nbash scripts/setup.sh\n```\n";
    assert_eq!(installers_named(text), ["setup.sh"]);
    assert!(installer("scripts/setup.sh") && installer("wizard/run.py"));
    assert!(!installer("scripts/run_setup.sh"));
}

#[test]
fn tools_in_a_hosts_syntax() {
    let body = "Call `mcp__github__create_issue`, then #tool:runInTerminal.\nThe GitHub MCP server offers `github/list_issues`; see `docs/guide`.\nUse the `fetch` tool.\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(
        names(&u, DepKind::Tools),
        [
            "github/create_issue",
            "runInTerminal",
            "github/list_issues",
            "fetch"
        ]
    );
    assert!(u.last().is_some_and(|u| u.phrase));
}

#[test]
fn python_scripts() {
    let text = "#!/usr/bin/env python3\nimport os, sys\nimport yaml\nfrom PIL import Image\nfrom .x import y\nimport helpers\nfrom tests.test_a import run\nk = os.environ[\"API_KEY\"]\nd = os.getenv(\"OPT\", \"x\")\nsubprocess.run([\"gh\", \"api\"])\n";
    let local = Local::of(&["scripts/helpers.py".into()]);
    let u = of_script("scripts/a.py", text, &local);
    assert_eq!(names(&u, DepKind::Bins), ["python3", "gh"]);
    assert_eq!(names(&u, DepKind::Packages), ["PyYAML", "Pillow"]);
    assert_eq!(names(&u, DepKind::Env), ["API_KEY"]);
}

/// A package that runs an executable uses it, at the import; one that does not, nothing.
#[test]
fn packages_that_run_an_executable() {
    let py =
        "import whisper\nimport ffmpeg\nfrom pdf2image import convert_from_path\nimport requests\n";
    let u = of_script("t.py", py, &Local::default());
    assert_eq!(names(&u, DepKind::Bins), ["ffmpeg", "ffmpeg", "pdftoppm"]);
    assert_eq!(
        names(&u, DepKind::Packages),
        ["openai-whisper", "ffmpeg-python", "pdf2image", "requests"]
    );
    assert_eq!((u[0].line, u[0].column), (1, 8));
    let js = "const ffmpeg = require('fluent-ffmpeg');\nconst sharp = require('sharp');\n";
    let u = of_script("t.js", js, &Local::default());
    assert_eq!(names(&u, DepKind::Bins), ["ffmpeg"]);
}

#[test]
fn node_scripts() {
    let text = "const cp = require('child_process');\nimport fs from 'node:fs';\nimport { x } from '@scope/pkg/sub';\nconst y = require('./local');\nconst t = process.env.TOKEN;\nconst u = process.env.OPT || 'a';\nconst test = process.env.TESTNET === '1';\nimport type { Api } from 'openclaw';\ncp.execSync('git status');\n";
    let u = of_script("a.js", text, &Local::default());
    assert_eq!(names(&u, DepKind::Packages), ["npm:@scope/pkg"]);
    assert_eq!(names(&u, DepKind::Env), ["TOKEN"]);
    assert_eq!(names(&u, DepKind::Bins), ["git"]);
}

/// Text from the tree is anything: odd bytes, unclosed quotes and parentheses, multi-byte
/// characters next to every delimiter read nothing wrong and panic nowhere.
#[test]
fn odd_text_reads_without_panicking() {
    let odd = [
        "$((",
        "((x",
        ")",
        "$(",
        "\\",
        "'",
        "\"",
        "<<",
        "<<EOF",
        "${",
        "${X",
        "$env:",
        "é$é",
        "`",
        "mcp__",
        "mcp__a__",
        "#tool:",
        "→",
        "x|é",
        "é)é",
        "os.environ[",
        "process.env[",
        "subprocess.run([",
        "require(",
        "#!",
        "#!/usr/bin/env",
        "PS C:\\> ",
        "$ ",
        "ü`ü`ü",
    ];
    for a in odd {
        for b in odd {
            let text = format!("{a}{b}\n{b} {a}\n");
            let body = format!("```bash\n{text}```\n```powershell\n{text}```\n{text}");
            let _ = of_body(&body, 1, &[]);
            for f in [
                "a.sh",
                "a.ps1",
                "a.py",
                "a.js",
                "requirements.txt",
                "package.json",
            ] {
                let _ = of_script(f, &text, &Local::default());
            }
        }
    }
}

#[test]
fn package_json_dependencies_are_placed_at_their_first_mention() {
    for eol in ["\n", "\r\n"] {
        let text = [
            "{",
            "  \"name\": \"x\",",
            "  \"dependencies\": {",
            "    \"chalk\": \"^5\", \"ora\": \"1\",",
            "    \"x\": \"2\"",
            "  }",
            "}",
        ]
        .join(eol);
        let u = of_script("package.json", &text, &Local::default());
        let at: Vec<(&str, u32, u32, &str)> = u
            .iter()
            .map(|u| (u.name.as_str(), u.line, u.column, u.evidence.as_str()))
            .collect();
        assert_eq!(
            at,
            [
                ("npm:chalk", 4, 5, "\"chalk\": \"^5\", \"ora\": \"1\","),
                ("npm:ora", 4, 20, "\"chalk\": \"^5\", \"ora\": \"1\","),
                // `"x"` is first written as the package's name.
                ("npm:x", 2, 11, "\"name\": \"x\","),
            ],
            "{eol:?}"
        );
    }
}

#[test]
fn powershell_scripts() {
    let text = "$env:FOO = 'x'\nGet-ChildItem $env:FOO\naz account show --subscription $env:AZURE_SUBSCRIPTION_ID\n& dotnet build\nWrite-Host hi\n";
    let u = of_script("a.ps1", text, &Local::default());
    assert_eq!(names(&u, DepKind::Bins), ["az", "dotnet"]);
    assert_eq!(names(&u, DepKind::Env), ["AZURE_SUBSCRIPTION_ID"]);
}

#[test]
fn a_read_tested_a_few_lines_on_or_one_way_of_two_is_optional() {
    let py = "import os\nchannel = os.getenv(\"CHANNEL\")\nexe = os.getenv(\"EXE\")\n\nwith x() as p:\n    opts = {}\n    if channel:\n        opts[\"c\"] = channel\n    if exe:\n        opts[\"e\"] = exe\nkey = os.environ.get(\"API_KEY\")\n# No key and no ADC: stop.\nif not key and not args.vertex:\n    use_adc()\ntok = os.getenv(\"TOKEN\")\n\nif not tok:\n    raise SystemExit(1)\nif tok:\n    pass\nother = os.getenv(\"OTHER\")\nif not other_too:\n    pass\n";
    let u = of_script("scripts/a.py", py, &Local::default());
    assert_eq!(names(&u, DepKind::Env), ["TOKEN", "OTHER"]);
}

#[test]
fn a_read_in_the_branch_its_test_opens_or_in_a_chain_of_fallbacks_is_optional() {
    let js = "function key() {\n  if (process.env.OPENAI_API_KEY) {\n    return process.env.OPENAI_API_KEY;\n  }\n  return config.apiKey;\n}\nconst address = process.env.ADDRESS;\nconst other = process.env.OTHER;\n\nconst addr = args[1] || address || sdk.walletAddress;\nif (!other || x) exit(1);\nif (!process.env.TOKEN) exit(1);\nif (process.env.TOKEN) log('set');\n";
    let u = of_script("scripts/a.js", js, &Local::default());
    assert_eq!(names(&u, DepKind::Env), ["OTHER", "TOKEN"]);
    let py = "import os\nif os.getenv(\"KEY\"):\n    key = os.environ[\"KEY\"]\nuser = os.environ[\"USER_ID\"]\n\nprint(user or \"me\")\n";
    let u = of_script("scripts/a.py", py, &Local::default());
    assert_eq!(names(&u, DepKind::Env), Vec::<&str>::new());
    // Further than two lines below, the read stands on its own.
    let far = "import os\nif os.getenv(\"KEY\"):\n    pass\n\n\nkey = os.environ[\"KEY\"]\n";
    let u = of_script("scripts/a.py", far, &Local::default());
    assert_eq!(names(&u, DepKind::Env), ["KEY"]);
}

#[test]
fn sections_that_run_one_command_each_with_its_own_options_are_variants() {
    let body = "## Create\n\n### OpenAI\n\n```bash\nax ai create \\\n  --key $OPENAI_API_KEY \\\n  --region $AX_REGION\n```\n\n### Anthropic\n\n```bash\nax ai create \\\n  --key $ANTHROPIC_API_KEY --region $AX_REGION\n```\n\n## Rotate\n\n```bash\nax ai update --key $OPENAI_API_KEY\n```\n";
    assert_eq!(names(&of_body(body, 1, &[]), DepKind::Env), ["AX_REGION"]);
    assert_eq!(names(&of_body(body, 1, &[]), DepKind::Bins), ["ax", "ax"]);
    // Workflows of several commands, or sections of several blocks, are not variants.
    let steps = "### Deploy\n\n```bash\nsf sites create docs\ncurl -I $SITE_URL\n```\n\n### Share\n\n```bash\nsf sites create private\nsf auth $SF_USER\n```\n";
    assert_eq!(
        names(&of_body(steps, 1, &[]), DepKind::Env),
        ["SITE_URL", "SF_USER"]
    );
    let blocks = "### One\n\n```bash\nax ai create --key $A_KEY\n```\n\n```bash\nax ai check\n```\n\n### Two\n\n```bash\nax ai create --key $B_KEY\n```\n";
    assert_eq!(
        names(&of_body(blocks, 1, &[]), DepKind::Env),
        ["A_KEY", "B_KEY"]
    );
}

#[test]
fn a_process_run_in_one_branch_of_a_conditional_is_optional() {
    let js = "const { spawn } = require('child_process');\nconst child = opener\n  ? spawn(opener, [f])\n  : spawn(\"cmd\", [\"/c\", \"start\", f]);\nspawn('git', ['status']);\n";
    let u = of_script("scripts/a.mjs", js, &Local::default());
    assert_eq!(names(&u, DepKind::Bins), ["git"]);
    let py = "import subprocess\nif mac: subprocess.run([\"open\", f])\nelse: subprocess.run([\"xdg-open\", f])\ntry: subprocess.run([\"gh\", \"auth\"])\nexcept OSError: pass\n";
    let u = of_script("scripts/a.py", py, &Local::default());
    assert_eq!(names(&u, DepKind::Bins), ["gh"]);
}

#[test]
fn a_read_after_a_comment_that_falls_back_is_optional_to_the_end_of_its_block() {
    let py = "import os\ndef creds():\n    op = os.getenv(\"OP_TOKEN\")\n    if op:\n        return from_vault(op)\n    # Fall back to environment variables\n    return {\n        'id': os.environ['NEST_ID'],\n    }\n\ndef main():\n    key = os.environ['API_KEY']\n";
    let u = of_script("scripts/a.py", py, &Local::default());
    assert_eq!(names(&u, DepKind::Env), ["API_KEY"]);
}

#[test]
fn a_process_run_in_a_try_whose_handler_goes_on_quietly_is_optional() {
    let py = "import subprocess\ndef token():\n    try:\n        r = subprocess.run([\"gcloud\", \"auth\"])\n        return r.stdout\n    except (OSError, FileNotFoundError):\n        pass\n    return None\ndef run():\n    try:\n        subprocess.run([\"gh\", \"pr\", \"list\"], check=True)\n    except subprocess.CalledProcessError as e:\n        print(f\"Error: {e}\")\n        return 1\nsubprocess.run([\"jq\", \".\"])\n";
    let u = of_script("scripts/a.py", py, &Local::default());
    assert_eq!(names(&u, DepKind::Bins), ["gh", "jq"]);
}

#[test]
fn an_import_in_a_branch_is_optional() {
    let py = "import requests\n\ndef load(p):\n    if p.exists():  # only with a config\n        import yaml\n        return yaml.safe_load(p)\n    elif p.name:\n        from lxml import etree\n    else:\n        pass\n    import numpy\n\nif __name__ == \"__main__\":\n    import click\n";
    let u = of_script("scripts/a.py", py, &Local::default());
    assert_eq!(names(&u, DepKind::Packages), ["requests", "numpy", "click"]);
}

#[test]
fn sections_named_after_two_providers_of_one_kind_are_their_ways() {
    let body = "## Recon\n```bash\nnmap -sV host\n```\n## Phase 2: Azure Enumeration\n```bash\naz vm list\nnmap -p 443 host\n```\n## Phase 3: AWS Enumeration\n```bash\naws s3 ls\nnmap -p 22 host\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["nmap", "nmap"]);
    // One provider's steps are not ways, nor is a word inside another (`Windows` is not
    // `windowsill`).
    let steps = "## Recon\n```bash\nnmap host\n```\n## AWS setup\n```bash\naws configure\n```\n## AWS deploy\n```bash\nsam deploy\n```\n";
    let u = of_body(steps, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["nmap", "aws", "sam"]);
    assert_eq!(provider_named("Linuxish tools"), None);
    assert!(provider_named("On macOS").is_some());
}

#[test]
fn a_variable_given_a_default_anywhere_in_a_script_is_optional() {
    let sh = "#!/bin/bash\necho \"https://$site.$SF_DOMAIN\"\nurl=\"https://x.${SF_DOMAIN:-example.com}/\"\ncurl -H \"Bearer $TOKEN\" \"${BASE:+$BASE/}x\"\n";
    let u = of_script("scripts/a.sh", sh, &Local::default());
    assert_eq!(names(&u, DepKind::Env), ["TOKEN"]);
}

#[test]
fn scripts_named_only_in_another_way_are_that_way_s() {
    let body = "# TTS\n\n## Hume AI (Preferred)\n\n```bash\nnode {baseDir}/scripts/hume.js --text x\n```\n\n## OpenAI (Legacy)\n\n- Usage: `node {baseDir}/scripts/openai.js --text x`\n- Or `scripts/hume.js` with `--voice`.\n\n## Notes\n\nRun `setup.sh` first.\n";
    assert_eq!(scripts_of_other_ways(body), ["openai.js"]);
    assert_eq!(read_body(body, 1, &[]).scripts_of_other_ways, ["openai.js"]);
    // Where every script named is in one of the ways, they are all the skill has.
    let ways = "## Option A\n\nRun `a.py`.\n\n## Option B\n\nRun `b.py`.\n";
    assert!(scripts_of_other_ways(ways).is_empty());
    assert!(scripts_of_other_ways("Run `a.py`, then `b.sh`.\n").is_empty());
}

#[test]
fn a_variable_named_after_the_option_it_fills_is_a_placeholder_in_a_body() {
    let body = "```bash\nmsstore reconfigure --tenantId $TENANT_ID --client-secret=\"${CLIENT_SECRET}\" --token $GH_TOKEN -u $SERVICE_TOKEN\n```\n";
    assert_eq!(
        names(&of_body(body, 1, &[]), DepKind::Env),
        ["GH_TOKEN", "SERVICE_TOKEN"]
    );
    // Unless the prose names it as a variable to set.
    let named = format!("Set `TENANT_ID` first.\n\n{body}");
    assert_eq!(
        names(&of_body(&named, 1, &[]), DepKind::Env),
        ["GH_TOKEN", "SERVICE_TOKEN", "TENANT_ID"]
    );
    let script = "#!/bin/bash\nmsstore reconfigure --tenantId $TENANT_ID\n";
    let u = of_script("scripts/a.sh", script, &Local::default());
    assert_eq!(names(&u, DepKind::Env), ["TENANT_ID"]);
}

/// One line of phrases offering a way round: the start of the line and its `if ` are found
/// once for the line, not once for each phrase.
#[test]
fn a_long_line_of_ways_round_is_read_once() {
    let summary = |body: &str| {
        let offered = ways_round(body);
        let mut tools: Vec<String> = offered.tools.into_iter().collect();
        let mut bins: Vec<String> = offered.bins.into_iter().collect();
        tools.sort_unstable();
        bins.sort_unstable();
        (tools, bins)
    };
    for piece in [
        "t is unavailable if x ",
        "t or another ",
        "t is unavailable\n",
    ] {
        assert_eq!(
            summary(&piece.repeat(60_000)),
            summary(&piece.repeat(2)),
            "{piece}"
        );
    }
    // An `if` counts before the name on the name's own line only.
    let (tools, bins) = summary(
        "If a is unavailable\nb is unavailable if\nc is unavailable, if d is unavailable\n",
    );
    assert_eq!(
        (tools.len(), bins),
        (4, vec!["a".to_owned(), "d".to_owned()])
    );
}

/// Thousands of names, none a whole word of the prose: each is looked for inside its words in
/// one pass, not one search per name.
#[test]
fn many_names_inside_words_are_found_in_one_pass() {
    let summary = |n: usize| {
        let mut lines: Vec<String> = (0..n).map(|i| format!("Mention B_{i}")).collect();
        lines.push("Also MY_A_1_X and A_2B".to_owned());
        let prose: Vec<&str> = lines.iter().map(String::as_str).collect();
        let mut names: Vec<String> = (0..n).map(|i| format!("A_{i}")).collect();
        names.sort_unstable();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut named: Vec<String> = named_in_prose(&prose, &names).into_iter().collect();
        named.sort_unstable();
        named
    };
    assert_eq!(summary(100_000), summary(3));
    assert_eq!(summary(3), ["A_1", "A_2"]);
}

#[test]
fn names_occurring_agree_with_searching_for_each() {
    let pieces = ["A", "B", "_", "AB", "BA", " ", "A_B", "AAB"];
    let mut pick = crate::generated::picker(11);
    let mut names: Vec<String> = vec![String::new()];
    for _ in 0..300 {
        let len = 1 + pick(4);
        names.push((0..len).map(|_| pieces[pick(pieces.len())]).collect());
    }
    names.sort_unstable();
    names.dedup();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    for _ in 0..500 {
        let text: String = (0..pick(14)).map(|_| pieces[pick(pieces.len())]).collect();
        let found = occurring(&text, &names);
        for name in &names {
            assert_eq!(
                found.contains(name),
                text.contains(name),
                "{name:?} in {text:?}"
            );
        }
    }
}

/// `mcp__` over and over: every one starts a name that runs to the end of the line, read
/// once, not once for each `mcp__` in it.
#[test]
fn a_run_of_many_mcp_references_is_read_once() {
    let repeated = "mcp__".repeat(200_000);
    assert_eq!(super::tools::named_servers(&repeated), ["mcp"]);
    assert_eq!(
        names(&of_body(&repeated, 1, &[]), DepKind::Tools),
        Vec::<&str>::new()
    );
    // Each reference of a run still read: `mcp__a__b` right after another is inside its
    // name, one after a space is a tool of its own.
    let line = format!("{}mcp__a__b mcp__srv__tool", "mcp__".repeat(3));
    assert_eq!(super::tools::named_servers(&line), ["a", "mcp", "srv"]);
    assert_eq!(names(&of_body(&line, 1, &[]), DepKind::Tools), ["srv/tool"]);
}

/// White space around a line of many uses: the evidence they show (the line trimmed) is made
/// once for the line.
#[test]
fn uses_on_a_line_padded_with_white_space_show_it_trimmed() {
    const N: usize = 20_000;
    let uses = (0..N)
        .map(|i| format!("mcp__s__t{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    let evidence: String = uses.chars().take(160).chain(['…']).collect();
    for line in [
        format!("{}{uses}\n", " ".repeat(20 * N)),
        format!("{uses}{}\n", " ".repeat(20 * N)),
    ] {
        let u = of_body(&line, 1, &[]);
        assert_eq!(u.len(), N);
        assert!(u.iter().all(|u| u.evidence == evidence));
        assert_eq!(
            u[N - 1].column as usize,
            line.find(&format!("mcp__s__t{}", N - 1)).unwrap() + 1
        );
    }
    let reads = (0..N)
        .map(|i| format!("os.environ['V{i}_KEY']"))
        .collect::<Vec<_>>()
        .join("; ");
    let py = format!("{}{reads}\n", " ".repeat(20 * N));
    let u = of_script("a.py", &py, &Local::default());
    assert_eq!(names(&u, DepKind::Env).len(), N);
    assert!(
        u.iter()
            .all(|u| u.evidence.starts_with("os.environ['V0_KEY']"))
    );
    let cmds = (0..N)
        .map(|i| format!("c{i} $AB_{i}_KEY"))
        .collect::<Vec<_>>()
        .join("; ");
    let body = format!("```bash\n{}{cmds}\n```\n", " ".repeat(20 * N));
    let u = of_body(&body, 1, &[]);
    assert_eq!(
        (
            names(&u, DepKind::Bins).len(),
            names(&u, DepKind::Env).len()
        ),
        (N, N)
    );
    assert!(u.iter().all(|u| u.evidence.starts_with("c0 $AB_0_KEY; c1")));
}

/// One word of thousands of `$VAR` joined by `=` (`--opt=$A=$A=...`): what is before each
/// variable's `=` is compared with its name up to the first letter that differs.
#[test]
fn a_word_of_many_variables_after_equals_signs_is_read_along_once() {
    let body = |n: usize| {
        format!(
            "```bash\nfoo --opt={}\n```\n",
            vec!["$ABCD_KEY"; n].join("=")
        )
    };
    let env = |n: usize| names(&of_body(&body(n), 1, &[]), DepKind::Env);
    assert_eq!(env(2), ["ABCD_KEY", "ABCD_KEY"]);
    assert_eq!(env(100_000), vec!["ABCD_KEY"; 100_000]);
    // The option a variable fills is still found: the whole of what is before its `=`.
    let filled = "```bash\nfoo --abcd-key=$ABCD_KEY --x=a=$X_KEY\n```\n";
    assert_eq!(names(&of_body(filled, 1, &[]), DepKind::Env), ["X_KEY"]);
}

/// Thousands of sibling sections all named after one provider: not ways of one another, and
/// found so without comparing each with every other.
#[test]
fn many_sibling_sections_naming_one_provider_are_read_once() {
    let body = |n: usize, second: &str| {
        let mut b = "## Recon\n```bash\nnmap host\n```\n".to_owned();
        for _ in 0..n {
            b.push_str("## AWS\n```bash\naws ls\n```\n");
        }
        b.push_str(second);
        b
    };
    let bins = |b: String| names(&of_body(&b, 1, &[]), DepKind::Bins);
    assert_eq!(bins(body(50_000, "")).len(), 50_001);
    // One sibling named after another provider of the kind makes them all ways, however many.
    let azure = "## Azure\n```bash\naz vm list\n```\n";
    assert_eq!(bins(body(2, azure)), bins(body(50_000, azure)));
    assert_eq!(bins(body(2, azure)).len(), 2);
}

/// A continued line of thousands of uses: each placed on that line, which is counted along
/// once, not anew for each.
#[test]
fn many_uses_on_a_continued_line_are_placed_along_it_once() {
    const N: usize = 50_000;
    let vars = (0..N)
        .map(|i| format!("$AB_{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    let u = of_script(
        "a.sh",
        &format!("#!/bin/bash\nx \\\n{vars}\n"),
        &Local::default(),
    );
    let env: Vec<&Use> = u.iter().filter(|u| u.kind == DepKind::Env).collect();
    assert_eq!(env.len(), N);
    let last = env[N - 1];
    assert_eq!(
        (last.line, last.column as usize),
        (3, vars.find(&format!("$AB_{}", N - 1)).unwrap() + 1)
    );
    assert!(
        env.iter()
            .all(|u| u.line == 3 && u.evidence.starts_with("$AB_0 $AB_1"))
    );
}

/// The lines after a read are looked at for a test of its name up to [`reads::TEST_WINDOW`]
/// bytes: a line of thousands of reads, each assigned to its own name, followed by a line
/// naming them all, reads that window once for each name, not the whole of that line.
#[test]
fn a_line_of_many_assigned_reads_looks_for_their_tests_in_a_bounded_window() {
    let py = |n: usize| {
        let reads = (0..n)
            .map(|i| format!("a{i} = os.getenv('V{i}_K')"))
            .collect::<Vec<_>>();
        let named = (0..n).map(|i| format!("a{i}")).collect::<Vec<_>>();
        format!("import os\n{}\n{}\n", reads.join("; "), named.join(" "))
    };
    let js = |n: usize| {
        let reads = (0..n)
            .map(|i| format!("const a{i} = process.env.V{i}_K"))
            .collect::<Vec<_>>();
        let named = (0..n).map(|i| format!("a{i}")).collect::<Vec<_>>();
        format!("{}\n{}\n", reads.join("; "), named.join(" "))
    };
    for (file, text) in [("a.py", &py as &dyn Fn(usize) -> String), ("a.js", &js)] {
        for n in [3, 40_000] {
            let u = of_script(file, &text(n), &Local::default());
            assert_eq!(names(&u, DepKind::Env).len(), n, "{file} {n}");
        }
    }
    // A test within the window makes the read optional; one past it is not seen.
    let tested = |gap: usize| {
        let filler = format!("x = '{}'\n", "y".repeat(gap));
        let py = format!("import os\nkey = os.getenv('KEY')\n{filler}if key:\n    pass\n");
        names(&of_script("a.py", &py, &Local::default()), DepKind::Env)
    };
    assert!(tested(100).is_empty());
    assert_eq!(tested(super::reads::TEST_WINDOW), ["KEY"]);
}

/// A heading has six `#` at most: a line of more is text, so thousands of them nest no
/// sections.
#[test]
fn a_line_of_more_than_six_hashes_is_no_heading() {
    assert_eq!(heading_title("###### Six"), Some("Six"));
    assert_eq!(heading_title("####### Seven"), None);
    let deep: String = (1..=3000)
        .map(|l| format!("{} h\n", "#".repeat(l)))
        .collect();
    let body = format!("{deep}{}```bash\ngh x\n```\n", "`x` tool\n".repeat(50_000));
    assert_eq!(names(&of_body(&body, 1, &[]), DepKind::Bins), ["gh"]);
}

/// A block the text runs only in some case (`If not present, install it:`, `**If channel is
/// Telegram:**`) is one way among others: what only it runs is no need, what the main steps
/// also run still is.
#[test]
fn a_block_led_in_by_a_condition_is_one_way() {
    let body = "Run:\n\n```bash\nnode app.js\n```\n\nIf not present, install it:\n```bash\ngit clone https://x/y.git\nmake build\n```\n\n**If channel is Telegram:**\n```bash\nmessage --action send\n```\n";
    assert_eq!(names(&of_body(body, 1, &[]), DepKind::Bins), ["node"]);
    let plain = body.replace("If not present, install it:", "Then build it:");
    assert_eq!(
        names(&of_body(&plain, 1, &[]), DepKind::Bins),
        ["node", "git", "make"]
    );
    assert!(conditional_lead("**If channel is Telegram:**"));
    assert!(!conditional_lead("If you want, run this command."));
    assert!(!conditional_lead("Run it if needed:"));
}

/// The skill's own tools, presented under `## Tools`, called in shell syntax in examples, are
/// no executables; a heading under `## Required Tools` names a real one.
#[test]
fn the_skills_own_tools_in_shell_syntax_are_not_executables() {
    let body = "## Tools\n\n### duby_tts\nSpeaks.\n\n## Examples\n\n```bash\nduby_tts \"Hello\"\ncurl -s x\n```\n";
    assert_eq!(names(&of_body(body, 1, &[]), DepKind::Bins), ["curl"]);
    let needed = body.replace("## Tools", "## Required Tools");
    assert_eq!(
        names(&of_body(&needed, 1, &[]), DepKind::Bins),
        ["duby_tts", "curl"]
    );
}

/// What a shell script runs only on one operating system is no need of every machine.
#[test]
fn commands_of_one_operating_system_are_no_needs() {
    let script = "#!/bin/sh\nif [[ \"$OSTYPE\" == darwin* ]]; then\n  vm_stat\nelse\n  free -m\nfi\ncase \"$(uname -s)\" in\n  Darwin) open x ;;\n  *) xdg-open x ;;\nesac\njq . f\n";
    let u = of_script("run.sh", script, &Local::default());
    assert_eq!(names(&u, DepKind::Bins), ["jq"]);
}

/// A comment in a block that offers what follows as another way (`# Using JAR directly`,
/// `# Or pipe from a file`) starts one, up to the next comment that starts a paragraph: what
/// only it runs is no need; a comment inside a command, or one that only describes, is none.
#[test]
fn a_comment_in_a_block_that_offers_another_way_starts_one() {
    let body = "```bash\n# Standard output\nplantuml -txt d.puml\n\n# Using JAR directly\njava -jar plantuml.jar -txt d.puml\n\n# Or pipe from a file\ncat d.puml | plantuml -pipe\n\n# Then check it\njq . out.json\n```\n";
    assert_eq!(
        names(&of_body(body, 1, &[]), DepKind::Bins),
        ["plantuml", "jq"]
    );
    let described = body
        .replace("# Using JAR directly", "# Run the checker directly")
        .replace("# Or pipe", "# And pipe");
    assert_eq!(
        names(&of_body(&described, 1, &[]), DepKind::Bins),
        ["plantuml", "java", "plantuml", "jq"]
    );
    // Not after a blank line: part of the paragraph above.
    let inside = body.replace("d.puml\n\n# Using", "d.puml\n# Using");
    assert!(names(&of_body(&inside, 1, &[]), DepKind::Bins).contains(&"java".to_owned()));
}

/// `Path`, `Method` and `Approach` label ways as `Option` does; a method that creates what
/// the methods after it use is a first step, not a way.
#[test]
fn path_method_and_approach_labels_mark_ways() {
    assert!(option_label("Path B: Create a new private GitHub repo"));
    assert!(option_label("Method 2: CLI Tool"));
    assert!(option_label("Approach 1 - by hand"));
    assert!(option_label("Run it (method 2)"));
    assert!(!option_label("Pathfinder 2: x"));
    assert!(!option_label("Path to the file"));
    assert!(!option_label("Method 12: x"));
    assert!(!option_label("Method 1: Create New Site"));
    let body = "## Two paths\n### Path A: Use an existing directory\n```bash\ngit status\n```\n### Path B: Create a new repo\n```bash\ngh repo create x --clone\ngit status\n```\n## Tools\n#### Method 1: Library\n```bash\nmdconv in.md\n```\n#### Method 2: CLI Tool\n```bash\nmdtohtml in.md\nmdconv in.md\n```\n## Check\n```bash\njq . x.json\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["jq", "git", "mdconv"]);
    // Steps named as methods: the first creates the site the others build, so what it runs
    // is needed.
    let steps = "## Jekyll\n#### Method 1: Create New Site\n```bash\njekyll new blog\nbundle exec jekyll serve\n```\n#### Method 2: Build Static Site\n```bash\nbundle exec jekyll build\n```\n#### Method 3: Live Reload\n```bash\nbundle exec jekyll serve --livereload\n```\n## Check\n```bash\njq . x.json\n```\n";
    let u = of_body(steps, 1, &[]);
    assert_eq!(
        names(&u, DepKind::Bins),
        ["jekyll", "bundle", "jq", "bundle"]
    );
}

/// Numbered example workflows are ways: what one alone uses is that example's, what two use
/// stays a need, and where every use is in them they are all kept.
#[test]
fn numbered_example_workflows_are_ways() {
    assert!(numbered_example("Workflow 1: Fine-tuning LLM"));
    assert!(numbered_example("2. Example 3 - Batch"));
    assert!(numbered_example("Use case 2"));
    assert!(numbered_example("**Recipe 10**"));
    assert!(numbered_example("Scenario 4: Outage"));
    assert!(!numbered_example("Workflow overview"));
    assert!(!numbered_example("Workflows 1"));
    assert!(!numbered_example("Example 1a"));
    let body = "## Quick start\n```bash\nvllm serve m\n```\n## Common workflows\n### Workflow 1: Production\n```bash\npip install locust\ndocker run x\nnvidia-smi\n```\n### Workflow 2: Batch\n```bash\ndocker run y\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["vllm", "docker"]);
    assert!(names(&u, DepKind::Packages).is_empty());
    // One numbered workflow alone is no way among others.
    let one = "## Quick start\n```bash\nvllm serve m\n```\n### Workflow 1: Production\n```bash\ndocker run x\n```\n### Notes\n";
    assert_eq!(
        names(&of_body(one, 1, &[]), DepKind::Bins),
        ["vllm", "docker"]
    );
    // The skill's main path is its first workflow, and nothing is run outside the workflows:
    // they are all kept.
    let main = "## Workflows\n### Workflow 1: Generate User Persona\n```bash\npython scripts/persona_generator.py\n```\n### Workflow 2: Create Journey Map\n\nDraw the stages.\n";
    assert_eq!(names(&of_body(main, 1, &[]), DepKind::Bins), ["python"]);
    // The interpreter of the code the body shows is needed whichever workflow runs it.
    let code = "## Quick start\n```bash\npip install lightning\n```\n```python\nimport lightning\n```\n### Workflow 1: Train\n```python\ntrainer.fit(model)\n```\n### Workflow 2: Distributed\n```bash\npython train.py\nsbatch job.sh\n```\n";
    let u = of_body(code, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["python"]);
    assert_eq!(names(&u, DepKind::Packages), ["lightning"]);
    // A variable read in one workflow and outside them is still read outside them.
    let vars = "## Setup\n```bash\ncurl -H \"$API_KEY\" x\n```\n### Workflow 1: A\n```bash\ncurl -H \"$API_KEY\" y\n```\n### Workflow 2: B\n```bash\nls\n```\n";
    assert_eq!(names(&of_body(vars, 1, &[]), DepKind::Env), ["API_KEY"]);
}

/// After `ssh host` with no command, a block's lines run on that host, up to an `exit` or a
/// line that names the host again; a forward or a proxy opens no session for them.
#[test]
fn lines_after_ssh_into_a_host_run_there() {
    assert_eq!(remote_host("ssh ubuntu@<IP>"), Some("<IP>"));
    assert_eq!(remote_host("ssh -i ~/.ssh/key user@host"), Some("host"));
    assert_eq!(remote_host("sudo ssh -p22 -o X=1 host  # go"), Some("host"));
    assert_eq!(remote_host("ssh -D 1080 user@host"), None);
    assert_eq!(remote_host("ssh -f -N -L 8080:localhost:80 host"), None);
    assert_eq!(remote_host("ssh -L 8888:localhost:8888 host"), None);
    assert_eq!(remote_host("ssh host uptime"), None);
    assert_eq!(remote_host("ssh host && ls"), None);
    assert_eq!(remote_host("echo ssh host"), None);
    let body = "```bash\n# 2. SSH and setup\nssh ubuntu@<IP>\npip install peft\n\n# 3. Train\naccelerate launch train.py\n```\n\n```bash\ncurl -s x\n```\n";
    let u = of_body(body, 1, &[]);
    assert_eq!(names(&u, DepKind::Bins), ["ssh", "curl"]);
    assert!(names(&u, DepKind::Packages).is_empty());
    let exit = "```bash\nssh -i key.pem user@host\nnvidia-smi\nexit\njq . x.json\n```\n";
    assert_eq!(names(&of_body(exit, 1, &[]), DepKind::Bins), ["ssh", "jq"]);
    let named = "```bash\nssh mycluster\n\n# Terminate\nsky down mycluster\n```\n";
    assert_eq!(
        names(&of_body(named, 1, &[]), DepKind::Bins),
        ["ssh", "sky"]
    );
    let proxy = "```bash\nssh -D 1080 user@host\nfirefox --profile x\n```\n";
    assert_eq!(
        names(&of_body(proxy, 1, &[]), DepKind::Bins),
        ["ssh", "firefox"]
    );
    // A script goes on here once the session it opened ends.
    let u = of_script("scripts/a.sh", "ssh host\njq . x.json\n", &Local::default());
    assert_eq!(names(&u, DepKind::Bins), ["ssh", "jq"]);
}
