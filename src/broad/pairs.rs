//! What every broad phase takes and gives: proxies in, sorted unique id pairs out.

use crate::bounds::Aabb;

/// One body as the broad phase sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proxy {
    /// The caller's label for the body (the world passes body indices); pairs are
    /// reported with these ids.
    pub id: u32,
    /// The body's world-frame box (metres).
    pub aabb: Aabb,
    /// Static bodies never pair with each other (neither moves, so neither can hit the
    /// other, and a solver has nothing to do with such a contact).
    pub is_static: bool,
}

impl Proxy {
    /// A proxy from its parts.
    pub fn new(id: u32, aabb: Aabb, is_static: bool) -> Self {
        Proxy { id, aabb, is_static }
    }
}

/// True when a box can take part: no NaN and `min <= max` on both axes (infinite
/// coordinates are allowed). Every algorithm skips other boxes, so all four agree on
/// garbage input instead of each answering differently.
#[inline]
pub fn is_usable(aabb: &Aabb) -> bool {
    // Written so that a NaN fails every comparison and makes the box unusable.
    aabb.min.x <= aabb.max.x && aabb.min.y <= aabb.max.y
}

/// True when the proxies at these two positions form a candidate pair: not both static,
/// boxes overlap (touching counts). Both are assumed usable.
#[inline]
pub(crate) fn is_candidate(a: &Proxy, b: &Proxy) -> bool {
    !(a.is_static && b.is_static) && a.aabb.overlaps(&b.aabb)
}

/// Appends the pair of ids in `(low, high)` order; a proxy never pairs with itself (a
/// caller that repeats an id gets no `(id, id)` pair).
#[inline]
pub(crate) fn push_pair(out: &mut Vec<(u32, u32)>, id_a: u32, id_b: u32) {
    if id_a < id_b {
        out.push((id_a, id_b));
    } else if id_b < id_a {
        out.push((id_b, id_a));
    }
}

/// Puts the pairs in the order every algorithm promises: sorted, each once. Sorting here
/// is what makes four very different traversals comparable (and the world's contact
/// order, hence the solver's result, independent of the broad phase chosen).
pub(crate) fn finish_pairs(out: &mut Vec<(u32, u32)>) {
    out.sort_unstable();
    out.dedup();
}
