package dev.spanprofile.store;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * One span's own samples: their stacks per {@link SampleKind}, when and on which thread
 * each was taken, and the account their heap is charged to, which bounds the store. Not
 * thread-safe: guarded by the owning {@link SpanRecord}'s lock, so that a sample is
 * charged before the account can be refunded, or not taken.
 */
final class SpanSamples {

	/** Per {@link SampleKind}, created on the first sample of that kind. */
	private final SampledStacks[] byKind = new SampledStacks[SampleKind.values().length];

	/**
	 * When and where each sample was taken, for the request's timeline; created with the
	 * first timed sample.
	 */
	private SampleTimeline timeline;

	/**
	 * The account the bytes of these samples are charged to: the store's while the span
	 * is stored, the one of dropped requests awaiting their samples while those are
	 * joined, none (samples refused) once gone.
	 */
	private AtomicLong chargedTo;

	SpanSamples(AtomicLong chargedTo) {
		this.chargedTo = chargedTo;
	}

	/**
	 * The account these samples are charged to now; {@code null} once they are refused.
	 */
	AtomicLong account() {
		return this.chargedTo;
	}

	/** Whether samples are still taken: false once the span is gone for good. */
	boolean isTaken() {
		return this.chargedTo != null;
	}

	/**
	 * Move what these samples hold from their account to {@code to} (refund it, for
	 * {@code null}); later samples are charged there, or refused for {@code null}.
	 */
	void moveCharge(AtomicLong to) {
		if (this.chargedTo == null) {
			return;
		}
		long bytes = bytes();
		this.chargedTo.addAndGet(-bytes);
		if (to != null) {
			to.addAndGet(bytes);
		}
		this.chargedTo = to;
	}

	/**
	 * Adds a sample's stack, unless samples are refused; returns whether that added bytes
	 * (charged).
	 */
	boolean add(SampleKind kind, int[] rootFirstStack, long weight) {
		return charge((this.chargedTo != null) ? stack(kind, rootFirstStack, weight) : 0);
	}

	/** As {@link #add(SampleKind, int[], long)}, also placing it on the timeline. */
	boolean add(SampleKind kind, int[] rootFirstStack, long weight, long epochNanos, long threadId, String threadName) {
		if (this.chargedTo == null) {
			return false;
		}
		long added = stack(kind, rootFirstStack, weight);
		if (this.timeline == null) {
			this.timeline = new SampleTimeline();
			added += this.timeline.bytes();
		}
		return charge(added + this.timeline.add(epochNanos, threadId, threadName, kind,
				this.byKind[kind.ordinal()].lastPosition(), weight));
	}

	private boolean charge(long bytes) {
		if (bytes > 0) {
			this.chargedTo.addAndGet(bytes);
		}
		return bytes > 0;
	}

	/** Adds a sample's stack; returns the bytes that added. */
	private long stack(SampleKind kind, int[] rootFirstStack, long weight) {
		SampledStacks stacks = this.byKind[kind.ordinal()];
		if (stacks == null) {
			stacks = new SampledStacks();
			this.byKind[kind.ordinal()] = stacks;
		}
		return stacks.add(rootFirstStack, weight, kind.countsEvents() ? 1 : 0);
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
