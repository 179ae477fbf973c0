//! Summaries of the measured outcomes: per-workload rows, the Markdown tables, the CSV
//! and the least-squares fit of the cost model T = Nv·Cv + Np·Cp (Liu et al. 2018).

use super::measure::{Method, PairOutcome};
use collision_lab::geometry::families::Family;
use std::fmt::Write as _;

/// One method on one workload (family, vertex count, distance).
#[derive(Clone, Debug)]
pub struct Row {
    pub family: Family,
    pub vertices: usize,
    /// Signed distance, fraction of the shape size.
    pub distance: f32,
    pub method: Method,
    pub pairs: usize,
    pub pieces: f64,
    pub median_ns: f64,
    pub p95_ns: f64,
    pub mean_ns: f64,
    /// Mean vertex-level operations per query: vertices projected or scanned for support
    /// points, plus bounding-volume tests (tree nodes, piece boxes).
    pub nv: f64,
    /// Mean primitive tests per query: whole-shape tests or piece pairs tested exactly.
    pub np: f64,
    /// Intersect agreement with the exact answer (fraction of pairs).
    pub agree: f64,
    pub false_positives: usize,
    pub false_negatives: usize,
    /// Fraction of both-intersecting pairs whose MTV separates; NaN when none.
    pub separates: f64,
    pub ratio_mean: f64,
    pub ratio_p95: f64,
    /// Pairs the ratios are over.
    pub judged: usize,
}

/// The value at quantile `q` of sorted `v` (nearest rank); NaN for an empty slice.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        f64::NAN
    } else {
        s / n as f64
    }
}

/// Summarises one method's outcomes on a workload.
#[allow(clippy::too_many_arguments)]
pub fn summarise(
    family: Family,
    vertices: usize,
    distance: f32,
    method: Method,
    pieces: f64,
    outcomes: &[PairOutcome],
    exact_intersect: &[bool],
) -> Row {
    let mut ns: Vec<f64> = outcomes.iter().map(|o| o.ns).collect();
    ns.sort_by(f64::total_cmp);
    let mut ratios: Vec<f64> = outcomes.iter().filter_map(|o| o.depth_ratio).collect();
    ratios.sort_by(f64::total_cmp);
    let judged: Vec<bool> = outcomes.iter().filter_map(|o| o.mtv_separates).collect();
    let pairs = outcomes.len();
    let agreeing = outcomes
        .iter()
        .zip(exact_intersect)
        .filter(|(o, &e)| o.intersect == e)
        .count();
    Row {
        family,
        vertices,
        distance,
        method,
        pairs,
        pieces,
        median_ns: quantile(&ns, 0.5),
        p95_ns: quantile(&ns, 0.95),
        mean_ns: mean(ns.iter().copied()),
        nv: mean(
            outcomes
                .iter()
                .map(|o| (o.work.vertices_scanned + o.work.bv_tests) as f64),
        ),
        np: mean(outcomes.iter().map(|o| o.work.primitive_tests as f64)),
        agree: agreeing as f64 / pairs.max(1) as f64,
        false_positives: outcomes
            .iter()
            .zip(exact_intersect)
            .filter(|(o, &e)| o.intersect && !e)
            .count(),
        false_negatives: outcomes
            .iter()
            .zip(exact_intersect)
            .filter(|(o, &e)| !o.intersect && e)
            .count(),
        separates: mean(judged.iter().map(|&s| s as u8 as f64)),
        ratio_mean: mean(ratios.iter().copied()),
        ratio_p95: quantile(&ratios, 0.95),
        judged: judged.len(),
    }
}

/// The CSV: one line per row, a header first.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "family,vertices,distance,method,pairs,pieces,median_ns,p95_ns,mean_ns,nv,np,agree,\
         false_positives,false_negatives,mtv_separates,depth_ratio_mean,depth_ratio_p95,judged\n",
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{:.1},{:.0},{:.0},{:.0},{:.1},{:.2},{:.4},{},{},{:.4},{:.4},{:.4},{}",
            r.family,
            r.vertices,
            r.distance,
            r.method.name(),
            r.pairs,
            r.pieces,
            r.median_ns,
            r.p95_ns,
            r.mean_ns,
            r.nv,
            r.np,
            r.agree,
            r.false_positives,
            r.false_negatives,
            r.separates,
            r.ratio_mean,
            r.ratio_p95,
            r.judged
        );
    }
    out
}

