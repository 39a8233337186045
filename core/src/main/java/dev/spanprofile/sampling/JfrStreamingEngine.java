package dev.spanprofile.sampling;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.tracking.MonotonicEpoch;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

/**
 * Samples with the JDK's own Flight Recorder: no native library, so it runs wherever the
 * JVM does (Windows, musl, locked-down containers), and it reports virtual threads as
 * themselves rather than as their carriers.
 * <p>
 * CPU samples come from {@code jdk.CPUTimeSample} where the JDK has it (25+, Linux),
 * otherwise from {@code jdk.ExecutionSample}. Wall-clock is approximated from running
 * samples plus the blocking events {@code jdk.ThreadPark}, {@code jdk.JavaMonitorEnter},
 * {@code jdk.JavaMonitorWait} and {@code jdk.ThreadSleep}, each weighted by its duration
 * over the interval. Events arrive on the stream's thread about once a second and wait in
 * a bounded queue for the collector.
 */
public final class JfrStreamingEngine implements SamplingEngine {

	private static final System.Logger logger = System.getLogger(JfrStreamingEngine.class.getName());

	static final String CPU_TIME_SAMPLE = "jdk.CPUTimeSample";

	static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";

	static final String ALLOCATION_SAMPLE = "jdk.ObjectAllocationSample";

	/**
	 * The JDK's own setting in its profile.jfc: enough samples for a request-sized graph,
	 * a bounded cost.
	 */
	public static final String ALLOCATION_SAMPLE_RATE = "300/s";

	/**
	 * Waits to enter a monitor and parks (java.util.concurrent locks), as
	 * async-profiler's lock event sees them.
	 */
	private static final List<String> LOCK_EVENTS = List.of("jdk.JavaMonitorEnter", "jdk.ThreadPark");

	private static final List<String> BLOCKING_EVENTS = List.of("jdk.ThreadPark", "jdk.JavaMonitorEnter",
			"jdk.JavaMonitorWait", "jdk.ThreadSleep");

	private final SamplerSettings settings;

	private final FrameTable frames;

	private final Supplier<MonotonicEpoch.Anchor> clockFallback;

	private final AtomicLong dropped = new AtomicLong();

	/** The stream of the current start; a new one at every start. */
	private JfrEventStream stream;

	private String cpuEventName;

	/** Recordings that were already sampling when this engine started. */
	private String otherRecordings;

	private boolean nativeProfilerLoaded;

	public JfrStreamingEngine(SamplerSettings settings, FrameTable frames) {
		this(settings, frames, MonotonicEpoch.Anchor::now);
	}

	/**
	 * @param clockFallback the pairing of the wall and monotonic clocks used for events
	 * delivered before a stream's first clock reference (tests simulate a stepped wall
	 * clock with it)
	 */
	JfrStreamingEngine(SamplerSettings settings, FrameTable frames, Supplier<MonotonicEpoch.Anchor> clockFallback) {
		this.settings = settings;
		this.frames = frames;
		this.clockFallback = clockFallback;
	}

	@Override
	public String name() {
		return "jfr";
	}

	@Override
	public String activeEvent() {
		StringBuilder event = new StringBuilder();
		if (this.settings.cpuEvent() != null) {
			event.append((this.cpuEventName != null) ? this.cpuEventName : "cpu");
		}
		if (this.settings.wall()) {
			event.append((event.length() > 0) ? "," : "").append("wall");
		}
		if (this.settings.alloc()) {
			event.append((event.length() > 0) ? "," : "").append("alloc");
		}
		if (this.settings.lock()) {
			event.append((event.length() > 0) ? "," : "").append("lock");
		}
		return event.toString();
	}

	@Override
	public synchronized String note() {
		List<String> notes = new ArrayList<>();
		if (this.settings.wall()) {
			notes.add(
					"wall-clock is approximated from running samples plus waits (park, monitor, sleep) of 10 ms or more");
		}
		if (this.settings.alloc()) {
			notes.add("alloc comes from jdk.ObjectAllocationSample, throttled to " + ALLOCATION_SAMPLE_RATE
					+ " rather than spanprofile.alloc-interval; each sample is weighted by the bytes its thread allocated since "
					+ "its previous one, so a span's bytes are off by what its thread allocates between two samples");
		}
		if (EXECUTION_SAMPLE.equals(this.cpuEventName) && this.nativeProfilerLoaded) {
			notes.add("a native profiler's signal handler is installed in this JVM, so jdk.CPUTimeSample cannot run");
		}
		if (EXECUTION_SAMPLE.equals(this.cpuEventName)) {
			notes.add("jdk.ExecutionSample samples at most a few running Java threads per period, so busy "
					+ "applications get fewer samples per span than with async-profiler");
		}
		if (this.otherRecordings != null) {
			notes.add(this.otherRecordings);
		}
		JfrEventStream current = this.stream;
		if (current != null && current.ended() != null) {
			notes.add(current.ended());
		}
		long lost = this.dropped.get();
		if (lost > 0) {
			notes.add(lost + " samples dropped because the collector fell behind");
		}
		return notes.isEmpty() ? null : String.join("; ", notes);
	}

