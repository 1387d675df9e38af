//! The checker's level files ([`Writer`], [`Reader`]) and its sort out of core
//! ([`Sorter`]): increasing positions stored as varint gaps, closed by a trailer (the count
//! and a magic word) so that a file with its trailer is complete, and a sort in runs of at
//! most a memory budget, spilled to disk and merged.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Closes every complete file: "SOLCHK01", little-endian.
const MAGIC: u64 = u64::from_le_bytes(*b"SOLCHK01");

/// Sorts positions in runs of at most its budget, spilled to disk, and merges them.
pub(super) struct Sorter<'a> {
    dir: &'a Path,
    /// Names its runs apart from other sorters'.
    tag: usize,
    cap: usize,
    buf: Vec<u64>,
    runs: Vec<PathBuf>,
}

impl Sorter<'_> {
    pub(super) fn new(dir: &Path, tag: usize, memory: usize) -> Sorter<'_> {
        Sorter {
            dir,
            tag,
            cap: (memory / 8).max(1 << 10),
            buf: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// More positions; a full buffer is first sorted without repeats in place, and spilled
    /// as a run only when that leaves it more than half full.
    pub(super) fn extend(&mut self, more: Vec<u64>) -> io::Result<()> {
        if self.buf.len() + more.len() > self.cap && !self.buf.is_empty() {
            self.compact();
            if 2 * self.buf.len() > self.cap {
                self.spill()?;
            }
        }
        if self.buf.capacity() == 0 {
            self.buf.reserve(self.cap.max(more.len()));
        }
        self.buf.extend(more);
        Ok(())
    }

    /// The buffer sorted, without repeats.
    fn compact(&mut self) {
        self.buf.sort_unstable();
        self.buf.dedup();
    }

    /// The buffer, compacted already, as a run on disk.
    fn spill(&mut self) -> io::Result<()> {
        let path = self.dir.join(format!(
            "run-{}-{}-{}.tmp",
            std::process::id(),
            self.tag,
            self.runs.len()
        ));
        let mut w = Writer::create(&path)?;
        for &p in &self.buf {
            w.push(p)?;
        }
        w.close(false)?;
        self.runs.push(path);
        self.buf.clear();
        Ok(())
    }

    /// Every position pushed, increasing, without repeats, into `sink`; the runs removed.
    pub(super) fn finish(mut self, sink: &mut dyn FnMut(u64) -> io::Result<()>) -> io::Result<()> {
        self.compact();
        if self.runs.is_empty() {
            return self.buf.iter().try_for_each(|&p| sink(p));
        }
        if !self.buf.is_empty() {
            self.spill()?;
        }
        let mut readers: Vec<Reader> = self
            .runs
            .iter()
            .map(|p| Reader::open(p))
            .collect::<io::Result<_>>()?;
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(p) = r.next()? {
                heap.push(Reverse((p, i)));
            }
        }
        let mut last = None;
        while let Some(Reverse((p, i))) = heap.pop() {
            if last != Some(p) {
                sink(p)?;
                last = Some(p);
            }
            if let Some(q) = readers[i].next()? {
                heap.push(Reverse((q, i)));
            }
        }
        self.runs.iter().try_for_each(fs::remove_file)
    }
}

/// Writes increasing positions as varint gaps, then the trailer; renamed into place when done.
pub(super) struct Writer {
    out: BufWriter<File>,
    tmp: PathBuf,
    path: PathBuf,
    last: u64,
    count: u64,
}

impl Writer {
    pub(super) fn create(path: &Path) -> io::Result<Writer> {
        let tmp = path.with_extension("tmp");
        Ok(Writer {
            out: BufWriter::with_capacity(1 << 20, File::create(&tmp)?),
            tmp,
            path: path.to_path_buf(),
            last: 0,
            count: 0,
        })
    }

    pub(super) fn push(&mut self, p: u64) -> io::Result<()> {
        debug_assert!(self.count == 0 || p > self.last);
        let mut gap = p - self.last;
        let mut bytes = [0u8; 10];
        let mut n = 0;
        loop {
            let low = (gap & 127) as u8;
            gap >>= 7;
            bytes[n] = low | if gap > 0 { 128 } else { 0 };
            n += 1;
            if gap == 0 {
                break;
            }
        }
        self.out.write_all(&bytes[..n])?;
        self.last = p;
        self.count += 1;
        Ok(())
    }

    /// The trailer written, the file renamed (and synced first when large: the rename then
    /// survives a crash of the machine, where a small part is cheaper to build again than
    /// to sync); its count.
    pub(super) fn finish(self) -> io::Result<u64> {
        let large = self.count > 1 << 24;
        self.close(large)
    }

    /// [`Writer::finish`], synced only when `durable` (a level's part outlives the run, a
    /// sorting run does not).
    fn close(mut self, durable: bool) -> io::Result<u64> {
        self.out.write_all(&self.count.to_le_bytes())?;
        self.out.write_all(&MAGIC.to_le_bytes())?;
        self.out.flush()?;
        if durable {
            self.out.get_ref().sync_all()?;
        }
        fs::rename(&self.tmp, &self.path)?;
        Ok(self.count)
    }
}

/// The count of a complete part file, None when it is missing or incomplete.
pub(super) fn complete(path: &Path) -> Option<u64> {
    trailer(&mut File::open(path).ok()?).ok()
}

