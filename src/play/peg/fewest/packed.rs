//! The file format of the search by levels on disk ([`super::disk`]): sorted items packed by
//! their differences. A file is a sequence of blocks of [`BLOCK_ITEMS`] items; in a block each
//! item's key is written as the varint of its difference from the key before (the block's
//! first from 0), and a pair's second word in `width` bytes. An index of the blocks' offsets,
//! the item count and a magic tag close the file, so a stream may start at any item (by its
//! block) and a file without its tag is no level.
//!
//! Why: sorted positions are close together, so a difference takes two or three bytes where a
//! position takes `width` (a 45-hole position: 6); Wiegleb's middle levels hold billions of
//! positions, and the disk, not the time, limits them.
//!
//! Every file is written under a temporary name and renamed when complete, so a file with a
//! level's name is always a whole level (a run stopped by Ctrl-C or a full disk leaves only
//! temporary files, removed by the next run). The disk used is charged as it is written.

use super::Stop;
use super::disk::{Disk, io};
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Items per block: a stream that starts at item i decodes at most this many to reach it.
pub(super) const BLOCK_ITEMS: u64 = 1 << 14;
/// The file's last 8 bytes: the format and its version.
const MAGIC: &[u8; 8] = b"SOLLVL01";
/// Footer: item count, block count, magic.
const FOOTER: u64 = 24;

/// The level j of a set of levels in `dir`.
pub(super) fn level_path(dir: &Path, j: usize) -> PathBuf {
    dir.join(format!("level-{j}.lvl"))
}

/// Part k of n of level j (a job of a job array).
pub(super) fn part_path(dir: &Path, j: usize, k: u64, n: u64) -> PathBuf {
    dir.join(format!("level-{j}.part-{k}-of-{n}.lvl"))
}

/// What a sorted file holds: a position, or a pair (key, position) sorted by key.
pub(super) trait Item: Copy + Ord + Send + Sync {
    /// The word the file is sorted by.
    fn key(self) -> u64;
    /// Writes the item after one of key `prev` (at most the item's key).
    fn encode(self, prev: u64, out: &mut Vec<u8>, width: usize);
    /// The item after one of key `prev`, and the bytes it took.
    fn decode(bytes: &[u8], prev: u64, width: usize) -> (Self, usize);
}

fn put_varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8]) -> (u64, usize) {
    let (mut v, mut shift) = (0u64, 0);
    for (i, &b) in bytes.iter().enumerate() {
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return (v, i + 1);
        }
        shift += 7;
    }
    (v, bytes.len())
}

fn word(bytes: &[u8], width: usize) -> u64 {
    let mut b = [0u8; 8];
    b[..width].copy_from_slice(&bytes[..width]);
    u64::from_le_bytes(b)
}

impl Item for u64 {
    fn key(self) -> u64 {
        self
    }
    fn encode(self, prev: u64, out: &mut Vec<u8>, _: usize) {
        put_varint(self - prev, out);
    }
    fn decode(bytes: &[u8], prev: u64, _: usize) -> (u64, usize) {
        let (d, n) = get_varint(bytes);
        (prev + d, n)
    }
}

impl Item for (u64, u64) {
    fn key(self) -> u64 {
        self.0
    }
    fn encode(self, prev: u64, out: &mut Vec<u8>, width: usize) {
        put_varint(self.0 - prev, out);
        out.extend_from_slice(&self.1.to_le_bytes()[..width]);
    }
    fn decode(bytes: &[u8], prev: u64, width: usize) -> ((u64, u64), usize) {
        let (d, n) = get_varint(bytes);
        ((prev + d, word(&bytes[n..], width)), n + width)
    }
}

/// Sorted items written to a temporary file, charged to the disk as they go; the file is
/// removed if it is dropped unfinished (a search stopped by its budget, Ctrl-C or a disk
/// error).
pub(super) struct Writer<'a> {
    disk: &'a Disk,
    tmp: PathBuf,
    out: Option<BufWriter<File>>,
    bytes: Vec<u8>,
    width: usize,
    written: u64,
    items: u64,
    prev: u64,
    index: Vec<u64>,
}

