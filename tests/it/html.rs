//! The HTML report: a snapshot for the example library, hostile input that must stay text, a
//! page that loads nothing from the network, and a Content-Security-Policy that admits exactly
//! the page's own script.
//!
//! Update the snapshot with `INSTA_UPDATE=always cargo test --test it html::` and read the diff.

use std::path::Path;

use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::common::{EXAMPLE, MANIFEST_DIR, VERSION, bin, quiet_stdout};

/// Run skill-audit in `dir` with `args` and return the HTML it prints.
fn html(dir: &Path, args: &[&str]) -> String {
    quiet_stdout(
        bin(dir)
            .args(["--fail-on", "never"])
            .args(args)
            .args(["-f", "html"]),
        0,
    )
}

/// The example library against the three example profiles.
fn example() -> String {
    html(Path::new(MANIFEST_DIR), EXAMPLE)
}

/// Every start or end tag outside `<script>`: its lowercased name and its full text.
fn tags(html: &str) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        let end = rest.find('>').expect("every tag is closed");
        let tag = &rest[..=end];
        let name: String = tag[1..]
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '!')
            .collect::<String>()
            .to_ascii_lowercase();
        rest = &rest[end + 1..];
        if name == "script" && !tag.starts_with("</") {
            let close = rest.find("</script>").expect("script is closed");
            rest = &rest[close..];
        }
        out.push((name, tag));
    }
    out
}

/// The attributes of a start tag, in order. Values are double-quoted on this page and cannot
/// hold a raw `"` (it is escaped), so this reading is exact.
fn attrs(tag: &str) -> Vec<(String, &str)> {
    let body = tag
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim_end_matches('/');
    let mut rest = body.trim_start_matches(|c: char| !c.is_whitespace());
    let mut out = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return out;
        }
        let name_len = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let name = rest[..name_len].to_ascii_lowercase();
        rest = &rest[name_len..];
        if let Some(after) = rest.strip_prefix("=\"") {
            let len = after.find('"').expect("closing quote");
            out.push((name, &after[..len]));
            rest = &after[len + 1..];
        } else {
            assert!(!rest.starts_with('='), "unquoted attribute value in {tag}");
            out.push((name, ""));
        }
    }
}

/// The value of attribute `name` in `tag`, if present.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    attrs(tag)
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
}

/// No attribute is an event handler (`onclick`, `onerror`, ...).
fn assert_no_event_handlers(html: &str) {
    for (_, tag) in tags(html) {
        if tag.starts_with("</") || tag.starts_with("<!") {
            continue;
        }
        for (name, _) in attrs(tag) {
            assert!(!name.starts_with("on"), "event handler {name}: {tag}");
        }
    }
}

/// The page loads nothing: no `src`/`href` names a remote (or scheme-relative) resource, and
/// the policy forbids loads anyway.
fn assert_no_remote_resources(html: &str) {
    for (name, tag) in tags(html) {
        for a in [
            "src",
            "href",
            "action",
            "data",
            "poster",
            "srcset",
            "xlink:href",
        ] {
            if let Some(v) = attr(tag, a) {
                let v = v.trim().to_ascii_lowercase();
                assert!(
                    !v.starts_with("http:") && !v.starts_with("https:") && !v.starts_with("//"),
                    "<{name}> loads {v}: {tag}"
                );
                assert!(
                    !v.starts_with("javascript:"),
                    "<{name}> has a script URL: {tag}"
                );
            }
        }
        if let Some(style) = attr(tag, "style") {
            assert!(!style.contains("url("), "no url() in inline styles: {tag}");
        }
    }
    let style = &html[html.find("<style>").unwrap()..html.find("</style>").unwrap()];
    assert!(!style.contains("url("), "the stylesheet loads nothing");
    assert!(!style.contains("@import"), "the stylesheet imports nothing");
}

/// The Content-Security-Policy of the page.
fn csp(html: &str) -> String {
    let meta = tags(html)
        .into_iter()
        .find(|(n, t)| n == "meta" && t.contains("Content-Security-Policy"))
        .expect("a CSP meta tag")
        .1;
    attr(meta, "content")
        .expect("CSP content")
        .replace("&#x27;", "'")
}

#[test]
fn example_report_snapshot() {
    let html = example();
    let versioned = format!("skill-audit {VERSION}");
    assert_eq!(
        html.matches(&versioned).count(),
        3,
        "the version shows in the generator tag, the header and the footer"
    );
    insta::assert_snapshot!("html", html.replace(&versioned, "skill-audit [version]"));
}

#[test]
fn example_report_is_deterministic() {
    assert_eq!(example(), example());
}

