//! The set that owns a world's bodies behind generational handles (see the parent
//! module's docs).

use super::*;

/// One slot of a [`BodySet`].
#[derive(Clone, Debug)]
struct Slot {
    generation: u32,
    body: Option<Body>,
}

/// The bodies of a world, behind generational handles. Iteration is in slot order,
/// which is what makes stepping deterministic.
#[derive(Clone, Debug, Default)]
pub struct BodySet {
    slots: Vec<Slot>,
    /// Free slot indices; reused last-freed first.
    free: Vec<u32>,
    len: usize,
}

impl BodySet {
    /// An empty set.
    pub fn new() -> BodySet {
        BodySet::default()
    }

    /// Adds a body, reusing a free slot when there is one (with its generation bumped).
    pub fn insert(&mut self, body: Body) -> BodyHandle {
        self.len += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.generation = slot.generation.wrapping_add(1);
            slot.body = Some(body);
            BodyHandle {
                index,
                generation: slot.generation,
            }
        } else {
            let index = self.slots.len() as u32;
            self.slots.push(Slot {
                generation: 0,
                body: Some(body),
            });
            BodyHandle { index, generation: 0 }
        }
    }

    /// Removes and returns the body; `None` for a stale or unknown handle.
    pub fn remove(&mut self, handle: BodyHandle) -> Option<Body> {
        let slot = self.slots.get_mut(handle.index as usize)?;
        if slot.generation != handle.generation {
            return None;
        }
        let body = slot.body.take()?;
        self.free.push(handle.index);
        self.len -= 1;
        Some(body)
    }

    /// The body behind `handle`, if it still exists.
    pub fn get(&self, handle: BodyHandle) -> Option<&Body> {
        let slot = self.slots.get(handle.index as usize)?;
        if slot.generation != handle.generation {
            return None;
        }
        slot.body.as_ref()
    }

    /// The body behind `handle`, mutably, if it still exists.
    pub fn get_mut(&mut self, handle: BodyHandle) -> Option<&mut Body> {
        let slot = self.slots.get_mut(handle.index as usize)?;
        if slot.generation != handle.generation {
            return None;
        }
        slot.body.as_mut()
    }

    /// True when `handle` names a live body.
    pub fn contains(&self, handle: BodyHandle) -> bool {
        self.get(handle).is_some()
    }

    /// Number of live bodies.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Live bodies with their handles, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (BodyHandle, &Body)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.body.as_ref().map(|b| {
                (
                    BodyHandle {
                        index: i as u32,
                        generation: s.generation,
                    },
                    b,
                )
            })
        })
    }

    /// Handles of the live bodies, in slot order.
    pub fn handles(&self) -> Vec<BodyHandle> {
        self.iter().map(|(h, _)| h).collect()
    }

    /// Number of slots (live or free): the size of per-slot scratch arrays.
    pub(crate) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// The body in slot `index`, if live.
    #[inline]
    pub(crate) fn slot(&self, index: usize) -> Option<&Body> {
        self.slots.get(index).and_then(|s| s.body.as_ref())
    }

    /// The body in slot `index`, mutably, if live.
    #[inline]
    pub(crate) fn slot_mut(&mut self, index: usize) -> Option<&mut Body> {
        self.slots.get_mut(index).and_then(|s| s.body.as_mut())
    }

    /// The live body in slot `index` with its handle: one look-up for both.
    #[inline]
    pub(crate) fn slot_with_handle(&self, index: usize) -> Option<(BodyHandle, &Body)> {
        let s = self.slots.get(index)?;
        let handle = BodyHandle {
            index: index as u32,
            generation: s.generation,
        };
        s.body.as_ref().map(|body| (handle, body))
    }

    /// The handle of the live body in slot `index`.
    pub(crate) fn handle_of_slot(&self, index: usize) -> Option<BodyHandle> {
        let s = self.slots.get(index)?;
        s.body.as_ref().map(|_| BodyHandle {
            index: index as u32,
            generation: s.generation,
        })
    }

    /// A set with each body in the slot and generation it had (`(slot, generation,
    /// body)`) and the free slots as `(slot, generation)` in the order they were freed:
    /// what a saved run restores, so handles and the reuse of slots continue as they
    /// would have. A slot named by neither stays free at generation 0.
    pub(crate) fn restored(bodies: Vec<(u32, u32, Body)>, free: &[(u32, u32)]) -> BodySet {
        let slot_count = bodies
            .iter()
            .map(|b| b.0)
            .chain(free.iter().map(|f| f.0))
            .max()
            .map_or(0, |m| m as usize + 1);
        let mut set = BodySet {
            slots: vec![
                Slot {
                    generation: 0,
                    body: None
                };
                slot_count
            ],
            free: Vec::with_capacity(free.len()),
            len: bodies.len(),
        };
        for (slot, generation, body) in bodies {
            set.slots[slot as usize] = Slot {
                generation,
                body: Some(body),
            };
        }
        for &(slot, generation) in free {
            set.slots[slot as usize].generation = generation;
            set.free.push(slot);
        }
        set
    }

    /// The slots left free, with their generations, in the order they were freed.
    pub(crate) fn free_slots(&self) -> Vec<(u32, u32)> {
        self.free
            .iter()
            .map(|&k| (k, self.slots[k as usize].generation))
            .collect()
    }

    /// Live bodies mutably, in slot order.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Body> + '_ {
        self.slots.iter_mut().filter_map(|s| s.body.as_mut())
    }
}