	@Override
	public synchronized void start() throws SamplerUnavailableException {
		if (this.stream != null) {
			return;
		}
		List<String> others = OtherProfilers.samplingJfrRecordings();
		// They share the sampler: the shorter period of the two applies to both.
		this.otherRecordings = others.isEmpty() ? null : "another JFR recording also samples ("
				+ String.join(", ", others) + "); both use the shorter sampling period";
		try {
			JfrEventStream events = new JfrEventStream(this.frames, this.dropped, this.clockFallback);
			RecordingStream recording = events.recording();
			Duration interval = this.settings.interval();
			if (this.settings.cpuEvent() != null) {
				this.cpuEventName = cpuTimeSamplingPossible() ? CPU_TIME_SAMPLE : EXECUTION_SAMPLE;
				if (this.cpuEventName.equals(CPU_TIME_SAMPLE)) {
					recording.enable(CPU_TIME_SAMPLE)
						.with("throttle", Math.max(1, interval.toMillis()) + "ms")
						.withStackTrace();
				}
				else {
					recording.enable(EXECUTION_SAMPLE).withPeriod(interval).withStackTrace();
				}
				events.onEvent(this.cpuEventName, (event) -> offer(events, SampleKind.CPU, event, 1));
			}
			if (this.settings.wall()) {
				if (this.settings.cpuEvent() == null) {
					recording.enable(EXECUTION_SAMPLE).withPeriod(interval).withStackTrace();
				}
				events.onEvent(EXECUTION_SAMPLE, (event) -> offer(events, SampleKind.WALL, event, 1));
				for (String blocking : BLOCKING_EVENTS) {
					recording.enable(blocking).withThreshold(interval).withStackTrace();
					events.onEvent(blocking, (event) -> offerWait(events, event));
				}
			}
			if (this.settings.alloc()) {
				recording.enable(ALLOCATION_SAMPLE).with("throttle", ALLOCATION_SAMPLE_RATE).withStackTrace();
				JfrAllocationWeights weights = new JfrAllocationWeights();
				events.onEvent(ALLOCATION_SAMPLE, (event) -> {
					long weight = weights.weightOf(event);
					if (weight > 0) {
						offer(events, SampleKind.ALLOC, event, weight);
					}
				});
			}
			if (this.settings.lock()) {
				Duration threshold = this.settings.lockThreshold();
				if (this.settings.wall() && threshold.compareTo(interval) > 0) {
					// One threshold per event type: the lower one serves both; each
					// listener keeps what it wants.
					threshold = interval;
				}
				for (String blocking : LOCK_EVENTS) {
					recording.enable(blocking).withThreshold(threshold).withStackTrace();
					events.onEvent(blocking, (event) -> offerLockWait(events, event));
				}
			}
			events.start();
			this.stream = events;
		}
		catch (RuntimeException | LinkageError ex) {
			throw new SamplerUnavailableException("JDK Flight Recorder streaming is not available: " + ex, ex);
		}
	}

	private void offerLockWait(JfrEventStream events, RecordedEvent event) {
		long nanos = event.getDuration().toNanos();
		if (nanos > 0 && nanos >= this.settings.lockThreshold().toNanos()) {
			// At its end, when Flight Recorder commits it: a wait still in progress at a
			// flush is not yet delivered, and must not be stamped before the time the
			// flush vouches for. The span is the same throughout.
			events.offer(SampleKind.LOCK, event, event.getEndTime(), nanos, -1);
		}
	}

	private void offerWait(JfrEventStream events, RecordedEvent event) {
		long weight = event.getDuration().toNanos() / this.settings.interval().toNanos();
		if (weight > 0) {
			offer(events, SampleKind.WALL, event, weight);
		}
	}

	private static void offer(JfrEventStream events, SampleKind kind, RecordedEvent event, long weight) {
		events.offer(kind, event, event.getStartTime(), weight, -1);
	}

	@Override
	public synchronized long collect(SampleSink sink) throws IOException {
		if (this.stream == null) {
			return System.nanoTime();
		}
		return this.stream.collect(sink);
	}

	@Override
	public synchronized void close() {
		if (this.stream != null) {
			this.stream.close();
			this.stream = null;
		}
	}

	/**
	 * jdk.CPUTimeSample (JDK 25+) needs the SIGPROF signal; once a native profiler (ours
	 * in auto mode, Pyroscope's, an -agentpath one) has installed its handler, the JDK
	 * refuses to record it.
	 */
	private boolean cpuTimeSamplingPossible() {
		this.nativeProfilerLoaded = !OtherProfilers.mappedLibraries().isEmpty();
		return hasEventType(CPU_TIME_SAMPLE) && !this.nativeProfilerLoaded;
	}

	static boolean hasEventType(String name) {
		for (EventType type : FlightRecorder.getFlightRecorder().getEventTypes()) {
			if (type.getName().equals(name)) {
				return true;
			}
		}
		return false;
	}

}
