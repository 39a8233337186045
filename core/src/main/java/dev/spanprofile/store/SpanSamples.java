package dev.spanprofile.store;

import java.util.List;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * One span's own samples: their stacks per {@link SampleKind}, and when and on which thread each was taken. What
 * each addition costs in heap is returned, for the record to charge to its account. Not thread-safe: guarded by the
 * owning {@link SpanRecord}'s lock, which also decides whether a sample is still taken.
 */
final class SpanSamples {

	/** Per {@link SampleKind}, created on the first sample of that kind. */
	private final SampledStacks[] byKind = new SampledStacks[SampleKind.values().length];

	/** When and where each sample was taken, for the request's timeline; created with the first timed sample. */
	private SampleTimeline timeline;

	/** Adds a sample's stack; returns the bytes that added. */
	long add(SampleKind kind, int[] rootFirstStack, long weight) {
		SampledStacks stacks = this.byKind[kind.ordinal()];
		if (stacks == null) {
			stacks = new SampledStacks();
			this.byKind[kind.ordinal()] = stacks;
		}
		return stacks.add(rootFirstStack, weight, kind.countsEvents() ? 1 : 0);
	}

	/** As {@link #add(SampleKind, int[], long)}, also placing it on the timeline; returns the bytes that added. */
	long add(SampleKind kind, int[] rootFirstStack, long weight, long epochNanos, long threadId, String threadName) {
		long added = add(kind, rootFirstStack, weight);
		if (this.timeline == null) {
			this.timeline = new SampleTimeline();
			added += this.timeline.bytes();
		}
		return added + this.timeline.add(epochNanos, threadId, threadName, kind,
				this.byKind[kind.ordinal()].lastPosition(), weight);
	}

	TimelineSamples timeline() {
		return (this.timeline != null) ? this.timeline.snapshot(this.byKind) : new TimelineSamples(List.of(), 0);
	}

	StackTree within(SampleKind kind, long fromEpochNanos, long toEpochNanos) {
		return (this.timeline != null)
				? this.timeline.samplesWithin(kind, this.byKind[kind.ordinal()], fromEpochNanos, toEpochNanos)
				: new StackTree();
	}

	StackTree tree(SampleKind kind) {
		SampledStacks stacks = this.byKind[kind.ordinal()];
		return (stacks != null) ? stacks.toTree() : new StackTree();
	}

	long weight(SampleKind kind) {
		SampledStacks stacks = this.byKind[kind.ordinal()];
		return (stacks != null) ? stacks.totalWeight() : 0;
	}

	long events(SampleKind kind) {
		SampledStacks stacks = this.byKind[kind.ordinal()];
		return (stacks != null) ? stacks.events() : 0;
	}

	long bytes() {
		long bytes = 0;
		for (SampledStacks stacks : this.byKind) {
			bytes += (stacks != null) ? stacks.bytes() : 0;
		}
		return bytes + ((this.timeline != null) ? this.timeline.bytes() : 0);
	}

}
