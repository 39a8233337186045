package dev.spanprofile.sampling;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.tracking.MonotonicEpoch;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * Records where threads wait, from the JDK's own wait events: each wait at least as long
 * as the threshold becomes one {@link SampleKind#WAIT} sample with its exact duration,
 * the waiting thread's stack and a leaf frame that names what it waited on (the peer of a
 * socket read, the class of a monitor). A 1.5 s database read is one sample of 1.5 s
 * under the driver's read, not thirty wall-clock samples, and a request that only
 * computes costs nothing.
 * <p>
 * Flight Recorder times these waits whatever their length (two clock reads each) and
 * records those above the threshold with their stack, so the cost follows the number of
 * long waits, not the number of requests or threads. Runs beside whichever engine samples
 * CPU; the JDK's waits need no native library.
 */
public final class JfrWaitEngine implements SamplingEngine {

	/**
	 * A stop-the-world phase of a garbage collection, as the collector reports it (its
	 * concurrent work is not).
	 */
	static final String GC_PAUSE = "jdk.GCPhasePause";

	/** spanprofile's own collector thread, which waits between its cycles. */
	public static final String COLLECTOR_THREAD = "spanprofile-collector";

	private final Duration threshold;

	/** Socket reads and writes: their own threshold, and the peers' names. */
	private final SocketWaits sockets;

	private final FrameTable frames;

	private final AtomicLong dropped = new AtomicLong();

	/** Across restarts: the frames its names became outlive any one stream. */
	private final WaitDetails details = new WaitDetails();

	private JfrEventStream stream;

	public JfrWaitEngine(Duration threshold, FrameTable frames) {
		this(threshold, SocketWaits.defaults(), frames);
	}

	/**
	 * @param threshold shortest wait recorded
	 * @param sockets socket waits' own threshold (the lower of the two applies to them)
	 * and the peers' names
	 */
	public JfrWaitEngine(Duration threshold, SocketWaits sockets, FrameTable frames) {
		this.threshold = threshold;
		this.sockets = new SocketWaits((sockets.threshold().compareTo(threshold) < 0) ? sockets.threshold() : threshold,
				sockets.peers());
		this.frames = frames;
	}

	@Override
	public String name() {
		return "jfr-waits";
	}

	@Override
	public synchronized void start() throws SamplerUnavailableException {
		if (this.stream != null) {
			return;
		}
		try {
			JfrEventStream events = new JfrEventStream(this.frames, this.dropped, MonotonicEpoch.Anchor::now);
			Duration socket = this.sockets.threshold();
			listen(events, "jdk.SocketRead", WaitKind.SOCKET_READ, socket,
					(event) -> peer(WaitKind.SOCKET_READ, event));
			listen(events, "jdk.SocketWrite", WaitKind.SOCKET_WRITE, socket,
					(event) -> peer(WaitKind.SOCKET_WRITE, event));
			listen(events, "jdk.FileRead", WaitKind.FILE_READ, (event) -> event.getString("path"));
			listen(events, "jdk.FileWrite", WaitKind.FILE_WRITE, (event) -> event.getString("path"));
			listen(events, "jdk.JavaMonitorEnter", WaitKind.MONITOR_ENTER, (event) -> className(event, "monitorClass"));
			listen(events, "jdk.JavaMonitorWait", WaitKind.MONITOR_WAIT, (event) -> className(event, "monitorClass"));
			listen(events, "jdk.ThreadPark", WaitKind.PARK, (event) -> className(event, "parkedClass"));
			listen(events, "jdk.ThreadSleep", WaitKind.SLEEP, (event) -> null);
			listenToPauses(events);
			events.start();
			this.stream = events;
		}
		catch (RuntimeException | LinkageError ex) {
			throw new SamplerUnavailableException("JDK Flight Recorder streaming is not available: " + ex, ex);
		}
	}

	private void listen(JfrEventStream events, String eventName, WaitKind kind,
			Function<RecordedEvent, String> detail) {
		listen(events, eventName, kind, this.threshold, (event) -> this.details.leafName(kind, detail.apply(event)));
	}

