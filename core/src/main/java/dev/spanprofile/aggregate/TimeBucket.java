package dev.spanprofile.aggregate;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * Latency statistics of one name's spans that ended within one time bucket, from every
 * one of them. Guarded by the name's {@link NameAggregate} lock.
 */
final class TimeBucket implements BucketRing.Indexed {

	static final int SLOWEST_KEPT = 5;

	private static final int FIXED_BYTES = 200;

	private final long index;

	/**
	 * Durations in microseconds; two significant digits are plenty for p50/p90/p99 and
	 * keep the packing small.
	 */
	private final Histogram latencyMicros = new PackedHistogram(2);

	private long errors;

	/**
	 * Requests counted that tracing did not sample (no span id, never among the slowest
	 * listed).
	 */
	private long unsampled;

	private long maxNanos;

	private final String[] slowestIds = new String[SLOWEST_KEPT];

	private final long[] slowestNanos = new long[SLOWEST_KEPT];

	/** What {@link #bytes()} was when last counted in its owner's total. */
	private long accountedBytes;

	TimeBucket(long index) {
		this.index = index;
	}

	@Override
	public long index() {
		return this.index;
	}

	/**
	 * A request ended: a span, or with {@code spanId} {@code null} a request that tracing
	 * did not sample.
	 */
	void spanEnded(String spanId, long durationNanos, boolean error) {
		this.latencyMicros.recordValue(Math.max(1, durationNanos / 1000));
		if (error) {
			this.errors++;
		}
		this.maxNanos = Math.max(this.maxNanos, durationNanos);
		if (spanId != null) {
			keepIfSlowest(spanId, durationNanos);
		}
		else {
			this.unsampled++;
		}
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

	long bytes() {
		return FIXED_BYTES + this.latencyMicros.getEstimatedFootprintInBytes() + SLOWEST_KEPT * 60L;
	}

	/** What to add to its owner's total since it last counted this bucket. */
	long recount() {
		long bytes = bytes();
		long change = bytes - this.accountedBytes;
		this.accountedBytes = bytes;
		return change;
	}

	/** What to add to its owner's total as this bucket goes: minus all it counted. */
	long release() {
		long change = -this.accountedBytes;
		this.accountedBytes = 0;
		return change;
	}

	long errors() {
		return this.errors;
	}

	long unsampled() {
		return this.unsampled;
	}

	long maxNanos() {
		return this.maxNanos;
	}

	/**
	 * The histogram reports the top of a value's bucket: never beyond the exact maximum.
	 * -1 when empty.
	 */
	long percentileNanos(double percentile) {
		if (this.latencyMicros.getTotalCount() == 0) {
			return -1;
		}
		return Math.min(this.maxNanos, this.latencyMicros.getValueAtPercentile(percentile) * 1000);
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

}
