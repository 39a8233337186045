package dev.spanprofile.attribution;

import java.util.Arrays;
import java.util.function.Function;

import dev.spanprofile.store.SpanCpuTime.Measured;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.UnsampledSamples;
import dev.spanprofile.tracking.ThreadActivity;

/**
 * The collector's copy of one thread's change points, in time order: which span was
 * active on the thread from each point until the next. Answers "what was active at time
 * t" by binary search.
 * <p>
 * The same points measure the thread's stretch inside a request, from the point where it
 * entered the request's spans to the one where it left them, each carrying the thread's
 * CPU clock and, where the kernel tells it, its run-queue wait: the differences, and the
 * stretch's own length, are added to the request's {@link Measured} figures
 * ({@link #measureStretch}). Whatever makes the difference doubtful (a change point lost,
 * another request's span attached in between, a point with no clock read) marks the
 * request as not measured in full, so that its CPU comes from its samples rather than
 * from a partial sum. A thread that comes straight back into the span it left
 * ({@link ThreadActivity#CLOCK_CONTINUED}) goes on with the stretch it closed there. The
 * stretch keeps requests by their local root's id, never their records: it may outlast
 * its request in the store, and what it closes is looked up as it closes (a request let
 * go of meanwhile is not measured further: it was handed on).
 */
final class ThreadTimeline {

	/**
	 * State of a thread whose active span is unknown (change points were lost, or none
	 * seen yet).
	 */
	static final Object UNKNOWN = new Object();

	/** State of a thread that runs outside any tracked span. */
	static final Object NONE = new Object();

	/** A clock or run-queue figure not read at a point. */
	private static final long UNREAD = -1;

	/**
	 * The thread's name, when its tracker told it: for timelines that show lanes by
	 * thread.
	 */
	String threadName;

	private long[] times = new long[16];

	private Object[] states = new Object[16];

	private int size;

	/**
	 * What was active before the first retained point: nothing, until a thread first
	 * attaches a span.
	 */
	private Object baseline = NONE;

	/**
	 * Time of the last forgotten point: the baseline holds from here on. What ran before
	 * is no longer known, and a sample that old (delivered late, after failed collection
	 * cycles) must not be given to the baseline.
	 */
	private long baselineSince = Long.MIN_VALUE;

	/**
	 * The request (its local root's span id) the thread is in, measured since
	 * {@link #openedAt}; {@code null} outside one.
	 */
	private String open;

	/** The change point's time, CPU clock and run-queue wait where it was opened. */
	private long openedTime;

	private long openedAt;

	private long openedRunQueue;

	/**
	 * The request whose stretch the thread's last point closed, and the time and clocks
	 * there; {@code null} otherwise.
	 */
	private String closed;

	private long closedTime;

	private long closedAt;

	private long closedRunQueue;

	/**
	 * How many of the thread's last stop-the-world pauses are kept for its waits to be
	 * compared with: a long socket read can hold several collections.
	 */
	private static final int PAUSES_KEPT = 4;

	/**
	 * Where the thread's last pauses (pairs of start and end, a ring; {@code null} until
	 * its first) and its last wait of its own began and ended: a thread already waiting
	 * (in a socket read) when a collection stopped the world waits once, not twice, so
	 * whichever of a wait and a pause is joined second counts only what the first does
	 * not cover.
	 */
	private long[] pauses;

	private int nextPause;

	private long waitedFrom;

	private long waitedTo;

	/**
	 * Of the thread's wait that ended at {@code end} after {@code nanos}, the nanoseconds
	 * its last pauses do not already count (at least one: the wait happened).
	 */
	long waitBeyondPauses(long end, long nanos) {
		this.waitedFrom = end - nanos;
		this.waitedTo = end;
		if (this.pauses == null) {
			return nanos;
		}
		long overlap = 0;
		for (int i = 0; i < this.pauses.length; i += 2) {
			overlap += overlap(end, nanos, this.pauses[i], this.pauses[i + 1]);
		}
		return less(nanos, overlap);
	}