#[test]
fn example_report_loads_nothing_from_the_network() {
    let html = example();
    assert_no_remote_resources(&html);
    for needle in ["http://", "https://"] {
        for (_, tag) in tags(&html) {
            assert!(!tag.contains(needle), "{tag}");
        }
    }
}

#[test]
fn policy_forbids_loads_and_admits_only_the_page_script() {
    let html = example();
    let policy = csp(&html);
    assert!(policy.contains("default-src 'none'"), "{policy}");
    assert!(policy.contains("base-uri 'none'"), "{policy}");
    assert!(policy.contains("form-action 'none'"), "{policy}");
    assert!(
        !policy.contains("script-src 'unsafe-inline'"),
        "scripts are admitted by hash: {policy}"
    );

    let scripts: Vec<&str> = tags(&html)
        .into_iter()
        .filter(|(n, t)| n == "script" && !t.starts_with("</"))
        .map(|(_, t)| t)
        .collect();
    assert_eq!(scripts, ["<script>"], "one inline script, no src");
    let start = html.find("<script>").unwrap() + "<script>".len();
    let len = html[start..].find("</script>").unwrap();
    let digest = Sha256::digest(&html.as_bytes()[start..start + len]);
    let hash = base64::engine::general_purpose::STANDARD.encode(digest);
    assert!(
        policy.contains(&format!("script-src 'sha256-{hash}'")),
        "the CSP must name the script's hash; set it to 'sha256-{hash}' in templates/report.html.j2 ({policy})"
    );
    assert_no_event_handlers(&html);
}

#[test]
fn readable_without_javascript() {
    let html = example();
    let tags = tags(&html);
    let toolbar = tags
        .iter()
        .find(|(_, t)| t.contains("id=\"filters\""))
        .expect("the filter bar")
        .1;
    assert!(
        toolbar.contains(" hidden"),
        "the filter bar only appears with JavaScript"
    );
    let rows: Vec<&str> = tags
        .iter()
        .filter(|(_, t)| t.contains("data-search="))
        .map(|(_, t)| *t)
        .collect();
    assert_eq!(rows.len(), 9 + 4 + 3 + 13, "matrix rows, drift rows, files");
    for r in rows {
        assert!(!r.contains(" hidden"), "visible by default: {r}");
    }
    // The reason for an unavailable cell is on the page, not in a tooltip.
    assert!(
        html.contains("<p class=\"reason\">missing tool <code>get_check_details</code></p>"),
        "reasons are shown in the cells"
    );
    for code in ["SA104", "SA402", "SA603"] {
        assert!(html.contains(&format!("<a href=\"#rule-{code}\">{code}</a>")));
        assert!(html.contains(&format!(
            "<article class=\"rule panel\" id=\"rule-{code}\">"
        )));
    }
    assert!(
        !html.contains("id=\"rule-SA201\""),
        "only the rules that occur are documented"
    );
}

#[test]
fn template_never_marks_text_safe() {
    let template = include_str!("../../templates/report.html.j2");
    assert!(!template.contains("|safe") && !template.contains("| safe"));
    assert!(!template.contains("autoescape false"));
}

/// A library whose names, descriptions, paths, tool names and profile name are all hostile.
fn hostile_library(root: &Path) {
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "lib/skills/\"><img src=x onerror=alert(1)>/SKILL.md",
        "---\n\
         name: '<script>alert(1)</script>'\n\
         description: '<script>alert(1)</script> \"><img src=x onerror=alert(1)> </details> {{ 7*7 }} {% raw %} [click](javascript:alert(1)) [site](https://evil.test/) ![x](https://evil.test/x.png) <svg onload=alert(1)>'\n\
         dependencies:\n  tools: ['\"><img src=x onerror=alert(1)>', '</details>', '{{ 7*7 }}']\n\
         ---\n\
         Body with [a link](references/<script>.md).\n",
    );
    write(
        "lib/skills/{{ 7*7 }}<svg onload=alert(1)>/SKILL.md",
        "---\nname: '{{ 7*7 }}'\ndescription: 'Use **this** </table></td><b>bold</b> [site](https://evil.test/) ![x](https://evil.test/x.png) <img src=x onerror=alert(1)>'\nnot-a-key: '</details>'\n---\n",
    );
    write(
        "lib/skills/broken<script>/SKILL.md",
        "---\nname: x\ndescription: a: '</details>'\n---\n",
    );
    write(
        "lib/.github/agents/evil.agent.md",
        "---\n\
         name: '</details><script>alert(1)</script>'\n\
         description: '\"><img src=x onerror=alert(1)>'\n\
         tools: ['<b>', '</table>', 'javascript:alert(1)']\n\
         ---\nHello\n",
    );
    write(
        "profile.json",
        r#"{"name": "</th><script>alert(1)</script>", "tools": ["<b>"]}"#,
    );
}

