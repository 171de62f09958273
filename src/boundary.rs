//! The boundary of the audited tree, which is untrusted, and the one place its files are read.
//!
//! - **The tree is the boundary.** A file is opened only if its real path lies inside an
//!   audited root or inside the git work tree holding one ([`Boundary`]). A regular file the
//!   walk found under a root is inside by construction (the walk does not follow links), so
//!   only symlinks and paths named by manifests pay for resolving their real path.
//! - **Only regular files.** A FIFO, socket or device is never opened (opening a FIFO blocks);
//!   files are opened non-blocking and checked again on the open handle, so a file swapped for
//!   a FIFO after the walk cannot block the run either.
//! - **Bounded reads.** Every read stops at [`MAX_FILE_BYTES`], whatever the file's metadata
//!   says (`/proc` files report a size of 0, `/dev/zero` never ends).

use std::io::Read;
use std::path::{Path, PathBuf};

/// The most skill-audit reads of one file: far above any real skill, agent or manifest
/// (the largest in the corpora is under 100 KiB), far below what would strain memory.
pub(crate) const MAX_FILE_BYTES: u64 = 16 << 20;

/// Where files may be read from: the audited roots and the git work trees holding them, by
/// real path.
#[derive(Debug, Clone, Default)]
pub struct Boundary {
    inside: Vec<PathBuf>,
    /// `--follow-outside`: every path is admitted (unsafe for untrusted trees).
    open: bool,
}

impl Boundary {
    /// The boundary of `roots`: each root's real path and the git work tree holding it (a
    /// manifest may name paths from the repository root). With `follow_outside`, no boundary.
    pub(crate) fn new(roots: &[PathBuf], follow_outside: bool) -> Boundary {
        let mut inside: Vec<PathBuf> = Vec::new();
        for root in roots {
            let Ok(real) = std::fs::canonicalize(root) else {
                continue;
            };
            if let Some(work_tree) = real.ancestors().find(|a| a.join(".git").exists()) {
                inside.push(work_tree.to_owned());
            }
            inside.push(real);
        }
        inside.sort();
        // A folder inside another adds nothing.
        inside.dedup_by(|later, earlier| later.starts_with(earlier));
        Boundary {
            inside,
            open: follow_outside,
        }
    }

    /// A boundary that admits every path, for callers that audit trusted files.
    pub fn none() -> Boundary {
        Boundary {
            inside: Vec::new(),
            open: true,
        }
    }

    /// Whether `real` (a path with every symlink resolved) may be read.
    pub(crate) fn admits(&self, real: &Path) -> bool {
        self.open || self.inside.iter().any(|r| real.starts_with(r))
    }

    /// Whether `path` exists and its real path leaves the boundary.
    pub(crate) fn leads_outside(&self, path: &Path) -> bool {
        matches!(self.resolve(path), Err(Refusal::Outside))
    }

    /// The real path of `path`, if it may be read: `Outside` when it leaves the boundary, `Io`
    /// when it cannot be resolved (it does not exist, a link is broken) inside it.
    pub(crate) fn resolve(&self, path: &Path) -> Result<PathBuf, Refusal> {
        match std::fs::canonicalize(path) {
            Ok(real) if self.admits(&real) => Ok(real),
            Ok(_) => Err(Refusal::Outside),
            // Where the path stops resolving decides, not whether it does: answering "missing"
            // for `../../etc/nothere` and "outside" for `../../etc/passwd` would tell the tree
            // which files this machine has.
            Err(e) => match real_prefix(path, MAX_LINK_HOPS) {
                Some(real) if !self.admits(&real) => Err(Refusal::Outside),
                _ => Err(Refusal::Io(e)),
            },
        }
    }
}

impl Boundary {
    /// Read `path` at its real path, only if that lies inside: how a file reached through a
    /// link, named by a manifest, or changed since the walk is read, so no link leads a read
    /// out of the tree.
    pub(crate) fn read(&self, path: &Path, limit: u64) -> Result<Contents, Refusal> {
        self.resolve(path).and_then(|real| read(&real, limit))
    }
}

/// How many links a path that does not resolve is followed through, as the kernel's `ELOOP`
/// limit does.
const MAX_LINK_HOPS: u32 = 40;

