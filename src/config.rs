//! Settings that change what rules accept. Filled from the command line (and later a config
//! file); rules read them, never the raw flags.

use serde::Serialize;

/// Which characters a skill `name` may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum NameCharset {
    /// `a-z`, `0-9` and `-`: what VS Code, Claude and OpenAI enforce.
    #[default]
    Ascii,
    /// Any lowercase Unicode letter or digit and `-`: what skills-ref accepts.
    Unicode,
}

/// Rule settings for one run.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub name_charset: NameCharset,
}