fn trailer(f: &mut File) -> io::Result<u64> {
    let mut t = [0u8; 16];
    f.seek(SeekFrom::End(-16))?;
    f.read_exact(&mut t)?;
    let word = |i: usize| u64::from_le_bytes(t[i..i + 8].try_into().unwrap_or_default());
    match word(8) == MAGIC {
        true => Ok(word(0)),
        false => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a level file without its trailer",
        )),
    }
}

/// Reads a part file written by [`Writer`].
pub(super) struct Reader {
    inp: BufReader<File>,
    left: u64,
    last: u64,
}

impl Reader {
    pub(super) fn open(path: &Path) -> io::Result<Reader> {
        let mut f = File::open(path)?;
        let left = trailer(&mut f)?;
        f.seek(SeekFrom::Start(0))?;
        Ok(Reader {
            inp: BufReader::with_capacity(1 << 20, f),
            left,
            last: 0,
        })
    }

    pub(super) fn next(&mut self) -> io::Result<Option<u64>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.last += self.varint()?;
        Ok(Some(self.last))
    }

    /// Up to `max` positions more.
    pub(super) fn chunk(&mut self, max: usize) -> io::Result<Vec<u64>> {
        let mut out = Vec::with_capacity(max.min(self.left as usize));
        while out.len() < max {
            match self.next()? {
                Some(p) => out.push(p),
                None => break,
            }
        }
        Ok(out)
    }

    fn varint(&mut self) -> io::Result<u64> {
        let (mut v, mut shift) = (0u64, 0u32);
        loop {
            let buf = self.inp.fill_buf()?;
            if buf.is_empty() {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let (mut used, mut done) = (0, false);
            for &b in buf {
                used += 1;
                if shift > 63 {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "a gap over 64 bits",
                    ));
                }
                v |= u64::from(b & 127) << shift;
                shift += 7;
                if b < 128 {
                    done = true;
                    break;
                }
            }
            self.inp.consume(used);
            if done {
                return Ok(v);
            }
        }
    }
}

/// A Bloom filter of a level's positions: `may_hold` is true of every position of the level
/// (no false negatives) and of few others.
pub(super) struct Bloom {
    bits: Vec<u64>,
    /// Bits in the filter (a power of two).
    mask: u64,
}

impl Bloom {
    /// The filter of every part of `level`, about ten bits a position, at most `memory` bytes.
    pub(super) fn of(level: &super::Level, memory: usize) -> io::Result<Bloom> {
        let want = (10 * level.count).max(1 << 12).next_power_of_two();
        // The largest power of two within the budget (rounding up could double it).
        let most = 1u64 << (63 - (8 * memory as u64).max(1 << 12).leading_zeros());
        let size = want.min(most);
        let mut b = Bloom {
            bits: vec![0; (size / 64).max(1) as usize],
            mask: size - 1,
        };
        for path in &level.parts {
            let mut r = Reader::open(path)?;
            while let Some(p) = r.next()? {
                b.slots(p)
                    .for_each(|i| b.bits[(i / 64) as usize] |= 1 << (i % 64));
            }
        }
        Ok(b)
    }

    /// The three bits of p: from two multiplicative hashes (Kirsch and Mitzenmacher).
    fn slots(&self, p: u64) -> impl Iterator<Item = u64> + use<> {
        let h1 = p.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        let h2 = (p ^ (p >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9) | 1;
        let mask = self.mask;
        (0..3u64).map(move |i| h1.wrapping_add(i.wrapping_mul(h2)) & mask)
    }

    pub(super) fn may_hold(&self, p: u64) -> bool {
        self.slots(p)
            .all(|i| self.bits[(i / 64) as usize] >> (i % 64) & 1 == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_reads_back_what_was_written_and_an_unfinished_one_is_not_complete() {
        let dir = std::env::temp_dir().join(format!("solarmy-outcore-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.lvl");
        let xs = [0u64, 1, 127, 128, 300, 1 << 40, u64::MAX];
        let mut w = Writer::create(&path).unwrap();
        xs.iter().for_each(|&x| w.push(x).unwrap());
        assert_eq!(complete(&dir.join("a.tmp")), None);
        assert_eq!(w.finish().unwrap(), xs.len() as u64);
        assert_eq!(complete(&path), Some(xs.len() as u64));
        let mut r = Reader::open(&path).unwrap();
        assert_eq!(r.chunk(100).unwrap(), xs);
        let mut s = Sorter::new(&dir, 0, 8 * 1024);
        for i in 0..10u64 {
            s.extend((0..3000u64).map(|x| (x * 7919 + i) % 5000).collect())
                .unwrap();
        }
        assert!(s.runs.len() > 1);
        let mut out = Vec::new();
        s.finish(&mut |p| {
            out.push(p);
            Ok(())
        })
        .unwrap();
        assert_eq!(out, (0..5000).collect::<Vec<u64>>());
        // A Bloom filter holds every position of its level, and few others.
        let level = super::super::Level {
            parts: vec![path.clone()],
            count: xs.len() as u64,
        };
        let filter = Bloom::of(&level, 1 << 20).unwrap();
        assert!(xs.iter().all(|&x| filter.may_hold(x)));
        let wrong = (1000..101_000u64)
            .filter(|&x| filter.may_hold(x * 7919))
            .count();
        assert!(wrong < 1000, "{wrong} false positives in 100,000");
        fs::remove_dir_all(&dir).unwrap();
    }
}
