//! The events of the combine step's best-first search (see `combine.rs`'s module docs):
//! what each one does, and the one integer rank the search's heap orders them by.
//! Split from `combine.rs`.

use std::cmp::Ordering;

/// What an event does (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum What {
    /// Measure a lower bound on the pair's distance (SAT's largest gap) before opening
    /// it: the piece trees' boxes are loose around long thin pieces.
    Bound {
        piece_a: u32,
        piece_b: u32,
    },
    Open {
        piece_a: u32,
        piece_b: u32,
    },
    /// Queue the edges of an open difference that were left out for lying beyond the
    /// reach (`search.rs`, `queue_edges`), keyed by the least lower bound on their
    /// distances.
    Expand(u32),
    /// Queue the crossings of the active elements in sub-band k of the ring the reach
    /// last grew by (`widen.rs`, `pair_band`), keyed by its inner radius.
    Band(u32),
    Activate(u32),
    Test(u32),
}

/// An event of the best-first search: smallest key first, then opening before activating
/// before testing (so that at a given distance everything that could hold a candidate is
/// built before the candidate is tested), then by index, so the order is deterministic.
///
/// Stored as one 128-bit rank, (key, kind, first index, second index) from the most
/// significant bits down, the key's bits mapped so that unsigned order is
/// `f32::total_cmp`'s: the heap compares two integers instead of a float and an enum
/// (the heap was an eighth of the combine step's instructions). The order is the
/// same as comparing (key, what) field by field.
#[derive(Clone, Copy, Debug)]
pub(super) struct Event {
    rank: u128,
}

impl Event {
    pub(super) fn new(key: f32, what: What) -> Event {
        let bits = key.to_bits();
        let ordered = if bits >> 31 == 1 { !bits } else { bits | 0x8000_0000 };
        let (kind, first, second) = match what {
            What::Bound { piece_a, piece_b } => (0u128, piece_a, piece_b),
            What::Open { piece_a, piece_b } => (1, piece_a, piece_b),
            What::Expand(d) => (2, d, 0),
            What::Band(k) => (3, k, 0),
            What::Activate(e) => (4, e, 0),
            What::Test(c) => (5, c, 0),
        };
        Event {
            rank: (ordered as u128) << 96 | kind << 64 | (first as u128) << 32 | second as u128,
        }
    }

    pub(super) fn key(&self) -> f32 {
        let ordered = (self.rank >> 96) as u32;
        f32::from_bits(if ordered >> 31 == 1 {
            ordered & 0x7FFF_FFFF
        } else {
            !ordered
        })
    }

    pub(super) fn what(&self) -> What {
        let (first, second) = ((self.rank >> 32) as u32, self.rank as u32);
        match (self.rank >> 64) as u32 {
            0 => What::Bound {
                piece_a: first,
                piece_b: second,
            },
            1 => What::Open {
                piece_a: first,
                piece_b: second,
            },
            2 => What::Expand(first),
            3 => What::Band(first),
            4 => What::Activate(first),
            _ => What::Test(first),
        }
    }
}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops the greatest: reverse for the least key first.
        other.rank.cmp(&self.rank)
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.rank == other.rank
    }
}

impl Eq for Event {}