/// Cv and Cp (ns) fitted by least squares over the workloads (mean time, mean Nv, mean
/// Np), no intercept, and R² of the fit. `None` with fewer than two workloads or a
/// singular system (e.g. Np constant and Nv zero).
pub fn fit_cost(rows: &[&Row]) -> Option<(f64, f64, f64)> {
    let (mut svv, mut svp, mut spp, mut svt, mut spt) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for r in rows {
        svv += r.nv * r.nv;
        svp += r.nv * r.np;
        spp += r.np * r.np;
        svt += r.nv * r.mean_ns;
        spt += r.np * r.mean_ns;
    }
    let det = svv * spp - svp * svp;
    if rows.len() < 2 || det.abs() <= 1e-12 * (svv * spp).max(1e-300) {
        return None;
    }
    let cv = (svt * spp - spt * svp) / det;
    let cp = (svv * spt - svp * svt) / det;
    let t_mean = mean(rows.iter().map(|r| r.mean_ns));
    let ss_tot: f64 = rows.iter().map(|r| (r.mean_ns - t_mean).powi(2)).sum();
    let ss_res: f64 = rows.iter().map(|r| (r.mean_ns - r.nv * cv - r.np * cp).powi(2)).sum();
    Some((cv, cp, 1.0 - ss_res / ss_tot.max(1e-300)))
}

fn pct(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        format!("{:.1}%", 100.0 * x)
    }
}

fn num(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        format!("{x:.digits$}")
    }
}

fn micros(ns: f64) -> String {
    if ns >= 100_000.0 {
        format!("{:.0}", ns / 1000.0)
    } else if ns >= 1_000.0 {
        format!("{:.1}", ns / 1000.0)
    } else {
        format!("{:.2}", ns / 1000.0)
    }
}

/// Rows of one method, pooled: pair-weighted mean of a field.
fn pooled(rows: &[&Row], f: impl Fn(&Row) -> f64) -> f64 {
    pair_weighted_mean(rows.iter().map(|r| (f(r), r.pairs)))
}

/// The mean of `(value, pairs)` weighted by the pairs, NaN values left out (NaN when
/// none is left): how rows of workloads are pooled, here and in `redraw.rs`.
pub fn pair_weighted_mean(values: impl Iterator<Item = (f64, usize)>) -> f64 {
    let (s, n) = values
        .filter(|(v, _)| !v.is_nan())
        .fold((0.0, 0.0), |(s, n), (v, pairs)| {
            (s + v * pairs as f64, n + pairs as f64)
        });
    if n == 0.0 {
        f64::NAN
    } else {
        s / n
    }
}

/// Mean time per pair by family and method, and each method's ratio to NonConvexSat
/// (the paper's Fig. 3, one group per family). Returns (family, method, mean ns).
pub fn fig3_means(rows: &[Row], families: &[Family], methods: &[Method]) -> Vec<(Family, Method, f64)> {
    let mut out = Vec::new();
    for &f in families {
        for &m in methods {
            let sel: Vec<&Row> = rows.iter().filter(|r| r.family == f && r.method == m).collect();
            if !sel.is_empty() {
                out.push((f, m, pooled(&sel, |r| r.mean_ns)));
            }
        }
    }
    out
}