	private void listen(JfrEventStream events, String eventName, WaitKind kind, Duration threshold,
			Function<RecordedEvent, String> leafName) {
		long thresholdNanos = threshold.toNanos();
		events.recording().enable(eventName).withThreshold(threshold).withStackTrace();
		events.onEvent(eventName, (event) -> {
			long nanos = event.getDuration().toNanos();
			if (nanos <= 0 || nanos < thresholdNanos) {
				// Another recording asked for a lower threshold: the JDK applies it to
				// every recording.
				return;
			}
			if (isCollector(event)) {
				// It waits between cycles in a selector, unrecorded, but parks where no
				// selector opens: never in a span, spare their stacks.
				return;
			}
			int leaf = events.stacks().frame(leafName.apply(event), FrameKind.WAIT);
			// At its end, when Flight Recorder commits it: a wait still going on at a
			// flush is not delivered yet, and must not be stamped before the time that
			// flush vouches for. The span is the same throughout.
			events.offer(SampleKind.WAIT, event, event.getEndTime(), nanos, leaf);
		});
	}

	/**
	 * Stop-the-world pauses of the collector: the VM's thread commits them, and every
	 * thread inside a span at the time waited for them. Stamped at their end, as the
	 * waits are, when the stopped threads are still where the pause found them.
	 */
	private void listenToPauses(JfrEventStream events) {
		events.recording().enable(GC_PAUSE).withThreshold(this.threshold);
		events.onEvent(GC_PAUSE, (event) -> {
			long nanos = event.getDuration().toNanos();
			if (nanos <= 0 || nanos < this.threshold.toNanos()) {
				return;
			}
			int frame = events.stacks().frame(WaitKind.GC_PAUSE.frameName(null), FrameKind.WAIT);
			events.offerForEveryThreadInASpan(SampleKind.WAIT, event.getEndTime(), nanos, frame);
		});
	}

	private static boolean isCollector(RecordedEvent event) {
		RecordedThread thread = event.getThread();
		return thread != null && COLLECTOR_THREAD.equals(thread.getJavaName());
	}

	/**
	 * The leaf of a socket wait: the peer's name where the application gave it one, else
	 * {@code host:port} as the application named the peer, or its address when it used
	 * none.
	 */
	private String peer(WaitKind kind, RecordedEvent event) {
		String host = event.getString("host");
		String address = event.getString("address");
		int port = event.getInt("port");
		String named = this.sockets.peers().of(host, address, port);
		if (named != null) {
			return this.details.leafName(kind, named, true);
		}
		if (host == null || host.isEmpty()) {
			host = address;
		}
		return this.details.leafName(kind, (host == null || host.isEmpty()) ? null : host + ":" + port);
	}

	private static String className(RecordedEvent event, String field) {
		RecordedClass type = event.getClass(field);
		return (type != null) ? type.getName() : null;
	}

	@Override
	public synchronized long collect(SampleSink sink) throws IOException {
		if (this.stream == null) {
			return System.nanoTime();
		}
		return this.stream.collect(sink);
	}

	@Override
	public String activeEvent() {
		return "waits";
	}

	@Override
	public synchronized String note() {
		StringBuilder note = new StringBuilder("waits of " + this.threshold.toMillis()
				+ " ms or more (file I/O, monitors, parks, sleeps, GC pauses) and socket I/O of "
				+ millis(this.sockets.threshold()) + " ms or more, with their exact duration");
		if (this.stream != null && this.stream.ended() != null) {
			note.append("; ").append(this.stream.ended());
		}
		long lost = this.dropped.get();
		if (lost > 0) {
			note.append("; ").append(lost).append(" waits dropped because the collector fell behind");
		}
		return note.toString();
	}

	private static String millis(Duration duration) {
		long micros = duration.toNanos() / 1000;
		return (micros % 1000 == 0) ? Long.toString(micros / 1000) : Double.toString(micros / 1000.0);
	}

	@Override
	public synchronized void close() {
		if (this.stream != null) {
			this.stream.close();
			this.stream = null;
		}
	}

}
