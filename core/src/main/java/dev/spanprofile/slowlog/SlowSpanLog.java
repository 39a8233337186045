package dev.spanprofile.slowlog;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import dev.spanprofile.cgroup.ThrottlingHistory;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.SpanRecord;

/**
 * Writes one INFO line per slow request once its profile is complete: it is told of each
 * stored local root when every sample up to the root's end has been joined (samples reach
 * the store up to a dump interval after they are taken, so a line written when the span
 * ends would miss the end of the request).
 * <p>
 * Rate-limited: at most {@code maxPerMinute} lines in any minute; slow requests beyond
 * that are counted, and the count is told in the next line.
 */
public final class SlowSpanLog implements Consumer<SpanRecord> {

	private static final System.Logger logger = System.getLogger(SlowSpanLog.class.getName());

	private static final long MINUTE_NANOS = 60_000_000_000L;

	private final SlowSpanLogSettings settings;

	private final FrameTable frames;

	/**
	 * The sample kinds and interval as they are when a line is written: sampling can
	 * change at run time (waits recorded from when the application is ready, a change on
	 * the page), and a line that still read the kinds of the start would leave the waits
	 * out.
	 */
	private final Supplier<Set<SampleKind>> kinds;

	private final Supplier<Duration> interval;

	private final LongSupplier ticker;

	private final ThrottlingHistory throttling;

	/** When the lines of the last minute were written, oldest first. */
	private final ArrayDeque<Long> written = new ArrayDeque<>();

	private long suppressed;

	/**
	 * @param frames to name the frames
	 * @param kinds the sample kinds taken, for the CPU and wall parts of the line
	 * @param interval the sampling interval: one CPU sample stands for this much CPU time
	 * @param ticker a monotonic clock in nanoseconds, for the rate limit
	 */
	public SlowSpanLog(SlowSpanLogSettings settings, FrameTable frames, Set<SampleKind> kinds, Duration interval,
			LongSupplier ticker) {
		this(settings, frames, kinds, interval, ticker, ThrottlingHistory.NONE);
	}

	/**
	 * As
	 * {@link #SlowSpanLog(SlowSpanLogSettings, FrameTable, Set, Duration, LongSupplier)},
	 * the lines saying when the container's CPU limit throttled the process around the
	 * request ({@code throttling}).
	 */
	public SlowSpanLog(SlowSpanLogSettings settings, FrameTable frames, Set<SampleKind> kinds, Duration interval,
			LongSupplier ticker, ThrottlingHistory throttling) {
		this(settings, frames, () -> kinds, () -> interval, ticker, throttling);
	}

	/**
	 * As
	 * {@link #SlowSpanLog(SlowSpanLogSettings, FrameTable, Set, Duration, LongSupplier, ThrottlingHistory)},
	 * with the kinds and interval read for each line from the sampling as it is then.
	 */
	public SlowSpanLog(SlowSpanLogSettings settings, FrameTable frames, Supplier<Set<SampleKind>> kinds,
			Supplier<Duration> interval, LongSupplier ticker, ThrottlingHistory throttling) {
		if (!settings.enabled()) {
			throw new IllegalArgumentException("no threshold set");
		}
		this.settings = settings;
		this.frames = frames;
		this.kinds = kinds;
		this.interval = interval;
		this.ticker = ticker;
		this.throttling = throttling;
	}

	/** A stored local root whose profile is complete. */
	@Override
	public void accept(SpanRecord root) {
		if (!this.settings.isSlow(root.durationNanos(root.endEpochNanos()))) {
			return;
		}
		long unloggedBefore;
		synchronized (this) {
			long now = this.ticker.getAsLong();
			while (!this.written.isEmpty() && now - this.written.peekFirst() >= MINUTE_NANOS) {
				this.written.removeFirst();
			}
			if (this.written.size() >= this.settings.maxPerMinute()) {
				this.suppressed++;
				return;
			}
			this.written.addLast(now);
			unloggedBefore = this.suppressed;
			this.suppressed = 0;
		}
		String line = SlowSpanLine.describe(root, this.frames, this.kinds.get(), this.interval.get(),
				this.settings.flameGraphPath(), this.throttling);
		if (unloggedBefore > 0) {
			line += " (" + unloggedBefore + " more slow requests not logged before this one: at most "
					+ this.settings.maxPerMinute() + " lines a minute)";
		}
		logger.log(System.Logger.Level.INFO, line);
	}

}
