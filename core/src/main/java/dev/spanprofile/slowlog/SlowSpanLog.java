package dev.spanprofile.slowlog;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

import dev.spanprofile.store.SampleKind;
import dev.spanprofile.store.FrameTable;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Writes one INFO line per slow request once its profile is complete (samples reach the store up to a dump
 * interval after they are taken, so a line written when the span ends would miss the end of the request).
 * <p>
 * Rate-limited: at most {@code maxPerMinute} lines in any minute; slow requests beyond that are counted, and the
 * count is told in the next line. Waiting requests are bounded by the same limit.
 * <p>
 * A {@link SpanProcessor} to run after the one that records span ends in the store.
 */
public final class SlowSpanLog implements SpanProcessor {

	private static final System.Logger logger = System.getLogger(SlowSpanLog.class.getName());

	private static final long MINUTE_NANOS = 60_000_000_000L;

	private final SlowSpanLogSettings settings;

	private final SpanProfileStore store;

	private final Set<SampleKind> kinds;

	private final Duration interval;

	private final LongSupplier ticker;

	private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();

	/** When the lines of the last minute were written, oldest first. */
	private final ArrayDeque<Long> written = new ArrayDeque<>();

	private long suppressed;

	/**
	 * @param kinds the sample kinds taken, for the CPU and wall parts of the line
	 * @param interval the sampling interval: one CPU sample stands for this much CPU time
	 * @param ticker a monotonic clock in nanoseconds, for the rate limit
	 */
	public SlowSpanLog(SlowSpanLogSettings settings, SpanProfileStore store, Set<SampleKind> kinds,
			Duration interval, LongSupplier ticker) {
		if (!settings.enabled()) {
			throw new IllegalArgumentException("no threshold set");
		}
		this.settings = settings;
		this.store = store;
		this.kinds = kinds;
		this.interval = interval;
		this.ticker = ticker;
	}

	@Override
	public void onStart(Context parentContext, ReadWriteSpan span) {
	}

	@Override
	public boolean isStartRequired() {
		return false;
	}

	@Override
	public void onEnd(ReadableSpan span) {
		SpanContext parent = span.getParentSpanContext();
		if ((parent.isValid() && !parent.isRemote())
				|| span.getLatencyNanos() <= this.settings.threshold().toNanos()) {
			return;
		}
		// Not stored (excluded, or started while profiling was stopped): there is no profile to point to.
		SpanRecord record = this.store.find(span.getSpanContext().getSpanId());
		if (record != null && !record.inFlight()) {
			offer(record);
		}
	}

	@Override
	public boolean isEndRequired() {
		return true;
	}

	synchronized void offer(SpanRecord root) {
		forgetOlderThanAMinute();
		if (this.written.size() + this.waiting.size() >= this.settings.maxPerMinute()) {
			this.suppressed++;
			return;
		}
		// The line tells how many slow requests went unlogged since the previous one.
		this.waiting.add(new Waiting(root, this.suppressed));
		this.suppressed = 0;
	}

	/**
	 * Write the lines of the slow requests whose profile is complete.
	 * @param completeUpToEpochNanos the time up to which all samples are in the store
	 * @param frames to name the frames
	 */
	public void flush(long completeUpToEpochNanos, FrameTable frames) {
		List<Waiting> ready = new ArrayList<>();
		synchronized (this) {
			for (Iterator<Waiting> it = this.waiting.iterator(); it.hasNext();) {
				Waiting next = it.next();
				if (next.root().endEpochNanos() <= completeUpToEpochNanos) {
					it.remove();
					ready.add(next);
					this.written.add(this.ticker.getAsLong());
				}
			}
		}
		for (Waiting next : ready) {
			String line = SlowSpanLine.describe(next.root(), frames, this.kinds, this.interval,
					this.settings.flameGraphPath());
			if (next.unloggedBefore() > 0) {
				line += " (" + next.unloggedBefore() + " more slow requests not logged before this one: at most "
						+ this.settings.maxPerMinute() + " lines a minute)";
			}
			logger.log(System.Logger.Level.INFO, line);
		}
	}

	private record Waiting(SpanRecord root, long unloggedBefore) {
	}

	private void forgetOlderThanAMinute() {
		long now = this.ticker.getAsLong();
		while (!this.written.isEmpty() && now - this.written.peekFirst() >= MINUTE_NANOS) {
			this.written.removeFirst();
		}
	}

}