/// The Markdown report.
pub fn markdown(rows: &[Row], families: &[Family], methods: &[Method]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "## How each method works\n");
    for m in methods {
        let _ = writeln!(md, "- **{}** — {}", m.name(), m.how());
    }
    // Fig. 3: mean time per family, and the ratios.
    let means = fig3_means(rows, families, methods);
    let _ = writeln!(
        md,
        "\n## Fig. 3: mean time per pair (µs), all vertex counts and distances; ×: time / NonConvexSat's\n"
    );
    let mut header = String::from("| family |");
    let mut rule = String::from("|---|");
    for m in methods {
        let _ = write!(header, " {} µs | × |", m.name());
        rule.push_str("---:|---:|");
    }
    let _ = writeln!(md, "{header}\n{rule}");
    for &f in families {
        let base = means
            .iter()
            .find(|(ff, m, _)| *ff == f && *m == Method::NonConvexSat)
            .map(|x| x.2);
        let mut line = format!("| {f} |");
        for &m in methods {
            match means.iter().find(|(ff, mm, _)| *ff == f && *mm == m) {
                Some(&(_, _, t)) => {
                    let ratio = base.map_or(f64::NAN, |b| t / b);
                    let _ = write!(line, " {} | {} |", micros(t), num(ratio, 2));
                }
                None => line.push_str(" – | – |"),
            }
        }
        let _ = writeln!(md, "{line}");
    }
    // Per family and vertex count.
    let _ = writeln!(
        md,
        "\n## Per family and vertex count (pooled over distances)\n\n\
         Nv: vertex-level operations (vertices projected or scanned + bounding-volume tests); \
         Np: primitive tests (whole-shape SAT = 1, or piece pairs tested); agree: intersect \
         agreement with the exact oracle; FP/FN: false positives/negatives; sep: MTV separates \
         (of pairs both call intersecting); |MTV|/depth: mean and p95 over the same pairs.\n"
    );
    let _ = writeln!(
        md,
        "| family | n | method | pieces | median µs | p95 µs | Nv | Np | agree | FP | FN | sep | |MTV|/depth mean | p95 |\n\
         |---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let mut counts: Vec<usize> = rows.iter().map(|r| r.vertices).collect();
    counts.sort_unstable();
    counts.dedup();
    for &f in families {
        for &n in &counts {
            for &m in methods {
                let sel: Vec<&Row> = rows
                    .iter()
                    .filter(|r| r.family == f && r.vertices == n && r.method == m)
                    .collect();
                if sel.is_empty() {
                    continue;
                }
                let fp: usize = sel.iter().map(|r| r.false_positives).sum();
                let fneg: usize = sel.iter().map(|r| r.false_negatives).sum();
                let judged: Vec<&Row> = sel.iter().copied().filter(|r| r.judged > 0).collect();
                let jw = |g: fn(&Row) -> f64| {
                    let (s, c) = judged.iter().fold((0.0, 0.0), |(s, c), r| {
                        (s + g(r) * r.judged as f64, c + r.judged as f64)
                    });
                    if c == 0.0 {
                        f64::NAN
                    } else {
                        s / c
                    }
                };
                let _ = writeln!(
                    md,
                    "| {f} | {n} | {} | {:.1} | {} | {} | {:.0} | {:.1} | {} | {fp} | {fneg} | {} | {} | {} |",
                    m.name(),
                    sel[0].pieces,
                    micros(pooled(&sel, |r| r.median_ns)),
                    micros(pooled(&sel, |r| r.p95_ns)),
                    pooled(&sel, |r| r.nv),
                    pooled(&sel, |r| r.np),
                    pct(pooled(&sel, |r| r.agree)),
                    pct(jw(|r| r.separates)),
                    num(jw(|r| r.ratio_mean), 3),
                    num(jw(|r| r.ratio_p95), 3),
                );
            }
        }
    }
    // Accuracy by distance.
    let mut distances: Vec<f32> = rows.iter().map(|r| r.distance).collect();
    distances.sort_by(f32::total_cmp);
    distances.dedup();
    let _ = writeln!(
        md,
        "\n## Accuracy by distance (all families and vertex counts)\n\n\
         | method | distance | pairs | agree | FP | FN | sep | |MTV|/depth mean | p95 of workload p95s |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for &m in methods {
        for &d in &distances {
            let sel: Vec<&Row> = rows.iter().filter(|r| r.method == m && r.distance == d).collect();
            let judged: Vec<&Row> = sel.iter().copied().filter(|r| r.judged > 0).collect();
            let weighted = |g: fn(&Row) -> f64| {
                let (s, c) = judged.iter().fold((0.0, 0.0), |(s, c), r| {
                    (s + g(r) * r.judged as f64, c + r.judged as f64)
                });
                if c == 0.0 {
                    f64::NAN
                } else {
                    s / c
                }
            };
            let mut p95s: Vec<f64> = judged.iter().map(|r| r.ratio_p95).collect();
            p95s.sort_by(f64::total_cmp);
            let _ = writeln!(
                md,
                "| {} | {:+.2} | {} | {} | {} | {} | {} | {} | {} |",
                m.name(),
                d,
                sel.iter().map(|r| r.pairs).sum::<usize>(),
                pct(pooled(&sel, |r| r.agree)),
                sel.iter().map(|r| r.false_positives).sum::<usize>(),
                sel.iter().map(|r| r.false_negatives).sum::<usize>(),
                pct(weighted(|r| r.separates)),
                num(weighted(|r| r.ratio_mean), 3),
                num(quantile(&p95s, 0.95), 3),
            );
        }
    }
    // Cost model.
    let _ = writeln!(
        md,
        "\n## Cost model T = Nv·Cv + Np·Cp\n\n\
         Cv and Cp are fitted by least squares (no intercept) to each method's mean time, mean Nv \
         and mean Np over all workloads; R² says how well two constants explain the times.\n\n\
         | method | Cv (ns per vertex op) | Cp (ns per primitive test) | R² |\n|---|---:|---:|---:|"
    );
    for &m in methods {
        let sel: Vec<&Row> = rows.iter().filter(|r| r.method == m).collect();
        match fit_cost(&sel) {
            Some((cv, cp, r2)) => {
                let _ = writeln!(md, "| {} | {cv:.3} | {cp:.1} | {r2:.3} |", m.name());
            }
            None => {
                let _ = writeln!(md, "| {} | – | – | – (no work counters) |", m.name());
            }
        }
    }
    md
}
