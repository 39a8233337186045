package dev.spanprofile.attribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.UnsampledRequest;
import dev.spanprofile.tracking.Watermark;

/**
 * The samples of requests that tracing did not sample, each gathered apart until the
 * request has ended and every sample up to its end is joined: only then are its name and
 * duration (so its latency band) known, and its profile can be folded into its name's.
 * <p>
 * Collector thread only. Bounded: at most {@link #MAX_PENDING} requests and
 * {@link #MAX_NODES} call-tree nodes held at once (a request beyond either keeps its
 * latency, not its samples), and a request not ended after {@link #MAX_AGE_NANOS} (an
 * observation never stopped) is let go.
 * <p>
 * Most of these requests get no sample at all (a request of a millisecond on the CPU,
 * sampled every 10 ms of CPU time): each costs a place in a list and, folded, a count.
 */
final class UnsampledProfiles {

	static final int MAX_PENDING = 10_000;

	/** About 6 MB of call trees: a few thousand concurrent requests' worth. */
	static final int MAX_NODES = 100_000;

	static final long MAX_AGE_NANOS = TimeUnit.MINUTES.toNanos(10);

	private static final int KINDS = SampleKind.values().length;

	/** What a request without samples is folded with; never written. */
	private static final StackTree[] NO_SAMPLES = new StackTree[KINDS];

	/** In the order they were first seen. */
	private List<Pending> pending = new ArrayList<>();

	private int nodes;

	/**
	 * The state a thread's timeline holds while it works for {@code request}: its
	 * samples' destination, or {@code null} when there is no room for another request.
	 */
	Pending track(UnsampledRequest request) {
		if (request.samples() instanceof Pending samples) {
			return samples;
		}
		if (this.pending.size() >= MAX_PENDING) {
			return null;
		}
		Pending samples = new Pending(request);
		request.samples(samples);
		this.pending.add(samples);
		return samples;
	}

	/**
	 * Hand each request that ended by {@code upTo} to {@code folder}, with its samples by
	 * {@link SampleKind#ordinal()} ({@code null} for a kind without any), and forget it.
	 */
	void completeUpTo(Watermark upTo, BiConsumer<UnsampledRequest, StackTree[]> folder, long nowNanos) {
		List<Pending> stillPending = new ArrayList<>(this.pending.size());
		for (Pending samples : this.pending) {
			UnsampledRequest request = samples.request;
			boolean complete = request.isEnded() && request.endNanos() <= upTo.monotonicNanos();
			if (!complete && (request.isEnded() || nowNanos - request.startNanos() <= MAX_AGE_NANOS)) {
				stillPending.add(samples);
				continue;
			}
			this.nodes -= samples.nodes;
			samples.done = true;
			if (complete) {
				folder.accept(request, (samples.trees != null) ? samples.trees : NO_SAMPLES);
			}
			// A thread's timeline may keep this state as its baseline until its next
			// change point: not the trees.
			if (samples.trees != null) {
				Arrays.fill(samples.trees, null);
			}
		}
		this.pending = stillPending;
	}

	/** Requests whose samples are held (for tests and diagnostics). */
	int pendingCount() {
		return this.pending.size();
	}

	/** One request's samples so far. */
	final class Pending {

		private final UnsampledRequest request;

		/** By {@link SampleKind#ordinal()}, from the first sample on. */
		private StackTree[] trees;

		private int nodes;

		/**
		 * Folded or let go: a sample joined late (a thread still marked as working for
		 * it) is not kept.
		 */
		private boolean done;

		private Pending(UnsampledRequest request) {
			this.request = request;
		}

		void add(SampleKind kind, int[] rootFirstStack, long weight) {
			if (this.done || UnsampledProfiles.this.nodes + rootFirstStack.length > MAX_NODES) {
				return;
			}
			if (this.trees == null) {
				this.trees = new StackTree[KINDS];
			}
			StackTree tree = this.trees[kind.ordinal()];
			if (tree == null) {
				tree = new StackTree();
				this.trees[kind.ordinal()] = tree;
			}
			int before = tree.nodeCount();
			tree.add(rootFirstStack, weight, kind.countsEvents() ? 1 : 0);
			int added = tree.nodeCount() - before;
			this.nodes += added;
			UnsampledProfiles.this.nodes += added;
		}

	}

}
