//! The detection on rayon's threads (`ContactSet::detect` on big steps).

use super::{
    detect_run, make_room, ApartPair, DetectCounts, DetectInput, DetectOut, PairAnswer, PairContact, PointContact,
    Previous, MAX_POINTS,
};
use crate::dynamics::body::BodySet;

/// Chunks per thread when detecting in parallel: some chunks hold costlier pairs (a
/// non-convex body among boxes), so a thread that finishes early takes another.
const CHUNKS_PER_THREAD: usize = 4;

/// One chunk's output in a parallel detection, kept between steps so that a step in
/// steady state does not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChunkOut {
    pairs: Vec<PairContact>,
    points: Vec<PointContact>,
    answers: Vec<PairAnswer>,
    apart: Vec<ApartPair>,
    counts: DetectCounts,
}

/// The detection on rayon's threads: the sorted candidates cut into chunks, each
/// detected into its own buffers, then joined in order. Every pair's contact depends on
/// that pair alone, so the contacts (and the state hash) are the same for any number of
/// threads and any cut (tests/threads.rs).
pub(super) fn detect_in_chunks(
    bodies: &BodySet,
    candidate_pairs: &[(u32, u32)],
    input: &DetectInput,
    previous: &Previous,
    chunks: &mut Vec<ChunkOut>,
    DetectOut {
        pairs,
        points,
        answers,
        apart,
        ..
    }: DetectOut,
) -> DetectCounts {
    use rayon::prelude::*;
    let count = (rayon::current_num_threads() * CHUNKS_PER_THREAD).min(candidate_pairs.len());
    let chunk_len = candidate_pairs.len().div_ceil(count);
    if chunks.len() < count {
        chunks.resize_with(count, ChunkOut::default);
    }
    chunks[..count]
        .par_iter_mut()
        .zip(candidate_pairs.par_chunks(chunk_len))
        .for_each(|(chunk, run)| {
            chunk.pairs.clear();
            chunk.points.clear();
            chunk.answers.clear();
            chunk.apart.clear();
            // Room for the most the run can give: the cut moves as the pairs come and go.
            make_room(&mut chunk.pairs, run.len());
            make_room(&mut chunk.points, run.len() * MAX_POINTS);
            make_room(&mut chunk.answers, run.len());
            make_room(&mut chunk.apart, run.len());
            let mut out = DetectOut {
                pairs: &mut chunk.pairs,
                points: &mut chunk.points,
                answers: &mut chunk.answers,
                apart: &mut chunk.apart,
                counts: DetectCounts::default(),
            };
            detect_run(bodies, run, input, previous, &mut out, None);
            chunk.counts = out.counts;
        });
    let mut counts = DetectCounts::default();
    for chunk in &chunks[..count] {
        let (point_offset, answer_offset) = (points.len() as u32, answers.len() as u32);
        pairs.extend(chunk.pairs.iter().map(|p| PairContact {
            first: p.first + point_offset,
            answer: p.answer + answer_offset,
            ..*p
        }));
        points.extend_from_slice(&chunk.points);
        answers.extend_from_slice(&chunk.answers);
        apart.extend_from_slice(&chunk.apart);
        counts.work.add(&chunk.counts.work);
        counts.touching += chunk.counts.touching;
        counts.points += chunk.counts.points;
        counts.reused += chunk.counts.reused;
        counts.known_apart += chunk.counts.known_apart;
    }
    counts
}