	/**
	 * Of a pause that ended at {@code end} after {@code nanos}, the nanoseconds the
	 * thread's last wait does not already count.
	 */
	long pauseBeyondWait(long end, long nanos) {
		if (this.pauses == null) {
			this.pauses = new long[2 * PAUSES_KEPT];
		}
		this.pauses[this.nextPause] = end - nanos;
		this.pauses[this.nextPause + 1] = end;
		this.nextPause = (this.nextPause + 2) % this.pauses.length;
		return less(nanos, overlap(end, nanos, this.waitedFrom, this.waitedTo));
	}

	/**
	 * How long the stretch that ended at {@code end} after {@code nanos} shares with the
	 * other one.
	 */
	private static long overlap(long end, long nanos, long otherFrom, long otherTo) {
		return Math.max(0, Math.min(end, otherTo) - Math.max(end - nanos, otherFrom));
	}

	/** {@code nanos} less what is counted already, at least one where anything is. */
	private static long less(long nanos, long counted) {
		return (counted > 0) ? Math.max(1, nanos - counted) : nanos;
	}

	void append(long time, Object state) {
		if (this.size == this.times.length) {
			this.times = Arrays.copyOf(this.times, this.size * 2);
			this.states = Arrays.copyOf(this.states, this.size * 2);
		}
		// Clocks are monotonic per thread; a point out of order (publication raced the
		// clock read) is clamped.
		if (this.size > 0 && time < this.times[this.size - 1]) {
			time = this.times[this.size - 1];
		}
		this.times[this.size] = time;
		this.states[this.size] = state;
		this.size++;
	}

	/**
	 * From {@code time} on, what the thread runs is unknown until its next point, and so
	 * is the stretch it was in.
	 */
	void unknownFrom(long time, Function<String, SpanRecord> requestOf) {
		append(time, UNKNOWN);
		loseStretch(requestOf);
	}

	/** The state active at {@code time}. */
	Object stateAt(long time) {
		int low = 0;
		int high = this.size - 1;
		int found = -1;
		while (low <= high) {
			int mid = (low + high) >>> 1;
			if (this.times[mid] <= time) {
				found = mid;
				low = mid + 1;
			}
			else {
				high = mid - 1;
			}
		}
		if (found >= 0) {
			return this.states[found];
		}
		return (time >= this.baselineSince) ? this.baseline : UNKNOWN;
	}

	/** Forget points before {@code time}, keeping what they imply for later samples. */
	void forgetBefore(long time) {
		int keepFrom = 0;
		while (keepFrom < this.size && this.times[keepFrom] < time) {
			keepFrom++;
		}
		if (keepFrom == 0) {
			return;
		}
		// The last forgotten point is still in effect until the first kept one.
		this.baseline = this.states[keepFrom - 1];
		this.baselineSince = this.times[keepFrom - 1];
		int remaining = this.size - keepFrom;
		System.arraycopy(this.times, keepFrom, this.times, 0, remaining);
		System.arraycopy(this.states, keepFrom, this.states, 0, remaining);
		Arrays.fill(this.states, remaining, this.size, null);
		this.size = remaining;
		if (this.times.length > 1024 && remaining < this.times.length / 4) {
			int capacity = Math.max(16, Integer.highestOneBit(remaining) * 2);
			this.times = Arrays.copyOf(this.times, capacity);
			this.states = Arrays.copyOf(this.states, capacity);
		}
	}

	/**
	 * Point at {@link #NONE} wherever a request's samples were folded or let go: a sample
	 * joined to such a request counts as outside any, as one joined to {@code NONE}, and
	 * the points kept for two dump intervals would otherwise keep each request reachable
	 * that long, copied by every young collection in between and then promoted.
	 */
	void releaseDoneRequests() {
		for (int i = 0; i < this.size; i++) {
			if (this.states[i] instanceof UnsampledSamples request && request.isDone()) {
				this.states[i] = NONE;
			}
		}
		if (this.baseline instanceof UnsampledSamples request && request.isDone()) {
			this.baseline = NONE;
		}
	}

