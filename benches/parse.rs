//! Per-file parsing: frontmatter split, YAML parse, the whole document, and a whole SKILL.md
//! (fields, `dependencies`, body links), on a typical skill of about 6 KB and 140 lines (the
//! median of the awesome-copilot corpus).
//!
//! `cargo bench --bench parse`

use std::path::Path;
use std::sync::LazyLock;

use divan::{Bencher, black_box};
use skill_audit::config::Settings;
use skill_audit::diagnostic::Sink;
use skill_audit::parse::{self, frontmatter, markdown, yaml};

fn main() {
    LazyLock::force(&SKILL);
    divan::main();
}

const FRONTMATTER: &str = r#"---
name: refund-workflow
description: 'Process a customer refund end to end. Use when a customer asks for their money back on an order, or when a chargeback needs to be disputed. Covers eligibility checks, partial refunds, and the audit trail finance needs. Do not use for subscription cancellations.'
license: Apache-2.0
compatibility: Needs network access to the payments services.
argument-hint: '[order-id] [--dry-run]'
user-invocable: true
metadata:
  owner: payments-team
  version: "1.4"
  source: https://example.com/payments/refund-workflow
dependencies:
  tools:
    all: [get_order, get_check_details, "github/get_issue"]
    any: [dispute_chargeback, dispute_chargeback_v2]
  resources:
    all: ["docs://payments/refund-policy.md"]
  prompts: [summarize]
---
"#;

const SECTION: &str = "## Steps

1. Fetch the order with `get_order` and confirm it is eligible under the
   [refund policy](references/policy-summary.md).
2. If the customer paid by check, read it with `get_check_details`.
3. If a chargeback is open, dispute it with `dispute_chargeback_v2`
   (or `dispute_chargeback` on older payment backends).
4. Record the outcome in the ticket and link the [template](assets/template.json).

Collect the order records first, then group them by owner and by age so that the oldest
surface first. When a call fails, retry once with a smaller page size, then report the
failure instead of guessing. Quote identifiers exactly as the tool returned them.

```bash
./scripts/refund.sh --order 1234 --dry-run
```

| Field | Meaning |
| --- | --- |
| `amount` | The refunded amount, in the order's currency. |
| `reason` | One of `damaged`, `late`, `other`. |

";

/// The typical SKILL.md: the frontmatter and seven sections of body (141 lines, 6 KB).
static SKILL: LazyLock<String> = LazyLock::new(|| {
    let mut s = String::from(FRONTMATTER);
    s.push_str("# Refund workflow\n\nSee [the guide](references/guide.md) first.\n\n");
    for _ in 0..7 {
        s.push_str(SECTION);
    }
    s
});

#[divan::bench]
fn split() {
    black_box(frontmatter::split(black_box(SKILL.as_str())).ok());
}

#[divan::bench]
fn yaml_parse(bencher: Bencher) {
    let split = frontmatter::split(&SKILL).expect("frontmatter");
    bencher.bench(|| yaml::parse(black_box(split.yaml), split.yaml_line).ok());
}

/// Decode, split and parse: `parse::document`.
#[divan::bench]
fn document() {
    let mut sink = Sink::new("skills/refund-workflow/SKILL.md");
    black_box(parse::document(black_box(SKILL.as_bytes()), "skill", &mut sink).is_ok());
}

/// Everything the body refers to (links by pulldown-cmark after a pre-scan, paths by lines).
#[divan::bench]
fn body_references(bencher: Bencher) {
    let split = frontmatter::split(&SKILL).expect("frontmatter");
    bencher.bench(|| markdown::references(black_box(split.body), split.body_line));
}

/// The whole skill: document, fields, `dependencies`, body links.
#[divan::bench]
fn skill() {
    let mut sink = Sink::new("skills/refund-workflow/SKILL.md");
    black_box(parse::skill::parse(
        black_box(SKILL.as_bytes()),
        "skills/refund-workflow/SKILL.md",
        Path::new("skills/refund-workflow/SKILL.md"),
        &mut sink,
    ));
}

/// The whole skill plus its per-file rules, as `audit::process` runs them.
#[divan::bench]
fn skill_and_rules(bencher: Bencher) {
    let settings = Settings::default();
    bencher.bench(|| {
        let mut sink = Sink::new("skills/refund-workflow/SKILL.md");
        let parsed = parse::skill::parse(
            black_box(SKILL.as_bytes()),
            "skills/refund-workflow/SKILL.md",
            Path::new("skills/refund-workflow/SKILL.md"),
            &mut sink,
        );
        skill_audit::rules::spec::check(&parsed, &settings, &mut sink);
        black_box(sink.findings.len())
    });
}
