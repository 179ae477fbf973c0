//! `bench --redraw CSV`: the Fig. 3 chart drawn again from a results CSV that a run
//! wrote, nothing measured. A full run takes a quarter of an hour; a chart that changes
//! only in how it is drawn (the README's, whose legend once covered its tallest bars)
//! should not need one, and its bars should stay those of the run the tables quote.

use super::measure::Method;
use super::report::pair_weighted_mean;
use super::{svg, write_file, CliError};
use collision_lab::geometry::families::Family;
use std::path::Path;

/// The columns the chart reads, by their names in the CSV's header.
const COLUMNS: [&str; 5] = ["family", "method", "pairs", "distance", "mean_ns"];

/// One row of the CSV, as much of it as the chart reads.
#[derive(Debug, PartialEq)]
struct Row {
    family: Family,
    method: Method,
    pairs: usize,
    distance: String,
    mean_ns: f64,
}

/// Reads `csv_path` and writes the Fig. 3 chart to `svg_path`.
pub fn run_redraw(csv_path: &Path, svg_path: &Path) -> Result<(), CliError> {
    let text = std::fs::read_to_string(csv_path)
        .map_err(|e| CliError::Bench(format!("cannot read {}: {e}", csv_path.display())))?;
    let rows = parse(&text).map_err(|e| CliError::Bench(format!("{}: {e}", csv_path.display())))?;
    let chart = chart(&rows)?;
    write_file(svg_path, &chart)?;
    println!(
        "Wrote {} from {} ({} rows).",
        svg_path.display(),
        csv_path.display(),
        rows.len()
    );
    Ok(())
}

/// What the chart shows of `rows`: families in the order the CSV first names them,
/// methods in table order, and each bar, the pair-weighted mean of its rows' means (ns;
/// NaN means left out), as the run that wrote the CSV drew it (`report::fig3_means`).
type Bars = (Vec<Family>, Vec<Method>, Vec<(Family, Method, f64)>);

fn bars(rows: &[Row]) -> Bars {
    let mut families: Vec<Family> = Vec::new();
    for r in rows {
        if !families.contains(&r.family) {
            families.push(r.family);
        }
    }
    let methods: Vec<Method> = Method::ALL
        .into_iter()
        .filter(|m| rows.iter().any(|r| r.method == *m))
        .collect();
    let mut means = Vec::new();
    for &f in &families {
        for &m in &methods {
            let mean = pair_weighted_mean(
                rows.iter()
                    .filter(|r| r.family == f && r.method == m)
                    .map(|r| (r.mean_ns, r.pairs)),
            );
            if !mean.is_nan() {
                means.push((f, m, mean));
            }
        }
    }
    (families, methods, means)
}

/// The chart of `rows` ([`bars`]), titled as the run titled it.
fn chart(rows: &[Row]) -> Result<String, CliError> {
    let (families, methods, means) = bars(rows);
    let mut distances: Vec<&str> = Vec::new();
    for r in rows {
        if !distances.contains(&r.distance.as_str()) {
            distances.push(&r.distance);
        }
    }
    let pairs = rows.first().map_or(0, |r| r.pairs);
    let title = format!(
        "Mean time per pair, {pairs} pairs x {} distances per workload",
        distances.len()
    );
    svg::fig3(&means, &families, &methods, &title).map_err(CliError::Bench)
}

