package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * When and on which thread each of one span's samples was taken, in arrival order: what a
 * request's timeline is drawn from and what a stretch of it is filtered by.
 * {@link SampledStacks} folds samples into distinct stacks and forgets their times; this
 * keeps, per sample, only its time, thread, kind, weight and the position of its stack in
 * that kind's {@link SampledStacks} (stacks are never removed there, so a position stays
 * valid).
 * <p>
 * Bounded: at most {@link #MAX_ENTRIES} samples, the first ones; later ones are counted
 * as dropped, so a view can say that the timeline stops early. Columns of primitives,
 * grown by doubling and charged by their capacity, so that a span's cost is a handful of
 * arrays, not an object per sample.
 * <p>
 * Not thread-safe; {@link SpanRecord} guards it.
 */
final class SampleTimeline {

	/**
	 * A request with more samples than this (40 s of CPU at 10 ms) keeps the first ones
	 * only.
	 */
	static final int MAX_ENTRIES = 4096;

	private static final int INITIAL_CAPACITY = 8;

	/**
	 * Object header and the fields of this object, and the headers of its seven arrays.
	 */
	static final long FIXED_BYTES = 48 + 7 * 16;

	/** Per entry: time, weight, stack position, thread position, kind. */
	static final long BYTES_PER_ENTRY = 8 + 8 + 4 + 2 + 1;

	/**
	 * Per distinct thread: its id and the reference to its name (the name itself is the
	 * tracker's).
	 */
	static final long BYTES_PER_THREAD = 8 + 8;

	private long[] epochNanos = new long[INITIAL_CAPACITY];

	private long[] weights = new long[INITIAL_CAPACITY];

	private int[] stacks = new int[INITIAL_CAPACITY];

	private short[] threads = new short[INITIAL_CAPACITY];

	private byte[] kinds = new byte[INITIAL_CAPACITY];

	private long[] threadIds = new long[1];

	private String[] threadNames = new String[1];

	private int threadCount;

	private int size;

	private long dropped;

	/**
	 * Record one sample.
	 * @param stackPosition where its stack is in the {@link SampledStacks} of
	 * {@code kind}
	 * @return the bytes this added, 0 when it fitted in the arrays already held (or was
	 * dropped)
	 */
	long add(long time, long threadId, String threadName, SampleKind kind, int stackPosition, long weight) {
		if (this.size == MAX_ENTRIES) {
			this.dropped++;
			return 0;
		}
		long before = bytes();
		if (this.size == this.epochNanos.length) {
			int capacity = Math.min(MAX_ENTRIES, this.size * 2);
			this.epochNanos = Arrays.copyOf(this.epochNanos, capacity);
			this.weights = Arrays.copyOf(this.weights, capacity);
			this.stacks = Arrays.copyOf(this.stacks, capacity);
			this.threads = Arrays.copyOf(this.threads, capacity);
			this.kinds = Arrays.copyOf(this.kinds, capacity);
		}
		int position = this.size++;
		this.epochNanos[position] = time;
		this.weights[position] = weight;
		this.stacks[position] = stackPosition;
		this.threads[position] = thread(threadId, threadName);
		this.kinds[position] = (byte) kind.ordinal();
		return bytes() - before;
	}

	private short thread(long threadId, String threadName) {
		// A request runs on a few threads: a linear search beats a map.
		for (int i = this.threadCount - 1; i >= 0; i--) {
			if (this.threadIds[i] == threadId) {
				if (this.threadNames[i] == null) {
					this.threadNames[i] = threadName;
				}
				return (short) i;
			}
		}
		if (this.threadCount == this.threadIds.length) {
			this.threadIds = Arrays.copyOf(this.threadIds, this.threadCount * 2);
			this.threadNames = Arrays.copyOf(this.threadNames, this.threadCount * 2);
		}
		this.threadIds[this.threadCount] = threadId;
		this.threadNames[this.threadCount] = threadName;
		return (short) this.threadCount++;
	}

	/** Heap held, by capacity: what {@link #add} charged in all. */
	long bytes() {
		return FIXED_BYTES + BYTES_PER_ENTRY * this.epochNanos.length + BYTES_PER_THREAD * this.threadIds.length;
	}

	int size() {
		return this.size;
	}

	/** Samples not recorded because the timeline was full. */
	long dropped() {
		return this.dropped;
	}

	long time(int entry) {
		return this.epochNanos[entry];
	}

	long weight(int entry) {
		return this.weights[entry];
	}

	int stack(int entry) {
		return this.stacks[entry];
	}

	SampleKind kind(int entry) {
		return SampleKind.values()[this.kinds[entry]];
	}

	long threadId(int entry) {
		return this.threadIds[this.threads[entry]];
	}

	/** The thread's name as its tracker knew it, or {@code null}. */
	String threadName(int entry) {
		return this.threadNames[this.threads[entry]];
	}

	/**
	 * How much of the entry's weight falls between {@code from} and {@code to} (epoch
	 * nanoseconds, {@code to} excluded): a wait stands for the nanoseconds before its
	 * time and counts with the part inside the stretch; any other sample is a moment and
	 * counts whole when its time is inside, not at all otherwise.
	 */
	long weightWithin(int entry, long from, long to) {
		long time = this.epochNanos[entry];
		if (kind(entry) != SampleKind.WAIT) {
			return (time >= from && time < to) ? this.weights[entry] : 0;
		}
		long start = time - this.weights[entry];
		long overlap = Math.min(time, to) - Math.max(start, from);
		return Math.max(0, overlap);
	}

	/**
	 * A copy of the entries, each with the innermost frame of its stack from
	 * {@code samples} (per kind).
	 */
	TimelineSamples snapshot(SampledStacks[] samples) {
		List<TimelineSamples.Sample> copy = new ArrayList<>(this.size);
		for (int i = 0; i < this.size; i++) {
			SampleKind kind = kind(i);
			int[] stack = samples[kind.ordinal()].stack(this.stacks[i]);
			copy.add(new TimelineSamples.Sample(this.epochNanos[i], threadId(i), threadName(i), kind, this.weights[i],
					(stack.length > 0) ? stack[stack.length - 1] : -1));
		}
		return new TimelineSamples(copy, this.dropped);
	}

	/**
	 * The samples of {@code kind} between {@code from} and {@code to} as a call tree,
	 * weighted by {@link #weightWithin}; each wait that overlaps counts as one event.
	 */
	StackTree samplesWithin(SampleKind kind, SampledStacks stacks, long from, long to) {
		StackTree tree = new StackTree();
		for (int i = 0; i < this.size; i++) {
			if (this.kinds[i] != kind.ordinal()) {
				continue;
			}
			long weight = weightWithin(i, from, to);
			if (weight > 0) {
				tree.add(stacks.stack(this.stacks[i]), weight, kind.countsEvents() ? 1 : 0);
			}
		}
		return tree;
	}

}
