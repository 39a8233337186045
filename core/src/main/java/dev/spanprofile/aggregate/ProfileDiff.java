package dev.spanprofile.aggregate;

import dev.spanprofile.profile.DiffTree;

/**
 * Slow spans of a name against its typical ones, over the same window and sample kind.
 *
 * @param name the span name
 * @param tree both sides merged: per frame the slow side's samples ({@code value}) and the typical side's
 * ({@code baseline}), raw counts
 * @param slowSpans spans on the slow side (for per-request comparison)
 * @param typicalSpans spans on the typical side
 * @param thresholdNanos the duration separating the sides, as applied: a latency band edge
 */
public record ProfileDiff(String name, DiffTree tree, long slowSpans, long typicalSpans, long thresholdNanos) {

}
