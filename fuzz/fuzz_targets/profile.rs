//! Any text as a profile file, then lookups in it. Must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skill_audit::model::DepKind;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(p) = skill_audit::profile::parse(text, Path::new("fuzz.json"), "fuzz.json") {
        for name in ["a", "srv/tool", "mcp__srv__tool", "srv:tool", "srv/*", "*", ""] {
            let _ = p.has(DepKind::Tools, name);
            let _ = p.verdict(name);
        }
    }
});
