package dev.spanprofile.sampling;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.tracking.MonotonicEpoch;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * Samples with the JDK's own Flight Recorder: no native library, so it runs wherever the JVM does (Windows,
 * musl, locked-down containers), and it reports virtual threads as themselves rather than as their carriers.
 * <p>
 * CPU samples come from {@code jdk.CPUTimeSample} where the JDK has it (25+, Linux), otherwise from
 * {@code jdk.ExecutionSample}. Wall-clock is approximated from running samples plus the blocking events
 * {@code jdk.ThreadPark}, {@code jdk.JavaMonitorEnter}, {@code jdk.JavaMonitorWait} and {@code jdk.ThreadSleep}, each
 * weighted by its duration over the interval. Events arrive on the stream's thread about once a second and wait in
 * a bounded queue for the collector.
 */
public final class JfrStreamingEngine implements SamplingEngine {

	private static final System.Logger logger = System.getLogger(JfrStreamingEngine.class.getName());

	static final String CPU_TIME_SAMPLE = "jdk.CPUTimeSample";

	static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";

	static final String ALLOCATION_SAMPLE = "jdk.ObjectAllocationSample";

	/** The JDK's own setting in its profile.jfc: enough samples for a request-sized graph, a bounded cost. */
	public static final String ALLOCATION_SAMPLE_RATE = "300/s";

	/** Flight Recorder's record of its own flushes: when the JVM wrote out what the stream delivers later. */
	static final String FLUSH = "jdk.Flush";

	/** Waits to enter a monitor and parks (java.util.concurrent locks), as async-profiler's lock event sees them. */
	private static final List<String> LOCK_EVENTS = List.of("jdk.JavaMonitorEnter", "jdk.ThreadPark");

	private static final List<String> BLOCKING_EVENTS = List.of("jdk.ThreadPark", "jdk.JavaMonitorEnter",
			"jdk.JavaMonitorWait", "jdk.ThreadSleep");

	private static final int QUEUE_CAPACITY = 100_000;

	/** Some 200 KB of thread ids at most. */
	private static final int MAX_ALLOCATING_THREADS = 4096;

	/** Threads that have had an allocation sample in this recording; the stream's thread only. */
	private final Set<Long> allocatingThreads = new HashSet<>();

	private final SamplerSettings settings;

	/** Used on the stream's thread only. */
	private final StackConverter stacks;

	private final BlockingQueue<PendingSample> pending = new ArrayBlockingQueue<>(QUEUE_CAPACITY);

	private final AtomicLong dropped = new AtomicLong();

	private RecordingStream stream;

	private String cpuEventName;

	/** Every event stamped earlier has been delivered (handed to {@link #pending}). */
	private volatile long deliveredUpTo;

	/** When the stream last finished delivering a flush, by this JVM's clock; used only without flush events. */
	private volatile long lastFlush;

	/** Start of the latest JVM flush reported by a {@link #FLUSH} event; 0 before the first. Stream thread only. */
	private long latestJvmFlush;

	/** {@link #latestJvmFlush} as it was when the stream last finished delivering a flush. Stream thread only. */
	private long jvmFlushAtLastDelivery;

	/** Deliveries before the first {@link #FLUSH} event. Stream thread only. */
	private int deliveriesWithoutJvmFlush;

	/** Recordings that were already sampling when this engine started. */
	private String otherRecordings;

	private boolean nativeProfilerLoaded;