#[test]
fn hostile_input_stays_text() {
    let dir = tempfile::tempdir().unwrap();
    hostile_library(dir.path());
    let html = html(dir.path(), &["-p", "profile.json", "lib"]);

    // The fixture got in: hostile names are on the page, escaped.
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;&#x2f;script&gt;"),
        "hostile names are shown as text"
    );
    assert!(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
    assert!(
        html.contains("{{ 7*7 }}"),
        "template syntax in data is shown, not evaluated"
    );
    // Descriptions are Markdown: formatting survives, raw HTML is shown as text, links and
    // images are reduced to their text.
    assert!(html.contains("Use <strong>this</strong> &lt;/table&gt;&lt;/td&gt;&lt;b&gt;bold&lt;/b&gt; site (https://evil.test/) x (https://evil.test/x.png)"));

    for needle in [
        "<script>alert",
        "<img",
        "<svg onload",
        "<b>",
        "</th><script",
    ] {
        assert!(!html.contains(needle), "{needle:?} appears unescaped");
    }
    let tags = tags(&html);
    let allowed = [
        "!doctype",
        "html",
        "head",
        "meta",
        "title",
        "link",
        "style",
        "body",
        "header",
        "div",
        "h1",
        "h2",
        "h3",
        "span",
        "p",
        "nav",
        "a",
        "main",
        "section",
        "figure",
        "figcaption",
        "svg",
        "g",
        "text",
        "rect",
        "ul",
        "li",
        "table",
        "colgroup",
        "col",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "code",
        "input",
        "fieldset",
        "legend",
        "label",
        "details",
        "summary",
        "article",
        "dl",
        "dt",
        "dd",
        "pre",
        "footer",
        "script",
        "em",
        "strong",
        "del",
        // Line-break opportunities in profile paths.
        "wbr",
    ];
    for (name, tag) in &tags {
        assert!(
            allowed.contains(&name.as_str()),
            "unexpected tag <{name}>: {tag}"
        );
    }
    for element in [
        "details", "table", "tr", "td", "th", "script", "svg", "p", "code",
    ] {
        let opened = tags
            .iter()
            .filter(|(n, t)| n == element && !t.starts_with("</"))
            .count();
        let closed = tags
            .iter()
            .filter(|(n, t)| n == element && t.starts_with("</"))
            .count();
        assert_eq!(opened, closed, "<{element}> opened and closed as often");
    }
    let scripts = tags.iter().filter(|(n, _)| n == "script").count();
    assert_eq!(scripts, 2, "only the page's own <script>…</script>");
    assert_no_event_handlers(&html);
    assert_no_remote_resources(&html);
    for (name, tag) in &tags {
        if name == "a" && !tag.starts_with("</") {
            let href = attr(tag, "href").unwrap_or_default();
            assert!(href.starts_with('#'), "links stay on the page: {tag}");
        }
    }
}

/// The matrix rows, in page order: the name, the `data-statuses` and whether the row carries
/// `data-attention` (shown at first).
fn matrix_rows(html: &str) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find("<tr data-search=") {
        rest = &rest[i..];
        let tag = &rest[..=rest.find('>').unwrap()];
        if let Some(statuses) = attr(tag, "data-statuses") {
            let at = rest.find("<span class=\"name\">").unwrap() + "<span class=\"name\">".len();
            let name = &rest[at..at + rest[at..].find("</span>").unwrap()];
            let attention = attrs(tag).iter().any(|(n, _)| n == "data-attention");
            out.push((name.to_owned(), statuses.to_owned(), attention));
        }
        rest = &rest[tag.len()..];
    }
    out
}

/// The first column of the text matrix headed `heading` (`SKILL`, `AGENT`): the rows it lists.
fn text_matrix(text: &str, heading: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with(&format!("{heading} ")))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split("  ").next().unwrap().to_owned())
        .collect()
}

/// The `(name, checked)` of each checkbox of the filter bar, by `id` or `data-status`.
fn toggles(html: &str) -> Vec<(String, bool)> {
    tags(html)
        .into_iter()
        .filter(|(n, t)| n == "input" && attr(t, "type") == Some("checkbox"))
        .map(|(_, t)| {
            let name = attr(t, "data-status").or_else(|| attr(t, "id")).unwrap();
            (name.to_owned(), attr(t, "checked").is_some())
        })
        .collect()
}

