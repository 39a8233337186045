package dev.spanprofile.sampling;

import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.tracking.MonotonicEpoch;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * One Flight Recorder stream from start to close, and what it promises: the samples it
 * turned events into, queued for the collector, and the time up to which every one of
 * them has been delivered.
 * <p>
 * Made anew at every start, so that nothing the stream's thread uses (the clock
 * reference, the stack cache, the flush bookkeeping) is shared with the thread of an
 * earlier stream that is still finishing its last batch; {@link #close} waits for the
 * handler under way, and a closed stream's later events are dropped.
 * <p>
 * The stream ending by itself (its recording stopped with {@code jcmd JFR.stop}, its
 * repository deleted) is noticed: {@link #collect} then fails with the reason instead of
 * promising nothing more forever.
 */
final class JfrEventStream {

	private static final System.Logger logger = System.getLogger(JfrEventStream.class.getName());

	/**
	 * Flight Recorder's record of its own flushes: when the JVM wrote out what the stream
	 * delivers later.
	 */
	static final String FLUSH = "jdk.Flush";

	private static final int QUEUE_CAPACITY = 100_000;

	private static final int START_REFERENCE_TRIES = 3;

	private final RecordingStream stream = new RecordingStream();

	private final BlockingQueue<PendingSample> pending = new ArrayBlockingQueue<>(QUEUE_CAPACITY);

	private final AtomicLong dropped;

	private final StackConverter stacks;

	private final JfrClock clock;

	/** Every event stamped earlier has been delivered (handed to {@link #pending}). */
	private volatile long deliveredUpTo;

	/**
	 * Held by the stream's thread while it runs a handler; uncontended but for
	 * {@link #close}.
	 */
	private final ReentrantLock handling = new ReentrantLock();

	/** Set by {@link #close}: from then on the stream's callbacks deliver nothing. */
	private volatile boolean closed;

	/** Why the stream ended by itself, or {@code null} while it runs. */
	private volatile String ended;

	/**
	 * When the stream last finished delivering a flush, by this JVM's clock; used only
	 * without flush events.
	 */
	private long lastFlush;

	/**
	 * Start of the latest JVM flush reported by a {@link #FLUSH} event; 0 before the
	 * first. Stream thread only.
	 */
	private long latestJvmFlush;

	/**
	 * {@link #latestJvmFlush} as it was when the stream last finished delivering a flush.
	 * Stream thread only.
	 */
	private long jvmFlushAtLastDelivery;

	/** Deliveries before the first {@link #FLUSH} event. Stream thread only. */
	private int deliveriesWithoutJvmFlush;

	/**
	 * @param dropped counts samples the collector had no room for, across the streams of
	 * one engine
	 * @param fallback the clock pairing for events delivered before the stream's first
	 * clock reference
	 */
	JfrEventStream(FrameTable frames, AtomicLong dropped, Supplier<MonotonicEpoch.Anchor> fallback) {
		this.stacks = new StackConverter(frames);
		this.dropped = dropped;
		this.clock = new JfrClock(fallback);
	}

	/** The stream, to enable events on before {@link #start}. */
	RecordingStream recording() {
		return this.stream;
	}

	/**
	 * Handle {@code eventName} on the stream's thread, unless the stream has been closed.
	 */
	void onEvent(String eventName, Consumer<RecordedEvent> handler) {
		this.stream.onEvent(eventName, (event) -> {
			this.handling.lock();
			try {
				if (!this.closed) {
					handler.accept(event);
				}
			}
			finally {
				this.handling.unlock();
			}
		});
	}

	/** Converts stacks for this stream's events; stream thread only. */
	StackConverter stacks() {
		return this.stacks;
	}

	void start() {
		// Before this stream's recording: it must not be the only one when it stops.
		IdleRecording.keepRunning();
		this.clock.listenTo(this.stream);
		this.stream.enable(FLUSH);
		this.stream.onEvent(FLUSH, this::jvmFlushed);
		this.stream.onFlush(this::flushed);
		this.stream.onClose(this::streamClosed);
		this.stream.setReuse(false);
		long now = System.nanoTime();
		this.deliveredUpTo = now;
		this.lastFlush = now;
		this.stream.startAsync();
		// Events before the first reference are mapped with a pairing read at delivery,
		// not the recording's own: a reference refused here (this thread descheduled)
		// would leave them so until the first collection.
		for (int tries = 0; tries < START_REFERENCE_TRIES && !JfrClock.commitReference(); tries++) {
			Thread.yield();
		}
	}

	/**
	 * Queue one sample for the collector: {@code event}'s stack, with {@code leafFrame}
	 * appended when not negative.
	 * @param at when the sample counts as taken; Flight Recorder's instant, mapped onto
	 * the monotonic clock
	 */
	void offer(SampleKind kind, RecordedEvent event, Instant at, long weight, int leafFrame) {
		RecordedThread thread = sampledThread(event);
		if (thread == null || (event.getStackTrace() == null && leafFrame < 0)) {
			return;
		}
		int[] stack = this.stacks.rootFirst(event.getStackTrace());
		if (leafFrame >= 0) {
			int[] withLeaf = new int[stack.length + 1];
			System.arraycopy(stack, 0, withLeaf, 0, stack.length);
			withLeaf[stack.length] = leafFrame;
			stack = withLeaf;
		}
		PendingSample sample = new PendingSample(kind, thread.getJavaThreadId(), this.clock.toNanoTime(at), stack,
				weight);
		if (!this.pending.offer(sample)) {
			this.dropped.incrementAndGet();
		}
	}

	/**
	 * Queue one sample for every thread inside a span at {@code at}, whose stack is the
	 * one frame {@code frame}: a pause that stopped them all.
	 */
	void offerForEveryThreadInASpan(SampleKind kind, Instant at, long weight, int frame) {
		PendingSample sample = new PendingSample(kind, SampleSink.EVERY_THREAD_IN_A_SPAN, this.clock.toNanoTime(at),
				new int[] { frame }, weight);
		if (!this.pending.offer(sample)) {
			this.dropped.incrementAndGet();
		}
	}

	/**
	 * The thread an event is about: the sampled one for samples, the one that committed
	 * it otherwise.
	 */
	static RecordedThread sampledThread(RecordedEvent event) {
		if (event.hasField("sampledThread")) {
			return event.getThread("sampledThread");
		}
		return event.getThread();
	}

	/**
	 * Hand every queued sample to {@code sink}.
	 * @return the time up to which every sample has been delivered
	 * @throws IOException when the stream ended by itself: nothing more will come
	 */
	long collect(SampleSink sink) throws IOException {
		String reason = this.ended;
		long upTo = this.deliveredUpTo;
		for (PendingSample sample; (sample = this.pending.poll()) != null;) {
			sink.sample(sample.kind, sample.javaThreadId, sample.monotonicNanos, sample.stack, sample.weight);
		}
		if (reason != null) {
			throw new IOException(reason);
		}
		// The next flush carries it: instants after this point are mapped with a
		// reference at most a cycle old.
		JfrClock.commitReference();
		return upTo;
	}

	/**
	 * Why the stream ended by itself, or {@code null} while it runs (or after
	 * {@link #close}).
	 */
	String ended() {
		return this.ended;
	}

	void close() {
		this.closed = true;
		try {
			this.stream.close();
		}
		catch (RuntimeException ex) {
			logger.log(System.Logger.Level.DEBUG, "Closing the JFR stream failed", ex);
		}
		// The stream's close neither waits for its thread nor stops the batch it is
		// dispatching: wait for the handler under way, if any; the ones after it see the
		// stream closed.
		this.handling.lock();
		this.handling.unlock();
		this.pending.clear();
	}

	private void streamClosed() {
		if (!this.closed) {
			this.ended = "the JDK Flight Recorder stream ended (its recording was stopped or its repository removed); "
					+ "restart profiling to resume";
			logger.log(System.Logger.Level.WARNING, "spanprofile: " + this.ended);
		}
	}

	private void jvmFlushed(RecordedEvent event) {
		this.latestJvmFlush = this.clock.toNanoTime(event.getStartTime());
	}

	/**
	 * The stream finished delivering a flush. What it vouches for is a JVM flush, not
	 * this moment: a stream that lags behind the JVM (its thread starved, or catching up)
	 * is called back well after the flush it delivered, and samples taken in between are
	 * still to come. Vouching for the callback's own time, the engine promised samples
	 * not yet written (up to 50 ms of them on JDK 17 and 220 ms on JDK 25, four busy
	 * threads on two cores), and they reached the join after it had forgotten the change
	 * points they needed.
	 * <p>
	 * The flush known at the previous delivery, one delivery back: everything the JVM had
	 * written by then has been dispatched since, as has what a thread stamped before it
	 * and committed shortly after.
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

	private record PendingSample(SampleKind kind, long javaThreadId, long monotonicNanos, int[] stack, long weight) {
	}

}
