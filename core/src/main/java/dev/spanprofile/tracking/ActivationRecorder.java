package dev.spanprofile.tracking;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;

/**
 * Records, per thread, when the active span changes. One instance per JVM
 * ({@link #global()}) because the OpenTelemetry context storage it listens to is
 * JVM-wide.
 * <p>
 * Recording a change costs one clock read and four stores into a preallocated per-thread
 * ring (and, on Linux, a read of the thread's run-queue wait where it enters or leaves
 * spans, not where it comes straight back into the span it just left, and, when asked to,
 * of its CPU clock there too); an activation that leaves the same span active records
 * nothing, and everything is skipped (one volatile read) while no engine consumes the
 * points.
 */
public final class ActivationRecorder {

	/**
	 * Change points a thread can hold between two drains: at the collector's quickest
	 * pace (20 drains a second) ~20k changes/s/thread, and a ring half full asks for a
	 * drain at once.
	 */
	static final int DEFAULT_CAPACITY = 1024;

	/**
	 * Virtual threads are many and short-lived: a request's worth of change points is
	 * enough.
	 */
	static final int VIRTUAL_THREAD_CAPACITY = 64;

	/**
	 * How soon a thread that comes back into the span it just left continues its stretch
	 * rather than reading its CPU clock again: what it did in between, at most this long,
	 * is counted as the request's.
	 */
	static final long RESUME_WITHIN_NANOS = 1_000_000;

	private static final ActivationRecorder GLOBAL = new ActivationRecorder(DEFAULT_CAPACITY);

	private final int capacity;

	private final ThreadLocal<ThreadActivity> current = new ThreadLocal<>();

	private final ConcurrentLinkedQueue<ThreadActivity> threads = new ConcurrentLinkedQueue<>();

	/**
	 * 0 while not recording; otherwise the recording session, new at every start, so that
	 * the first change of each thread in a session is recorded even when its span is the
	 * one it last recorded before a stop.
	 */
	private volatile int session;

	private int lastSession;

	/**
	 * Whether a thread's CPU clock is read where it enters or leaves spans. Off unless
	 * asked for: each read is a system call, and on a machine whose cores are all busy it
	 * lets the scheduler switch threads more often, which cost the benchmark application
	 * 9 % more CPU per request, every request traced (docs/performance.md).
	 */
	private volatile boolean readsCpuClocks;

	/**
	 * Whether the thread's run-queue wait is read where it enters or leaves spans: where
	 * the kernel tells it, and the time waiting for a core or the CPU clocks are asked
	 * for.
	 */
	private volatile boolean readsRunQueues;

	/**
	 * Whether the time waiting for a core is asked for, with the CPU clocks or without
	 * them (guarded by this).
	 */
	private boolean measuresCoreWait;

	/** Whether the platform's lack of run-queue figures was said (once per JVM). */
	private static boolean runQueuesMissingLogged;

	private final ActivationListeners listeners = new ActivationListeners(this.threads);

	/**
	 * Told, on the recording thread, when a thread's ring is half full since the last
	 * drain; {@code null} while nobody drains.
	 */
	private volatile Runnable drainWanted;

	/**
	 * Whether a drain was asked for since the last one: threads that fill their rings
	 * together ask once, and only one of them pays for waking the drainer.
	 */
	private volatile boolean drainAsked;

	ActivationRecorder(int capacity) {
		this.capacity = capacity;
	}

	public static ActivationRecorder global() {
		return GLOBAL;
	}

	/**
	 * Start or stop accepting change points. Stopped, the hook costs one volatile read,
	 * and no thread keeps a file open for its reads.
	 */
	public synchronized void setRecording(boolean recording) {
		if (!recording) {
			this.session = 0;
			// No drain comes until the next start to close the file of a thread that dies
			// meanwhile: let every thread's go now; a live one opens it again at its next
			// read.
			for (ThreadActivity activity : this.threads) {
				activity.release();
			}
		}
		else if (this.session == 0) {
			this.lastSession = (this.lastSession == Integer.MAX_VALUE) ? 1 : this.lastSession + 1;
			this.session = this.lastSession;
		}
	}

	/**
	 * Read (or stop reading) each platform thread's CPU clock where it enters and leaves
	 * spans, so that a request's CPU time is exact whatever the sampling event; without
	 * the reads it is counted from samples. The run-queue wait is read with it, where the
	 * kernel tells it, whether {@link #setReadingRunQueues asked for} on its own or not.
	 */
	public synchronized void setReadingCpuClocks(boolean reads) {
		this.readsCpuClocks = reads;
		readRunQueues();
	}

