//! Reading the files fixes change and writing them back. The scanned tree is untrusted: only
//! regular files inside the audited folders are read for fixing, never through a symlink, and
//! each is written through a temporary file in its own folder renamed over it, so a reader
//! never sees half a file and a failed write leaves the original.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::Change;
use crate::boundary::MAX_FILE_BYTES;

/// The audited folders, by real path: fixes read and write only inside them.
pub(super) struct Roots(Vec<PathBuf>);

impl Roots {
    pub(super) fn new(roots: &[PathBuf]) -> Roots {
        Roots(
            roots
                .iter()
                .filter_map(|r| std::fs::canonicalize(r).ok())
                .collect(),
        )
    }

    /// Is `path` itself a regular file (not a link) whose folder is inside a root (or the
    /// file a root names)?
    fn admits(&self, path: &Path) -> Result<(), String> {
        let meta = std::fs::symlink_metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
        if meta.file_type().is_symlink() {
            return Err("it is a symbolic link; fixes never write through one".into());
        }
        if !meta.is_file() {
            return Err("it is not a regular file".into());
        }
        let real = std::fs::canonicalize(path).map_err(|e| format!("cannot resolve it: {e}"))?;
        if self.0.iter().any(|r| real.starts_with(r)) {
            Ok(())
        } else {
            Err("it is outside the audited folders".into())
        }
    }

    /// May fixes change `path`: is it admitted, and not read-only? A read-only file is refused
    /// before its fixes are counted, so the summary does not count what cannot be written.
    pub(super) fn writable(&self, path: &Path) -> Result<(), String> {
        self.admits(path)?;
        let meta = std::fs::symlink_metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
        if meta.permissions().readonly() {
            return Err(READ_ONLY.into());
        }
        Ok(())
    }

    /// The text of `path`, when fixes may change it.
    pub(super) fn read(&self, path: &Path) -> Result<String, String> {
        self.writable(path)?;
        let contents = crate::boundary::read(path, MAX_FILE_BYTES).map_err(|e| e.to_string())?;
        String::from_utf8(contents.bytes).map_err(|_| "it is not UTF-8 text".to_owned())
    }
}

/// Write each change (then make its rename). A file that cannot be written is named in the
/// returned errors (display path, message) and left as it was; the others are still written.
pub fn write(changes: &[Change], roots: &[PathBuf]) -> Vec<(String, String)> {
    let roots = Roots::new(roots);
    let mut errors = Vec::new();
    for c in changes {
        if c.after != c.before
            && let Err(e) = write_one(&roots, c)
        {
            errors.push((c.path.clone(), format!("{}: not fixed: {e}", c.path)));
            continue;
        }
        if let Some((shown, target)) = &c.rename
            && let Err(e) = rename(&c.fs_path, target)
        {
            errors.push((
                c.path.clone(),
                format!("{}: not renamed to {shown}: {e}", c.path),
            ));
        }
    }
    errors
}

/// `roots` after [`write`]: each file root a rename moved is replaced by its new name, so the
/// tree can be audited again (a root that was not renamed is kept as given). A root is the
/// renamed file when it is gone and names the same file name in the same folder, compared by
/// the folder's real path: the file itself no longer resolves.
pub fn renamed_roots(roots: &[PathBuf], changes: &[Change]) -> Vec<PathBuf> {
    // `Path::parent` of a bare file name is "", which does not resolve.
    let folder = |p: &Path| {
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
        std::fs::canonicalize(dir.unwrap_or(Path::new("."))).ok()
    };
    roots
        .iter()
        .map(|root| {
            if std::fs::symlink_metadata(root).is_ok() {
                return root.clone();
            }
            let moved = changes.iter().find_map(|c| {
                let (_, target) = c.rename.as_ref()?;
                let same = c.fs_path.file_name() == root.file_name()
                    && folder(root).is_some_and(|d| Some(d) == folder(&c.fs_path));
                // Only a rename that was made: the target is there.
                if !same || std::fs::symlink_metadata(target).is_err() {
                    return None;
                }
                Some(root.with_file_name(target.file_name()?))
            });
            moved.unwrap_or_else(|| root.clone())
        })
        .collect()
}

fn write_one(roots: &Roots, c: &Change) -> Result<(), String> {
    let (stamp, permissions) = check(roots, c)?;
    let tmp = stage(c, permissions)?;
    commit(c, &stamp, &tmp)
}

const CHANGED: &str = "it changed since it was read";
const READ_ONLY: &str = "the file is read-only; make it writable to fix it";

/// What a file's metadata says about its last write: a later difference means it was
/// written, or replaced by another file, since.
#[derive(Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    /// Device, inode and change time (a write or a change of permissions sets it).
    #[cfg(unix)]
    id: (u64, u64, i64, i64),
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt as _;
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            id: (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec()),
        }
    }
}

