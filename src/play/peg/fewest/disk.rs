//! The disk of the search by levels out of memory ([`super::outcore`]): where levels go and
//! the budget they are charged against (over it the search stops with [`Stop::Disk`]), and an
//! external sort ([`Sorter`]) that keeps what fits in its memory budget, writes the rest as
//! sorted runs and merges them, without repeats, in one pass. A level is a file of sorted,
//! distinct positions in the packed format of [`super::packed`].

use super::Stop;
use super::packed::{Item, LevelFile, Stream, Writer};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Where levels go when they leave memory, and the disk they may take.
#[derive(Clone, Debug)]
pub struct Disk {
    /// The work directory: one subdirectory per set of levels (named by their digest), kept
    /// for the next run, which resumes from the levels it finds complete.
    pub dir: PathBuf,
    /// The most bytes this run may hold on disk at once (its levels and runs).
    pub budget: u64,
    /// How the positions on some play are found beside the middle level.
    pub join: Join,
    /// How the middle level of the positions on some play is found.
    pub meet: Meet,
    used: Arc<AtomicU64>,
    peak: Arc<AtomicU64>,
    names: Arc<AtomicUsize>,
}

/// How the positions on some play one jump from those found are tested against a level on
/// disk: by sorting the candidates and merging them with the level (`Pairs`), by reading the
/// whole level and testing each of its positions against those found (`Scan`), or by loading
/// the level into a table in memory and testing the candidates against it (`Load`). All give
/// the same set; `Auto` loads the level when the memory budget holds it, and otherwise takes
/// the cheaper of the other two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Join {
    #[default]
    Auto,
    Pairs,
    Scan,
    Load,
}

impl Join {
    /// The command line's `--join`.
    pub fn parse(s: &str) -> Result<Join, String> {
        match s {
            "auto" => Ok(Join::Auto),
            "pairs" => Ok(Join::Pairs),
            "scan" => Ok(Join::Scan),
            "load" => Ok(Join::Load),
            _ => Err(format!("'{s}' is not auto, pairs, scan or load")),
        }
    }
}

/// How the positions on some play at the middle (J jumps made) are found: from the forward
/// level J, each position tested against the backward level N − J (`Level`); or from the
/// children of the forward level J − 1, so that level J, a search's largest, is never built
/// (`Children`: each child asked of a Bloom filter of the backward level first, the few it
/// may hold sorted and joined exactly). Both give the same set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Meet {
    #[default]
    Level,
    Children,
}

impl Meet {
    /// The command line's `--meet`.
    pub fn parse(s: &str) -> Result<Meet, String> {
        match s {
            "level" => Ok(Meet::Level),
            "children" => Ok(Meet::Children),
            _ => Err(format!("'{s}' is not level or children")),
        }
    }
}

impl Disk {
    pub fn new(dir: PathBuf, budget: u64) -> Disk {
        Disk {
            dir,
            budget,
            join: Join::Auto,
            meet: Meet::Level,
            used: Arc::default(),
            peak: Arc::default(),
            names: Arc::default(),
        }
    }

    /// The same with the positions on some play found by `join`.
    pub fn joined(self, join: Join) -> Disk {
        Disk { join, ..self }
    }

    /// The same with the middle level met by `meet`.
    pub fn met(self, meet: Meet) -> Disk {
        Disk { meet, ..self }
    }

    /// The most bytes held on disk at once so far.
    pub fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// Counts `bytes` more as held; Err when that passes the budget.
    pub(super) fn charge(&self, bytes: u64) -> Result<(), Stop> {
        let now = self.used.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.peak.fetch_max(now, Ordering::Relaxed);
        if now > self.budget {
            return Err(Stop::Disk(format!(
                "the levels would take more than the disk budget of {} in {}",
                super::show_bytes(self.budget as usize),
                self.dir.display()
            )));
        }
        Ok(())
    }

    pub(super) fn release(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// A fresh temporary file name in `dir`.
    pub(super) fn temp(&self, dir: &Path, what: &str) -> PathBuf {
        let k = self.names.fetch_add(1, Ordering::Relaxed);
        dir.join(format!("{what}-{}-{k}.tmp", std::process::id()))
    }
}

/// The work directory's default disk budget: the space free on its file system, less 1 GiB.
pub fn free_space(dir: &Path) -> Option<u64> {
    let c = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()).ok()?;
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: c is a valid C string and s a statvfs the call fills.
    if unsafe { libc::statvfs(c.as_ptr(), &mut s) } != 0 {
        return None;
    }
    Some((s.f_bavail as u64 * s.f_frsize as u64).saturating_sub(1 << 30))
}

/// The directory for a work directory given on the command line (created if missing).
pub fn work_dir(dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the work directory {}: {e}", dir.display()))?;
    Ok(dir.to_path_buf())
}

/// A disk error as the one line a search stops with.
pub(super) fn io(what: &str, path: &Path, e: std::io::Error) -> Stop {
    Stop::Disk(format!("{what} {}: {e}", path.display()))
}

/// An external sort: items gathered in memory up to `cap`, each full buffer sorted and written
/// as a run; [`Sorter::finish`] merges the runs and what is left in memory.
pub(super) struct Sorter<'a, T: Item> {
    disk: &'a Disk,
    dir: PathBuf,
    width: usize,
    cap: usize,
    buf: Vec<T>,
    /// Each run's path, items and bytes.
    runs: Vec<(PathBuf, u64, u64)>,
}

