package dev.spanprofile.lifecycle;

import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.tracking.NanoClock;
import dev.spanprofile.tracking.UnsampledRequest;

/**
 * Requests that tracing did not sample, as the web framework reports them: with a trace
 * sampling probability of 10 %, nine requests in ten. They are never stored as spans (no
 * span id, no span list entry, no export), but their latency counts in their name's
 * statistics and their samples in their name's profile, marked as unsampled.
 * <p>
 * The caller, on the application's threads: {@link #started} as the request starts,
 * {@link #entered} and {@link #left} on each thread as it starts and stops working for
 * it, {@link #ended} with the name the span would have had. Per request that is one small
 * object and a few field writes per thread; nothing while no request is unsampled. Only
 * the requests an {@link UnsampledProfilingRate} lets in are profiled; the others'
 * threads are not told about them, and their samples count as outside any request.
 */
public final class UnsampledRequests {

	private final ActivationRecorder recorder;

	private final NameAggregates aggregates;

	private final NanoClock clock;

	private volatile boolean anyStarted;

	public UnsampledRequests(ActivationRecorder recorder, NameAggregates aggregates, NanoClock clock) {
		this.recorder = recorder;
		this.aggregates = aggregates;
		this.clock = clock;
	}

	/**
	 * A request that tracing did not sample starts now, profiled if {@code rate} lets it
	 * in: otherwise only its latency counts.
	 */
	public UnsampledRequest started(UnsampledProfilingRate rate) {
		if (!this.anyStarted) {
			// Written once: after that a read, so request threads do not contend on it.
			this.anyStarted = true;
		}
		long now = this.clock.nanoTime();
		return new UnsampledRequest(now, rate.admit(now));
	}

	/** Whether any request tracing did not sample has started. */
	public boolean anyStarted() {
		return this.anyStarted;
	}

	/**
	 * The calling thread starts working for {@code request}: its samples belong to it
	 * from now on, if it is profiled.
	 */
	public void entered(UnsampledRequest request) {
		if (request.isProfiled()) {
			this.recorder.unsampledRequestEntered(request);
		}
	}

	/**
	 * The calling thread stops working for {@code request} ({@code null}: for whichever
	 * request it works for).
	 */
	public void left(UnsampledRequest request) {
		if (request == null || request.isProfiled()) {
			this.recorder.unsampledRequestLeft(request);
		}
	}

	/**
	 * {@code request} ended now, under the {@code name} its span would have had
	 * ({@code null}: not to be counted, as a call to the actuator). Counts it in the
	 * name's latency statistics at once; its samples follow once every sample up to now
	 * is joined.
	 */
	public void ended(UnsampledRequest request, String name, boolean error) {
		long end = this.clock.nanoTime();
		if (request.end(name, error, end) && name != null) {
			this.aggregates.unsampledEnded(name, request.durationNanos(), error, MonotonicEpoch.toEpochNanos(end));
		}
	}

	/**
	 * Collector thread: every sample of {@code request} is joined; fold them into its
	 * name's profile.
	 */
	public void complete(UnsampledRequest request, StackTree[] samples) {
		if (request.name() != null) {
			this.aggregates.foldUnsampled(request.name(), request.durationNanos(),
					MonotonicEpoch.toEpochNanos(request.endNanos()), request.isError(), samples);
		}
	}

}
