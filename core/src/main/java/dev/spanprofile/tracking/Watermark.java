package dev.spanprofile.tracking;

/**
 * The moment up to which every sample has been joined to its span, on both clocks: the
 * collector reasons in {@code System.nanoTime()} (what samples and change points carry),
 * spans end in epoch nanoseconds (what people and the store see). Made from the monotonic
 * reading with {@link MonotonicEpoch#toEpochNanos}, the same conversion span times use,
 * so that "ended by the watermark" means the same on either side.
 *
 * @param monotonicNanos on the {@code System.nanoTime()} clock
 * @param epochNanos the same moment in epoch nanoseconds, as spans' start and end times
 * are kept
 */
public record Watermark(long monotonicNanos, long epochNanos) {

	/** Nothing joined yet: every finished request still awaits samples. */
	public static final Watermark NOTHING = new Watermark(Long.MIN_VALUE, Long.MIN_VALUE);

	/**
	 * Everything joined: for a store nobody joins samples for, which has nothing to wait
	 * for.
	 */
	public static final Watermark EVERYTHING = new Watermark(Long.MAX_VALUE, Long.MAX_VALUE);

	/** The watermark at a {@code System.nanoTime()} reading. */
	public static Watermark at(long monotonicNanos) {
		return new Watermark(monotonicNanos, MonotonicEpoch.toEpochNanos(monotonicNanos));
	}

	/** Whether a span that ended at {@code endEpochNanos} has all its samples joined. */
	public boolean covers(long endEpochNanos) {
		return endEpochNanos <= this.epochNanos;
	}

}
