//! Conformance with the skills-ref reference validator (agentskills/agentskills `skills-ref`).
//!
//! Every case of skills-ref's `test_validator.py`, the `test_parser.py` cases that apply to a
//! folder, and the extra edge cases recorded in `formats.md` §1.4 is built as a skill folder in
//! a temporary directory and audited through the library API. The set of rule codes of
//! error-severity findings must equal the expected set; some cases also name non-error findings
//! (with their line) that must be present, or codes that must be absent.
//!
//! Where skill-audit deliberately differs from skills-ref, the case says why in a comment.

use std::collections::BTreeSet;
use std::path::Path;

use skill_audit::audit::AuditResult;
use skill_audit::config::{NameCharset, Settings};
use skill_audit::{AuditOptions, Finding, Severity, run};

/// A non-error finding (or an error with a position) that must be present.
#[derive(Clone, Debug)]
struct Expect {
    code: &'static str,
    /// Display path must end with this (defaults to the case's first file).
    file: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    message: Option<&'static str>,
}

type Check = Box<dyn Fn(&AuditResult) -> Result<(), String>>;

struct Case {
    id: String,
    /// Files to create, relative to the library root.
    files: Vec<(String, Vec<u8>)>,
    charset: NameCharset,
    /// Exactly these codes among error-severity findings.
    errors: Vec<&'static str>,
    /// Findings that must be present.
    expect: Vec<Expect>,
    /// Codes that must not appear at any severity.
    absent: Vec<&'static str>,
    /// Whether the (every) skill is expected to have unreadable frontmatter.
    invalid: bool,
    check: Option<Check>,
}