	public JfrStreamingEngine(SamplerSettings settings, FrameTable frames) {
		this.settings = settings;
		this.stacks = new StackConverter(frames);
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
	public String note() {
		List<String> notes = new ArrayList<>();
		if (this.settings.wall()) {
			notes.add("wall-clock is approximated from running samples plus waits (park, monitor, sleep) of 10 ms or more");
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
		this.otherRecordings = otherRecordings();
		try {
			RecordingStream recording = new RecordingStream();
			Duration interval = this.settings.interval();
			if (this.settings.cpuEvent() != null) {
				this.cpuEventName = cpuTimeSamplingPossible() ? CPU_TIME_SAMPLE : EXECUTION_SAMPLE;
				if (this.cpuEventName.equals(CPU_TIME_SAMPLE)) {
					recording.enable(CPU_TIME_SAMPLE).with("throttle", Math.max(1, interval.toMillis()) + "ms").withStackTrace();
				}
				else {
					recording.enable(EXECUTION_SAMPLE).withPeriod(interval).withStackTrace();
				}
				recording.onEvent(this.cpuEventName, (event) -> offer(SampleKind.CPU, event, 1));
			}
			if (this.settings.wall()) {
				if (this.settings.cpuEvent() == null) {
					recording.enable(EXECUTION_SAMPLE).withPeriod(interval).withStackTrace();
				}
				recording.onEvent(EXECUTION_SAMPLE, (event) -> offer(SampleKind.WALL, event, 1));
				for (String blocking : BLOCKING_EVENTS) {
					recording.enable(blocking).withThreshold(interval).withStackTrace();
					recording.onEvent(blocking, this::offerWait);
				}
			}
			if (this.settings.alloc()) {
				recording.enable(ALLOCATION_SAMPLE).with("throttle", ALLOCATION_SAMPLE_RATE).withStackTrace();
				recording.onEvent(ALLOCATION_SAMPLE, this::offerAllocation);
			}
			if (this.settings.lock()) {
				Duration threshold = this.settings.lockThreshold();
				if (this.settings.wall() && threshold.compareTo(interval) > 0) {
					// One threshold per event type: the lower one serves both; each listener keeps what it wants.
					threshold = interval;
				}
				for (String blocking : LOCK_EVENTS) {
					recording.enable(blocking).withThreshold(threshold).withStackTrace();
					recording.onEvent(blocking, this::offerLockWait);
				}
			}
			this.allocatingThreads.clear();
			recording.enable(FLUSH);
			recording.onEvent(FLUSH, this::jvmFlushed);
			recording.onFlush(this::flushed);
			recording.setReuse(false);
			long now = System.nanoTime();
			this.deliveredUpTo = now;
			this.lastFlush = now;
			this.latestJvmFlush = 0;
			this.jvmFlushAtLastDelivery = 0;
			this.deliveriesWithoutJvmFlush = 0;
			recording.startAsync();
			this.stream = recording;
		}
		catch (RuntimeException | LinkageError ex) {
			throw new SamplerUnavailableException("JDK Flight Recorder streaming is not available: " + ex, ex);
		}
	}

	private void jvmFlushed(RecordedEvent event) {
		this.latestJvmFlush = MonotonicEpoch.Anchor.now().toNanoTime(event.getStartTime());
	}

	/**
	 * The stream finished delivering a flush. What it vouches for is a JVM flush, not this moment: a stream that
	 * lags behind the JVM (its thread starved, or catching up) is called back well after the flush it delivered,
	 * and samples taken in between are still to come. Vouching for the callback's own time, the engine promised
	 * samples not yet written (up to 50 ms of them on JDK 17 and 220 ms on JDK 25, four busy threads on two cores),
	 * and they reached the join after it had forgotten the change points they needed.
	 * <p>
	 * The flush known at the previous delivery, one delivery back: everything the JVM had written by then has been
	 * dispatched since, as has what a thread stamped before it and committed shortly after.
	 */
	private void flushed() {
		long now = System.nanoTime();
		if (this.latestJvmFlush != 0) {
			if (this.jvmFlushAtLastDelivery != 0) {
				this.deliveredUpTo = Math.max(this.deliveredUpTo, this.jvmFlushAtLastDelivery);
			}
			this.jvmFlushAtLastDelivery = this.latestJvmFlush;
		}
		else if (++this.deliveriesWithoutJvmFlush > 2) {
			// A JDK that reports no flushes: the callback's time, one delivery back.
			this.deliveredUpTo = this.lastFlush;
		}
		this.lastFlush = now;
	}

	/**
	 * A sample's weight is what its thread allocated since the thread's previous sample, in this recording or any
	 * earlier one: a thread's first sample here stands for an unknown stretch, up to everything the thread
	 * allocated since it started, and is left out.
	 */
	private void offerAllocation(RecordedEvent event) {
		RecordedThread thread = sampledThread(event);
		if (thread == null) {
			return;
		}
		if (this.allocatingThreads.size() >= MAX_ALLOCATING_THREADS) {
			// Bounded: threads that ended stay in the set; starting afresh costs each live thread one sample.
			this.allocatingThreads.clear();
		}
		if (this.allocatingThreads.add(thread.getJavaThreadId())) {
			return;
		}
		offer(SampleKind.ALLOC, event, Math.max(1, event.getLong("weight")));
	}

	private void offerLockWait(RecordedEvent event) {
		long nanos = event.getDuration().toNanos();
		if (nanos > 0 && nanos >= this.settings.lockThreshold().toNanos()) {
			// At its end, when Flight Recorder commits it: a wait still in progress at a flush is not yet delivered,
			// and must not be stamped before the time the flush vouches for. The span is the same throughout.
			offer(SampleKind.LOCK, event, event.getEndTime(), nanos);
		}
	}

	private void offerWait(RecordedEvent event) {
		long weight = event.getDuration().toNanos() / this.settings.interval().toNanos();
		if (weight > 0) {
			offer(SampleKind.WALL, event, weight);
		}
	}

	private void offer(SampleKind kind, RecordedEvent event, long weight) {
		offer(kind, event, event.getStartTime(), weight);
	}

	private void offer(SampleKind kind, RecordedEvent event, Instant at, long weight) {
		RecordedThread thread = sampledThread(event);
		if (thread == null || event.getStackTrace() == null) {
			return;
		}
		// The JDK hands out wall-clock instants only; the stream is at most a second or so behind, so a pairing of
		// the clocks read now is close to the one the chunk was written with.
		long time = MonotonicEpoch.Anchor.now().toNanoTime(at);
		PendingSample sample = new PendingSample(kind, thread.getJavaThreadId(), time,
				this.stacks.rootFirst(event.getStackTrace()), weight);
		if (!this.pending.offer(sample)) {
			this.dropped.incrementAndGet();
		}
	}

	private static RecordedThread sampledThread(RecordedEvent event) {
		if (event.hasField("sampledThread")) {
			return event.getThread("sampledThread");
		}
		return event.getThread();
	}

	@Override
	public long collect(SampleSink sink) throws IOException {
		long upTo = this.deliveredUpTo;
		for (PendingSample sample; (sample = this.pending.poll()) != null;) {
			sink.sample(sample.kind, sample.javaThreadId, sample.monotonicNanos, sample.stack, sample.weight);
		}
		return upTo;
	}

	@Override
	public synchronized void close() {
		if (this.stream != null) {
			try {
				this.stream.close();
			}
			catch (RuntimeException ex) {
				logger.log(System.Logger.Level.DEBUG, "Closing the JFR stream failed", ex);
			}
			this.stream = null;
		}
		this.pending.clear();
	}

	/**
	 * jdk.CPUTimeSample (JDK 25+) needs the SIGPROF signal; once a native profiler (ours in auto mode, Pyroscope's,
	 * an -agentpath one) has installed its handler, the JDK refuses to record it.
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

	/** JFR recordings started elsewhere share the sampler: the shorter period of the two applies to both. */
	private static String otherRecordings() {
		try {
			List<String> names = new ArrayList<>();
			for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
				if (recording.getState() == jdk.jfr.RecordingState.RUNNING
						&& recording.getSettings().getOrDefault(EXECUTION_SAMPLE + "#enabled", "false").equals("true")) {
					names.add(recording.getName());
				}
			}
			return names.isEmpty() ? null : "another JFR recording also samples (" + String.join(", ", names)
					+ "); both use the shorter sampling period";
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private record PendingSample(SampleKind kind, long javaThreadId, long monotonicNanos, int[] stack, long weight) {
	}

}
