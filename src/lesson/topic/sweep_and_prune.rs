//! Lesson 13: sweep and prune.

use super::TopicTrace;
use crate::scene::{Scene, Topic};

pub(super) fn trace(_scene: &Scene) -> TopicTrace {
    super::placeholder(Topic::SweepAndPrune)
}
