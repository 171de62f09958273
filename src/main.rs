use clap::Parser;
use std::process::ExitCode;

use skill_audit::cli::{self, Cli, Outcome};

// An audit allocates many small strings on every thread; mimalloc serves them with less
// work and less contention than the system allocator.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its position in `mi_option_e`, which the bindings do not
/// name): how long freed pages wait before they are returned to the system.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Each file's text and YAML tree are freed right after it is parsed, between the small
/// allocations that stay for the report; returning free pages after 10 ms rather than the
/// default second keeps the peak resident set with what the audit holds (100,000 generated
/// skills: 395 -> 377 MiB, same time).
fn tune_allocator() {
    // SAFETY: sets one integer option, before any other thread exists.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 10) };
}

fn main() -> ExitCode {
    tune_allocator();
    let cli = Cli::parse();
    match cli::run(cli) {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Failed) => ExitCode::from(1),
        Err(msg) => {
            eprintln!("skill-audit: error: {msg}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_set_is_the_purge_delay() {
        // Its documented default, 1 s, is what no neighbouring option holds.
        // SAFETY: reads and sets integer options.
        let before = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        assert_eq!(before, 1000);
        tune_allocator();
        assert_eq!(
            unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) },
            10
        );
    }
}
