package dev.spanprofile.otlp;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * Samples of one kind to be linked to one span.
 *
 * @param traceId the span's trace id, 32 hex digits
 * @param spanId the span id, 16 hex digits
 * @param kind what the samples measure
 * @param samples the stacks and their sample counts
 */
public record LinkedSamples(String traceId, String spanId, SampleKind kind, StackTree samples) {
}
