package dev.spanprofile.aggregate;

import dev.spanprofile.profile.StackTree;

/**
 * Slow spans of a name against its typical ones, over the same window and sample kind.
 *
 * @param name the span name
 * @param tree both sides side by side: per frame the slow side's samples (column 0) and
 * the typical side's (column 1), raw counts
 * @param slowSpans spans on the slow side (for per-request comparison)
 * @param typicalSpans spans on the typical side
 * @param thresholdNanos the duration separating the sides, as applied: a latency band
 * edge
 * @param slowBreakdown where the slow side's time went, added up over its requests;
 * {@code null} where the slow side is one request (its own breakdown says it)
 * @param typicalBreakdown where the typical side's time went, added up
 */
public record ProfileDiff(String name, StackTree tree, long slowSpans, long typicalSpans, long thresholdNanos,
		RequestsBreakdown slowBreakdown, RequestsBreakdown typicalBreakdown) {

}