impl Case {
    fn new(id: impl Into<String>) -> Case {
        Case {
            id: id.into(),
            files: Vec::new(),
            charset: NameCharset::Ascii,
            errors: Vec::new(),
            expect: Vec::new(),
            absent: Vec::new(),
            invalid: false,
            check: None,
        }
    }
    fn file(mut self, path: impl Into<String>, content: impl Into<Vec<u8>>) -> Case {
        self.files.push((path.into(), content.into()));
        self
    }
    fn errors(mut self, codes: &[&'static str]) -> Case {
        self.errors = codes.to_vec();
        self
    }
    fn unicode(mut self) -> Case {
        self.charset = NameCharset::Unicode;
        self
    }
    fn invalid(mut self) -> Case {
        self.invalid = true;
        self
    }
    fn has(mut self, code: &'static str) -> Case {
        self.expect.push(Expect {
            code,
            file: None,
            line: None,
            column: None,
            message: None,
        });
        self
    }
    fn has_at(mut self, code: &'static str, line: u32) -> Case {
        self.expect.push(Expect {
            code,
            file: None,
            line: Some(line),
            column: None,
            message: None,
        });
        self
    }
    fn has_at_col(mut self, code: &'static str, line: u32, column: u32) -> Case {
        self.expect.push(Expect {
            code,
            file: None,
            line: Some(line),
            column: Some(column),
            message: None,
        });
        self
    }
    fn has_msg(mut self, code: &'static str, message: &'static str) -> Case {
        self.expect.push(Expect {
            code,
            file: None,
            line: None,
            column: None,
            message: Some(message),
        });
        self
    }
    fn has_in(mut self, code: &'static str, file: &str) -> Case {
        self.expect.push(Expect {
            code,
            file: Some(file.to_owned()),
            line: None,
            column: None,
            message: None,
        });
        self
    }
    fn absent(mut self, codes: &[&'static str]) -> Case {
        self.absent.extend_from_slice(codes);
        self
    }
    fn check(mut self, f: impl Fn(&AuditResult) -> Result<(), String> + 'static) -> Case {
        self.check = Some(Box::new(f));
        self
    }
}

/// A skill folder `dir` holding `SKILL.md` with `text`.
fn skill(id: &str, dir: &str, text: impl Into<Vec<u8>>) -> Case {
    Case::new(id).file(format!("{dir}/SKILL.md"), text)
}

/// Frontmatter with `name` and `description`, then `extra` YAML lines, then a short body.
fn fm(name: &str, description: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n{extra}---\n# Body\n\nText.\n")
}

/// A valid skill `dir` with `extra` frontmatter lines.
fn with(id: &str, dir: &str, extra: &str) -> Case {
    skill(id, dir, fm(dir, "A test skill", extra))
}

/// The first (only) skill of a result.
fn only(r: &AuditResult) -> Result<&skill_audit::model::Skill, String> {
    match r.skills.as_slice() {
        [one] => Ok(&one.skill),
        other => Err(format!("expected one skill, found {}", other.len())),
    }
}

fn ensure(cond: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if cond { Ok(()) } else { Err(what()) }
}

/// An internationalised name: valid under `--name-charset unicode` (as in skills-ref), and
/// `name-charset` (SA206) under the default ASCII set, which is what VS Code, Claude and OpenAI
/// accept. `unicode_errors` are the other errors both modes report.
fn i18n(id: &str, dir: &str, name: &str, unicode_errors: &[&'static str]) -> [Case; 2] {
    let text = fm(name, "A test skill", "");
    // With ASCII names the letters are also outside the set: an uppercase name then has two
    // faults, reported as one finding under SA206.
    let mut ascii: Vec<&'static str> = unicode_errors.to_vec();
    ascii.retain(|c| *c != "SA204");
    ascii.push("SA206");
    [
        skill(&format!("{id} [unicode]"), dir, text.clone())
            .unicode()
            .errors(unicode_errors),
        skill(&format!("{id} [ascii]"), dir, text).errors(&ascii),
    ]
}

fn cases() -> Vec<Case> {
    let mut v: Vec<Case> = Vec::new();

    // ---- skills-ref tests/test_validator.py ---------------------------------------------------
    v.push(skill(
        "test_valid_skill",
        "my-skill",
        fm("my-skill", "A test skill", ""),
    ));
    // test_nonexistent_path, test_not_a_directory and test_missing_skill_md are about the path
    // given to `validate`; skill-audit audits libraries, see the separate tests below.
    v.push(
        skill(
            "test_invalid_name_uppercase",
            "MySkill",
            fm("MySkill", "A test skill", ""),
        )
        .errors(&["SA204"]),
    );
    let a70 = "a".repeat(70);
    v.push(skill("test_name_too_long", &a70, fm(&a70, "A test skill", "")).errors(&["SA203"]));
    v.push(
        skill(
            "test_name_leading_hyphen",
            "-my-skill",
            fm("-my-skill", "A test skill", ""),
        )
        .errors(&["SA205"]),
    );
    v.push(
        skill(
            "test_name_consecutive_hyphens",
            "my--skill",
            fm("my--skill", "A test skill", ""),
        )
        .errors(&["SA205"]),
    );
    v.push(
        skill(
            "test_name_invalid_characters",
            "my_skill",
            fm("my_skill", "A test skill", ""),
        )
        .errors(&["SA206"]),
    );
    v.push(
        skill(
            "test_name_directory_mismatch",
            "wrong-name",
            fm("correct-name", "A test skill", ""),
        )
        .errors(&["SA207"])
        .has_msg("SA207", "wrong-name"),
    );
    // skills-ref rejects any key outside its six; skill-audit warns (`unknown-key`, SA221),
    // because every host ignores such keys and the skill still loads.
    v.push(
        with(
            "test_unexpected_fields",
            "my-skill",
            "unknown_field: should not be here\n",
        )
        .has_at("SA221", 4),
    );
    v.push(
        with(
            "test_valid_with_all_fields",
            "my-skill",
            "license: MIT\nmetadata:\n  author: Test\n",
        )
        .absent(&["SA215", "SA217", "SA221"])
        .check(|r| {
            let s = only(r)?;
            ensure(s.fields.license.as_deref() == Some("MIT"), || {
                format!("license {:?}", s.fields.license)
            })?;
            ensure(
                s.fields.metadata.get("author").map(String::as_str) == Some("Test"),
                || format!("metadata {:?}", s.fields.metadata),
            )
        }),
    );
    v.push(
        with(
            "test_allowed_tools_accepted",
            "my-skill",
            "allowed-tools: Bash(jq:*) Bash(git:*)\n",
        )
        .absent(&["SA216"])
        .check(|r| {
            let s = only(r)?;
            ensure(
                s.fields.allowed_tools == ["Bash(jq:*)", "Bash(git:*)"],
                || format!("allowed-tools {:?}", s.fields.allowed_tools),
            )
        }),
    );
    // skills-ref accepts Unicode letters; skill-audit does too with `--name-charset unicode`.
    v.extend(i18n("test_i18n_chinese_name", "技能", "技能", &[]));
    v.extend(i18n(
        "test_i18n_russian_name_with_hyphens",
        "мой-навык",
        "мой-навык",
        &[],
    ));
    v.extend(i18n(
        "test_i18n_russian_lowercase_valid",
        "навык",
        "навык",
        &[],
    ));
    v.extend(i18n(
        "test_i18n_russian_uppercase_rejected",
        "НАВЫК",
        "НАВЫК",
        &["SA204"],
    ));
    v.push(
        skill(
            "test_description_too_long",
            "my-skill",
            fm("my-skill", &"x".repeat(1100), ""),
        )
        .errors(&["SA212"]),
    );
    v.push(
        with(
            "test_valid_compatibility",
            "my-skill",
            "compatibility: Requires Python 3.11+\n",
        )
        .check(|r| {
            let s = only(r)?;
            ensure(
                s.fields.compatibility.as_deref() == Some("Requires Python 3.11+"),
                || format!("compatibility {:?}", s.fields.compatibility),
            )
        }),
    );
    v.push(
        with(
            "test_compatibility_too_long",
            "my-skill",
            &format!("compatibility: {}\n", "x".repeat(550)),
        )
        .errors(&["SA214"]),
    );
    // NFKC: the folder is precomposed `café`, the name is `cafe` + U+0301 COMBINING ACUTE.
    v.extend(i18n(
        "test_nfkc_normalization",
        "caf\u{e9}",
        "cafe\u{301}",
        &[],
    ));

    // ---- skills-ref tests/test_parser.py (the cases that apply to a skill folder) --------------
    v.push(
        skill("test_valid_frontmatter", "my-skill", "---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n\nInstructions here.\n")
            .check(|r| {
                let s = only(r)?;
                ensure(s.name == "my-skill" && s.description.as_deref() == Some("A test skill"), || format!("{s:?}"))
            }),
    );
    v.push(
        skill(
            "test_missing_frontmatter",
            "my-skill",
            "# No frontmatter\n\nJust content.\n",
        )
        .errors(&["SA102"])
        .has_at("SA102", 1)
        .invalid(),
    );
    v.push(
        skill(
            "test_unclosed_frontmatter",
            "my-skill",
            "---\nname: my-skill\ndescription: A test skill\n",
        )
        .errors(&["SA103"])
        .invalid(),
    );
    v.push(
        skill(
            "test_invalid_yaml",
            "my-skill",
            "---\nname: [invalid\ndescription: broken\n---\nBody here\n",
        )
        .errors(&["SA104"])
        .invalid(),
    );
    v.push(
        skill(
            "test_non_dict_frontmatter",
            "my-skill",
            "---\n- item1\n- item2\n---\nBody\n",
        )
        .errors(&["SA105"])
        .has_at("SA105", 2)
        .invalid(),
    );
    v.push(
        with("test_read_valid_skill", "my-skill", "license: MIT\n").check(|r| {
            let s = only(r)?;
            ensure(s.fields.license.as_deref() == Some("MIT"), || {
                format!("license {:?}", s.fields.license)
            })
        }),
    );
    // skills-ref (strictyaml) reads every scalar as a string; skill-audit parses YAML 1.2, where
    // `1.0` is a number, and warns (SA215) because hosts would not all read the same text.
    v.push(
        with(
            "test_read_with_metadata",
            "my-skill",
            "metadata:\n  author: Test Author\n  version: 1.0\n",
        )
        .has_at("SA215", 6)
        .check(|r| {
            let s = only(r)?;
            ensure(
                s.fields.metadata.get("author").map(String::as_str) == Some("Test Author"),
                || format!("metadata {:?}", s.fields.metadata),
            )
        }),
    );
    v.push(
        skill(
            "test_missing_name",
            "my-skill",
            "---\ndescription: A test skill\n---\nBody\n",
        )
        .errors(&["SA201"])
        .has_msg("SA201", "name: my-skill"),
    );
    v.push(
        skill(
            "test_missing_description",
            "my-skill",
            "---\nname: my-skill\n---\nBody\n",
        )
        .errors(&["SA210"]),
    );
    // skills-ref accepts a lower-case `skill.md`; skill-audit audits it the same way and warns
    // (SA108) because Claude Code and Codex look for `SKILL.md` exactly.
    v.push(
        Case::new("test_find_skill_md_accepts_lowercase")
            .file("my-skill/skill.md", fm("my-skill", "A test skill", ""))
            .has_at("SA108", 1),
    );
    v.push(
        with(
            "test_read_with_allowed_tools",
            "my-skill",
            "allowed-tools: Bash(jq:*) Bash(git:*)\n",
        )
        .check(|r| {
            let s = only(r)?;
            ensure(
                s.fields.allowed_tools == ["Bash(jq:*)", "Bash(git:*)"],
                || format!("{:?}", s.fields.allowed_tools),
            )
        }),
    );

    // ---- formats.md §1.4 "extra edge cases" ----------------------------------------------------
    // skills-ref uses strictyaml, which rejects flow style; skill-audit accepts any YAML 1.2 and
    // only warns that the spec defines `allowed-tools` as a string (SA216).
    v.push(
        with(
            "flow-style allowed-tools list",
            "my-skill",
            "allowed-tools: [Read, Bash]\n",
        )
        .has_at("SA216", 4)
        .check(|r| {
            let s = only(r)?;
            ensure(s.fields.allowed_tools == ["Read", "Bash"], || {
                format!("{:?}", s.fields.allowed_tools)
            })
        }),
    );
    v.push(
        with("flow-style metadata map", "my-skill", "metadata: {a: b}\n")
            .absent(&["SA215"])
            .check(|r| {
                let s = only(r)?;
                ensure(
                    s.fields.metadata.get("a").map(String::as_str) == Some("b"),
                    || format!("{:?}", s.fields.metadata),
                )
            }),
    );
    // skills-ref does not check `metadata`'s type; skill-audit warns (SA215).
    v.push(
        with(
            "metadata as a list",
            "my-skill",
            "metadata:\n  - a\n  - b\n",
        )
        .has_at("SA215", 5),
    );
    v.push(with("metadata as a scalar", "my-skill", "metadata: just text\n").has_at("SA215", 4));
    v.push(
        with(
            "metadata as a nested map",
            "my-skill",
            "metadata:\n  owner:\n    team: x\n",
        )
        .has_at("SA215", 6),
    );
    // The spec says 1-500 characters; skills-ref accepts an empty value, skill-audit does not.
    v.push(
        with("empty compatibility", "my-skill", "compatibility:\n")
            .errors(&["SA213"])
            .has_at("SA213", 4),
    );
    v.push(
        with(
            "compatibility as a map",
            "my-skill",
            "compatibility:\n  python: '3.11'\n",
        )
        .errors(&["SA213"]),
    );
    v.push(
        skill(
            "empty description",
            "my-skill",
            "---\nname: my-skill\ndescription:\n---\n",
        )
        .errors(&["SA211"]),
    );
    v.push(
        skill(
            "blank description",
            "my-skill",
            "---\nname: my-skill\ndescription: '   '\n---\n",
        )
        .errors(&["SA211"]),
    );
    v.push(
        skill(
            "name as a list",
            "my-skill",
            "---\nname: [my-skill]\ndescription: A test skill\n---\n",
        )
        .errors(&["SA202"])
        .has_at("SA202", 2),
    );
    v.push(
        skill(
            "duplicate key",
            "my-skill",
            "---\nname: my-skill\ndescription: A test skill\nname: my-skill\n---\n",
        )
        .errors(&["SA106"])
        .has_at("SA106", 4)
        .invalid(),
    );
    // strictyaml rejects anchors and aliases; they are plain YAML and skill-audit resolves them.
    v.push(
        with(
            "anchor and alias",
            "my-skill",
            "metadata:\n  owner: &who payments-team\n  maintainer: *who\n",
        )
        .absent(&["SA215"])
        .check(|r| {
            let s = only(r)?;
            ensure(
                s.fields.metadata.get("maintainer").map(String::as_str) == Some("payments-team"),
                || format!("{:?}", s.fields.metadata),
            )
        }),
    );
    // strictyaml rejects tags; a `!!str` tag is plain YAML 1.2.
    v.push(skill(
        "!!str tag",
        "my-skill",
        "---\nname: !!str my-skill\ndescription: A test skill\n---\n",
    ));
    v.push(
        skill(
            "unquoted colon in description",
            "my-skill",
            "---\nname: my-skill\ndescription: Use when: the user asks\n---\n",
        )
        .errors(&["SA104"])
        .has_at("SA104", 3)
        .invalid(),
    );
    // skills-ref splits on the substring `---` and truncates the description to `a`; the
    // delimiter is a whole line, so skill-audit keeps `a---b`.
    v.push(
        skill(
            "dashes inside a value",
            "my-skill",
            "---\nname: my-skill\ndescription: a---b\n---\n# Body\n",
        )
        .check(|r| {
            let s = only(r)?;
            ensure(s.description.as_deref() == Some("a---b"), || {
                format!("description {:?}", s.description)
            })
        }),
    );
    // skills-ref fails "must start with YAML frontmatter" on a BOM; hosts that strip it load the
    // skill, so skill-audit reads past it and says so (info SA109).
    v.push(
        skill(
            "UTF-8 BOM",
            "my-skill",
            format!("\u{feff}{}", fm("my-skill", "A test skill", "")),
        )
        .has_at("SA109", 1)
        .check(|r| {
            let s = only(r)?;
            ensure(s.name == "my-skill" && !s.invalid, || format!("{s:?}"))
        }),
    );
    v.push(
        skill(
            "CRLF line endings",
            "my-skill",
            "---\r\nname: my-skill\r\ndescription: A test skill\r\n---\r\n# Body\r\n",
        )
        .check(|r| {
            let s = only(r)?;
            ensure(
                s.name == "my-skill" && s.description.as_deref() == Some("A test skill"),
                || format!("{s:?}"),
            )
        }),
    );
    v.push(skill("dir S1, name s1", "S1", fm("s1", "A test skill", "")).errors(&["SA207"]));
    // A name whose shape is wrong in a folder with a valid name: the shape finding advises
    // the folder's name, which ends the mismatch too, so SA207 is not said again.
    v.push(
        skill(
            "dir pdf-tools, name PDF-Tools",
            "pdf-tools",
            fm("PDF-Tools", "A test skill", ""),
        )
        .errors(&["SA204"])
        .has_msg("SA204", "use `pdf-tools`, the folder's name"),
    );
    v.push(
        skill(
            "dir cloud-test, name Cloud Test",
            "cloud-test",
            fm("Cloud Test", "A test skill", ""),
        )
        .errors(&["SA206"]),
    );
    // A folder whose name is not valid either: two problems, two findings.
    v.push(
        skill(
            "dir My_Skill, name My Skill",
            "My_Skill",
            fm("My Skill", "A test skill", ""),
        )
        .errors(&["SA206", "SA207"]),
    );
    v.push(
        skill(
            "quoted padded name",
            "s1",
            fm("'  s1  '", "A test skill", ""),
        )
        .check(|r| {
            let s = only(r)?;
            ensure(s.name == "s1", || format!("name {:?}", s.name))
        }),
    );
    // strictyaml reads `123` as the string "123"; in YAML 1.2 it is an integer, which hosts
    // would not read as a name, so skill-audit reports `name-type`. Quoted, it is fine.
    v.push(skill("name 123 (unquoted)", "123", fm("123", "A test skill", "")).errors(&["SA202"]));
    v.push(skill(
        "name '123' (quoted)",
        "123",
        fm("'123'", "A test skill", ""),
    ));
    // Full-width letters NFKC-normalise to ASCII, so even the ASCII charset accepts them.
    v.push(skill(
        "full-width name and folder [ascii]",
        "ａｂｃ",
        fm("ａｂｃ", "A test skill", ""),
    ));
    v.push(
        skill(
            "full-width name and folder [unicode]",
            "ａｂｃ",
            fm("ａｂｃ", "A test skill", ""),
        )
        .unicode(),
    );
    v.push(skill("underscore", "a_b", fm("a_b", "A test skill", "")).errors(&["SA206"]));
    v.push(skill("dot", "a.b", fm("a.b", "A test skill", "")).errors(&["SA206"]));
    v.push(
        skill("underscore [unicode]", "a_b", fm("a_b", "A test skill", ""))
            .unicode()
            .errors(&["SA206"]),
    );
    let a64 = "a".repeat(64);
    let a65 = "a".repeat(65);
    v.push(skill("name 64 chars", &a64, fm(&a64, "A test skill", "")));
    v.push(
        skill("name 65 chars", &a65, fm(&a65, "A test skill", ""))
            .errors(&["SA203"])
            .has_msg("SA203", "65"),
    );
    v.push(skill(
        "description 1024 chars",
        "my-skill",
        fm("my-skill", &"d".repeat(1024), ""),
    ));
    v.push(
        skill(
            "description 1025 chars",
            "my-skill",
            fm("my-skill", &"d".repeat(1025), ""),
        )
        .errors(&["SA212"])
        .has_at("SA212", 3),
    );
    v.push(with(
        "compatibility 500 chars",
        "my-skill",
        &format!("compatibility: {}\n", "c".repeat(500)),
    ));
    v.push(
        with(
            "compatibility 501 chars",
            "my-skill",
            &format!("compatibility: {}\n", "c".repeat(501)),
        )
        .errors(&["SA214"])
        .has_at("SA214", 4),
    );
    // skills-ref: one "Unexpected fields" error. skill-audit: host-specific keys are info
    // (SA220), and `model` is a capability field it reads.
    v.push(
        with(
            "host-specific keys",
            "my-skill",
            "user-invocable: true\nargument-hint: \"[file]\"\nmodel: gpt-5\n",
        )
        .has_at("SA220", 4)
        .has_at("SA220", 5)
        .absent(&["SA221"])
        .check(|r| {
            let s = only(r)?;
            ensure(
                s.fields.invocation.user_invocable == Some(true) && s.model == ["gpt-5"],
                || format!("{s:?}"),
            )
        }),
    );
    // skills-ref checks neither; skill-audit warns about both.
    v.push(with("license as a map", "my-skill", "license:\n  name: MIT\n").has_at("SA217", 5));
    v.push(
        with(
            "allowed-tools as a block list",
            "my-skill",
            "allowed-tools:\n  - Read\n  - Bash\n",
        )
        .has_msg("SA216", "(`allowed-tools: Read Bash`)"),
    );
    // A name with a space cannot be written in the string form: no string is suggested.
    v.push(
        with(
            "allowed-tools list of names with spaces",
            "my-skill",
            "allowed-tools: ['Azure MCP/documentation', Read]\n",
        )
        .has_msg("SA216", "cannot hold `Azure MCP/documentation`"),
    );
    v.push(
        with(
            "allowed-tools list of permission rules",
            "my-skill",
            "allowed-tools: ['Bash(git add:*)', Read]\n",
        )
        .has_msg("SA216", "(`allowed-tools: Bash(git add:*) Read`)"),
    );

    // ---- what skill-audit adds ------------------------------------------------------------------
    v.push(
        with("typo with did-you-mean", "my-skill", "descripton: Oops.\n")
            .has_at("SA221", 4)
            .has_msg("SA221", "`description`"),
    );
    v.push(
        skill(
            "typo replaces the field",
            "my-skill",
            "---\nname: my-skill\ndescripton: Oops.\n---\n",
        )
        .errors(&["SA210"])
        .has_msg("SA221", "did you mean `description`"),
    );
    v.push(with("metadata boolean", "my-skill", "metadata:\n  beta: true\n").has_at("SA215", 5));
    // `description: caf<0xE9>` (Latin-1) on line 3: the bad byte is column 17.
    v.push(
        skill(
            "non-UTF-8 byte",
            "my-skill",
            b"---\nname: my-skill\ndescription: caf\xe9\n---\n".to_vec(),
        )
        .errors(&["SA101"])
        .has_at_col("SA101", 3, 17)
        .has_msg("SA101", "0xe9")
        .invalid(),
    );
    v.push(
        skill(
            "non-UTF-8 in the body",
            "my-skill",
            [
                fm("my-skill", "A test skill", "").into_bytes(),
                b"x\xff\n".to_vec(),
            ]
            .concat(),
        )
        .errors(&["SA101"])
        .has_at_col("SA101", 8, 2)
        .invalid(),
    );
    v.push(
        skill("empty frontmatter", "my-skill", "---\n---\n# Body\n")
            .errors(&["SA105"])
            .invalid(),
    );
    v.push(
        skill(
            "comment-only frontmatter",
            "my-skill",
            "---\n# nothing\n---\n",
        )
        .errors(&["SA105"])
        .invalid(),
    );
    v.push(
        skill("scalar frontmatter", "my-skill", "---\njust text\n---\n")
            .errors(&["SA105"])
            .invalid(),
    );
    v.push(
        skill(
            "unclosed frontmatter points at the last line",
            "my-skill",
            "---\nname: my-skill\ndescription: x\n# Body\nmore\n",
        )
        .errors(&["SA103"])
        .has_at("SA103", 5)
        .invalid(),
    );
    v.push(
        skill(
            "unclosed frontmatter points at a `---` indented into a value",
            "my-skill",
            "---\nname: my-skill\ndescription: |\n  x\n  ---\n\n  # Body\n",
        )
        .errors(&["SA103"])
        .has_at_col("SA103", 5, 3)
        .invalid(),
    );
    v.push(
        skill(
            "`----` does not close the frontmatter",
            "my-skill",
            "---\nname: my-skill\ndescription: x\n----\n",
        )
        .errors(&["SA103"])
        .invalid(),
    );
    v.push(
        skill("empty file", "my-skill", "")
            .errors(&["SA102"])
            .invalid(),
    );
    v.push(
        skill(
            "trailing hyphen",
            "my-skill-",
            fm("my-skill-", "A test skill", ""),
        )
        .errors(&["SA205"])
        .has_msg("SA205", "start or end"),
    );
    v.push(
        skill(
            "name with a space",
            "my skill",
            fm("my skill", "A test skill", ""),
        )
        .errors(&["SA206"]),
    );
    // An alias "billion laughs" in the frontmatter hits a safety limit instead of expanding.
    let mut bomb = String::from(
        "---\nname: my-skill\ndescription: d\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n",
    );
    for i in 1..12 {
        let p = i - 1;
        let refs = vec![format!("*l{p}"); 10].join(", ");
        bomb.push_str(&format!("l{i}: &l{i} [{refs}]\n"));
    }
    bomb.push_str("---\n");
    v.push(
        skill("alias bomb", "my-skill", bomb)
            .errors(&["SA107"])
            .invalid(),
    );
    v.push(
        skill(
            "YAML error points at the file line",
            "my-skill",
            "---\nname: my-skill\ndescription: ok\nlicense: MIT\nmetadata: {a: [b}\n---\n",
        )
        .errors(&["SA104"])
        .has_at("SA104", 5)
        .invalid(),
    );
    let long_body = format!(
        "{}{}",
        fm("my-skill", "A test skill", ""),
        "line\n".repeat(501 - 7)
    );
    v.push(
        skill("501 lines", "my-skill", long_body)
            .has_at("SA230", 501)
            .has_msg("SA230", "501"),
    );
    let ok_body = format!(
        "{}{}",
        fm("my-skill", "A test skill", ""),
        "line\n".repeat(500 - 7)
    );
    v.push(skill("500 lines", "my-skill", ok_body).absent(&["SA230"]));
    v.push(
        skill("broken relative link", "my-skill", "---\nname: my-skill\ndescription: d\n---\n# T\n\nSee [the guide](references/guide.md).\n")
            .has_at_col("SA231", 7, 5)
            .has_msg("SA231", "references/guide.md"),
    );
    // The document a skill writes, given as a template whose fence was lost: its links are
    // the document's, not the skill's.
    v.push(
        skill("links of a document template", "my-skill", "---\nname: my-skill\ndescription: d\n---\n# T\n\n## Components\n\n- [Component Name]: [Description]\n  - **Type**: [Service, Library]\n  - **Technology**: [Primary technologies]\n  - Documentation: [c4-component-name.md](./c4-component-name.md)\n")
            .absent(&["SA231"]),
    );
    v.push(
        skill("link to an existing file", "my-skill", "---\nname: my-skill\ndescription: d\n---\n# T\n\nSee [the guide](references/guide.md#top) and ![x](assets/a%20b.png).\n\n[web](https://example.com) [anchor](#t) `[code](missing.md)`\n")
            .file("my-skill/references/guide.md", "# Guide\n")
            .file("my-skill/assets/a b.png", "")
            .absent(&["SA231"]),
    );
    v.push(
        Case::new("duplicate names across two skills folders")
            .file("skills/pdf/SKILL.md", fm("pdf", "A", ""))
            .file(".claude/skills/pdf/SKILL.md", fm("pdf", "B", ""))
            .has_in("SA401", "skills/pdf/SKILL.md")
            .has_in("SA401", ".claude/skills/pdf/SKILL.md")
            .has_msg("SA401", ".claude/skills/pdf/SKILL.md"),
    );
    // A registry archive namespaces skills by owner: two owners' `pdf` are never loaded as
    // one tree; one owner's two are.
    v.push(
        Case::new("duplicate names of two owners in an archive")
            .file("skills/team-a/pdf/SKILL.md", fm("pdf", "A", ""))
            .file("skills/team-b/pdf/SKILL.md", fm("pdf", "B", ""))
            .absent(&["SA401"]),
    );
    v.push(
        Case::new("duplicate names of one owner in an archive")
            .file("skills/team-a/pdf/SKILL.md", fm("pdf", "A", ""))
            .file("skills/team-a/pdf-tools/SKILL.md", fm("pdf", "B", ""))
            .errors(&["SA207"])
            .has_in("SA401", "skills/team-a/pdf/SKILL.md")
            .has_msg("SA401", "under `skills/team-a/`"),
    );
    // Copies of one file lose nothing whichever a host keeps: one skill under two slugs of an
    // archive, or in two hosts' folders. A third skill of the name that differs still clashes.
    v.push(
        Case::new("copies of one skill file are not duplicates")
            .file("skills/team-a/pdf/SKILL.md", fm("pdf", "A", ""))
            .file("skills/team-a/pdf-v2/SKILL.md", fm("pdf", "A", ""))
            .file(".claude/skills/doc/SKILL.md", fm("doc", "A", ""))
            .file(".github/skills/doc/SKILL.md", fm("doc", "A", ""))
            .errors(&["SA207"])
            .absent(&["SA401"]),
    );
    v.push(
        Case::new("a copy and a different skill of one name")
            .file("skills/team-a/pdf/SKILL.md", fm("pdf", "A", ""))
            .file("skills/team-a/pdf-v2/SKILL.md", fm("pdf", "A", ""))
            .file("skills/team-a/pdf-new/SKILL.md", fm("pdf", "B", ""))
            .errors(&["SA207"])
            .has_in("SA401", "skills/team-a/pdf/SKILL.md")
            .has_in("SA401", "skills/team-a/pdf-v2/SKILL.md")
            .has_in("SA401", "skills/team-a/pdf-new/SKILL.md"),
    );
    // The same folder holding both casings: both files are audited, the lower-case one warned.
    v.push(
        Case::new("SKILL.md and skill.md side by side")
            .file("my-skill/SKILL.md", fm("my-skill", "A", ""))
            .file("my-skill/skill.md", fm("my-skill", "B", ""))
            .has_in("SA108", "my-skill/skill.md"),
    );
    // Invalid skills do not take part in duplicate detection.
    v.push(
        Case::new("invalid skills are not duplicates")
            .file("a/x/SKILL.md", "no frontmatter\n")
            .file("b/x/SKILL.md", "no frontmatter\n")
            .errors(&["SA102"])
            .absent(&["SA401"])
            .invalid(),
    );

    // dependencies
    let deps_invalid = |r: &AuditResult| {
        let s = only(r)?;
        ensure(s.requirements_invalid && !s.invalid, || {
            format!(
                "requirements_invalid={} invalid={}",
                s.requirements_invalid, s.invalid
            )
        })
    };
    v.push(
        with(
            "dependencies is a list of package names",
            "my-skill",
            "dependencies: [get_order]\n",
        )
        .errors(&[])
        .has_at("SA307", 4)
        .check(|r: &AuditResult| {
            let s = &r.skills[0].skill;
            if s.requirements_invalid || s.invalid {
                return Err("a package list must not make the skill invalid".into());
            }
            Ok(())
        }),
    );
    v.push(
        with(
            "dependencies.tools is a string",
            "my-skill",
            "dependencies:\n  tools: get_order\n",
        )
        .errors(&["SA301"])
        .has_at("SA301", 5)
        .check(deps_invalid),
    );
    v.push(
        with(
            "dependencies.tools.all is a string",
            "my-skill",
            "dependencies:\n  tools:\n    all: get_order\n",
        )
        .errors(&["SA301"])
        .check(deps_invalid),
    );
    v.push(
        with(
            "dependency entry is a number",
            "my-skill",
            "dependencies:\n  tools:\n    all: [get_order, 3]\n",
        )
        .errors(&["SA302"])
        .has_at("SA302", 6)
        .check(deps_invalid),
    );
    v.push(
        with(
            "dependency entry is a mapping",
            "my-skill",
            "dependencies:\n  tools:\n    - get_order\n    - {name: x}\n",
        )
        .errors(&["SA302"])
        .has_at("SA302", 7)
        .check(deps_invalid),
    );
    v.push(
        with(
            "unknown dependency group",
            "my-skill",
            "dependencies:\n  tools:\n    alll: [get_order]\n",
        )
        .errors(&["SA303"])
        .has_at("SA303", 6)
        .check(deps_invalid),
    );
    v.push(
        with(
            "empty any",
            "my-skill",
            "dependencies:\n  tools:\n    all: [get_order]\n    any: []\n",
        )
        .has_at("SA304", 7)
        .check(|r| {
            let s = only(r)?;
            ensure(
                !s.requirements_invalid && s.dependencies().tools.all == ["get_order"],
                || format!("{s:?}"),
            )
        }),
    );
    v.push(
        with(
            "unknown dependency type",
            "my-skill",
            "dependencies:\n  widgets: [chart]\n  tools: [get_order]\n",
        )
        .has_at("SA305", 5)
        .check(|r| {
            let s = only(r)?;
            ensure(
                !s.requirements_invalid && s.dependencies().tools.all == ["get_order"],
                || format!("{s:?}"),
            )
        }),
    );
    v.push(
        with("well-formed dependencies", "my-skill", "dependencies:\n  tools:\n    all: [get_order]\n    any: [a, b]\n  resources: [\"docs://x\"]\n  prompts:\n    any: [summarize]\n")
            .absent(&["SA301", "SA302", "SA303", "SA304", "SA305"])
            .check(|r| {
                let s = only(r)?;
                ensure(
                    s.dependencies().tools.any.as_deref() == Some(&["a".to_owned(), "b".to_owned()][..])
                        && s.dependencies().resources.all == ["docs://x"],
                    || format!("{:?}", s.dependencies()),
                )
            }),
    );
    // agent-style capability fields
    v.push(
        with("tools is a mapping", "my-skill", "tools: {read: true}\n")
            .errors(&["SA306"])
            .has_at("SA306", 4)
            .check(deps_invalid),
    );
    v.push(
        with("tools entry is a number", "my-skill", "tools: [read, 3]\n")
            .errors(&["SA306"])
            .check(deps_invalid),
    );
    v.push(
        with("mcp-servers is a number", "my-skill", "mcp-servers: 3\n")
            .errors(&["SA306"])
            .check(deps_invalid),
    );
    v.push(with("hooks is a list", "my-skill", "hooks: [a]\n").errors(&["SA306"]));
    v.push(
        with(
            "tools and mcp-servers become requirements",
            "my-skill",
            "tools: \"read, search\"\nmcp-servers:\n  github:\n    type: http\n",
        )
        .absent(&["SA306"])
        .check(|r| {
            let s = only(r)?;
            ensure(
                s.dependencies().tools.all == ["read", "search", "github/*"],
                || format!("{:?}", s.dependencies()),
            )
        }),
    );
    // host-specific field types
    v.push(
        with("user-invocable: yes", "my-skill", "user-invocable: yes\n")
            .has_at("SA222", 4)
            .has_msg("SA222", "`yes`")
            .has_at("SA220", 4),
    );
    v.push(
        with(
            "disable-model-invocation: \"false\"",
            "my-skill",
            "disable-model-invocation: \"false\"\n",
        )
        .has("SA222"),
    );
    v.push(
        with(
            "argument-hint as a list",
            "my-skill",
            "argument-hint: [a, b]\n",
        )
        .has("SA222"),
    );
    v
}

fn error_codes(findings: &[Finding]) -> BTreeSet<&'static str> {
    findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.rule.code())
        .collect()
}

fn is_skill_file(path: &str) -> bool {
    Path::new(path)
        .file_name()
        .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("SKILL.md"))
}

