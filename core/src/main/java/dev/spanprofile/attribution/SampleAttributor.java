package dev.spanprofile.attribution;

import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;

import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.UnsampledSamples;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.tracking.NanoClock;
import dev.spanprofile.tracking.ThreadActivity;
import dev.spanprofile.tracking.UnsampledRequest;
import io.opentelemetry.api.trace.SpanContext;

/**
 * Joins samples to spans: a sample taken on thread T at time t belongs to the span that
 * was active on T at t, according to T's change points. With root-span-only attribution
 * it goes to that span's local root instead.
 * <p>
 * Collector thread only: {@link #changed}/{@link #gap} absorb drained change points and
 * {@link #changePointsCompleteUpTo} says up to when the timelines are complete;
 * {@link #sample} joins a sample at once when it is older than that, and holds it back
 * until the next drain otherwise, since a change point on its thread may still be
 * unpublished. {@link #forgetBefore} drops what no later sample can need.
 * <p>
 * A thread working for a request that tracing did not sample ({@link UnsampledRequest})
 * gives its samples to that request, gathered in the store
 * ({@link dev.spanprofile.store.UnsampledSamples}) until the request is complete: they
 * stay outside spans in the counters. So do the samples of a {@link SampledActivity} (a
 * startup step), which it receives as they are joined.
 */
public final class SampleAttributor implements ThreadActivity.ChangePointSink, SampleSink {

	private final SpanProfileStore store;

	/** At 100 Hz on 100 busy threads, ten seconds of samples. */
	static final int MAX_HELD = 100_000;

	private final ThreadTimelines timelines = new ThreadTimelines();

	/** Every change point stamped before this has been drained; later samples wait. */
	private long completeUpTo = Long.MIN_VALUE;

	/**
	 * Samples newer than {@link #completeUpTo}, oldest first, waiting for the drain that
	 * covers them.
	 */
	private final ArrayDeque<HeldSample> held = new ArrayDeque<>();

	private final AttributionCounters counters = new AttributionCounters();

	/**
	 * A span is attached and detached many times per request, always as the same
	 * SpanContext object: within one drain, the last one looked up is remembered.
	 * Forgotten after each drain, since the store may drop the span.
	 */
	private Object lastSpan;

	private Object lastResolved;

	private String lastRequest;

	private SpanRecord lastRoot;

	/** Stamps the ends of threads the engine reports ({@link #threadEnded}). */
	private final NanoClock clock;

	/**
	 * Whether requests tracing did not sample have run: most leave no change point on
	 * their thread, so the gap between two traced requests is not known to be empty.
	 */
	private BooleanSupplier untracedRequestsRun = () -> false;

	public SampleAttributor(SpanProfileStore store) {
		this(store, NanoClock.SYSTEM);
	}

	/**
	 * @param clock the engine's clock, on which samples and change points are stamped
	 */
	public SampleAttributor(SpanProfileStore store, NanoClock clock) {
		this.store = store;
		this.clock = clock;
	}

	/**
	 * Say whether requests tracing did not sample have run ({@code false} until they do):
	 * the wait for a core before a request started is given only while none has.
	 */
	public void untracedRequestsRunBy(BooleanSupplier untracedRequestsRun) {
		this.untracedRequestsRun = untracedRequestsRun;
	}

	@Override
	public void changed(long threadId, long time, Object span) {
		changed(threadId, time, span, -1);
	}

	@Override
	public void changed(long threadId, long time, Object span, long threadCpuNanos) {
		changed(threadId, time, span, threadCpuNanos, -1, time);
	}

	@Override
	public void changed(long threadId, long time, Object span, long threadCpuNanos, long runQueueNanos, long readAt) {
		if (span == null || span != this.lastSpan) {
			resolve(span);
			this.lastSpan = span;
		}
		ThreadTimeline timeline = this.timelines.of(threadId);
		timeline.append(time, this.lastResolved);
		timeline.measureStretch(this.lastRequest, this.lastRoot, readAt, threadCpuNanos, runQueueNanos,
				!this.untracedRequestsRun.getAsBoolean(), this::trackedRequest);
	}

	@Override
	public void gap(long threadId, long time) {
		this.timelines.of(threadId).unknownFrom(time, this::trackedRequest);
		this.counters.timelineGap();
	}

	@Override
	public void named(long threadId, String threadName) {
		this.timelines.of(threadId).threadName = threadName;
	}

	@Override
	public void threadEnded(long threadId) {
		ThreadTimeline timeline = this.timelines.find(threadId);
		if (timeline != null) {
			timeline.loseStretch(this::trackedRequest);
		}
		this.timelines.ended(threadId, this.clock.nanoTime());
	}

