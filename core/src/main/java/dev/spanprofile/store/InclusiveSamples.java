package dev.spanprofile.store;

import java.util.List;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * A span's samples together with those of every descendant started in this process: what
 * a request's profile is made of when read from its local root. Each span is read under
 * its own lock, one at a time, so sampling goes on while a request is read.
 */
public final class InclusiveSamples {

	private InclusiveSamples() {
	}

	/** The samples of {@code kind} of {@code span} and its local descendants. */
	public static StackTree of(SpanRecord span, SampleKind kind) {
		StackTree tree = span.ownSamples(kind);
		for (SpanRecord child : span.children()) {
			tree.addAll(of(child, kind));
		}
		return tree;
	}

	/**
	 * {@link SpanRecord#ownSamples(SampleKind, long, long)} of {@code span} and every
	 * local descendant: the stretch from {@code fromEpochNanos} to {@code toEpochNanos}
	 * (the end excluded).
	 */
	public static StackTree of(SpanRecord span, SampleKind kind, long fromEpochNanos, long toEpochNanos) {
		StackTree tree = span.ownSamples(kind, fromEpochNanos, toEpochNanos);
		for (SpanRecord child : span.children()) {
			tree.addAll(of(child, kind, fromEpochNanos, toEpochNanos));
		}
		return tree;
	}

	/**
	 * The samples of every kind, by {@link SampleKind#ordinal()}; {@code null} for a kind
	 * none of the spans has. One pass over the request, one lock per span: what folding a
	 * request costs, for every request, most of them with few samples or none.
	 */
	public static StackTree[] byKind(SpanRecord span) {
		StackTree[] trees = new StackTree[SampleKind.values().length];
		addByKind(span, trees);
		return trees;
	}

	private static void addByKind(SpanRecord span, StackTree[] trees) {
		List<SpanRecord> children = span.addOwnSamplesTo(trees);
		for (SpanRecord child : children) {
			addByKind(child, trees);
		}
	}

	/** How many samples of {@code kind} {@code span} and its local descendants hold. */
	public static long count(SpanRecord span, SampleKind kind) {
		long count = span.ownSampleCount(kind);
		for (SpanRecord child : span.children()) {
			count += count(child, kind);
		}
		return count;
	}

}