/// The rows of a results CSV. Errors name the line (1-based) and the column.
fn parse(text: &str) -> Result<Vec<Row>, String> {
    let mut lines = text.lines().enumerate();
    let header: Vec<&str> = lines
        .next()
        .map(|(_, h)| h.split(',').map(str::trim).collect())
        .ok_or("the file is empty")?;
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("line 1: no column '{name}' in the header"))
    };
    let at = COLUMNS.map(column);
    let [family, method, pairs, distance, mean] = match at {
        [Ok(a), Ok(b), Ok(c), Ok(d), Ok(e)] => [a, b, c, d, e],
        _ => return Err(at.into_iter().find_map(Result::err).unwrap_or_default()),
    };
    let mut rows = Vec::new();
    for (index, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let n = index + 1;
        let field = |k: usize| {
            fields
                .get(k)
                .copied()
                .ok_or_else(|| format!("line {n}: {} fields, no '{}'", fields.len(), header[k]))
        };
        let bad = |k: usize, why: String| format!("line {n}, column '{}': {why}", header[k]);
        let method_name = field(method)?;
        rows.push(Row {
            family: field(family)?.parse().map_err(|e| bad(family, e))?,
            method: Method::ALL
                .into_iter()
                .find(|m| m.name() == method_name)
                .ok_or_else(|| bad(method, format!("unknown method '{method_name}'")))?,
            pairs: field(pairs)?.parse().map_err(|e| bad(pairs, format!("{e}")))?,
            distance: field(distance)?.to_string(),
            mean_ns: field(mean)?.parse().map_err(|e| bad(mean, format!("{e}")))?,
        });
    }
    if rows.is_empty() {
        return Err("no rows after the header".to_string());
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "family,vertices,distance,method,pairs,median_ns,mean_ns";

    #[test]
    fn bars_are_pair_weighted_means_in_first_seen_order() {
        let text = format!(
            "{HEADER}\nstar,8,-0.02,GjkEpa,2,0,100\nstar,8,0.01,GjkEpa,6,0,200\n\
             comb,8,-0.02,NonConvexSat,4,0,50\nstar,8,-0.02,NonConvexSat,4,0,NaN\n"
        );
        let rows = parse(&text).expect("parses");
        assert_eq!(rows.len(), 4);
        let (families, methods, means) = bars(&rows);
        assert_eq!(families, [Family::Star, Family::Comb]);
        assert_eq!(methods, [Method::NonConvexSat, Method::GjkEpa]);
        // (2 x 100 + 6 x 200) / 8; star's NonConvexSat has only a NaN mean: no bar.
        assert_eq!(
            means,
            [
                (Family::Star, Method::GjkEpa, 175.0),
                (Family::Comb, Method::NonConvexSat, 50.0)
            ]
        );
        let svg = chart(&rows).expect("draws");
        // Two distances, the first row's pairs; both families and both methods named.
        assert!(svg.contains("Mean time per pair, 2 pairs x 2 distances per workload"));
        for name in ["star", "comb", "GjkEpa", "NonConvexSat"] {
            assert!(svg.contains(name), "{name} in the chart");
        }
        assert!(!svg.contains("parry2d"), "a method with no rows gets no key");
    }

    #[test]
    fn errors_name_the_line_and_the_column() {
        let err = |text: &str| parse(text).expect_err("refused");
        assert_eq!(err(""), "the file is empty");
        assert_eq!(err("family,method\n"), "line 1: no column 'pairs' in the header");
        assert_eq!(err(&format!("{HEADER}\n")), "no rows after the header");
        let e = err(&format!("{HEADER}\nstar,8,0,GjkEpa,2,0,1\nstar,8,0,Gjk,2,0,1\n"));
        assert_eq!(e, "line 3, column 'method': unknown method 'Gjk'");
        let e = err(&format!("{HEADER}\nstar,8,0,GjkEpa,two,0,1\n"));
        assert!(e.starts_with("line 2, column 'pairs': "), "{e}");
        let e = err(&format!("{HEADER}\nblob,8,0,GjkEpa,2,0,1\n"));
        assert!(
            e.starts_with("line 2, column 'family': unknown shape family 'blob'"),
            "{e}"
        );
        let e = err(&format!("{HEADER}\nstar,8,0,GjkEpa\n"));
        assert_eq!(e, "line 2: 4 fields, no 'pairs'");
    }

    #[test]
    fn the_shipped_results_redraw() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/bench/results.csv");
        let rows = parse(&std::fs::read_to_string(path).expect("shipped CSV")).expect("parses");
        assert!(chart(&rows).expect("draws").starts_with("<svg"));
    }
}