	/**
	 * From {@code time} on, what every known thread runs is unknown until its next change
	 * point.
	 */
	public void statesUnknownFrom(long time) {
		this.timelines.forEach((threadId, timeline) -> timeline.unknownFrom(time, this::trackedRequest));
	}

	/**
	 * What a change to {@code span} means for the thread's timeline, into
	 * {@link #lastResolved}: a span the store tracks, by its id (a {@link String}; never
	 * its record, see {@link #giveToSpan}), an unsampled request's samples, a startup
	 * step, or {@link ThreadTimeline#NONE}; and for a span, its request's id and local
	 * root, until the drain ends.
	 */
	private void resolve(Object span) {
		this.lastRequest = null;
		this.lastRoot = null;
		if (span instanceof UnsampledRequest request) {
			UnsampledSamples samples = this.store.gatherUnsampled(request);
			this.lastResolved = (samples != null) ? samples : ThreadTimeline.NONE;
			return;
		}
		if (span instanceof SampledActivity activity) {
			this.lastResolved = activity;
			return;
		}
		// An OpenTelemetry SpanContext, or the hex span id that other tracers' hooks
		// record.
		String spanId = (span instanceof SpanContext spanContext) ? spanContext.getSpanId()
				: (span instanceof String id) ? id : null;
		SpanRecord record = (spanId != null) ? this.store.findTracked(spanId) : null;
		if (record == null) {
			// A span the store never saw is unsampled (the SDK does not report those) or
			// evicted with its profile complete, or with no room to await its samples.
			this.lastResolved = ThreadTimeline.NONE;
			return;
		}
		this.lastResolved = record.spanId();
		this.lastRoot = record.localRoot();
		this.lastRequest = this.lastRoot.spanId();
	}

	/** The local root of the request with this id, while tracked. */
	private SpanRecord trackedRequest(String requestId) {
		return this.store.findTracked(requestId);
	}

	/**
	 * Every change point stamped before {@code time} has been handed to this attributor
	 * (the caller read the clock before it drained): join the held-back samples that are
	 * now covered.
	 */
	public void changePointsCompleteUpTo(long time) {
		this.lastSpan = null;
		this.lastResolved = null;
		this.lastRequest = null;
		this.lastRoot = null;
		this.completeUpTo = Math.max(this.completeUpTo, time);
		// Engines deliver mostly in time order, not strictly: look at every held sample,
		// not just the head.
		for (int i = this.held.size(); i > 0; i--) {
			HeldSample sample = this.held.pollFirst();
			if (sample.monotonicNanos <= this.completeUpTo) {
				join(sample.kind, sample.javaThreadId, sample.monotonicNanos, sample.stack, sample.weight);
			}
			else {
				this.held.addLast(sample);
			}
		}
	}

	@Override
	public void sample(SampleKind kind, long javaThreadId, long monotonicNanos, int[] rootFirstStack, long weight) {
		if (monotonicNanos <= this.completeUpTo) {
			join(kind, javaThreadId, monotonicNanos, rootFirstStack, weight);
		}
		else if (this.held.size() < MAX_HELD) {
			// Stacks are shared and never changed (SampleSink): held as they are.
			this.held.addLast(new HeldSample(kind, javaThreadId, monotonicNanos, rootFirstStack, weight));
		}
		else {
			// Bounded memory: a collector stuck between drain and dump long enough to
			// fill this loses samples rather than give them to a span that may have
			// ended.
			this.counters.add(kind, AttributionCounters.Result.UNKNOWN, weight);
		}
	}

	private void join(SampleKind kind, long javaThreadId, long monotonicNanos, int[] rootFirstStack, long weight) {
		if (javaThreadId == EVERY_THREAD_IN_A_SPAN) {
			joinEveryThreadInASpan(kind, monotonicNanos, rootFirstStack, weight);
			return;
		}
		ThreadTimeline timeline = this.timelines.find(javaThreadId);
		Object state = (timeline != null) ? timeline.stateAt(monotonicNanos) : ThreadTimeline.NONE;
		if (kind == SampleKind.WAIT && timeline != null) {
			weight = timeline.waitBeyondPauses(monotonicNanos, weight);
		}
		if (state instanceof String spanId) {
			giveToSpan(spanId, kind, rootFirstStack, weight, MonotonicEpoch.toEpochNanos(monotonicNanos), javaThreadId,
					timeline.threadName);
		}
		else if (state == ThreadTimeline.NONE) {
			this.counters.add(kind, AttributionCounters.Result.OUTSIDE, weight);
		}
		else if (state instanceof UnsampledSamples request) {
			request.add(kind, rootFirstStack, weight);
			this.counters.add(kind, AttributionCounters.Result.OUTSIDE, weight);
		}
		else if (state instanceof SampledActivity activity) {
			activity.addSample(kind, rootFirstStack, weight, MonotonicEpoch.toEpochNanos(monotonicNanos));
			this.counters.add(kind, AttributionCounters.Result.OUTSIDE, weight);
		}
		else {
			this.counters.add(kind, AttributionCounters.Result.UNKNOWN, weight);
		}
	}

