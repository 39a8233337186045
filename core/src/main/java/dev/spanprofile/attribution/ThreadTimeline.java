package dev.spanprofile.attribution;

import java.util.Arrays;

import dev.spanprofile.store.UnsampledSamples;

/**
 * The collector's copy of one thread's change points, in time order: which span was
 * active on the thread from each point until the next. Answers "what was active at time
 * t" by binary search.
 */
final class ThreadTimeline {

	/**
	 * State of a thread whose active span is unknown (change points were lost, or none
	 * seen yet).
	 */
	static final Object UNKNOWN = new Object();

	/** State of a thread that runs outside any tracked span. */
	static final Object NONE = new Object();

	/**
	 * The thread's name, when its tracker told it: for timelines that show lanes by
	 * thread.
	 */
	String threadName;

	/** The thread's CPU clock across the request it is in. */
	final ThreadCpuStretch cpuStretch = new ThreadCpuStretch();

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

}
