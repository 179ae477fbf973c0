//! The two charts, drawn with plotters' SVG backend (no system library, no font files:
//! the SVG names the font and the viewer draws it).
//!
//! - Fig. 3 in the paper's style: one group of bars per shape family, one bar per
//!   method, the mean time per pair. Log scale: the methods differ by orders of
//!   magnitude at 256 vertices.
//! - The tree curve: time against vertex count, log–log, one line per method with and
//!   without the edge tree.

use super::measure::Method;
use collision_lab::geometry::families::Family;
use plotters::prelude::*;

/// Colours of the methods, in `Method::ALL` order (colour-blind-safe Okabe–Ito set).
const COLOURS: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(86, 180, 233),
    RGBColor(230, 159, 0),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
];

fn colour_of(method: Method) -> RGBColor {
    let i = Method::ALL.iter().position(|&m| m == method).unwrap_or(0);
    COLOURS[i % COLOURS.len()]
}

/// Fig. 3: grouped bars of mean time (ns) per family and method.
pub fn fig3(
    means: &[(Family, Method, f64)],
    families: &[Family],
    methods: &[Method],
    title: &str,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 540)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        // The legend gets a strip of its own under the chart: drawn inside it, it
        // covered the tallest bars (NonConvexSat's on stars and combs).
        let (plot, key) = root.split_vertically(480);
        let positive = || means.iter().map(|m| m.2).filter(|t| *t > 0.0 && t.is_finite());
        let (lo, hi) = (
            positive().fold(f64::INFINITY, f64::min) / 1000.0,
            positive().fold(0.0, f64::max) / 1000.0,
        );
        let (lo, hi) = if lo.is_finite() && hi > 0.0 {
            (lo / 2.0, hi * 2.0)
        } else {
            (0.1, 10.0)
        };
        let groups = families.len().max(1);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(0f64..groups as f64, (lo..hi).log_scale())
            .map_err(|e| e.to_string())?;
        let names: Vec<&'static str> = families.iter().map(|f| f.name()).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(groups * 2 + 1)
            .x_label_formatter(&|x| {
                let i = x.floor() as usize;
                if (x - x.floor() - 0.5).abs() < 0.01 && i < names.len() {
                    names[i].to_string()
                } else {
                    String::new()
                }
            })
            .y_desc("mean time per pair (µs, log scale)")
            .draw()
            .map_err(|e| e.to_string())?;
        let width = 0.8 / methods.len().max(1) as f64;
        for (k, &m) in methods.iter().enumerate() {
            let colour = colour_of(m);
            let bars: Vec<Rectangle<(f64, f64)>> = families
                .iter()
                .enumerate()
                .filter_map(|(g, &f)| {
                    let t = means.iter().find(|x| x.0 == f && x.1 == m)?.2 / 1000.0;
                    let x0 = g as f64 + 0.1 + k as f64 * width;
                    Some(Rectangle::new(
                        [(x0, lo), (x0 + width * 0.9, t.max(lo))],
                        colour.filled(),
                    ))
                })
                .collect();
            chart.draw_series(bars).map_err(|e| e.to_string())?;
            // The key: three to a row, under the plot, lined up with its area.
            let (x, y) = (76 + (k % 3) as i32 * 290, 10 + (k / 3) as i32 * 24);
            key.draw(&Rectangle::new([(x, y), (x + 14, y + 12)], colour.filled()))
                .map_err(|e| e.to_string())?;
            key.draw(&Text::new(m.name(), (x + 22, y), ("sans-serif", 14)))
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// One line of the tree curve: its label, colour index and (vertices, ns) points.
pub struct Curve {
    pub label: String,
    pub colour: usize,
    pub dashed: bool,
    pub points: Vec<(f64, f64)>,
}

/// The tree curve: log–log lines of time (ns) against vertex count.
pub fn curve(curves: &[Curve], title: &str) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 540)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let all = || curves.iter().flat_map(|c| c.points.iter().copied());
        let (x_lo, x_hi) = (
            all().map(|p| p.0).fold(f64::INFINITY, f64::min),
            all().map(|p| p.0).fold(0.0, f64::max),
        );
        let (y_lo, y_hi) = (
            all().map(|p| p.1 / 1000.0).fold(f64::INFINITY, f64::min),
            all().map(|p| p.1 / 1000.0).fold(0.0, f64::max),
        );
        let (x_lo, x_hi) = if x_lo.is_finite() {
            (x_lo * 0.8, x_hi * 1.25)
        } else {
            (1.0, 10.0)
        };
        let (y_lo, y_hi) = if y_lo.is_finite() && y_lo > 0.0 {
            (y_lo / 2.0, y_hi * 2.0)
        } else {
            (0.1, 10.0)
        };
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d((x_lo..x_hi).log_scale(), (y_lo..y_hi).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("vertices per polygon (log scale)")
            .y_desc("time per query (µs, log scale)")
            .draw()
            .map_err(|e| e.to_string())?;
        for c in curves {
            let colour = COLOURS[c.colour % COLOURS.len()];
            let style = ShapeStyle::from(&colour).stroke_width(if c.dashed { 1 } else { 2 });
            let points: Vec<(f64, f64)> = c.points.iter().map(|&(x, y)| (x, y / 1000.0)).collect();
            chart
                .draw_series(LineSeries::new(points.clone(), style))
                .map_err(|e| e.to_string())?
                .label(c.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
