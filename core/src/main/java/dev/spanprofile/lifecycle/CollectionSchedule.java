package dev.spanprofile.lifecycle;

/**
 * When the collector collects, as opposed to what a collection does
 * ({@link CollectionCycle}). A collection is due a dump interval after the last one;
 * sooner for a reader about to look at profiles, unless the last one is still fresh; and
 * sooner when requests the store drops before their samples are joined come so fast that
 * its room for them to await their samples would fill before the next collection, so that
 * later ones do not reach the span-name profiles and exports without their samples; and
 * about a second after a request slow enough for the slow-request log ends, so that its
 * line does not wait for the dump interval.
 * <p>
 * Times are {@link System#nanoTime()} readings passed in by the caller, which also
 * serializes the calls (the cycle's lock), {@link #fresh} excepted.
 */
final class CollectionSchedule {

	/** Readings of {@link CollectorSettings}, in nanoseconds. */
	private final long freshNanos;

	private final long roomMarginNanos;

	private final long slowRequestDelayNanos;

	/** No slow request has ended (or none the watermark does not cover). */
	static final long NO_SLOW_REQUEST = Long.MIN_VALUE;

	private final long intervalNanos;

	/**
	 * When the first slow request not yet covered by the watermark ended, as the
	 * collector first saw it, or {@link #NO_SLOW_REQUEST}.
	 */
	private long slowRequestEnd = NO_SLOW_REQUEST;

	/** Volatile: {@link #fresh} is read by readers without the caller's lock. */
	private volatile long lastStart;

	/**
	 * Whether the last collection moved the watermark on. Only then is the next one
	 * brought forward for requests awaiting their samples: a failing engine, or one whose
	 * promise stopped moving, would otherwise be dumped five times a second for as long
	 * as it stays so.
	 */
	private boolean advanced = true;

	CollectionSchedule(CollectorSettings settings) {
		this.intervalNanos = settings.intervalNanos();
		this.freshNanos = settings.fresh().toNanos();
		this.roomMarginNanos = settings.roomMargin().toNanos();
		this.slowRequestDelayNanos = settings.slowRequestDelay().toNanos();
	}

	long intervalNanos() {
		return this.intervalNanos;
	}

	/**
	 * Whether a collection is due at {@code now}: an interval after the last one; or,
	 * once that one is no longer fresh and it moved the watermark on, when at the rate
	 * requests came to await their samples since then the {@code room} left would fill
	 * within {@link CollectorSettings#roomMargin()}. The rate counts all {@code awaiting}
	 * as come since the last collection: right when it emptied the room, too high when
	 * samples arrive late (Flight Recorder's waits, a flush behind), which errs early. At
	 * a steady rate, a room that holds an interval's worth of requests and more never
	 * brings a collection forward; a smaller one brings each 200 ms before it fills.
	 */
	boolean due(long now, int awaiting, int room) {
		long sinceLast = now - this.lastStart;
		if (sinceLast >= this.intervalNanos) {
			return true;
		}
		if (sinceLast < this.freshNanos || !this.advanced || awaiting == 0) {
			return false;
		}
		double left = Math.max(0, room - awaiting);
		return left * sinceLast <= (double) awaiting * this.roomMarginNanos;
	}

	/**
	 * Whether {@link #due} may bring a collection forward for requests awaiting their
	 * samples within {@code withinNanos} of {@code now}: the room is half full, or at the
	 * rate they came since the last collection the room left would fill within
	 * {@link CollectorSettings#roomMargin()} and {@code withinNanos}. The collector
	 * drains at its quickest pace only then, so that such a collection is not late by
	 * more than a quick drain; at a steady rate a room that holds twice an interval's
	 * worth of requests never is. Half full, because that rate is too low while requests
	 * have only begun to await: those dropped first after a collection are the complete
	 * ones, which go at once.
	 */
	boolean mayBringForward(long now, int awaiting, int room, long withinNanos) {
		if (!this.advanced || awaiting == 0) {
			return false;
		}
		if (2L * awaiting >= room) {
			return true;
		}
		long sinceLast = Math.max(1, now - this.lastStart);
		double left = Math.max(0, room - awaiting);
		return left * sinceLast <= (double) awaiting * (this.roomMarginNanos + withinNanos);
	}

	/**
	 * Whether a collection is due at {@code now} for a slow request: {@code lastSlowEnd}
	 * is when the latest ended ({@link #NO_SLOW_REQUEST} if none has),
	 * {@code completeUpTo} the watermark. Due
	 * {@link CollectorSettings#slowRequestDelay()} after the first slow request the
	 * watermark does not cover yet, and again while it does not, though not within the
	 * fresh window nor after a collection that did not move the watermark on. A request's
	 * end is the latest one at the first tick that sees it: requests that end together
	 * are collected together.
	 */
	boolean dueForSlowRequest(long now, long lastSlowEnd, long completeUpTo) {
		if (!slowRequestWaits(lastSlowEnd, completeUpTo)) {
			this.slowRequestEnd = NO_SLOW_REQUEST;
			return false;
		}
		if (this.slowRequestEnd == NO_SLOW_REQUEST || this.slowRequestEnd <= completeUpTo) {
			this.slowRequestEnd = lastSlowEnd;
		}
		return now - this.slowRequestEnd >= this.slowRequestDelayNanos && now - this.lastStart >= this.freshNanos
				&& this.advanced;
	}

	/**
	 * Whether a slow request that ended at {@code lastSlowEnd} ({@link #NO_SLOW_REQUEST}
	 * if none has) still waits for a collection to cover it.
	 */
	static boolean slowRequestWaits(long lastSlowEnd, long completeUpTo) {
		return lastSlowEnd != NO_SLOW_REQUEST && lastSlowEnd > completeUpTo;
	}

	/** How long from {@code now} until a collection is due by the interval alone. */
	long untilDue(long now) {
		return this.intervalNanos - (now - this.lastStart);
	}

	/**
	 * Whether a collection started at {@code now} would find little the last did not. Any
	 * thread, without the lock.
	 */
	boolean fresh(long now) {
		return now - this.lastStart < this.freshNanos;
	}

	/**
	 * A collection starts at {@code now}, or sampling resumes then: the next is due an
	 * interval later.
	 */
	void started(long now) {
		this.lastStart = now;
	}

	/** The collection that started last moved the watermark on, or did not. */
	void ended(boolean advanced) {
		this.advanced = advanced;
	}

}
