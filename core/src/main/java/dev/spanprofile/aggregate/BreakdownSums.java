package dev.spanprofile.aggregate;

import java.util.Arrays;

/**
 * Where the time of a set of requests went, added up request by request: their durations,
 * CPU, waits by {@link WaitSlots slot} (kind and peer, file or monitor) with how many,
 * waiting for a core, short waits, and what each request left unaccounted or counted
 * twice. Each request's parts are worked out as its own breakdown works them out and then
 * added, so the sums add up to the requests' total duration exactly as each request's
 * parts add up to its own: {@code duration = cpu + waits + coreWait +
 * shortWait + unaccounted - overlap}.
 * <p>
 * One per name, time bucket and latency band, so that a window, a heatmap selection and
 * the slow side of a comparison add up the cells they take. Bounded: at most
 * {@link #MAX_SLOTS} slots of waits each; more fold into their kind's others. Guarded by
 * the {@link NameProfiles} lock.
 */
final class BreakdownSums {

	/** Wait slots kept per cell; a request rarely waits on more than a few peers. */
	static final int MAX_SLOTS = 24;

	/** Header, 13 longs, two ints, three references. */
	private static final int FIXED_BYTES = 16 + 13 * 8 + 8 + 12;

	long requests;

	long durationNanos;

	/** Requests whose CPU was sampled (or measured), which {@link #cpuNanos} adds up. */
	long cpuRequests;

	long cpuNanos;

	/** CPU samples of those requests: how sure an estimate from samples is. */
	long cpuSamples;

	/** Requests whose CPU was read from their threads' CPU clocks. */
	long measuredRequests;

	/** Requests whose threads' time waiting for a core and blocked was read. */
	long scheduledRequests;

	long coreWaitNanos;

	long coreWaitInWaitsNanos;

	long shortWaitNanos;

	long unaccountedNanos;

	long overlapNanos;

	long waitNanos;

	/** Slots kept before more fold into their kind's others. */
	private final int maxSlots;

	private int size;

	/** Made with the first wait: most cells of a service that does not wait have none. */
	private int[] slots;

	private long[] nanos;

	private long[] counts;

	/** A cell's sums: at most {@link #MAX_SLOTS} slots. */
	BreakdownSums() {
		this(MAX_SLOTS);
	}

	/**
	 * Sums over many cells, which take every slot they hold ({@link WaitSlots} bounds
	 * them).
	 */
	static BreakdownSums unbounded() {
		return new BreakdownSums(Integer.MAX_VALUE);
	}

	private BreakdownSums(int maxSlots) {
		this.maxSlots = maxSlots;
	}

	/** Add waits of {@code slot}: {@code nanos} long, {@code count} of them. */
	void addWait(WaitSlots waitSlots, int slot, long nanos, long count) {
		int at = indexOf(slot);
		if (at < 0) {
			if (this.size >= this.maxSlots) {
				slot = waitSlots.othersOfSlot(slot);
				at = indexOf(slot);
			}
			if (at < 0) {
				at = append(slot);
			}
		}
		this.nanos[at] += nanos;
		this.counts[at] += count;
		this.waitNanos += nanos;
	}

	private int indexOf(int slot) {
		if (this.slots == null) {
			return -1;
		}
		for (int i = 0; i < this.size; i++) {
			if (this.slots[i] == slot) {
				return i;
			}
		}
		return -1;
	}

	private int append(int slot) {
		if (this.slots == null) {
			this.slots = new int[2];
			this.nanos = new long[2];
			this.counts = new long[2];
		}
		if (this.size == this.slots.length) {
			int grown = this.size * 2;
			this.slots = Arrays.copyOf(this.slots, grown);
			this.nanos = Arrays.copyOf(this.nanos, grown);
			this.counts = Arrays.copyOf(this.counts, grown);
		}
		this.slots[this.size] = slot;
		return this.size++;
	}

	/**
	 * One request's other parts, after its waits ({@link #addWait}) added up to
	 * {@code waitNanos}: worked out as its own breakdown does.
	 * @param cpuNanos its CPU time, negative where CPU is not sampled
	 * @param measured whether that was read from its threads' CPU clocks
	 * @param cpuSamples its CPU samples
	 * @param runQueueNanos its threads' time runnable, not running; negative where not
	 * read
	 * @param blockedNanos their time blocked; negative where not read, an estimate where
	 * the CPU time is (which tells the wait for a core inside recorded waits, not short
	 * waits)
	 */
	void addRequest(long durationNanos, long cpuNanos, boolean measured, long cpuSamples, long runQueueNanos,
			long blockedNanos, long waitNanos) {
		this.requests++;
		this.durationNanos += durationNanos;
		long cpu = Math.max(0, cpuNanos);
		if (cpuNanos >= 0) {
			this.cpuRequests++;
			this.cpuNanos += cpu;
			this.cpuSamples += cpuSamples;
			if (measured) {
				this.measuredRequests++;
			}
		}
		long coreWait = 0;
		long shortWait = 0;
		if (cpuNanos >= 0 && runQueueNanos >= 0 && blockedNanos >= 0) {
			long inWaits = Math.min(runQueueNanos, Math.max(0, waitNanos - blockedNanos));
			coreWait = runQueueNanos - inWaits;
			shortWait = measured ? Math.max(0, blockedNanos - waitNanos) : 0;
			this.scheduledRequests++;
			this.coreWaitNanos += coreWait;
			this.coreWaitInWaitsNanos += inWaits;
			this.shortWaitNanos += shortWait;
		}
		long accounted = cpu + waitNanos + coreWait + shortWait;
		this.unaccountedNanos += Math.max(0, durationNanos - accounted);
		this.overlapNanos += Math.max(0, accounted - durationNanos);
	}

	/** Add everything {@code other} holds. */
	void addAll(WaitSlots waitSlots, BreakdownSums other) {
		this.requests += other.requests;
		this.durationNanos += other.durationNanos;
		this.cpuRequests += other.cpuRequests;
		this.cpuNanos += other.cpuNanos;
		this.cpuSamples += other.cpuSamples;
		this.measuredRequests += other.measuredRequests;
		this.scheduledRequests += other.scheduledRequests;
		this.coreWaitNanos += other.coreWaitNanos;
		this.coreWaitInWaitsNanos += other.coreWaitInWaitsNanos;
		this.shortWaitNanos += other.shortWaitNanos;
		this.unaccountedNanos += other.unaccountedNanos;
		this.overlapNanos += other.overlapNanos;
		// addWait adds up waitNanos too.
		for (int i = 0; i < other.size; i++) {
			addWait(waitSlots, other.slots[i], other.nanos[i], other.counts[i]);
		}
	}

	int size() {
		return this.size;
	}

	int slot(int i) {
		return this.slots[i];
	}

	long nanos(int i) {
		return this.nanos[i];
	}

	long count(int i) {
		return this.counts[i];
	}

	long bytes() {
		return FIXED_BYTES + ((this.slots != null) ? 3 * 16 + 20L * this.slots.length : 0);
	}

}
