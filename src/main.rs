use clap::Parser;
use std::process::ExitCode;

use skill_audit::cli::{self, Cli, Outcome};

// An audit allocates many small strings on every thread; mimalloc serves them with less
// work and less contention than the system allocator.
#[global_allocator]
static ALLOC: Mimalloc = Mimalloc;

/// The alignment `mi_malloc` gives every block at least as large (`MI_MAX_ALIGN_SIZE`), as
/// `malloc` does: a block is aligned for any type of its size up to this.
const MALLOC_ALIGN: usize = 16;

/// mimalloc, asked for a plain block when the alignment wanted is one every block of that size
/// has (almost every allocation: strings, vectors of pointers). The `mimalloc` crate's
/// allocator asks for an aligned block every time, whose checks and fallback paths cost a
/// tenth of the audit's allocation work; the standard library's `System` allocator makes the
/// same choice as this one.
struct Mimalloc;

fn plain(align: usize, size: usize) -> bool {
    align <= MALLOC_ALIGN && align <= size
}

// SAFETY: mimalloc's functions return null or a block of at least `size` bytes, aligned as
// asked (plain blocks: as `malloc`'s, see `MALLOC_ALIGN`); `mi_free` and `mi_realloc*` take
// any block they gave, whichever function gave it.
unsafe impl std::alloc::GlobalAlloc for Mimalloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        // SAFETY: see the impl.
        unsafe {
            if plain(align, size) {
                libmimalloc_sys::mi_malloc(size).cast()
            } else {
                libmimalloc_sys::mi_malloc_aligned(size, align).cast()
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        // SAFETY: see the impl.
        unsafe {
            if plain(align, size) {
                libmimalloc_sys::mi_zalloc(size).cast()
            } else {
                libmimalloc_sys::mi_zalloc_aligned(size, align).cast()
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _: std::alloc::Layout) {
        // SAFETY: see the impl.
        unsafe { libmimalloc_sys::mi_free(ptr.cast()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, size: usize) -> *mut u8 {
        let align = layout.align();
        // SAFETY: see the impl.
        unsafe {
            if plain(align, size) {
                libmimalloc_sys::mi_realloc(ptr.cast(), size).cast()
            } else {
                libmimalloc_sys::mi_realloc_aligned(ptr.cast(), size, align).cast()
            }
        }
    }
}

/// mimalloc's `mi_option_arena_eager_commit` (its position in `mi_option_e`, which the bindings
/// do not name): whether an arena's memory is committed when it is reserved.
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
/// mimalloc's `mi_option_purge_delay`: how long freed pages wait before they are returned to
/// the system.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Set before the first allocation of `main`, so they hold in every build (a define in a
/// build's CFLAGS is dropped by `cargo install` and by a user's own CFLAGS):
/// - mimalloc commits its first arena up front on Linux, which showed as 30-40 MB resident on
///   any run, even a 400-skill library; committing on demand keeps the peak with what the
///   audit holds (5,000 generated skills: 59 MB -> 36 MB, same time);
/// - each file's text and YAML tree are freed right after it is parsed, between the small
///   allocations that stay for the report; returning free pages after 10 ms rather than the
///   default second keeps the peak with what the audit holds (100,000 generated skills:
///   395 -> 377 MiB, same time).
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
            eprintln!("skill-audit: error: {msg}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::{GlobalAlloc, Layout};

    /// Every block is aligned as its layout asks, plain or not, through growing and shrinking
    /// (which may move it from a plain block to an aligned one and back).
    #[test]
    fn blocks_are_aligned_as_asked() {
        let sizes = (1..=80).chain([96, 100, 128, 200, 1000, 4096, 5000, 70_000, 1 << 20]);
        for size in sizes {
            for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
                let Ok(layout) = Layout::from_size_align(size, align) else {
                    continue;
                };
                // SAFETY: non-zero sizes; each block is freed once, with its layout.
                unsafe {
                    let p = ALLOC.alloc(layout);
                    assert!(!p.is_null() && p.addr() % align == 0, "{size} {align}");
                    p.write_bytes(0xa5, size);
                    let z = ALLOC.alloc_zeroed(layout);
                    assert!(z.addr() % align == 0 && *z == 0 && *z.add(size - 1) == 0);
                    ALLOC.dealloc(z, layout);
                    let mut p = p;
                    let mut now = layout;
                    for new_size in [size * 3 + 1, (size / 2).max(1), size] {
                        p = ALLOC.realloc(p, now, new_size);
                        assert!(
                            !p.is_null() && p.addr() % align == 0,
                            "{size} {align} {new_size}"
                        );
                        assert_eq!(*p, 0xa5, "content kept");
                        now = Layout::from_size_align(new_size, align).expect("layout");
                    }
                    ALLOC.dealloc(p, now);
                }
            }
        }
    }

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
