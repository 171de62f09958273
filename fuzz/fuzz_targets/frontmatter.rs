//! Any bytes as a SKILL.md and as an agent file: split, YAML, fields, rules. Must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skill_audit::diagnostic::Sink;
use skill_audit::discover::AgentFlavor;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let mut sink = Sink::new("skills/fuzz/SKILL.md");
    let parsed = skill_audit::parse::skill::parse(data, "skills/fuzz/SKILL.md", Path::new("/nonexistent/fuzz/SKILL.md"), &mut sink, |_| true);
    skill_audit::rules::spec::check(&parsed, &Default::default(), &mut sink);
    let mut sink = Sink::new("agents/fuzz.agent.md");
    let _ = skill_audit::parse::agent::parse(data, "agents/fuzz.agent.md", Path::new("/nonexistent/fuzz.agent.md"), AgentFlavor::Claude, &mut sink);
});