impl<'a> Writer<'a> {
    pub(super) fn new(
        disk: &'a Disk,
        dir: &Path,
        what: &str,
        width: usize,
    ) -> Result<Writer<'a>, Stop> {
        let tmp = disk.temp(dir, what);
        let f = File::create(&tmp).map_err(|e| io("cannot create", &tmp, e))?;
        Ok(Writer {
            disk,
            tmp,
            out: Some(BufWriter::with_capacity(1 << 20, f)),
            bytes: Vec::with_capacity(1 << 20),
            width,
            written: 0,
            items: 0,
            prev: 0,
            index: Vec::new(),
        })
    }

    pub(super) fn push<T: Item>(&mut self, x: T) -> Result<(), Stop> {
        if self.items.is_multiple_of(BLOCK_ITEMS) {
            self.index.push(self.written + self.bytes.len() as u64);
            self.prev = 0;
        }
        x.encode(self.prev, &mut self.bytes, self.width);
        self.prev = x.key();
        self.items += 1;
        if self.bytes.len() >= 1 << 20 {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Stop> {
        let n = self.bytes.len() as u64;
        self.disk.charge(n)?;
        self.written += n;
        if let Some(out) = &mut self.out {
            out.write_all(&self.bytes)
                .map_err(|e| io("cannot write", &self.tmp, e))?;
        }
        self.bytes.clear();
        Ok(())
    }

    /// The file complete with its index, renamed to `to` (or kept under its temporary name
    /// when None): its path, items and bytes.
    pub(super) fn finish(mut self, to: Option<&Path>) -> Result<(PathBuf, u64, u64), Stop> {
        for &at in &self.index {
            self.bytes.extend_from_slice(&at.to_le_bytes());
        }
        self.bytes.extend_from_slice(&self.items.to_le_bytes());
        self.bytes
            .extend_from_slice(&(self.index.len() as u64).to_le_bytes());
        self.bytes.extend_from_slice(MAGIC);
        self.flush()?;
        let out = self.out.take().expect("finished once");
        let f = out
            .into_inner()
            .map_err(|e| io("cannot write", &self.tmp, e.into_error()))?;
        f.sync_all().map_err(|e| io("cannot write", &self.tmp, e))?;
        let path = match to {
            Some(p) => {
                std::fs::rename(&self.tmp, p).map_err(|e| io("cannot rename", &self.tmp, e))?;
                p.to_path_buf()
            }
            None => self.tmp.clone(),
        };
        Ok((path, self.items, std::mem::take(&mut self.written)))
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        if self.out.is_some() {
            self.out = None;
            let _ = std::fs::remove_file(&self.tmp);
            self.disk.release(self.written);
        }
    }
}

/// A packed file's table of contents: its items and where each block begins.
struct Contents {
    len: u64,
    index: Vec<u64>,
    /// Where the blocks end (the index begins).
    end: u64,
}

impl Contents {
    /// Read from the file's end; None when it is no complete packed file.
    fn read(f: &mut File) -> Option<Contents> {
        let size = f.metadata().ok()?.len();
        let mut foot = [0u8; FOOTER as usize];
        f.seek(SeekFrom::Start(size.checked_sub(FOOTER)?)).ok()?;
        f.read_exact(&mut foot).ok()?;
        if &foot[16..] != MAGIC {
            return None;
        }
        let len = u64::from_le_bytes(foot[..8].try_into().ok()?);
        let blocks = u64::from_le_bytes(foot[8..16].try_into().ok()?);
        let end = size.checked_sub(FOOTER + 8 * blocks)?;
        if blocks != len.div_ceil(BLOCK_ITEMS) {
            return None;
        }
        let mut raw = vec![0u8; 8 * blocks as usize];
        f.seek(SeekFrom::Start(end)).ok()?;
        f.read_exact(&mut raw).ok()?;
        let index: Vec<u64> = raw
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        index
            .iter()
            .all(|&at| at < end.max(1))
            .then_some(Contents { len, index, end })
    }
}

/// A level on disk: sorted positions without repeats, packed.
#[derive(Clone, Debug)]
pub struct LevelFile {
    pub path: PathBuf,
    pub len: u64,
    pub width: usize,
    /// Its size on disk.
    pub bytes: u64,
}

impl LevelFile {
    /// The level at `path` if it is there whole (its index and tag read back).
    pub(super) fn open(path: &Path, width: usize) -> Option<LevelFile> {
        let mut f = File::open(path).ok()?;
        let c = Contents::read(&mut f)?;
        Some(LevelFile {
            path: path.to_path_buf(),
            len: c.len,
            width,
            bytes: f.metadata().ok()?.len(),
        })
    }

    /// Level j in `dir`: the packed file, or else one written by an earlier version (unpacked,
    /// `level-J.bin`, `width` bytes a position) packed into it, its positions checked to be
    /// increasing, and the old file removed.
    pub(super) fn open_level(
        dir: &Path,
        j: usize,
        width: usize,
        disk: &Disk,
    ) -> Result<Option<LevelFile>, Stop> {
        let path = level_path(dir, j);
        if let Some(l) = LevelFile::open(&path, width) {
            return Ok(Some(l));
        }
        let old = dir.join(format!("level-{j}.bin"));
        let size = match std::fs::metadata(&old) {
            Ok(m) if m.len() % width as u64 == 0 => m.len(),
            _ => return Ok(None),
        };
        let f = File::open(&old).map_err(|e| io("cannot read", &old, e))?;
        let mut input = std::io::BufReader::with_capacity(1 << 20, f);
        let (mut left, mut last, mut b) = (size / width as u64, None, [0u8; 8]);
        let l = LevelFile::write(disk, &path, width, &mut || {
            if left == 0 {
                return Ok(None);
            }
            left -= 1;
            input
                .read_exact(&mut b[..width])
                .map_err(|e| io("cannot read", &old, e))?;
            let p = u64::from_le_bytes(b);
            if last.is_some_and(|q| q >= p) {
                return Err(Stop::Disk(format!("{} is not sorted", old.display())));
            }
            last = Some(p);
            Ok(Some(p))
        })?;
        let _ = std::fs::remove_file(&old);
        // The caller charges the level it opens, this one too.
        disk.release(l.bytes);
        Ok(Some(l))
    }

    /// Its positions from the `skip`-th on, at most `take` of them.
    pub(super) fn stream(&self, skip: u64, take: u64) -> Result<Stream<u64>, Stop> {
        Stream::open(&self.path, self.width, skip, take)
    }

    /// Writes sorted, distinct positions as the level at `path` (atomically).
    pub(super) fn write(
        disk: &Disk,
        path: &Path,
        width: usize,
        items: &mut dyn FnMut() -> Result<Option<u64>, Stop>,
    ) -> Result<LevelFile, Stop> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut w = Writer::new(disk, dir, "level", width)?;
        while let Some(p) = items()? {
            w.push(p)?;
        }
        let (_, len, bytes) = w.finish(Some(path))?;
        Ok(LevelFile {
            path: path.to_path_buf(),
            len,
            width,
            bytes,
        })
    }
}