	/**
	 * Read (or stop reading) each platform thread's run-queue wait where it enters and
	 * leaves spans, with or without its CPU clock, so that a request's time waiting for a
	 * core is measured; where the kernel does not tell it, one line says so.
	 */
	public synchronized void setReadingRunQueues(boolean reads) {
		this.measuresCoreWait = reads;
		readRunQueues();
	}

	private void readRunQueues() {
		boolean wanted = this.measuresCoreWait || this.readsCpuClocks;
		this.readsRunQueues = wanted && RunQueueClock.available();
		if (wanted && !RunQueueClock.available() && !runQueuesMissingLogged) {
			runQueuesMissingLogged = true;
			System.getLogger(ActivationRecorder.class.getName())
				.log(System.Logger.Level.INFO, "spanprofile: the time requests wait for a core is not measured: "
						+ RunQueueClock.unavailableReason() + (this.readsCpuClocks ? "; their CPU time is" : ""));
		}
	}

	/**
	 * Whether the threads' run-queue waits are read where they enter and leave spans:
	 * where they were asked for, with the CPU clocks or on their own, and the kernel
	 * tells them (Linux's per-thread scheduler statistics).
	 */
	public boolean isReadingRunQueues() {
		return this.readsRunQueues;
	}

	public boolean isReadingCpuClocks() {
		return this.readsCpuClocks;
	}

	public boolean isRecording() {
		return this.session != 0;
	}

	/**
	 * Called on the thread whose current OpenTelemetry context changed to {@code context}
	 * ({@code null} for none). Looks at the context only while recording.
	 */
	void contextActivated(Context context) {
		if (this.session != 0) {
			spanActivated(activeSpan(context));
		}
	}

	private static SpanContext activeSpan(Context context) {
		if (context == null) {
			return null;
		}
		Span span = Span.fromContextOrNull(context);
		if (span == null) {
			return null;
		}
		SpanContext spanContext = span.getSpanContext();
		if (!spanContext.isValid()) {
			return null;
		}
		// A span the tracer's sampler dropped never reaches the span processors, so it
		// has no profile to receive samples: to the join it is no span at all. Seen as
		// none here, a thread that goes from one dropped request to the next records no
		// change point.
		return (spanContext.isSampled() || span.isRecording()) ? spanContext : null;
	}

	/**
	 * Called on the thread whose active span changed. {@code span} is the OpenTelemetry
	 * SpanContext now active, or, from another tracer's hook, the lowercase hex id of the
	 * span now active (the same String object for as long as the span stays active spares
	 * the join a lookup); {@code null} when no recorded span is. Only a SpanContext
	 * reaches the {@link #setActivationListener activation listener}: an
	 * {@link UnsampledRequest} has no span id to label samples with.
	 */
	public void spanActivated(Object span) {
		int session = this.session;
		if (session == 0) {
			return;
		}
		ThreadActivity activity = activity();
		if (span == null) {
			// Inside an unsampled request its own spans are unsampled too: the request
			// stays what runs.
			span = (activity.unsampled != null) ? activity.unsampled : activity.background;
		}
		if (activity.lastSession == session && activity.lastSpan == span) {
			// The same span again (re-attached, or a context that differs only in other
			// entries): no change.
			return;
		}
		changeTo(activity, session, span);
	}

	/**
	 * Called on a thread that starts working for {@code request}, a request tracing did
	 * not sample: until {@link #unsampledRequestLeft}, whenever no recorded span is
	 * active the thread's samples belong to it. Calls for the request the thread already
	 * works for nest (a second scope of the same observation, as a task carrying the
	 * request's context run inline opens): the thread leaves it at the matching last
	 * {@link #unsampledRequestLeft}. Another request replaces it.
	 */
	public void unsampledRequestEntered(UnsampledRequest request) {
		int session = this.session;
		// While stopped, only the depth of a request already entered is kept, so that a
		// nested scope opened across a stop does not end it early.
		ThreadActivity activity = (session != 0) ? activity() : this.current.get();
		if (activity == null) {
			return;
		}
		if (activity.unsampled == request) {
			activity.unsampledDepth++;
		}
		else if (session != 0) {
			activity.unsampled = request;
			activity.unsampledDepth = 1;
		}
		if (session != 0 && (activity.lastSession != session || activity.lastSpan == null
				|| activity.lastSpan == activity.background)) {
			changeTo(activity, session, request);
		}
	}

