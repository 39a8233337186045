package dev.spanprofile.render;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.spanprofile.profile.WaitKind;

/**
 * A breakdown of several requests, from their parts added up request by request (each
 * request's remainder and excess too, which the sums of the whole cannot give back):
 * {@code durationNanos = cpu + waits + core wait + short waits + unaccounted
 * - overlap}.
 */
public final class TimeBreakdownSum {

	/** What details beyond the aggregates' bound are called. */
	private static final String OTHER_DETAILS = "details not named (beyond the bound)";

	private static final String OTHER_PEERS = "peers not named (beyond the bound)";

	private final long requests;

	private final long durationNanos;

	private long cpuNanos = -1;

	private boolean cpuMeasured;

	private boolean waitsRecorded;

	private final Map<String, Map<String, long[]>> byCategory = new LinkedHashMap<>();

	private final Map<String, long[]> byPeer = new LinkedHashMap<>();

	private long scheduledRequests;

	private long coreWaitNanos;

	private long coreWaitInWaitsNanos;

	private long shortWaitNanos;

	private long unaccountedNanos;

	private long overlapNanos;

	TimeBreakdownSum(long requests, long durationNanos) {
		this.requests = requests;
		this.durationNanos = durationNanos;
	}

	/**
	 * Their CPU time; {@code measured} when every one was read from the threads' CPU
	 * clocks.
	 */
	public TimeBreakdownSum cpu(long nanos, boolean measured) {
		this.cpuNanos = nanos;
		this.cpuMeasured = measured;
		return this;
	}

	/** Waits are recorded: no wait added means none. */
	public TimeBreakdownSum waitsRecorded() {
		this.waitsRecorded = true;
		return this;
	}

	/**
	 * {@code count} waits of {@code kind} ({@code null}: a leaf no wait kind names) on
	 * {@code detail} ({@code null}: not named) that lasted {@code nanos}; with
	 * {@code others}, waits on details beyond the aggregates' bound, added up.
	 */
	public TimeBreakdownSum wait(WaitKind kind, String detail, boolean others, long nanos, long count) {
		this.waitsRecorded = true;
		String category = (kind != null) ? kind.category() : TimeBreakdown.OTHER_WAITS;
		String on = others ? OTHER_DETAILS : ((detail != null) ? detail : "");
		long[] sums = this.byCategory.computeIfAbsent(category, (key) -> new LinkedHashMap<>())
			.computeIfAbsent(on, (key) -> new long[2]);
		sums[0] += nanos;
		sums[1] += count;
		if (kind == WaitKind.SOCKET_READ && count > 0) {
			long[] trips = this.byPeer.computeIfAbsent(
					others ? OTHER_PEERS : ((detail != null) ? detail : "an unnamed peer"), (key) -> new long[2]);
			trips[0] += count;
			trips[1] += nanos;
		}
		return this;
	}

	/**
	 * What the kernel's figures gave, added up over the {@code scheduledRequests} whose
	 * figures were read.
	 */
	public TimeBreakdownSum kernel(long scheduledRequests, long coreWaitNanos, long coreWaitInWaitsNanos,
			long shortWaitNanos) {
		this.scheduledRequests = scheduledRequests;
		this.coreWaitNanos = coreWaitNanos;
		this.coreWaitInWaitsNanos = coreWaitInWaitsNanos;
		this.shortWaitNanos = shortWaitNanos;
		return this;
	}

	/**
	 * What each request's parts left of its duration, and exceeded it by, added up.
	 */
	public TimeBreakdownSum rest(long unaccountedNanos, long overlapNanos) {
		this.unaccountedNanos = unaccountedNanos;
		this.overlapNanos = overlapNanos;
		return this;
	}

	public TimeBreakdown build() {
		return new TimeBreakdown(this.durationNanos, this.cpuNanos, this.cpuMeasured && this.cpuNanos >= 0, 0,
				this.waitsRecorded ? TimeBreakdown.sortedCategories(this.byCategory) : null,
				TimeBreakdown.sortedTrips(this.byPeer), -1, -1, this.requests,
				new Summed(this.scheduledRequests, this.coreWaitNanos, this.coreWaitInWaitsNanos, this.shortWaitNanos,
						this.unaccountedNanos, this.overlapNanos));
	}

	/**
	 * What a breakdown of several requests takes from their parts added up request by
	 * request.
	 */
	record Summed(long scheduledRequests, long coreWaitNanos, long coreWaitInWaitsNanos, long shortWaitNanos,
			long unaccountedNanos, long overlapNanos) {
	}

}