	boolean isEmpty() {
		return this.size == 0;
	}

	Object baseline() {
		return this.baseline;
	}

	int size() {
		return this.size;
	}

	/**
	 * The thread's state changed to the request {@code now} ({@code null} outside one),
	 * whose local root is {@code nowRoot}, with its CPU clock and run-queue wait or -1,
	 * read at {@code time}; {@code requestOf} finds a request's local root by its id
	 * while it is tracked.
	 */
	void measureStretch(String now, SpanRecord nowRoot, long time, long cpuNanos, long runQueueNanos, boolean gapsKnown,
			Function<String, SpanRecord> requestOf) {
		String closed = this.closed;
		this.closed = null;
		if (cpuNanos == ThreadActivity.CLOCK_CONTINUED) {
			if (now != null && now.equals(closed) && this.open == null) {
				// The stretch goes on: the next exit's clocks less the ones read where it
				// left count the rest.
				nowRoot.measureCpu(Measured::stretchOpened);
				openStretch(now, this.closedTime, this.closedAt, this.closedRunQueue);
				return;
			}
			cpuNanos = UNREAD;
		}
		if (cpuNanos == UNREAD && runQueueNanos < 0) {
			if (!same(now, this.open)) {
				// Another request, or none, without the thread leaving spans: no clock
				// says where one ended.
				loseStretch(requestOf);
				if (now != null) {
					nowRoot.measureCpu(Measured::partUnmeasured);
				}
			}
			return;
		}
		if (this.open != null) {
			if (now == null || now.equals(this.open)) {
				boolean runQueueRead = runQueueNanos >= 0 && this.openedRunQueue >= 0;
				boolean cpuRead = cpuNanos >= 0 && this.openedAt >= 0;
				SpanRecord openRoot = (now != null) ? nowRoot : requestOf.apply(this.open);
				if (openRoot != null) {
					long cpu = cpuRead ? cpuNanos - this.openedAt : UNREAD;
					long runQueue = runQueueRead ? runQueueNanos - this.openedRunQueue : UNREAD;
					long wall = time - this.openedTime;
					openRoot.measureCpu((figures) -> figures.stretchClosed(cpu, runQueue, wall));
				}
				if (now == null) {
					this.closed = this.open;
					this.closedTime = time;
					this.closedAt = cpuNanos;
					this.closedRunQueue = runQueueNanos;
				}
				this.open = null;
			}
			else {
				loseStretch(requestOf);
			}
		}
		if (now != null) {
			boolean fromPrevious = gapsKnown && closed != null && !closed.equals(now) && runQueueNanos >= 0
					&& this.closedRunQueue >= 0;
			// The thread comes from its previous request with nothing in between: the
			// kernel's count since that exit is its wait for a core to take this one.
			// Not where untraced requests run unprofiled: one may have run in between
			// without a change point, and its waits would be counted here.
			long before = fromPrevious ? runQueueNanos - this.closedRunQueue : UNREAD;
			nowRoot.measureCpu((figures) -> figures.waitedBeforeStart(time, before).stretchOpened());
			openStretch(now, time, cpuNanos, runQueueNanos);
		}
	}

	private static boolean same(String request, String other) {
		return (request == null) ? other == null : request.equals(other);
	}

	private void openStretch(String request, long time, long cpuNanos, long runQueueNanos) {
		this.open = request;
		this.openedTime = time;
		this.openedAt = cpuNanos;
		this.openedRunQueue = runQueueNanos;
	}

	/** What the thread did since the last point is unknown. */
	void loseStretch(Function<String, SpanRecord> requestOf) {
		this.closed = null;
		if (this.open != null) {
			SpanRecord openRoot = requestOf.apply(this.open);
			if (openRoot != null) {
				openRoot.measureCpu(Measured::stretchLost);
			}
			this.open = null;
		}
	}

}