/// Items read in order from a packed file.
pub(super) struct Stream<T> {
    path: PathBuf,
    input: std::io::Take<File>,
    buf: Vec<u8>,
    at: usize,
    width: usize,
    /// Items left to give, and items left in the current block.
    left: u64,
    in_block: u64,
    prev: u64,
    _item: std::marker::PhantomData<T>,
}

impl<T: Item> Stream<T> {
    /// The items of the file at `path` from the `skip`-th on, at most `take` of them.
    pub(super) fn open(path: &Path, width: usize, skip: u64, take: u64) -> Result<Stream<T>, Stop> {
        let mut f = File::open(path).map_err(|e| io("cannot read", path, e))?;
        let bad = || Stop::Disk(format!("{} is no complete level file", path.display()));
        let c = Contents::read(&mut f).ok_or_else(bad)?;
        let skip = skip.min(c.len);
        let block = skip / BLOCK_ITEMS;
        let from = c.index.get(block as usize).copied().unwrap_or(c.end);
        f.seek(SeekFrom::Start(from))
            .map_err(|e| io("cannot read", path, e))?;
        let mut s = Stream {
            path: path.to_path_buf(),
            input: f.take(c.end - from),
            buf: Vec::new(),
            at: 0,
            width,
            left: c.len - block * BLOCK_ITEMS,
            in_block: 0,
            prev: 0,
            _item: std::marker::PhantomData,
        };
        for _ in 0..skip % BLOCK_ITEMS {
            s.next()?;
        }
        s.left = take.min(c.len - skip);
        Ok(s)
    }

    /// Keeps at least 32 unread bytes in the buffer while the file has them.
    fn fill(&mut self) -> Result<(), Stop> {
        if self.buf.len() - self.at >= 32 {
            return Ok(());
        }
        self.buf.drain(..self.at);
        self.at = 0;
        // Up to a megabyte more, appended without zero-filling the buffer first.
        (&mut self.input)
            .take(1 << 20)
            .read_to_end(&mut self.buf)
            .map_err(|e| io("cannot read", &self.path, e))?;
        Ok(())
    }

    pub(super) fn next(&mut self) -> Result<Option<T>, Stop> {
        if self.left == 0 {
            return Ok(None);
        }
        self.fill()?;
        if self.in_block == 0 {
            self.in_block = BLOCK_ITEMS;
            self.prev = 0;
        }
        if self.at >= self.buf.len() {
            return Err(Stop::Disk(format!("{} ends early", self.path.display())));
        }
        let (x, n) = T::decode(&self.buf[self.at..], self.prev, self.width);
        self.at += n;
        self.prev = x.key();
        self.in_block -= 1;
        self.left -= 1;
        Ok(Some(x))
    }