/// The real path of the longest leading part of `path` that resolves, following a link at its
/// end (a broken one, or one whose target does not resolve) to where its target stops
/// resolving: the place the file system gives up at.
fn real_prefix(path: &Path, hops: u32) -> Option<PathBuf> {
    for lead in path.ancestors() {
        let lead_or_here = if lead.as_os_str().is_empty() {
            Path::new(".")
        } else {
            lead
        };
        let Ok(real) = std::fs::canonicalize(lead_or_here) else {
            continue;
        };
        let next = path.strip_prefix(lead).ok()?.components().next();
        if let (Some(std::path::Component::Normal(name)), Some(hops)) = (next, hops.checked_sub(1))
            && let Ok(target) = std::fs::read_link(real.join(name))
        {
            // An absolute target replaces `real` in the join.
            return real_prefix(&real.join(target), hops);
        }
        return Some(real);
    }
    None
}

/// A file's identity: the same file reached by two spellings, a symlink or a hard link has
/// one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum FileId {
    /// Device and inode number.
    #[cfg(unix)]
    Inode(u64, u64),
    /// Elsewhere, the canonical path.
    #[cfg(not(unix))]
    Path(PathBuf),
}

impl FileId {
    pub(crate) fn of(meta: &std::fs::Metadata, _path: &Path) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileId::Inode(meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            std::fs::canonicalize(_path).ok().map(FileId::Path)
        }
    }
}

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// Its real path leaves the audited tree.
    Outside,
    /// Not a regular file: what it is (`a FIFO`, `a device`, ...).
    Special(&'static str),
    /// Larger than [`MAX_FILE_BYTES`]; the size when the file system states it.
    TooLarge(Option<u64>),
    /// Opening or reading failed.
    Io(std::io::Error),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Outside => f.write_str("it leads outside the audited tree"),
            Refusal::Special(what) => write!(f, "it is {what}, not a regular file"),
            Refusal::TooLarge(_) => write!(f, "it is larger than {} MiB", MAX_FILE_BYTES >> 20),
            Refusal::Io(e) => e.fmt(f),
        }
    }
}

/// A settings or profile file as text, through the same bounded reader.
/// A byte order mark, which editors on Windows write, is left out.
pub(crate) fn read_text(path: &Path) -> Result<String, Refusal> {
    let mut bytes = read(path, MAX_FILE_BYTES)?.bytes;
    let bom = crate::parse::frontmatter::BOM.as_bytes();
    if bytes.starts_with(bom) {
        bytes.drain(..bom.len());
    }
    String::from_utf8(bytes).map_err(|e| {
        Refusal::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to()),
        ))
    })
}

/// What a file held.
#[derive(Debug)]
pub(crate) struct Contents {
    pub bytes: Vec<u8>,
    pub id: Option<FileId>,
}

/// What kind of special file a file type is, or `None` for a regular file.
pub(crate) fn special_kind(t: std::fs::FileType) -> Option<&'static str> {
    if t.is_file() || t.is_symlink() {
        return None;
    }
    if t.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_block_device() || t.is_char_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// Read the regular file at `path`, at most `limit` bytes.
pub(crate) fn read(path: &Path, limit: u64) -> Result<Contents, Refusal> {
    let file = open(path).map_err(Refusal::Io)?;
    // Checked on the open handle: what the walk saw may have been replaced since.
    let meta = file.metadata().map_err(Refusal::Io)?;
    if let Some(kind) = special_kind(meta.file_type()) {
        return Err(Refusal::Special(kind));
    }
    if meta.len() > limit {
        return Err(Refusal::TooLarge(Some(meta.len())));
    }
    let bytes = read_at_most(file, meta.len(), limit)
        .map_err(Refusal::Io)?
        .ok_or(Refusal::TooLarge(None))?;
    Ok(Contents {
        id: FileId::of(&meta, path),
        bytes,
    })
}

/// Standard input, at most `limit` bytes: a pipe or a redirected file. A terminal would wait
/// for typing and a device (`< /dev/zero`) may never end, so both are refused as a device path
/// is; a pipe is read only up to the limit, as it states no size.
pub(crate) fn read_stdin(limit: u64) -> Result<Vec<u8>, Refusal> {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(Refusal::Special("a terminal"));
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let meta = stdin
            .as_fd()
            .try_clone_to_owned()
            .map(std::fs::File::from)
            .and_then(|f| f.metadata())
            .map_err(Refusal::Io)?;
        let t = meta.file_type();
        if !(t.is_fifo() || t.is_socket())
            && let Some(kind) = special_kind(t)
        {
            return Err(Refusal::Special(kind));
        }
        if meta.len() > limit {
            return Err(Refusal::TooLarge(Some(meta.len())));
        }
    }
    read_unsized(stdin.lock(), limit)
        .map_err(Refusal::Io)?
        .ok_or(Refusal::TooLarge(None))
}