impl<'a, T: Item> Sorter<'a, T> {
    /// A sorter holding at most `cap` items in memory (at least 2¹⁴), its runs in `dir`.
    pub(super) fn new(disk: &'a Disk, dir: &Path, width: usize, cap: usize) -> Sorter<'a, T> {
        Sorter {
            disk,
            dir: dir.to_path_buf(),
            width,
            cap: cap.max(1 << 14),
            buf: Vec::new(),
            runs: Vec::new(),
        }
    }

    pub(super) fn extend(&mut self, items: &[T]) -> Result<(), Stop> {
        for part in items.chunks(self.cap) {
            if self.buf.len() + part.len() > self.cap {
                self.spill()?;
            }
            self.buf.extend_from_slice(part);
        }
        Ok(())
    }

    /// The buffer sorted (its halves in two threads, then merged), without repeats, written
    /// as a run.
    fn spill(&mut self) -> Result<(), Stop> {
        let mid = sort_halves(&mut self.buf);
        let (a, b) = self.buf.split_at(mid);
        let mut w = Writer::new(self.disk, &self.dir, "run", self.width)?;
        let (mut i, mut j, mut last) = (0, 0, None);
        while i < a.len() || j < b.len() {
            let x = if j == b.len() || (i < a.len() && a[i] <= b[j]) {
                i += 1;
                a[i - 1]
            } else {
                j += 1;
                b[j - 1]
            };
            if last != Some(x) {
                w.push(x)?;
                last = Some(x);
            }
        }
        self.runs.push(w.finish(None)?);
        self.buf.clear();
        Ok(())
    }

    /// Every item pushed, in order, without repeats (the runs removed when it is dropped).
    pub(super) fn finish(self) -> Result<Merged<'a, T>, Stop> {
        let (disk, width) = (self.disk, self.width);
        Merged::new(disk, vec![self], width)
    }
}

impl<T: Item> Drop for Sorter<'_, T> {
    fn drop(&mut self) {
        for (p, _, bytes) in self.runs.drain(..) {
            let _ = std::fs::remove_file(p);
            self.disk.release(bytes);
        }
    }
}

/// Sorts the two halves of v, each in its own thread; returns where the second begins.
fn sort_halves<T: Item>(v: &mut [T]) -> usize {
    let mid = v.len() / 2;
    let (a, b) = v.split_at_mut(mid);
    std::thread::scope(|s| {
        s.spawn(|| a.sort_unstable());
        b.sort_unstable();
    });
    mid
}

/// A sorted part of a buffer in memory, read from `at` to `end`.
struct Part<T> {
    v: std::rc::Rc<Vec<T>>,
    at: usize,
    end: usize,
}

/// Sorted sources merged without repeats: in-memory buffers and runs on disk.
pub(super) struct Merged<'a, T: Item> {
    disk: &'a Disk,
    mem: Vec<Part<T>>,
    files: Vec<Stream<T>>,
    runs: Vec<(PathBuf, u64, u64)>,
    heap: BinaryHeap<Reverse<(T, usize)>>,
    last: Option<T>,
}

impl<'a, T: Item> Merged<'a, T> {
    /// The merge of several sorters' items (each finished: its buffer sorted).
    pub(super) fn new(
        disk: &'a Disk,
        mut sorters: Vec<Sorter<'a, T>>,
        width: usize,
    ) -> Result<Merged<'a, T>, Stop> {
        let mut m = Merged::empty(disk);
        for s in &mut sorters {
            let mid = sort_halves(&mut s.buf);
            let v = std::rc::Rc::new(std::mem::take(&mut s.buf));
            let end = v.len();
            m.mem.push(Part {
                v: v.clone(),
                at: 0,
                end: mid,
            });
            m.mem.push(Part { v, at: mid, end });
            m.runs.append(&mut s.runs);
        }
        for (path, len, _) in &m.runs {
            m.files.push(Stream::open(path, width, 0, *len)?);
        }
        m.started()
    }

    /// The merge of sorted files, which stay where they are.
    pub(super) fn of_files(disk: &'a Disk, files: &[LevelFile]) -> Result<Merged<'a, T>, Stop> {
        let mut m = Merged::empty(disk);
        for f in files {
            m.files.push(Stream::open(&f.path, f.width, 0, f.len)?);
        }
        m.started()
    }

    fn empty(disk: &'a Disk) -> Merged<'a, T> {
        Merged {
            disk,
            mem: Vec::new(),
            files: Vec::new(),
            runs: Vec::new(),
            heap: BinaryHeap::new(),
            last: None,
        }
    }

    /// The heap holding each source's first item.
    fn started(mut self) -> Result<Merged<'a, T>, Stop> {
        for k in 0..self.mem.len() + self.files.len() {
            if let Some(x) = self.pull(k)? {
                self.heap.push(Reverse((x, k)));
            }
        }
        Ok(self)
    }

    fn pull(&mut self, k: usize) -> Result<Option<T>, Stop> {
        match k.checked_sub(self.mem.len()) {
            None => {
                let p = &mut self.mem[k];
                p.at += 1;
                Ok((p.at <= p.end).then(|| p.v[p.at - 1]))
            }
            Some(i) => self.files[i].next(),
        }
    }

    /// The next item, or None at the end.
    pub(super) fn next(&mut self) -> Result<Option<T>, Stop> {
        while let Some(Reverse((x, k))) = self.heap.pop() {
            if let Some(y) = self.pull(k)? {
                self.heap.push(Reverse((y, k)));
            }
            if self.last != Some(x) {
                self.last = Some(x);
                return Ok(Some(x));
            }
        }
        Ok(None)
    }
}

impl<T: Item> Drop for Merged<'_, T> {
    fn drop(&mut self) {
        self.files.clear();
        for (p, _, bytes) in self.runs.drain(..) {
            let _ = std::fs::remove_file(p);
            self.disk.release(bytes);
        }
    }
}