/// May `c` be written: is its file admitted, writable and still what the audit read? Its
/// stamp, taken before its text is compared, and its permissions, for the new file.
fn check(roots: &Roots, c: &Change) -> Result<(Stamp, std::fs::Permissions), String> {
    roots.admits(&c.fs_path)?;
    let meta = std::fs::symlink_metadata(&c.fs_path).map_err(|e| e.to_string())?;
    // Checked here, not left to the write: the owner (root, say) could write it anyway, and a
    // read-only file says not to.
    if meta.permissions().readonly() {
        return Err(READ_ONLY.into());
    }
    let stamp = Stamp::of(&meta);
    let now = std::fs::read(&c.fs_path).map_err(|e| e.to_string())?;
    if now != c.before.as_bytes() {
        return Err(CHANGED.into());
    }
    Ok((stamp, meta.permissions()))
}

/// Is `path` still the file that was read as `before`, with the stamp `then` taken before that
/// read? Its text is compared too: timestamps may be coarser than the time between two writes.
fn unchanged(path: &Path, before: &[u8], then: &Stamp) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| e.to_string())?;
    if Stamp::of(&meta) != *then {
        return Err(CHANGED.into());
    }
    let now = std::fs::read(path).map_err(|e| e.to_string())?;
    if now != before {
        return Err(CHANGED.into());
    }
    Ok(())
}

/// The new text of `c` in a temporary file beside it, on disk, with `permissions`.
fn stage(c: &Change, permissions: std::fs::Permissions) -> Result<PathBuf, String> {
    let dir = c.fs_path.parent().unwrap_or(Path::new("."));
    let name = crate::paths::file_name_text(&c.fs_path);
    let tmp = dir.join(format!(".{name}.skill-audit-{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(c.after.as_bytes())?;
        f.set_permissions(permissions)?;
        f.sync_all()
    })();
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e.to_string())
        }
    }
}

/// Rename the staged `tmp` over the file of `c`, when it is still what [`check`] found: the
/// writing and syncing take long enough for an editor to save meanwhile, so it is checked
/// again, last. The temporary file is removed when the rename is not made.
fn commit(c: &Change, stamp: &Stamp, tmp: &Path) -> Result<(), String> {
    let renamed = unchanged(&c.fs_path, c.before.as_bytes(), stamp)
        .and_then(|()| std::fs::rename(tmp, &c.fs_path).map_err(|e| e.to_string()));
    if renamed.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    renamed
}

/// Rename `from` to `to` in the same folder, refusing to replace anything.
fn rename(from: &Path, to: &Path) -> Result<(), String> {
    if occupied(from, to) {
        return Err("the target exists".into());
    }
    std::fs::rename(from, to).map_err(|e| e.to_string())
}

