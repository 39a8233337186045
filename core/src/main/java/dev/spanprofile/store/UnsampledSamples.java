package dev.spanprofile.store;

import java.util.Arrays;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.UnsampledRequest;

/**
 * The samples of one request that tracing did not sample, gathered by the attributor
 * until {@link FinishedRequests} hands them on with the request or lets them go. Kept as
 * the stacks the engine delivered (shared arrays, not copied) and made into call trees
 * only as they are handed on: a tree of a ~150-frame stack is some 150 objects that every
 * young collection in between would copy, its stack one array.
 * <p>
 * Collector thread only.
 */
public final class UnsampledSamples {

	private static final int KINDS = SampleKind.values().length;

	/** What a request without samples is handed on with; never written. */
	private static final StackTree[] NO_SAMPLES = new StackTree[KINDS];

	private final FinishedRequests owner;

	/**
	 * {@code null} once handed on or let go: a sample joined late (a thread still marked
	 * as working for it) is not kept.
	 */
	private UnsampledRequest request;

	/** Side by side, the first {@link #count} of them; {@code null} until a sample. */
	private int[][] stacks;

	private SampleKind[] kinds;

	private long[] weights;

	private int count;

	private int frames;

	UnsampledSamples(FinishedRequests owner, UnsampledRequest request) {
		this.owner = owner;
		this.request = request;
	}

	/**
	 * Handed on or let go: from now on the same as being outside any request for a
	 * sample.
	 */
	public boolean isDone() {
		return this.request == null;
	}

	/**
	 * Keeps {@code rootFirstStack} itself: engines share their stacks, unchanged. Beyond
	 * the frames all unsampled requests may hold at once, the sample is not kept.
	 */
	public void add(SampleKind kind, int[] rootFirstStack, long weight) {
		if (isDone() || !this.owner.holdUnsampledFrames(rootFirstStack.length)) {
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
	}

	UnsampledRequest request() {
		return this.request;
	}

	int frames() {
		return this.frames;
	}

	/** Its samples as call trees by {@link SampleKind#ordinal()}. */
	StackTree[] trees() {
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

	/**
	 * Handed on or let go: a thread's timeline may keep this object as its baseline until
	 * its next change point, not the samples, nor the request (the ring that recorded it
	 * lets it go within seconds, the timelines only after two dump intervals).
	 */
	void done() {
		this.stacks = null;
		this.kinds = null;
		this.weights = null;
		this.request = null;
	}

}