/// Everything `r` holds, or `None` when that is more than `limit` bytes, for a stream that
/// states no size (a pipe): the buffer grows to one byte past `limit` at most, where doubling
/// it would take twice the limit before the refusal.
fn read_unsized(mut r: impl Read, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let max = usize::try_from(limit)
        .unwrap_or(usize::MAX)
        .saturating_add(1);
    let mut buf = Vec::new();
    let mut chunk = vec![0; 64 << 10];
    loop {
        let n = match r.read(&mut chunk) {
            Ok(0) => return Ok(Some(buf)),
            Ok(n) => n.min(max - buf.len()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.len() + n > buf.capacity() {
            let grown = (buf.capacity() * 2).max(buf.len() + n).min(max);
            buf.reserve_exact(grown - buf.len());
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.len() == max {
            return Ok(None);
        }
    }
}

/// Everything `r` holds, or `None` when that is more than `limit` bytes. `stated` (the size the
/// file system gives) only sizes the buffer: a file may state 0 (`/proc`) or never end
/// (`/dev/zero`), so the read itself stops one byte past `limit`.
fn read_at_most(r: impl Read, stated: u64, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let size = usize::try_from(stated.min(limit)).unwrap_or(0);
    let mut buf = Vec::with_capacity(size.saturating_add(1));
    r.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    Ok((u64::try_from(buf.len()).is_ok_and(|n| n <= limit)).then_some(buf))
}

/// Open for reading without blocking: a FIFO opened for reading waits for a writer.
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Bits of a small positive flag: the cast cannot wrap.
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_past_the_limit_is_refused_with_no_more_than_the_limit_held() {
        let read = |n: u64, limit| read_unsized(std::io::repeat(7).take(n), limit).unwrap();
        assert_eq!(read(100_000, 100_000).map(|b| b.len()), Some(100_000));
        assert_eq!(read(0, 10), Some(Vec::new()));
        assert_eq!(read(100_001, 100_000), None);
        // Refused as the byte past the limit comes, from a stream that never ends.
        assert_eq!(read_unsized(std::io::repeat(0), 1 << 20).unwrap(), None);
        // Just under the limit, the buffer has not grown past it.
        let buf = read(150_000, 200_000).unwrap();
        assert!(buf.capacity() <= 200_001, "{}", buf.capacity());
    }

    #[test]
    fn a_path_that_stops_resolving_outside_is_outside_whether_or_not_it_exists() {
        let outside = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(outside.path().join("there")).expect("mkdir");
        let tree = tempfile::tempdir().expect("temp dir");
        let root = tree.path().join("lib");
        std::fs::create_dir_all(root.join("skill")).expect("mkdir");
        let b = Boundary::new(std::slice::from_ref(&root), false);
        let up = |rest: &str| {
            let mut p = root.join("skill");
            for _ in 0..root.join("skill").components().count() {
                p.push("..");
            }
            p.join(
                outside
                    .path()
                    .strip_prefix("/")
                    .expect("absolute")
                    .join(rest),
            )
        };
        for rest in ["there", "there/x.md", "nothere", "nothere/x.md"] {
            assert!(
                matches!(b.resolve(&up(rest)), Err(Refusal::Outside)),
                "{rest}"
            );
        }
        // Links of the tree, broken or not, to outside.
        #[cfg(unix)]
        for (name, target) in [("to-there", "there/x"), ("to-nothere", "nothere/x")] {
            let link = root.join("skill").join(name);
            std::os::unix::fs::symlink(outside.path().join(target), &link).expect("link");
            assert!(matches!(b.resolve(&link), Err(Refusal::Outside)), "{name}");
            assert!(
                matches!(b.resolve(&link.join("y.md")), Err(Refusal::Outside)),
                "{name}/y.md"
            );
        }
        // Missing inside stays missing.
        assert!(matches!(
            b.resolve(&root.join("skill/nothere.md")),
            Err(Refusal::Io(_))
        ));
        assert!(matches!(
            b.resolve(&root.join("nothere/x.md")),
            Err(Refusal::Io(_))
        ));
        #[cfg(unix)]
        {
            let lp = root.join("skill/loop");
            std::os::unix::fs::symlink(&lp, &lp).expect("link");
            assert!(matches!(b.resolve(&lp), Err(Refusal::Io(_))));
        }
    }

    #[test]
    fn reads_stop_at_the_limit_whatever_the_metadata_says() {
        let dir = tempfile::tempdir().expect("temp dir");
        let small = dir.path().join("small.md");
        std::fs::write(&small, b"12345").expect("write");
        assert_eq!(read(&small, 5).expect("read").bytes, b"12345");
        assert!(matches!(read(&small, 4), Err(Refusal::TooLarge(Some(5)))));
        // /proc files state a size of 0; /dev/zero never ends.
        #[cfg(target_os = "linux")]
        {
            assert!(matches!(
                read(Path::new("/dev/zero"), 1 << 20),
                Err(Refusal::Special("a device"))
            ));
            let status = read(Path::new("/proc/self/status"), 1 << 20).expect("read");
            assert!(!status.bytes.is_empty());
            assert!(matches!(
                read(Path::new("/proc/self/status"), 10),
                Err(Refusal::TooLarge(None))
            ));
        }
    }

    #[test]
    fn bounded_reads_take_all_of_a_file_and_no_more_than_the_limit() {
        let data: Vec<u8> = (0..50_000u32).map(|i| (i % 251) as u8).collect();
        for stated in [0, 10, 49_999, 50_000, 50_001, 1 << 40] {
            let got = read_at_most(&data[..], stated, 50_000).expect("read");
            assert_eq!(got.as_deref(), Some(&data[..]), "stated {stated}");
            let got = read_at_most(&data[..], stated, 49_999).expect("read");
            assert_eq!(got, None, "stated {stated}");
        }
        assert_eq!(
            read_at_most(&b""[..], 0, 0).expect("read"),
            Some(Vec::new())
        );
        // A stream that never ends is cut at the limit.
        assert_eq!(
            read_at_most(std::io::repeat(7), 0, 1 << 20).expect("read"),
            None
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("SKILL.md");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        assert!(matches!(
            read(&fifo, MAX_FILE_BYTES),
            Err(Refusal::Special("a FIFO (named pipe)"))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn the_boundary_admits_the_roots_and_their_work_tree_by_real_path() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = std::fs::canonicalize(dir.path()).expect("canonical");
        std::fs::create_dir_all(real.join("repo/.git")).expect("mkdir");
        std::fs::create_dir_all(real.join("repo/lib/skills")).expect("mkdir");
        std::fs::create_dir_all(real.join("outside")).expect("mkdir");
        std::fs::write(real.join("outside/SKILL.md"), "x").expect("write");
        std::fs::write(real.join("repo/README.md"), "x").expect("write");
        std::os::unix::fs::symlink(
            real.join("outside/SKILL.md"),
            real.join("repo/lib/skills/SKILL.md"),
        )
        .expect("symlink");
        let b = Boundary::new(&[real.join("repo/lib")], false);
        assert!(b.admits(&real.join("repo/lib/skills/x.md")));
        assert!(b.admits(&real.join("repo/README.md")), "the work tree");
        assert!(!b.admits(&real.join("outside/SKILL.md")));
        assert!(
            !b.admits(&real.join("repository/x.md")),
            "not a name prefix"
        );
        assert!(matches!(
            b.resolve(&real.join("repo/lib/skills/SKILL.md")),
            Err(Refusal::Outside)
        ));
        let open = Boundary::new(&[real.join("repo/lib")], true);
        assert!(open.resolve(&real.join("repo/lib/skills/SKILL.md")).is_ok());
        // Without a work tree, only the root itself.
        let b = Boundary::new(&[real.join("outside")], false);
        assert!(!b.admits(&real.join("repo/README.md")));
    }

    #[cfg(unix)]
    #[test]
    fn one_file_has_one_identity_by_any_path() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("a.md");
        std::fs::write(&file, "x").expect("write");
        std::os::unix::fs::symlink(&file, dir.path().join("b.md")).expect("symlink");
        std::fs::write(dir.path().join("c.md"), "x").expect("write");
        let id = |p: &str| read(&dir.path().join(p), 10).expect("read").id;
        assert_eq!(id("a.md"), id("b.md"));
        assert_eq!(id("a.md"), id("./a.md"));
        assert_ne!(id("a.md"), id("c.md"));
    }
}