#[test]
fn chart_titles_count_in_the_right_number() {
    let titles = |html: &str| -> Vec<String> {
        html.split("<title>")
            .skip(2)
            .map(|t| t[..t.find("</title>").unwrap()].to_owned())
            .collect()
    };
    let one = html(
        Path::new(MANIFEST_DIR),
        &["-p", "examples/profiles/prod.json", "examples/library"],
    );
    assert_eq!(
        titles(&one),
        [
            "prod: 9 skills, 4 available, 2 unavailable, 1 not-loaded, 1 needs-nothing, 1 undeclared",
            "prod: 4 agents, 2 available, 2 partial",
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    crate::common::write(
        dir.path(),
        "lib/.github/agents/solo.agent.md",
        "---\nname: solo\ndescription: Works alone.\ntools: [read]\n---\n# Solo\n",
    );
    crate::common::write(
        dir.path(),
        "lib/skills/alone/SKILL.md",
        crate::common::skill_md("alone", ""),
    );
    let prod = Path::new(MANIFEST_DIR).join("examples/profiles/prod.json");
    let single = html(dir.path(), &["-p", prod.to_str().unwrap(), "lib"]);
    let single = titles(&single);
    assert_eq!(single.len(), 2, "{single:?}");
    assert!(single[0].starts_with("prod: 1 skill, "), "{single:?}");
    assert!(single[1].starts_with("prod: 1 agent, "), "{single:?}");
}

#[test]
fn first_view_is_the_rows_text_and_markdown_list() {
    let html = example();
    let text = quiet_stdout(
        bin(MANIFEST_DIR)
            .args(["--fail-on", "never", "--color", "never"])
            .args(EXAMPLE),
        0,
    );
    let rows = matrix_rows(&html);
    assert_eq!(rows.len(), 13, "{rows:#?}");
    let shown = |range: std::ops::Range<usize>| -> Vec<String> {
        rows[range]
            .iter()
            .filter(|(_, _, attention)| *attention)
            .map(|(name, _, _)| name.clone())
            .collect()
    };
    // 9 skills, then 4 agents.
    assert_eq!(shown(0..9), text_matrix(&text, "SKILL"));
    assert_eq!(shown(9..13), text_matrix(&text, "AGENT"));
    assert_eq!(shown(9..13), ["refunds", "planner"]);
    let markdown = quiet_stdout(
        bin(MANIFEST_DIR)
            .args(["--fail-on", "never", "-f", "markdown"])
            .args(EXAMPLE),
        0,
    );
    assert!(
        markdown.contains("### Skills that need attention (8 of 9)")
            && markdown.contains("### Agents that need attention (2 of 4)"),
        "{markdown}"
    );
    // Every format lists the invalid skill too, whose cells need nothing.
    assert_eq!(shown(0..9).len(), 8);
    assert!(shown(0..9).contains(&"broken-skill".to_owned()));
    assert!(
        markdown.contains("| <code>broken-skill</code> |"),
        "{markdown}"
    );
    // An agent available wherever it loads needs no attention, as text and Markdown fold it.
    let analyst = rows.iter().find(|(n, _, _)| n == "analyst").unwrap();
    assert_eq!(
        (analyst.1.as_str(), analyst.2),
        ("available not-loaded", false)
    );
    // The first view comes from the attention toggle: every status toggle starts ticked, so
    // none hides a row that toggle shows.
    let boxes = toggles(&html);
    assert_eq!(boxes[0], ("filter-attention".to_owned(), true));
    assert_eq!(boxes.len(), 1 + 8, "{boxes:?}");
    assert!(boxes.iter().all(|(_, on)| *on), "{boxes:?}");

    // `--matrix all` lists every row in text and Markdown: the page starts with all shown.
    let all = html_with(&["--matrix", "all"]);
    assert_eq!(toggles(&all)[0], ("filter-attention".to_owned(), false));
}

/// The example report with `extra` arguments.
fn html_with(extra: &[&str]) -> String {
    let args: Vec<&str> = EXAMPLE
        .iter()
        .copied()
        .chain(extra.iter().copied())
        .collect();
    html(Path::new(MANIFEST_DIR), &args)
}

#[test]
fn merged_cells_with_no_judgement_read_as_in_text_and_need_attention() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let profile = |p: &str| {
        Path::new(MANIFEST_DIR)
            .join("examples/profiles")
            .join(p)
            .display()
            .to_string()
    };
    // Two shards, each judged on a profile the other was not.
    for (shard, skill, p) in [("a", "left", "prod.json"), ("b", "right", "dev.json")] {
        crate::common::write(
            root,
            &format!("{shard}/skills/{skill}/SKILL.md"),
            crate::common::skill_md(skill, ""),
        );
        quiet_stdout(
            bin(root.join(shard))
                .args(["--fail-on", "never", "-p", &profile(p), "."])
                .args(["-o", &format!("../{shard}.json")]),
            0,
        );
    }
    let merged = |format: &str| {
        quiet_stdout(
            bin(root).args(["merge", "a.json", "b.json", "-f", format]),
            0,
        )
    };
    let html = merged("html");
    let text = merged("text");
    let markdown = merged("markdown");

    // Text lists both rows, a dash where a shard did not judge.
    assert_eq!(text_matrix(&text, "SKILL"), ["left", "right"], "{text}");
    assert!(text.contains("left   needs-nothing  -\n"), "{text}");
    assert!(
        markdown.contains("| <code>left</code> | ☑️ needs nothing | – |"),
        "{markdown}"
    );
    // Both legends say what the dash means.
    let meaning = "no judgement: the report this row comes from was not run on this profile";
    assert!(text.contains(&format!("\n  -: {meaning}\n")), "{text}");
    assert!(markdown.contains(&format!(" · –: {meaning}")), "{markdown}");
    // The page shows the same dash, and both rows at first.
    assert!(!html.contains("Not evaluated"), "no label of its own");
    let rows = matrix_rows(&html);
    assert_eq!(
        rows,
        [
            ("left".to_owned(), "needs-nothing none".to_owned(), true),
            ("right".to_owned(), "none needs-nothing".to_owned(), true),
        ]
    );
    let dash = tags(&html)
        .into_iter()
        .filter(|(n, t)| n == "td" && attr(t, "class") == Some("s-none"))
        .count();
    assert_eq!(dash, 2, "one empty cell per row");
    assert!(
        html.contains("<span class=\"badge s-none\" title=\"no judgement: the report this row comes from was not run on this profile\">–</span>"),
        "the dash says what it means on hover"
    );
    // A toggle for the dash, ticked like the others, so the first view is the attention rows.
    let boxes = toggles(&html);
    assert_eq!(boxes.last(), Some(&("none".to_owned(), true)), "{boxes:?}");
    assert!(boxes.iter().all(|(_, on)| *on), "{boxes:?}");

    // A report that judged every cell has no such toggle.
    assert!(!toggles(&example()).iter().any(|(n, _)| n == "none"));
}

#[test]
fn hidden_characters_are_shown_as_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| crate::common::write(dir.path(), rel, text);
    write(
        "lib/skills/spoof/SKILL.md",
        "---\nname: spoof\ndescription: \"Harmless \\u202egnirts terces\\u200b \\e[31m\\a\"\n\
         dependencies:\n  tools: [\"read_file\\u202e\", \"delete_everything\"]\n---\n",
    );
    write("p.json", r#"{"name": "p\u2067x", "tools": []}"#);
    let html = html(dir.path(), &["-p", "p.json", "lib"]);
    // Raw, the override would reverse the description's end and run out of its `<code>`.
    for c in ['\u{202e}', '\u{2067}', '\u{200b}', '\u{1b}', '\u{7}'] {
        assert!(!html.contains(c), "{c:?} in {html}");
    }
    for shown in [
        "Harmless \\u{202e}gnirts terces\\u{200b} \\u{1b}[31m\\u{7}",
        "<code>read_file\\u{202e}</code>",
        "p\\u{2067}x",
    ] {
        assert!(html.contains(shown), "{shown}: {html}");
    }
}

#[test]
fn the_page_names_its_root_and_counts_in_the_singular_and_what_was_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| crate::common::write(dir.path(), rel, text);
    write(
        "lib/skills/a/SKILL.md",
        "---\nname: a\ndescription: d\n---\n",
    );
    write(
        "lib/skills/b/SKILL.md",
        "---\nname: b\ndescription: d\n---\n",
    );
    write("lib/.ignore", "skills/b/\n");
    let html = html(dir.path(), &["lib"]);
    assert!(
        html.contains("<title>lib · skill-audit report</title>"),
        "{html}"
    );
    assert!(html.contains(">of 0 links<"), "{html}");
    assert!(
        html.contains("not audited: 1 file hidden by ignore rules (--no-ignore audits them)"),
        "{html}"
    );
}

#[test]
fn the_needs_nothing_swatch_is_drawn_as_its_bar() {
    let html = example();
    // The bar draws needs-nothing lighter than available; its legend swatch must match.
    assert!(
        html.contains(".seg-needs-nothing, .swatch.s-needs-nothing { opacity: .6; }"),
        "{html}"
    );
}