/// Whether a file other than `from` is at `to`. On a file system that ignores case, a new
/// case of the same name finds the file itself, which does not stand in the way.
pub(crate) fn occupied(from: &Path, to: &Path) -> bool {
    let Ok(there) = std::fs::symlink_metadata(to) else {
        return false;
    };
    let id = |meta: &std::fs::Metadata, path: &Path| crate::boundary::FileId::of(meta, path);
    let own = std::fs::symlink_metadata(from)
        .ok()
        .and_then(|meta| id(&meta, from));
    own.is_none() || own != id(&there, to)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(dir: &Path, before: &str, after: &str) -> Change {
        let fs_path = dir.join("a.agent.md");
        std::fs::write(&fs_path, before).unwrap();
        Change {
            path: "a.agent.md".into(),
            fs_path,
            before: before.into(),
            after: after.into(),
            rename: None,
            safe: 1,
            unsafe_: 0,
        }
    }

    #[test]
    fn only_another_file_stands_in_a_renames_way() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.md"), dir.path().join("b.md"));
        std::fs::write(&a, "a").unwrap();
        assert!(!occupied(&a, &b));
        assert!(
            !occupied(&a, &a),
            "the file itself, as a case-blind file system finds it"
        );
        std::fs::write(&b, "b").unwrap();
        assert!(occupied(&a, &b));
    }

    #[test]
    fn a_file_is_replaced_whole_and_keeps_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let c = change(dir.path(), "a\r\n", "b\r\n");
        assert!(write(std::slice::from_ref(&c), &[dir.path().to_owned()]).is_empty());
        assert_eq!(std::fs::read_to_string(&c.fs_path).unwrap(), "b\r\n");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left behind");
    }

    #[test]
    fn an_edit_made_while_the_new_text_is_staged_is_kept_and_reported() {
        let dir = tempfile::tempdir().unwrap();
        let c = change(dir.path(), "a\n", "b\n");
        let roots = Roots::new(&[dir.path().to_owned()]);
        let (stamp, permissions) = check(&roots, &c).unwrap();
        let tmp = stage(&c, permissions).unwrap();
        // The user saves between the check and the rename, the same length as before.
        std::fs::write(&c.fs_path, "u\n").unwrap();
        assert_eq!(commit(&c, &stamp, &tmp), Err(CHANGED.to_owned()));
        assert_eq!(std::fs::read_to_string(&c.fs_path).unwrap(), "u\n");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left behind");
    }

    #[test]
    fn a_file_touched_or_replaced_with_the_same_text_counts_as_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.agent.md");
        std::fs::write(&path, "a\n").unwrap();
        let stamp = || Stamp::of(&std::fs::symlink_metadata(&path).unwrap());
        let then = stamp();
        assert_eq!(unchanged(&path, b"a\n", &then), Ok(()));
        assert_eq!(unchanged(&path, b"b\n", &then), Err(CHANGED.to_owned()));
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        let f = std::fs::File::options().write(true).open(&path).unwrap();
        f.set_modified(later).unwrap();
        drop(f);
        assert_eq!(unchanged(&path, b"a\n", &then), Err(CHANGED.to_owned()));
        if cfg!(unix) {
            // Another file of the same text and times, renamed over it (an editor's save).
            let then = stamp();
            let other = dir.path().join("b");
            std::fs::write(&other, "a\n").unwrap();
            let f = std::fs::File::options().write(true).open(&other).unwrap();
            f.set_modified(later).unwrap();
            drop(f);
            std::fs::rename(&other, &path).unwrap();
            assert_eq!(unchanged(&path, b"a\n", &then), Err(CHANGED.to_owned()));
        }
    }

    #[test]
    fn read_only_files_and_files_outside_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let c = change(dir.path(), "a\n", "b\n");
        let mut perms = std::fs::metadata(&c.fs_path).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&c.fs_path, perms).unwrap();
        let errors = write(std::slice::from_ref(&c), &[dir.path().to_owned()]);
        assert_eq!(
            errors[0].1,
            "a.agent.md: not fixed: the file is read-only; make it writable to fix it"
        );
        assert_eq!(std::fs::read_to_string(&c.fs_path).unwrap(), "a\n");
        // Refused when read too, so its fixes are never counted as made.
        let roots = Roots::new(&[dir.path().to_owned()]);
        assert_eq!(roots.read(&c.fs_path), Err(READ_ONLY.to_owned()));
        let other = tempfile::tempdir().unwrap();
        let errors = write(std::slice::from_ref(&c), &[other.path().to_owned()]);
        assert!(
            errors[0].1.contains("outside the audited folders"),
            "{errors:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("t.md");
        std::fs::write(&target, "a\n").unwrap();
        let link = dir.path().join("l.agent.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let roots = Roots::new(&[dir.path().to_owned()]);
        assert!(roots.read(&link).unwrap_err().contains("symbolic link"));
    }

    #[test]
    fn a_renamed_root_follows_its_file_and_only_a_rename_made() {
        let dir = tempfile::tempdir().unwrap();
        let moved = |name: &str, to: &str| Change {
            path: name.into(),
            fs_path: dir.path().join(name),
            before: String::new(),
            after: String::new(),
            rename: Some((to.into(), dir.path().join(to))),
            safe: 0,
            unsafe_: 1,
        };
        let changes = [
            moved("a.chatmode.md", "a.agent.md"),
            moved("b.chatmode.md", "b.agent.md"),
        ];
        // `a` was renamed; `b` was not (its rename failed), so it is still there.
        std::fs::write(dir.path().join("a.agent.md"), "x").unwrap();
        std::fs::write(dir.path().join("b.chatmode.md"), "x").unwrap();
        // The same file spelt another way than the walker's path.
        let a = dir.path().join(".").join("a.chatmode.md");
        let b = dir.path().join("b.chatmode.md");
        let roots = [a, b.clone(), dir.path().to_owned()];
        assert_eq!(
            renamed_roots(&roots, &changes),
            [
                dir.path().join(".").join("a.agent.md"),
                b,
                dir.path().to_owned()
            ]
        );
    }

    #[test]
    fn a_rename_never_replaces_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("a.chatmode.md");
        let to = dir.path().join("a.agent.md");
        std::fs::write(&from, "x").unwrap();
        std::fs::write(&to, "y").unwrap();
        assert!(rename(&from, &to).is_err());
        assert_eq!(std::fs::read_to_string(&to).unwrap(), "y");
    }
}
