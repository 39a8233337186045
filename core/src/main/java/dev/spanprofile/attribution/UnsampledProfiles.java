package dev.spanprofile.attribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.UnsampledRequest;

/**
 * The samples of requests that tracing did not sample, each gathered apart until the
 * request has ended and every sample up to its end is joined: only then are its name and
 * duration (so its latency band) known, and its profile can be folded into its name's.
 * <p>
 * A request's samples wait as the stacks the engine delivered (shared arrays, not
 * copied), and become a call tree only as they are folded: a request ending shortly
 * before a collection waits for the next one, and a tree of a ~150-frame stack is some
 * 150 objects that every young collection in between would copy (the page benchmark's GC
 * cost), its stack one array.
 * <p>
 * Collector thread only. Bounded: at most {@link #MAX_PENDING} requests and
 * {@link #MAX_FRAMES} frames of their samples held at once (a request beyond either keeps
 * its latency, not its samples), and a request not ended after the collector's
 * {@code unsampledMaxAge} (an observation never stopped) is let go.
 * <p>
 * Most of these requests get no sample at all (a request of a millisecond on the CPU,
 * sampled every 10 ms of CPU time): each costs a place in a list and, folded, a count.
 */
final class UnsampledProfiles {

	static final int MAX_PENDING = 10_000;

	/**
	 * At most 4 MB of stacks where none is shared: a few thousand concurrent requests'
	 * samples.
	 */
	static final int MAX_FRAMES = 1_000_000;

	private static final int KINDS = SampleKind.values().length;

	/**
	 * What a request folded or let go keeps in place of its samples: a change point
	 * drained after that finds it there, and the request is not taken up again.
	 */
	private static final Object FOLDED = new Object();

	/** What a request without samples is folded with; never written. */
	private static final StackTree[] NO_SAMPLES = new StackTree[KINDS];

	/** In the order they were first seen. */
	private List<Pending> pending = new ArrayList<>();

	private int frames;

	/**
	 * The state a thread's timeline holds while it works for {@code request}: its
	 * samples' destination, or {@code null} when there is no room for another request or
	 * it was folded or let go already.
	 */
	Pending track(UnsampledRequest request) {
		if (request.samples() instanceof Pending samples) {
			return samples;
		}
		if (request.samples() == FOLDED || this.pending.size() >= MAX_PENDING) {
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
	 * @return whether any request was let go (its state is then {@link Pending#isDone()
	 * done})
	 */
	boolean completeUpTo(long upTo, BiConsumer<UnsampledRequest, StackTree[]> folder, long nowNanos, long maxAgeNanos) {
		List<Pending> stillPending = new ArrayList<>(this.pending.size());
		for (Pending samples : this.pending) {
			UnsampledRequest request = samples.request;
			boolean complete = request.isEnded() && request.endNanos() <= upTo;
			if (!complete && (request.isEnded() || nowNanos - request.startNanos() <= maxAgeNanos)) {
				stillPending.add(samples);
				continue;
			}
			this.frames -= samples.frames;
			if (complete) {
				folder.accept(request, samples.trees());
			}
			// A thread's timeline may keep this state as its baseline until its next
			// change point: not the samples, nor the request (the ring that recorded it
			// lets it go within seconds, the timelines only after two dump intervals).
			samples.stacks = null;
			samples.kinds = null;
			samples.weights = null;
			samples.request = null;
			request.samples(FOLDED);
		}
		boolean letGo = stillPending.size() < this.pending.size();
		this.pending = stillPending;
		return letGo;
	}

	/** Requests whose samples are held (for tests and diagnostics). */
	int pendingCount() {
		return this.pending.size();
	}

	/** One request's samples so far. */
	final class Pending {

		/**
		 * {@code null} once folded or let go: a sample joined late (a thread still marked
		 * as working for it) is not kept.
		 */
		private UnsampledRequest request;

		/**
		 * Side by side, the first {@link #count} of them; {@code null} until a sample.
		 */
		private int[][] stacks;

		private SampleKind[] kinds;

		private long[] weights;

		private int count;

		private int frames;

		private Pending(UnsampledRequest request) {
			this.request = request;
		}

		/**
		 * Folded or let go: from now on the same as being outside any request for a
		 * sample.
		 */
		boolean isDone() {
			return this.request == null;
		}

		/** Keeps {@code rootFirstStack} itself: engines share their stacks, unchanged. */
		void add(SampleKind kind, int[] rootFirstStack, long weight) {
			if (isDone() || UnsampledProfiles.this.frames + rootFirstStack.length > MAX_FRAMES) {
				return;
			}
			if (this.stacks == null) {
				this.stacks = new int[2][];
				this.kinds = new SampleKind[2];
				this.weights = new long[2];
			}
			else if (this.count == this.stacks.length) {
				this.stacks = Arrays.copyOf(this.stacks, this.count * 2);
				this.kinds = Arrays.copyOf(this.kinds, this.count * 2);
				this.weights = Arrays.copyOf(this.weights, this.count * 2);
			}
			this.stacks[this.count] = rootFirstStack;
			this.kinds[this.count] = kind;
			this.weights[this.count] = weight;
			this.count++;
			this.frames += rootFirstStack.length;
			UnsampledProfiles.this.frames += rootFirstStack.length;
		}

		/** Its samples as call trees by {@link SampleKind#ordinal()}. */
		private StackTree[] trees() {
			if (this.count == 0) {
				return NO_SAMPLES;
			}
			StackTree[] trees = new StackTree[KINDS];
			for (int i = 0; i < this.count; i++) {
				SampleKind kind = this.kinds[i];
				StackTree tree = trees[kind.ordinal()];
				if (tree == null) {
					tree = new StackTree();
					trees[kind.ordinal()] = tree;
				}
				tree.add(this.stacks[i], this.weights[i], kind.countsEvents() ? 1 : 0);
			}
			return trees;
		}

	}

}
