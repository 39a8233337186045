package dev.spanprofile.aggregate;

import java.util.Arrays;

import dev.spanprofile.sampling.SampleKind;
import dev.spanprofile.store.StackTree;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * One name's spans that ended within one time bucket: latency statistics of all of them, and the samples of those
 * whose profiles were folded in, per latency band and sample kind. Guarded by its {@link NameAggregate}.
 */
final class TimeBucket {

	static final int SLOWEST_KEPT = 5;

	/** Rough heap cost of one call-tree node, for the memory budget (as the store counts its own). */
	static final int BYTES_PER_NODE = 64;

	private static final int FIXED_BYTES = 256;

	private static final int BYTES_PER_BAND = 96;

	final long index;

	/** Durations in microseconds; two significant digits are plenty for p50/p90/p99 and keep the packing small. */
	private final Histogram latencyMicros = new PackedHistogram(2);

	private long count;

	private long errors;

	private long maxNanos;

	private final String[] slowestIds = new String[SLOWEST_KEPT];

	private final long[] slowestNanos = new long[SLOWEST_KEPT];

	private Band[] bands;

	private final long[] samples = new long[SampleKind.values().length];

	private boolean profilesDropped;

	/** What {@link #fixedBytes()} was when last counted in the aggregates' total. */
	long accountedBytes;

	TimeBucket(long index) {
		this.index = index;
	}

	void spanEnded(String spanId, long durationNanos, boolean error) {
		this.latencyMicros.recordValue(Math.max(1, durationNanos / 1000));
		this.count++;
		if (error) {
			this.errors++;
		}
		this.maxNanos = Math.max(this.maxNanos, durationNanos);
		keepIfSlowest(spanId, durationNanos);
	}

	private void keepIfSlowest(String spanId, long durationNanos) {
		int slot = -1;
		for (int i = 0; i < SLOWEST_KEPT; i++) {
			if (this.slowestIds[i] == null) {
				slot = i;
				break;
			}
			if (slot < 0 || this.slowestNanos[i] < this.slowestNanos[slot]) {
				slot = i;
			}
		}
		if (this.slowestIds[slot] == null || this.slowestNanos[slot] < durationNanos) {
			this.slowestIds[slot] = spanId;
			this.slowestNanos[slot] = durationNanos;
		}
	}

	/**
	 * Fold one span's samples of {@code kind} (null when it has none) into its band.
	 * @return the change in call-tree nodes held
	 */
	int fold(int band, SampleKind kind, StackTree tree, TreeTrimmer trimmer, int maxNodes) {
		Band target = band(band);
		if (tree == null || tree.totalSamples() == 0) {
			return 0;
		}
		this.samples[kind.ordinal()] += tree.totalSamples();
		if (this.profilesDropped) {
			return 0;
		}
		StackTree existing = target.trees[kind.ordinal()];
		int before = (existing != null) ? existing.nodeCount() : 0;
		if (existing == null) {
			existing = new StackTree();
		}
		existing.addAll(tree);
		// Trim below the budget, not to it, so a busy profile is not rebuilt on every span.
		existing = trimmer.trim(existing, maxNodes, maxNodes * 3 / 4);
		target.trees[kind.ordinal()] = existing;
		return existing.nodeCount() - before;
	}

	/** Count one span whose profile was folded (with or without samples) in {@code band}. */
	void spanFolded(int band) {
		band(band).spans++;
	}

	private Band band(int band) {
		if (this.bands == null) {
			this.bands = new Band[LatencyBands.count()];
		}
		Band target = this.bands[band];
		if (target == null) {
			target = new Band();
			this.bands[band] = target;
		}
		return target;
	}

	/** Drop the call trees (statistics and counts stay). @return nodes released */
	int dropProfiles() {
		this.profilesDropped = true;
		int released = nodeCount();
		if (this.bands != null) {
			for (Band band : this.bands) {
				if (band != null) {
					Arrays.fill(band.trees, null);
				}
			}
		}
		return released;
	}

	boolean holdsProfiles() {
		return nodeCount() > 0;
	}

	boolean profilesDropped() {
		return this.profilesDropped;
	}

	int nodeCount() {
		int nodes = 0;
		if (this.bands != null) {
			for (Band band : this.bands) {
				if (band != null) {
					for (StackTree tree : band.trees) {
						nodes += (tree != null) ? tree.nodeCount() : 0;
					}
				}
			}
		}
		return nodes;
	}

	/** Heap held apart from call-tree nodes (those are counted as they change). */
	long fixedBytes() {
		long bytes = FIXED_BYTES + this.latencyMicros.getEstimatedFootprintInBytes();
		if (this.bands != null) {
			bytes += 16L * this.bands.length;
			for (Band band : this.bands) {
				bytes += (band != null) ? BYTES_PER_BAND : 0;
			}
		}
		return bytes;
	}

	long count() {
		return this.count;
	}

	long errors() {
		return this.errors;
	}

	long maxNanos() {
		return this.maxNanos;
	}

	long samples(SampleKind kind) {
		return this.samples[kind.ordinal()];
	}

	void addLatenciesTo(Histogram into) {
		into.add(this.latencyMicros);
	}

	void addSlowestTo(Slowest into) {
		for (int i = 0; i < SLOWEST_KEPT; i++) {
			if (this.slowestIds[i] != null) {
				into.offer(this.slowestIds[i], this.slowestNanos[i]);
			}
		}
	}

	/** Spans folded in {@code band}. */
	long spansIn(int band) {
		Band source = (this.bands != null) ? this.bands[band] : null;
		return (source != null) ? source.spans : 0;
	}

	/** Add the profile of {@code band} and {@code kind} to {@code into}. */
	void addProfileTo(int band, SampleKind kind, StackTree into) {
		Band source = (this.bands != null) ? this.bands[band] : null;
		StackTree tree = (source != null) ? source.trees[kind.ordinal()] : null;
		if (tree != null) {
			into.addAll(tree);
		}
	}

	private static final class Band {

		long spans;

		final StackTree[] trees = new StackTree[SampleKind.values().length];

	}

}
