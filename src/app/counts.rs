//! What the world holds right now, for the status bar: bodies (awake), contacts and
//! islands — the numbers a frame time depends on, shown next to it.
//!
//! An island is what the sleep code means by one (`dynamics/sleep.rs`): dynamic bodies
//! joined by contacts, static bodies joining nothing, a lone dynamic body an island of
//! its own. The world keeps its islands only as scratch, so they are counted here again
//! with union–find over the last step's contacts; sleeping bodies have no contacts (they
//! are not tested) and are joined through the island they fell asleep with.

use crate::dynamics::World;

/// Counts of one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorldCounts {
    /// Bodies of every kind.
    pub bodies: usize,
    /// Dynamic bodies that are awake.
    pub awake: usize,
    /// Contact manifolds (intersecting pairs) of the last step.
    pub contacts: usize,
    /// Islands of dynamic bodies.
    pub islands: usize,
}

impl WorldCounts {
    /// Counts `world` as it is now (O(bodies + contacts)).
    pub fn of(world: &World) -> WorldCounts {
        let bodies = world.bodies();
        let slots = bodies.iter().map(|(h, _)| h.index as usize + 1).max().unwrap_or(0);
        let mut parent: Vec<usize> = (0..slots).collect();
        let mut awake = 0;
        for (h, b) in bodies.iter() {
            if !b.is_dynamic() {
                continue;
            }
            if b.is_sleeping() {
                // The island id is the smallest slot of the island: join it.
                if let Some(island) = b.sleep_island().map(|i| i as usize).filter(|&i| i < slots) {
                    union(&mut parent, h.index as usize, island);
                }
            } else {
                awake += 1;
            }
        }
        let dynamic = |h| world.body(h).is_some_and(|b| b.is_dynamic());
        for m in world.contacts() {
            if dynamic(m.body_a) && dynamic(m.body_b) {
                union(&mut parent, m.body_a.index as usize, m.body_b.index as usize);
            }
        }
        let mut roots: Vec<usize> = bodies
            .iter()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(h, _)| find(&mut parent, h.index as usize))
            .collect();
        roots.sort_unstable();
        roots.dedup();
        WorldCounts {
            bodies: bodies.len(),
            awake,
            contacts: world.contacts().len(),
            islands: roots.len(),
        }
    }

    /// "58 bodies (12 awake) · 40 contacts · 9 islands".
    pub fn text(&self) -> String {
        format!(
            "{} bod{} ({} awake) · {} contact{} · {} island{}",
            self.bodies,
            if self.bodies == 1 { "y" } else { "ies" },
            self.awake,
            self.contacts,
            if self.contacts == 1 { "" } else { "s" },
            self.islands,
            if self.islands == 1 { "" } else { "s" },
        )
    }
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb)] = ra.min(rb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BodyDef, BodyKind, ShapeDef};

    fn ball(x: f32, y: f32) -> BodyDef {
        let mut def = BodyDef::new(ShapeDef::Circle { radius: 0.5 });
        def.position = crate::math::Vec2::new(x, y).into();
        def
    }

    /// Two balls resting on each other on a floor are one island (the floor joins
    /// nothing), a ball far away is another, awake or asleep.
    ///
    /// ```text
    ///    o
    ///    o        o
    ///  ==============
    /// ```
    #[test]
    fn a_stack_is_one_island_and_a_lone_ball_another() {
        let mut world = World::default();
        let mut floor = BodyDef::new(ShapeDef::Polygon {
            points: [(-10.0, -0.5), (10.0, -0.5), (10.0, 0.0), (-10.0, 0.0)]
                .map(|(x, y)| crate::math::Vec2::new(x, y).into())
                .to_vec(),
        });
        floor.kind = BodyKind::Static;
        for def in [floor, ball(0.0, 0.5), ball(0.0, 1.5), ball(6.0, 0.5)] {
            world.insert(def.to_desc().unwrap());
        }
        // Fewer steps than the half second a body must rest to fall asleep: the balls
        // start exactly touching, and rest from the first steps.
        for _ in 0..10 {
            world.step(1.0 / 60.0);
        }
        let awake = WorldCounts::of(&world);
        assert_eq!((awake.bodies, awake.awake, awake.islands), (4, 3, 2), "{awake:?}");
        assert!(awake.contacts >= 3, "{awake:?}");
        for _ in 0..600 {
            world.step(1.0 / 60.0);
        }
        let asleep = WorldCounts::of(&world);
        assert_eq!((asleep.awake, asleep.islands), (0, 2), "{asleep:?}");
        assert_eq!(
            asleep.text(),
            format!("4 bodies (0 awake) · {} contacts · 2 islands", asleep.contacts)
        );
    }

    #[test]
    fn an_empty_world_counts_nothing() {
        assert_eq!(WorldCounts::of(&World::default()), WorldCounts::default());
    }
}
