//! The integration tests: one test crate with a module per topic, so the library and the
//! dev-dependencies are linked into one binary rather than one per topic. The helpers they
//! share are in `common`.
//!
//! Run one topic with its module path as the filter, for example `cargo test --test it sarif::`.

mod common;

mod agents;
mod baseline_moves;
mod browser;
mod cli;
mod cli_surface;
mod config;
mod conformance;
mod corpus;
mod corpus_agents;
mod dialects;
mod docs;
mod environments;
mod fidelity;
mod fix_edges;
mod fixes;
mod github;
mod hooks;
mod hostile;
mod hostile_members;
mod hostile_tree;
mod hosts;
mod html;
mod inference;
mod install;
mod layouts;
mod lsp;
mod machine;
mod markdown;
mod mcp;
mod mcp_server;
mod neovim;
mod policy;
mod profile_diff;
mod properties;
mod reports;
mod sarif;
mod schemas;
mod selection;
mod snapshots;
mod terminal;
mod to_prompt;
mod uses;
