use clap::Parser;
use std::process::ExitCode;

use skill_audit::cli::{self, Cli, Outcome};

// An audit allocates many small strings on every thread; mimalloc serves them with less
// work and less contention than the system allocator.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_arena_eager_commit` (its position in `mi_option_e`, which the bindings
/// do not name): whether an arena's memory is committed when it is reserved.
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
/// mimalloc's `mi_option_purge_delay`: how long freed pages wait before they are returned to
/// the system.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Set before the first allocation of `main`, so they hold in every build (a define in a
/// build's CFLAGS is dropped by `cargo install` and by a user's own CFLAGS). Both keep the
/// peak memory with what the audit holds (docs/performance.md has the figures):
/// - mimalloc commits its first arena up front on Linux, which shows as tens of megabytes
///   resident on any run, even a small library: memory is committed on demand instead;
/// - each file's text and YAML tree are freed right after it is parsed, between the small
///   allocations that stay for the report: free pages are returned after 10 ms rather than
///   the default second.
fn tune_allocator() {
    // SAFETY: sets integer options, before any other thread exists.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0);
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 10);
    }
}

// The options must be set before the first allocation, and the Rust runtime allocates before
// `main` runs: on ELF systems the setting runs as an initialiser, ahead of the runtime.
#[cfg(any(target_os = "linux", target_os = "freebsd"))]
#[used]
#[unsafe(link_section = ".init_array")]
static TUNE_ALLOCATOR_FIRST: extern "C" fn() = {
    extern "C" fn tune() {
        tune_allocator();
    }
    tune
};

fn main() -> ExitCode {
    // Elsewhere, as early as `main` allows.
    #[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
    tune_allocator();
    let cli = Cli::parse();
    match cli::run(cli) {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Failed) => ExitCode::from(1),
        Err(msg) => {
            skill_audit::stderr_line(format_args!("skill-audit: error: {msg}"));
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_are_set_before_anything_runs_and_are_the_ones_named() {
        // SAFETY: reads and sets integer options.
        let get = |o| unsafe { libmimalloc_sys::mi_option_get(o) };
        #[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
        tune_allocator();
        assert_eq!(get(MI_OPTION_ARENA_EAGER_COMMIT), 0);
        assert_eq!(get(MI_OPTION_PURGE_DELAY), 10);
        // A wrong position would have overwritten a neighbour: each still holds its documented
        // default (eager_commit 1, purge_decommits 1, eager_commit_delay 1, use_numa_nodes 0).
        for (option, default) in [(3, 1), (5, 1), (14, 1), (16, 0)] {
            assert_eq!(get(option), default, "option {option}");
        }
    }
}