	/**
	 * Called on a thread that stops working for {@code request}, once per
	 * {@link #unsampledRequestEntered} ({@code null}: for whichever it works for, at any
	 * depth, as when a pool thread's context is reset).
	 */
	public void unsampledRequestLeft(UnsampledRequest request) {
		ThreadActivity activity = this.current.get();
		if (activity == null || activity.unsampled == null || (request != null && activity.unsampled != request)) {
			return;
		}
		if (request != null && --activity.unsampledDepth > 0) {
			return;
		}
		UnsampledRequest left = activity.unsampled;
		activity.unsampled = null;
		activity.unsampledDepth = 0;
		int session = this.session;
		if (session != 0 && activity.lastSession == session && activity.lastSpan == left) {
			changeTo(activity, session, activity.background);
		}
	}

	/**
	 * Called on a thread that starts working on {@code work} outside any span (a step of
	 * the application's start; {@code null}: on nothing any more): whenever no recorded
	 * span and no unsampled request is active on the thread, its samples belong to
	 * {@code work}. Kept per thread until replaced, so a context that leaves the thread
	 * with no span (an instrumented call during the start) hands it back to {@code work}.
	 */
	public void backgroundActivity(Object work) {
		int session = this.session;
		ThreadActivity activity = (session != 0) ? activity() : this.current.get();
		if (activity == null) {
			return;
		}
		Object previous = activity.background;
		activity.background = work;
		if (session == 0 || activity.unsampled != null) {
			return;
		}
		boolean idle = activity.lastSession != session || activity.lastSpan == null || activity.lastSpan == previous;
		if (idle && !(activity.lastSession == session && activity.lastSpan == work)) {
			changeTo(activity, session, work);
		}
	}

	/** The calling thread's ring, made on its first change point. */
	private ThreadActivity activity() {
		ThreadActivity activity = this.current.get();
		if (activity == null) {
			Thread thread = Thread.currentThread();
			activity = new ThreadActivity(thread, VirtualThreads.isVirtual(thread)
					? Math.min(VIRTUAL_THREAD_CAPACITY, this.capacity) : this.capacity);
			this.current.set(activity);
			this.threads.add(activity);
		}
		return activity;
	}

	private void changeTo(ThreadActivity activity, int session, Object span) {
		Object previous = activity.lastSpan;
		boolean sameSession = activity.lastSession == session;
		activity.lastSession = session;
		activity.lastSpan = span;
		boolean inSpan = span != null;
		boolean enteredOrLeft = inSpan != activity.inSpan;
		// The clocks, when asked for, only where the thread enters or leaves spans: a
		// request's CPU time and wait for a core are then exact for two reads each,
		// whatever the sampling event. Not for a request tracing did not sample, which
		// has no record to hold them.
		boolean readsCpuClocks = this.readsCpuClocks;
		boolean measured = enteredOrLeft && (readsCpuClocks || this.readsRunQueues) && !activity.virtual
				&& !(span instanceof UnsampledRequest) && !(previous instanceof UnsampledRequest);
		long now;
		long readAt;
		long cpuTime = ThreadCpuClock.UNREAD;
		long runQueueTime = RunQueueClock.UNREAD;
		if (measured) {
			now = comesBack(activity, sameSession, span) ? System.nanoTime() : Long.MIN_VALUE;
			readAt = now;
			boolean resumed = activity.resumed;
			activity.resumed = false;
			if (now != Long.MIN_VALUE && now - activity.leftAt < RESUME_WITHIN_NANOS) {
				cpuTime = ThreadActivity.CLOCK_CONTINUED;
				runQueueTime = ThreadActivity.CLOCK_CONTINUED;
				activity.resumed = true;
			}
			else {
				// The clocks before the change point's time: read between that time and
				// the point's publication, their system calls would widen the window in
				// which a preempted thread lets a sample join the span it is leaving.
				RunQueueClock runQueue = runQueueClock(activity);
				cpuTime = readsCpuClocks ? ThreadCpuClock.now() : ThreadCpuClock.UNREAD;
				// The stretch's length counts from right before the run-queue read, with
				// no system call in between: a thread switched out on its way back from
				// a system call (where a busy machine switches threads most) then has
				// that wait for a core on the same side of the point in both figures.
				readAt = System.nanoTime();
				if (resumed && !inSpan && !readsCpuClocks && readAt - activity.leftAt < RESUME_WITHIN_NANOS) {
					// Leaving again right after a quick return (the metrics handler's
					// scope): the figure read where it first left stands, one system call
					// fewer a request. The kernel's count in between is not lost: the
					// thread's next request takes it as its wait before it starts.
					runQueueTime = activity.leftRunQueue;
					now = readAt;
				}
				else {
					runQueueTime = (runQueue != null) ? runQueue.now() : RunQueueClock.UNREAD;
					now = System.nanoTime();
				}
				activity.leftRunQueue = runQueueTime;
			}
			activity.leftSpan = (!inSpan && (cpuTime >= 0 || runQueueTime >= 0)) ? previous : null;
			activity.leftAt = now;
		}
		else {
			now = System.nanoTime();
			readAt = now;
			if (activity.leftSpan != null) {
				// Only a return at the very next point continues the stretch.
				activity.leftSpan = null;
			}
		}
		if (activity.record(now, span, cpuTime, runQueueTime, now - readAt) && !this.drainAsked) {
			Runnable wanted = this.drainWanted;
			if (wanted != null) {
				this.drainAsked = true;
				wanted.run();
			}
		}
		this.listeners.activated(activity, span);
		if (enteredOrLeft) {
			this.listeners.enteredOrLeft(activity, inSpan);
		}
	}