fn audit(root: &Path, charset: NameCharset) -> AuditResult {
    run(&AuditOptions {
        roots: vec![root.to_path_buf()],
        cwd: root.to_path_buf(),
        settings: Settings {
            name_charset: charset,
            ..Settings::default()
        },
        ..AuditOptions::default()
    })
    .expect("the audit starts")
}

/// Run one case; `Err` describes every way it failed.
fn run_case(case: &Case) -> Result<(), String> {
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    for (rel, content) in &case.files {
        let p = tmp.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).map_err(|e| e.to_string())?;
        std::fs::write(&p, content).map_err(|e| e.to_string())?;
    }
    let r = audit(tmp.path(), case.charset);
    let mut problems = Vec::new();
    let got = error_codes(&r.findings);
    let want: BTreeSet<&str> = case.errors.iter().copied().collect();
    if got != want {
        problems.push(format!("error codes: expected {want:?}, got {got:?}"));
    }
    if let Some(f) = r.findings.iter().find(|f| f.rule.code() == "SA199") {
        problems.push(format!("internal error: {}", f.message));
    }
    let skill_files = case.files.iter().filter(|(p, _)| is_skill_file(p)).count();
    if r.skills.len() != skill_files {
        problems.push(format!(
            "expected {skill_files} skills, got {}",
            r.skills.len()
        ));
    }
    for s in &r.skills {
        if s.skill.invalid != case.invalid {
            problems.push(format!(
                "{}: invalid == {}, expected {}",
                s.skill.path, s.skill.invalid, case.invalid
            ));
        }
    }
    let first = case
        .files
        .first()
        .map(|(p, _)| p.clone())
        .unwrap_or_default();
    for e in &case.expect {
        let file = e.file.clone().unwrap_or_else(|| first.clone());
        let found = r.findings.iter().any(|f| {
            f.rule.code() == e.code
                && f.path.ends_with(&file)
                && e.line.is_none_or(|l| f.line == l)
                && e.column.is_none_or(|c| f.column == c)
                && e.message.is_none_or(|m| f.message.contains(m))
        });
        if !found {
            problems.push(format!("missing finding {e:?}"));
        }
    }
    for code in &case.absent {
        if r.findings.iter().any(|f| f.rule.code() == *code) {
            problems.push(format!("unexpected {code}"));
        }
    }
    if let Some(check) = &case.check
        && let Err(e) = check(&r)
    {
        problems.push(e);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        let shown: Vec<String> = r
            .findings
            .iter()
            .map(|f| {
                format!(
                    "    {}:{}:{} {}[{}] {}",
                    f.path,
                    f.line,
                    f.column,
                    f.severity,
                    f.rule.code(),
                    f.message
                )
            })
            .collect();
        Err(format!(
            "{}\n  findings:\n{}",
            problems.join("\n  "),
            shown.join("\n")
        ))
    }
}

