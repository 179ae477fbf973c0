//! What the debug layers show: one switch per layer, set from the overlay, the keys or
//! `render --debug a,b,c`.

use crate::bounds::BoundKind;

/// Every debug-drawing toggle.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugFlags {
    /// Separating axes of the selected (or hovered) pair, with both projection intervals.
    pub axes: bool,
    /// Contact points and normals.
    pub contacts: bool,
    /// Minimum translation vectors as arrows.
    pub mtv: bool,
    /// Voronoi regions of the focus pair, when it is a polygon and a circle.
    pub voronoi: bool,
    /// Bounding volumes of every body, of this kind, with their tightness rho.
    pub bounds: Option<BoundKind>,
    /// The convex pieces of each polygon.
    pub pieces: bool,
    /// The broad phase's structure (grid cells, tree boxes, SAP intervals).
    pub broad: bool,
    /// Linear velocity arrows.
    pub velocities: bool,
    /// Centres of mass.
    pub centers: bool,
    /// Dim sleeping bodies.
    pub dim_sleeping: bool,
    /// The Minkowski difference of the focus pair, in an inset of its own.
    pub minkowski: bool,
}

impl Default for DebugFlags {
    fn default() -> Self {
        DebugFlags {
            axes: false,
            contacts: true,
            mtv: false,
            voronoi: false,
            bounds: None,
            pieces: false,
            broad: false,
            velocities: false,
            centers: false,
            dim_sleeping: true,
            minkowski: false,
        }
    }
}

/// The names `render --debug` accepts, in help order.
pub const DEBUG_LAYER_NAMES: [&str; 14] = [
    "axes",
    "contacts",
    "mtv",
    "voronoi",
    "bounds",
    "aabb",
    "circle",
    "obb",
    "kdop",
    "pieces",
    "broad",
    "velocities",
    "centers",
    "minkowski",
];

impl DebugFlags {
    /// All layers off (sleeping bodies still dimmed): the plain picture.
    pub fn none() -> DebugFlags {
        DebugFlags {
            contacts: false,
            ..DebugFlags::default()
        }
    }

    /// Parses a comma-separated list of layer names ("axes,contacts,bounds") onto all
    /// layers off. "bounds" means AABBs; "aabb", "circle", "obb", "kdop" pick a kind.
    pub fn parse_list(list: &str) -> Result<DebugFlags, String> {
        let mut flags = DebugFlags::none();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match name {
                "axes" => flags.axes = true,
                "contacts" => flags.contacts = true,
                "mtv" => flags.mtv = true,
                "voronoi" => flags.voronoi = true,
                "bounds" | "aabb" => flags.bounds = Some(BoundKind::Aabb),
                "circle" => flags.bounds = Some(BoundKind::Circle),
                "obb" => flags.bounds = Some(BoundKind::Obb),
                "kdop" => flags.bounds = Some(BoundKind::Kdop8),
                "pieces" => flags.pieces = true,
                "broad" => flags.broad = true,
                "velocities" => flags.velocities = true,
                "centers" => flags.centers = true,
                "minkowski" => flags.minkowski = true,
                other => {
                    return Err(format!(
                        "unknown debug layer `{other}` (expected one of: {})",
                        DEBUG_LAYER_NAMES.join(", ")
                    ))
                }
            }
        }
        Ok(flags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_list() {
        let f = DebugFlags::parse_list("axes, contacts,obb").unwrap();
        assert!(f.axes && f.contacts && !f.voronoi);
        assert_eq!(f.bounds, Some(BoundKind::Obb));
    }

    #[test]
    fn every_listed_name_parses() {
        for name in DEBUG_LAYER_NAMES {
            assert!(DebugFlags::parse_list(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn an_unknown_name_is_an_error_listing_the_known_ones() {
        let e = DebugFlags::parse_list("axes,vornoi").unwrap_err();
        assert!(e.contains("vornoi") && e.contains("voronoi"), "{e}");
    }
}