	/**
	 * Whether the thread, entering {@code span}, comes back into the span it left at its
	 * previous point (soon enough is for the caller to tell). Spring MVC with
	 * Micrometer's tracing and metrics does so in every request: its observation filter
	 * closes the server span's scope, then the metrics handler opens it once more to
	 * record its timers with the span current (for exemplars). One stretch, measured from
	 * the first entry to the last exit, spares that read of the clocks.
	 */
	private static boolean comesBack(ThreadActivity activity, boolean sameSession, Object span) {
		return sameSession && activity.leftSpan != null && activity.leftSpan.equals(span);
	}

	/**
	 * The thread's run-queue figure, its file open, where the kernel tells it
	 * ({@link #isReadingRunQueues()}); {@code null} elsewhere.
	 */
	private RunQueueClock runQueueClock(ThreadActivity activity) {
		if (!this.readsRunQueues) {
			return null;
		}
		RunQueueClock clock = activity.runQueueClock;
		if (clock == null) {
			clock = new RunQueueClock();
			activity.runQueueClock = clock;
		}
		clock.open();
		return clock;
	}

	/**
	 * Set (or clear, with {@code null}) the listener told about every span change on
	 * platform threads (virtual threads are left out, see {@link ActivationListeners}).
	 */
	public void setActivationListener(SpanActivationListener listener) {
		this.listeners.setActivationListener(listener);
	}

	/**
	 * Set (or clear, with {@code null}) the listener told when platform threads enter and
	 * leave spans. The listener is then told about every platform thread already inside a
	 * span; a thread entering one meanwhile is told about at least once
	 * ({@link ActivationListeners#setThreadListener}).
	 */
	public void setThreadListener(SpanThreadListener listener) {
		this.listeners.setThreadListener(listener);
	}

	/**
	 * Call {@code action} with every live platform thread whose last recorded point was
	 * inside a span.
	 */
	public void forEachThreadInSpan(Consumer<Thread> action) {
		this.listeners.forEachThreadInSpan(action);
	}

	/**
	 * Set (or clear, with {@code null}) what is told when a thread's ring fills half
	 * since the last drain, on that thread: the drainer's cue to drain before its usual
	 * time. Called about once per drain at most, so it may wake a thread.
	 */
	public void setDrainWanted(Runnable drainWanted) {
		this.drainWanted = drainWanted;
	}

	/**
	 * Collector thread only: hand all pending change points of all threads to
	 * {@code sink}; forget threads that have died once their last points are drained.
	 * @return the largest share of its ring a thread had filled since the last drain
	 * (above 1 where one lapped it), for the drainer to pace itself
	 */
	public double drainTo(ThreadActivity.ChangePointSink sink) {
		this.drainAsked = false;
		double fullest = 0;
		for (Iterator<ThreadActivity> it = this.threads.iterator(); it.hasNext();) {
			ThreadActivity activity = it.next();
			boolean alive = activity.isOwnerAlive();
			long drained = activity.drainTo(sink);
			if (drained > 0) {
				fullest = Math.max(fullest, (double) drained / activity.capacity());
			}
			if (!alive) {
				it.remove();
				activity.release();
				sink.threadEnded(activity.threadId());
			}
		}
		return fullest;
	}

	/** The calling thread's ring, or {@code null} (for tests). */
	ThreadActivity currentActivity() {
		return this.current.get();
	}

	/** Number of threads that currently own a ring (for tests and diagnostics). */
	public int trackedThreads() {
		return this.threads.size();
	}

}
