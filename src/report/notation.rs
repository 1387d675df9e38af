//! Bell's standard notation for square peg-solitaire boards: columns a, b, c, … from left to
//! right and rows 1, 2, 3, … from top to bottom, so that the English board's centre is d4
//! and a jump is written "from-to" ("d2-d4"), a move of several jumps by one man as its
//! holes in order ("e5-e3-c3-a3"). Bell calls it "Standard 7x7 Notation" on boards that fit a
//! 7 × 7 square (the English and French boards) and "Standard 9x9 Notation" on those that fit
//! 9 × 9 (the 41-hole diamond, Wiegleb's board). Here the letters and numbers start at the
//! board's own leftmost column and top row, which on those boards is Bell's square exactly.
//!
//! Top is the smallest y: every picture solarmy draws, the viewer pages included, has y
//! growing downward, so row 1 is the top row of the pictures too (on the English board d1 is
//! (0, −3) and d7 is (0, 3)).

use crate::play::peg::PegBoard;
use crate::problem::geometry::Cell;
use crate::proof::verify::Step;

/// The widest and tallest board that gets letters and numbers (Bell's 9x9 notation).
const MAX_SIDE: i32 = 9;

/// The notation of one board: where column a and row 1 are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notation {
    /// The x of column a and the y of row 1.
    origin: (i32, i32),
    /// Columns and rows.
    size: (i32, i32),
}

impl Notation {
    /// The notation of a board on the square lattice of at most 9 × 9 holes; None for any
    /// other board (the triangle, or one too large for letters a–i).
    pub fn of(board: &PegBoard) -> Option<Notation> {
        if board.embedding != "square" || board.cells.is_empty() {
            return None;
        }
        let xs = board.cells.iter().map(|c| c.0);
        let ys = board.cells.iter().map(|c| c.1);
        let (x0, x1) = (xs.clone().min()?, xs.max()?);
        let (y0, y1) = (ys.clone().min()?, ys.max()?);
        let size = (x1 - x0 + 1, y1 - y0 + 1);
        (size.0 <= MAX_SIDE && size.1 <= MAX_SIDE).then_some(Notation {
            origin: (x0, y0),
            size,
        })
    }

    /// The column letter of x (a for the leftmost column).
    pub fn column(&self, x: i32) -> char {
        char::from(b'a' + (x - self.origin.0).clamp(0, 25) as u8)
    }

    /// The row number of y (1 for the top row).
    pub fn row(&self, y: i32) -> i32 {
        y - self.origin.1 + 1
    }

    /// The hole's name, "d4".
    pub fn hole(&self, c: Cell) -> String {
        format!("{}{}", self.column(c.0), self.row(c.1))
    }

    /// One move (a run of jumps by one man) as its holes in order: "e5-e3-c3".
    pub fn move_name(&self, jumps: &[Step]) -> String {
        let Some(first) = jumps.first() else {
            return String::new();
        };
        let mut s = self.hole(first.from);
        for j in jumps {
            s.push('-');
            s.push_str(&self.hole(j.to));
        }
        s
    }

    /// What the notation is called: Bell's 7x7 or 9x9 notation, or its extension to this
    /// board's box.
    pub fn describe(&self) -> String {
        let last = |n: i32| char::from(b'a' + (n - 1) as u8);
        let (w, h) = self.size;
        let name = match (w, h) {
            (7, 7) => "Bell's standard 7x7 notation".to_string(),
            (9, 9) => "Bell's standard 9x9 notation".to_string(),
            _ => format!("Bell's notation on this board's {w} x {h} box"),
        };
        format!(
            "{name}: columns a–{} left to right, rows 1–{h} top to bottom",
            last(w)
        )
    }

    /// The x of column a and the y of row 1.
    pub fn origin(&self) -> (i32, i32) {
        self.origin
    }

    /// The columns and rows (width, height).
    pub fn size(&self) -> (i32, i32) {
        self.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(name: &str) -> PegBoard {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(format!("{name}.toml"));
        PegBoard::read(&path).unwrap()
    }

    #[test]
    fn notation_names_the_english_board_as_bell_does() {
        let n = Notation::of(&board("english")).unwrap();
        // Bell's corners of the standard board: c1, e1, a3, g3, a5, g5, c7 and e7.
        let corners = [
            (-1, -3),
            (1, -3),
            (-3, -1),
            (3, -1),
            (-3, 1),
            (3, 1),
            (-1, 3),
            (1, 3),
        ];
        let named: Vec<String> = corners
            .iter()
            .map(|&(x, y)| n.hole(Cell::xy(x, y)))
            .collect();
        assert_eq!(named, ["c1", "e1", "a3", "g3", "a5", "g5", "c7", "e7"]);
        assert_eq!(n.hole(Cell::ORIGIN), "d4");
        let s = |a: (i32, i32), b: (i32, i32), c: (i32, i32)| Step {
            from: Cell::xy(a.0, a.1),
            over: Cell::xy(b.0, b.1),
            to: Cell::xy(c.0, c.1),
        };
        // Bell's 3-sweep "e5-e3, e3-c3, c3-a3".
        let sweep = [
            s((1, 1), (1, 0), (1, -1)),
            s((1, -1), (0, -1), (-1, -1)),
            s((-1, -1), (-2, -1), (-3, -1)),
        ];
        assert_eq!(n.move_name(&sweep), "e5-e3-c3-a3");
        assert!(n.describe().starts_with("Bell's standard 7x7 notation"));
    }

    #[test]
    fn notation_covers_the_square_boards_up_to_9x9_only() {
        let wiegleb = Notation::of(&board("wiegleb")).unwrap();
        assert_eq!(wiegleb.hole(Cell::ORIGIN), "e5");
        assert!(wiegleb.describe().contains("9x9"));
        assert_eq!(Notation::of(&board("diamond32")).unwrap().size(), (7, 8));
        assert!(Notation::of(&board("triangle5")).is_none());
    }
}