    /// `f` on each block of up to `n` items, in order, to the end of the stream.
    pub(super) fn each_block(
        &mut self,
        n: usize,
        mut f: impl FnMut(&[T]) -> Result<(), Stop>,
    ) -> Result<(), Stop> {
        loop {
            let block = self.block(n)?;
            if block.is_empty() {
                return Ok(());
            }
            f(&block)?;
        }
    }

    /// Up to `n` items.
    pub(super) fn block(&mut self, n: usize) -> Result<Vec<T>, Stop> {
        let mut out = Vec::with_capacity(n.min(self.left as usize));
        while out.len() < n {
            match self.next()? {
                Some(x) => out.push(x),
                None => break,
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("solarmy-packed-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Positions written and read back whole, from any item, and as (key, position) pairs.
    #[test]
    fn round_trip_from_any_item() {
        let dir = scratch("trip");
        let disk = Disk::new(dir.clone(), u64::MAX);
        let xs: Vec<u64> = (0..3 * BLOCK_ITEMS + 17)
            .map(|i| i * i * 977 + (i % 3))
            .collect();
        let mut it = xs.iter().copied();
        let path = level_path(&dir, 4);
        let l = LevelFile::write(&disk, &path, 6, &mut || Ok(it.next())).unwrap();
        assert!(
            l.bytes < 6 * l.len,
            "packed: {} bytes for {} positions",
            l.bytes,
            l.len
        );
        let again = LevelFile::open(&path, 6).unwrap();
        assert_eq!((again.len, again.bytes), (xs.len() as u64, l.bytes));
        for skip in [
            0,
            1,
            BLOCK_ITEMS - 1,
            BLOCK_ITEMS,
            2 * BLOCK_ITEMS + 5,
            xs.len() as u64,
        ] {
            let got = again.stream(skip, 40).unwrap().block(100).unwrap();
            let want: Vec<u64> = xs.iter().copied().skip(skip as usize).take(40).collect();
            assert_eq!(got, want, "from item {skip}");
        }
        let pairs: Vec<(u64, u64)> = xs.iter().map(|&x| (x, x ^ 0xABCDEF)).collect();
        let mut w = Writer::new(&disk, &dir, "run", 6).unwrap();
        for &p in &pairs {
            w.push(p).unwrap();
        }
        let (run, len, _) = w.finish(None).unwrap();
        let got = Stream::<(u64, u64)>::open(&run, 6, 0, len)
            .unwrap()
            .block(usize::MAX)
            .unwrap();
        assert_eq!(got, pairs);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A level of the older unpacked format is packed when opened, and the old file removed;
    /// one not sorted is refused.
    #[test]
    fn an_unpacked_level_is_packed() {
        let dir = scratch("old");
        let disk = Disk::new(dir.clone(), u64::MAX);
        let xs: Vec<u64> = (0..BLOCK_ITEMS + 9).map(|i| 3 * i + 1).collect();
        let bytes: Vec<u8> = xs
            .iter()
            .flat_map(|x| x.to_le_bytes()[..5].to_vec())
            .collect();
        std::fs::write(dir.join("level-7.bin"), &bytes).unwrap();
        let l = LevelFile::open_level(&dir, 7, 5, &disk).unwrap().unwrap();
        assert_eq!(l.stream(0, l.len).unwrap().block(usize::MAX).unwrap(), xs);
        assert!(!dir.join("level-7.bin").exists());
        let mut bad = bytes.clone();
        bad.extend_from_slice(&[0u8; 5]);
        std::fs::write(dir.join("level-8.bin"), &bad).unwrap();
        assert!(
            matches!(LevelFile::open_level(&dir, 8, 5, &disk), Err(Stop::Disk(m)) if m.contains("not sorted"))
        );
        assert!(LevelFile::open(&level_path(&dir, 8), 5).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file cut short, or of the older unpacked format, is no level.
    #[test]
    fn a_truncated_file_is_no_level() {
        let dir = scratch("cut");
        let disk = Disk::new(dir.clone(), u64::MAX);
        let mut it = 0..1000u64;
        let path = level_path(&dir, 1);
        LevelFile::write(&disk, &path, 5, &mut || Ok(it.next())).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(LevelFile::open(&path, 5).is_none());
        std::fs::write(&path, vec![0u8; 5000]).unwrap();
        assert!(LevelFile::open(&path, 5).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
