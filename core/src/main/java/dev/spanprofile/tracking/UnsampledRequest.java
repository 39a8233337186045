package dev.spanprofile.tracking;

/**
 * One request that tracing did not sample, profiled all the same: it has no span id and
 * is never stored as a span, but while it is
 * {@link ActivationRecorder#unsampledRequestEntered entered} on a thread the samples
 * taken there belong to it, and once it ends they count in the profile of its name (the
 * route the web framework matched, the span's name had it been sampled).
 * <p>
 * Written by the application's threads: the start when the request starts, the name,
 * outcome and end as it ends (the end last and volatile, publishing the rest). Read by
 * the collector, which folds the request's samples once the samples up to its end are all
 * joined.
 */
public final class UnsampledRequest {

	private static final long RUNNING = Long.MIN_VALUE;

	private final long startNanos;

	private final boolean profiled;

	private String name;

	private boolean error;

	private volatile long endNanos = RUNNING;

	/**
	 * Where the collector gathers this request's samples: its own, never read by the
	 * application's threads. Kept here rather than in a map by request, which costs an
	 * identity hash for every request and a lookup at every change point.
	 */
	private Object samples;

	/**
	 * A request that started at {@code startNanos}, on the {@code System.nanoTime()}
	 * clock, profiled.
	 */
	public UnsampledRequest(long startNanos) {
		this(startNanos, true);
	}

	/**
	 * A request that started at {@code startNanos}, on the {@code System.nanoTime()}
	 * clock; {@code profiled}: whether its samples are its own (otherwise only its
	 * latency counts, and its threads are not told they work for it).
	 */
	public UnsampledRequest(long startNanos, boolean profiled) {
		this.startNanos = startNanos;
		this.profiled = profiled;
	}

	/**
	 * The request ended at {@code endNanos}, under its final {@code name} ({@code null}:
	 * not to be counted, as a call to the actuator). Once only: later calls are ignored.
	 * @return whether this call ended it
	 */
	public boolean end(String name, boolean error, long endNanos) {
		if (this.endNanos != RUNNING) {
			return false;
		}
		this.name = name;
		this.error = error;
		this.endNanos = endNanos;
		return true;
	}

	/** Whether its samples are gathered for its name's profile. */
	public boolean isProfiled() {
		return this.profiled;
	}

	public boolean isEnded() {
		return this.endNanos != RUNNING;
	}

	public long startNanos() {
		return this.startNanos;
	}

	/**
	 * When it ended on the {@code System.nanoTime()} clock; meaningful once
	 * {@link #isEnded() ended}.
	 */
	public long endNanos() {
		return this.endNanos;
	}

	public long durationNanos() {
		return Math.max(0, this.endNanos - this.startNanos);
	}

	/**
	 * Its name; known once {@link #isEnded() ended} ({@code null} for a request not to be
	 * counted).
	 */
	public String name() {
		return this.name;
	}

	public boolean isError() {
		return this.error;
	}

	/**
	 * Where the collector gathers this request's samples, {@code null} until it sets them
	 * (and what it leaves once they are folded). Collector thread only.
	 */
	public Object samples() {
		return this.samples;
	}

	/** Collector thread only. */
	public void samples(Object samples) {
		this.samples = samples;
	}

}