#[test]
fn skills_ref_conformance_table() {
    let cases = cases();
    assert!(cases.len() > 90, "the table lost cases: {}", cases.len());
    let mut ids = BTreeSet::new();
    let mut failures = Vec::new();
    for case in &cases {
        assert!(ids.insert(case.id.clone()), "duplicate case id {}", case.id);
        // A frontmatter that cannot be read must be reported as an invalid skill, and only then.
        let unreadable = case.errors.iter().any(|c| {
            matches!(
                *c,
                "SA101" | "SA102" | "SA103" | "SA104" | "SA105" | "SA106" | "SA107"
            )
        });
        assert_eq!(
            unreadable, case.invalid,
            "case `{}` is inconsistent",
            case.id
        );
        if let Err(e) = run_case(case) {
            failures.push(format!("case `{}`:\n  {e}", case.id));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// The harness itself must notice a wrong expectation.
#[test]
fn harness_detects_mismatches() {
    let wrong = skill("wrong", "my-skill", fm("my-skill", "A test skill", "")).errors(&["SA201"]);
    assert!(run_case(&wrong).is_err());
    let wrong_line = with("wrong line", "my-skill", "unknown_field: x\n").has_at("SA221", 9);
    assert!(run_case(&wrong_line).is_err());
    let wrong_invalid = skill("wrong invalid", "my-skill", fm("my-skill", "d", "")).invalid();
    assert!(run_case(&wrong_invalid).is_err());
}

// skills-ref test_nonexistent_path: a missing path is an error. skill-audit refuses to start
// (a usage error, exit code 2) instead of reporting a finding.
#[test]
fn nonexistent_path_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nope");
    let err = run(&AuditOptions {
        roots: vec![missing],
        cwd: tmp.path().to_path_buf(),
        ..AuditOptions::default()
    })
    .expect_err("a missing root must not be audited");
    assert!(err.to_string().contains("nope"), "{err}");
}

// skills-ref test_not_a_directory: validating a file fails. skill-audit accepts files as roots:
// a skill file is audited, any other file is simply not a skill.
#[test]
fn file_roots() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("my-skill");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), fm("my-skill", "A test skill", "")).unwrap();
    std::fs::write(tmp.path().join("notes.txt"), "hello").unwrap();

    let r = run(&AuditOptions {
        roots: vec![dir.join("SKILL.md")],
        cwd: tmp.path().to_path_buf(),
        ..AuditOptions::default()
    })
    .unwrap();
    assert_eq!(r.skills.len(), 1);
    assert_eq!(r.skills[0].skill.path, "my-skill/SKILL.md");
    assert!(error_codes(&r.findings).is_empty(), "{:?}", r.findings);

    let r = run(&AuditOptions {
        roots: vec![tmp.path().join("notes.txt")],
        cwd: tmp.path().to_path_buf(),
        ..AuditOptions::default()
    })
    .unwrap();
    assert!(
        r.skills.is_empty() && r.findings.is_empty(),
        "{:?}",
        r.findings
    );
}

// skills-ref test_missing_skill_md: an empty skill folder is an error. skill-audit audits
// libraries, where an empty folder is simply not a skill.
#[test]
fn empty_folder_has_no_skills() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("my-skill")).unwrap();
    let r = audit(tmp.path(), NameCharset::Ascii);
    assert!(r.skills.is_empty());
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.files_scanned, 0);
}
