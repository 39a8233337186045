package dev.spanprofile.sampling;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import dev.spanprofile.tracking.MonotonicEpoch;

/**
 * The fixed header of one JFR chunk: its size, and the moment it started on both of its
 * clocks (epoch nanoseconds and ticks), which is what every event time in the chunk is
 * converted from.
 *
 * @param size bytes of the chunk, header included
 * @param startEpochNanos wall-clock time the chunk started
 * @param durationNanos how long the chunk recorded
 * @param startTicks the chunk's tick counter when it started
 * @param ticksPerSecond the tick counter's frequency
 */
public record JfrChunkHeader(long size, long startEpochNanos, long durationNanos, long startTicks,
		long ticksPerSecond) {

	public static final int SIZE = 68;

	/** "FLR\0" */
	private static final int MAGIC = 0x464C5200;

	private static final long NANOS_PER_SECOND = 1_000_000_000L;

	/**
	 * The header at {@code position}, or {@code null} when no complete header is there.
	 */
	public static JfrChunkHeader read(ByteBuffer buffer, int position) {
		ByteBuffer big = buffer.duplicate().order(ByteOrder.BIG_ENDIAN);
		if (big.limit() - position < SIZE || big.getInt(position) != MAGIC) {
			return null;
		}
		return new JfrChunkHeader(big.getLong(position + 8), big.getLong(position + 32), big.getLong(position + 40),
				big.getLong(position + 48), big.getLong(position + 56));
	}

	/**
	 * The chunk's own pairing of the wall clock with the monotonic clock, for
	 * async-profiler recordings made with {@code clock=monotonic} (ticks are then
	 * CLOCK_MONOTONIC nanoseconds, as {@code System.nanoTime()} reads). Exact however the
	 * wall clock was slewed or stepped since the JVM started: each chunk carries its own
	 * pairing. Without monotonic ticks, a pairing read now is the closest there is.
	 */
	public MonotonicEpoch.Anchor anchor() {
		return monotonicTicks() ? new MonotonicEpoch.Anchor(this.startEpochNanos, this.startTicks)
				: MonotonicEpoch.Anchor.now();
	}

	/**
	 * Whether the ticks are nanoseconds: what async-profiler writes with
	 * {@code clock=monotonic}.
	 */
	public boolean monotonicTicks() {
		return this.ticksPerSecond == NANOS_PER_SECOND;
	}

}