	/**
	 * A pause that stopped every thread: each thread inside a span (or an unsampled
	 * request) at that moment gets it, less what a wait of the thread's own already
	 * counts of it. Threads in neither are not counted: the pause is nobody's elsewhere.
	 */
	private void joinEveryThreadInASpan(SampleKind kind, long monotonicNanos, int[] rootFirstStack, long weight) {
		long epochNanos = MonotonicEpoch.toEpochNanos(monotonicNanos);
		this.timelines.forEach((threadId, timeline) -> {
			Object state = timeline.stateAt(monotonicNanos);
			if (state instanceof String spanId) {
				giveToSpan(spanId, kind, rootFirstStack, pauseOf(timeline, kind, monotonicNanos, weight), epochNanos,
						threadId, timeline.threadName);
			}
			else if (state instanceof UnsampledSamples request) {
				request.add(kind, rootFirstStack, pauseOf(timeline, kind, monotonicNanos, weight));
			}
			else if (state instanceof SampledActivity activity) {
				activity.addSample(kind, rootFirstStack, pauseOf(timeline, kind, monotonicNanos, weight), epochNanos);
			}
		});
	}

	/** A pause's weight on one thread: less what a wait of its own counts already. */
	private static long pauseOf(ThreadTimeline timeline, SampleKind kind, long end, long weight) {
		return (kind == SampleKind.WAIT) ? timeline.pauseBeyondWait(end, weight) : weight;
	}

	/**
	 * The span is looked up again as each sample is joined: timelines keep change points
	 * for about two dump intervals, several times longer than a busy store keeps a
	 * request, and holding the records themselves kept every request of that stretch
	 * alive through a dozen young collections (measured on the page benchmark: about
	 * 5,000 records, 170 KB copied per age and collection, which doubled the GC threads'
	 * time per request). A span the store let go of is not found.
	 */
	private void giveToSpan(String spanId, SampleKind kind, int[] rootFirstStack, long weight, long epochNanos,
			long threadId, String threadName) {
		SpanRecord record = this.store.findTracked(spanId);
		if (record != null) {
			SpanRecord target = this.store.settings().rootSpanOnly() ? record.localRoot() : record;
			this.store.addSample(target, kind, rootFirstStack, weight, epochNanos, threadId, threadName);
		}
		// Gone, a span still counts as the sample's owner: the store would have refused
		// the sample all the same.
		this.counters.add(kind, AttributionCounters.Result.ATTRIBUTED, weight);
	}

	/**
	 * Every sample up to {@code upTo} (the engine's clock) is joined: the store hands the
	 * unsampled requests that ended by then to their listeners and lets go of those
	 * started more than {@code maxAgeNanos} before {@code nowNanos} and not ended
	 * ({@code FinishedRequests}); the timelines stop pointing at them.
	 */
	public void completeUnsampledUpTo(long upTo, long nowNanos, long maxAgeNanos) {
		if (this.store.unsampledCompleteUpTo(upTo, nowNanos, maxAgeNanos)) {
			this.timelines.forEach((threadId, timeline) -> timeline.releaseDoneRequests());
		}
	}

	/**
	 * All samples before {@code time} have been joined: drop change points no later
	 * sample can need, and the timelines of threads that ended before it.
	 */
	public void forgetBefore(long time) {
		this.timelines.forgetBefore(time);
	}

	/** The totals of cpu and wall samples, readable from any thread. */
	public AttributionStats stats() {
		return this.counters.stats();
	}

	/** Where samples went per kind of sample, readable from any thread. */
	public AttributionCounters counters() {
		return this.counters;
	}

	/** Change points retained, all threads together (for tests and diagnostics). */
	public int changePointCount() {
		return this.timelines.changePointCount();
	}

	/** Threads with a retained timeline (for tests and diagnostics). */
	public int timelineCount() {
		return this.timelines.size();
	}

	private record HeldSample(SampleKind kind, long javaThreadId, long monotonicNanos, int[] stack, long weight) {
	}

}
