//! Installer scripts: those a skill ships for the person setting it up, found by name and by
//! what the body says of them.

use super::body::{in_marked, installs_as_its_work, user_sections};
use super::interpreter_of;

/// Words that start the name of a script, or of a folder of scripts, that installs or sets up
/// a skill ([`installer`]).
pub(super) const INSTALLER_WORDS: &[&str] =
    &["install", "setup", "uninstall", "bootstrap", "wizard"];

/// Scripts that install or set up the skill rather than do its work, by their name or a
/// folder's (`install.sh`, `setup.py`, `wizard/`): what they run is how the skill is put on a
/// machine, not what it needs there, unless the SKILL.md names them.
pub(crate) fn installer(rel: &str) -> bool {
    rel.split('/')
        .any(|part| INSTALLER_WORDS.iter().any(|p| part.starts_with(p)))
}

/// The file names of the installer scripts `text` names ([`installer`]: `setup.sh` in "run the
/// setup.sh included in resources", `install.sh` in `bash wizard/install.sh`), once, sorted;
/// not where a section for the person installing the skill names them ([`user_heading`]).
/// Only the words of an installer's name are searched for: other scripts are read whether the
/// text names them or not.
pub(crate) fn installers_named(text: &str) -> Vec<String> {
    static WORDS: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::LazyLock::new(|| {
            INSTALLER_WORDS
                .iter()
                .map(memchr::memmem::Finder::new)
                .collect()
        });
    let bytes = text.as_bytes();
    // The path the word is in: up to white space, a quote, a bracket or punctuation.
    let stop = |b: &u8| b.is_ascii_whitespace() || b"`'\"()[]<>:,;=|".contains(b);
    let mut words: Vec<(usize, usize)> = WORDS
        .iter()
        .flat_map(|w| {
            w.find_iter(bytes)
                .map(move |at| (at, at + w.needle().len()))
        })
        .collect();
    words.sort_unstable();
    // A path holding several of the words (`setup/setup.sh`, or one long run of them) is
    // read once, at the first, so a text is read along once.
    let mut read_to = 0;
    let named: Vec<(usize, &str)> = words
        .into_iter()
        .filter_map(|(at, after)| {
            if at < read_to {
                return None;
            }
            let start = bytes[..at].iter().rposition(stop).map_or(0, |i| i + 1);
            let end = after
                + bytes[after..]
                    .iter()
                    .position(stop)
                    .unwrap_or(bytes.len() - after);
            read_to = end;
            let path = text.get(start..end)?.trim_end_matches('.');
            let name = path.rsplit('/').next().unwrap_or(path);
            (installer(path) && interpreter_of(name).is_some()).then_some((at, name))
        })
        .collect();
    if named.is_empty() {
        return Vec::new();
    }
    // The text's sections are read once, and only for a text that names an installer.
    let headings = if installs_as_its_work(text) {
        Vec::new()
    } else {
        user_sections(text)
    };
    let mut out: Vec<String> = named
        .into_iter()
        .filter(|(at, _)| !in_marked(&headings, *at))
        .map(|(_, name)| name.to_owned())
        .collect();
    out.sort();
    out.dedup();
    out
}
