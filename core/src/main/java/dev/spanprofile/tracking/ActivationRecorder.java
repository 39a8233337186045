package dev.spanprofile.tracking;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.opentelemetry.api.trace.SpanContext;

/**
 * Records, per thread, when the active span changes. One instance per JVM ({@link #global()}) because the
 * OpenTelemetry context storage it listens to is JVM-wide.
 * <p>
 * Recording costs one clock read and three stores into a preallocated per-thread ring; it is skipped entirely
 * (one volatile read) while no engine consumes the points.
 */
public final class ActivationRecorder {

	/** Change points a thread can hold between two drains; at 20 drains a second that is ~20k changes/s/thread. */
	static final int DEFAULT_CAPACITY = 1024;

	/** Virtual threads are many and short-lived: a request's worth of change points is enough. */
	static final int VIRTUAL_THREAD_CAPACITY = 64;

	private static final ActivationRecorder GLOBAL = new ActivationRecorder(DEFAULT_CAPACITY);

	private final int capacity;

	private final ThreadLocal<ThreadActivity> current = new ThreadLocal<>();

	private final ConcurrentLinkedQueue<ThreadActivity> threads = new ConcurrentLinkedQueue<>();

	private volatile boolean recording;

	private volatile SpanThreadListener threadListener;

	private volatile SpanActivationListener activationListener;

	ActivationRecorder(int capacity) {
		this.capacity = capacity;
	}

	public static ActivationRecorder global() {
		return GLOBAL;
	}

	/** Start or stop accepting change points. Stopped, the hook costs one volatile read. */
	public void setRecording(boolean recording) {
		this.recording = recording;
	}

	public boolean isRecording() {
		return this.recording;
	}

	/**
	 * Called on the thread whose active span changed. {@code span} is the OpenTelemetry SpanContext now active, or
	 * {@code null} when no valid span is.
	 */
	public void spanActivated(Object span) {
		if (!this.recording) {
			return;
		}
		ThreadActivity activity = this.current.get();
		if (activity == null) {
			Thread thread = Thread.currentThread();
			activity = new ThreadActivity(thread,
					VirtualThreads.isVirtual(thread) ? Math.min(VIRTUAL_THREAD_CAPACITY, this.capacity) : this.capacity);
			this.current.set(activity);
			this.threads.add(activity);
		}
		activity.record(System.nanoTime(), span);
		SpanActivationListener activationListener = this.activationListener;
		if (activationListener != null && !activity.virtual) {
			notifyActivated(activationListener, span);
		}
		boolean inSpan = span != null;
		if (inSpan != activity.inSpan) {
			activity.inSpan = inSpan;
			SpanThreadListener listener = this.threadListener;
			if (listener != null && !activity.virtual) {
				notify(listener, inSpan);
			}
		}
	}

	private static void notify(SpanThreadListener listener, boolean entered) {
		try {
			if (entered) {
				listener.entered(Thread.currentThread());
			}
			else {
				listener.left(Thread.currentThread());
			}
		}
		catch (RuntimeException ex) {
			// The application's thread must never fail because of the profiler.
		}
	}

	private static void notifyActivated(SpanActivationListener listener, Object span) {
		try {
			listener.activated((span instanceof SpanContext spanContext) ? spanContext : null);
		}
		catch (RuntimeException | LinkageError ex) {
			// The application's thread must never fail because of the profiler.
		}
	}

	/**
	 * Set (or clear, with {@code null}) the listener told about every span change on platform threads. Virtual
	 * threads are left out: a native per-thread slot set from one would belong to its carrier, and stay there after
	 * the virtual thread unmounts.
	 */
	public void setActivationListener(SpanActivationListener listener) {
		this.activationListener = listener;
	}

	/**
	 * Set (or clear, with {@code null}) the listener told when platform threads enter and leave spans. The
	 * listener is then told about every platform thread already inside a span.
	 */
	public void setThreadListener(SpanThreadListener listener) {
		this.threadListener = listener;
		if (listener != null) {
			forEachThreadInSpan(listener::entered);
		}
	}

	/** Call {@code action} with every live platform thread whose last recorded point was inside a span. */
	public void forEachThreadInSpan(java.util.function.Consumer<Thread> action) {
		for (ThreadActivity activity : this.threads) {
			Thread owner = activity.owner();
			if (activity.inSpan && !activity.virtual && owner != null && owner.isAlive()) {
				try {
					action.accept(owner);
				}
				catch (RuntimeException ex) {
					// A thread that ended meanwhile cannot be registered; nothing to attribute to it either.
				}
			}
		}
	}

	/**
	 * Collector thread only: hand all pending change points of all threads to {@code sink}; forget threads that
	 * have died once their last points are drained.
	 */
	public void drainTo(ThreadActivity.ChangePointSink sink) {
		for (Iterator<ThreadActivity> it = this.threads.iterator(); it.hasNext();) {
			ThreadActivity activity = it.next();
			boolean alive = activity.isOwnerAlive();
			activity.drainTo(sink);
			if (!alive) {
				it.remove();
				sink.threadEnded(activity.threadId());
			}
		}
	}

	/** Number of threads that currently own a ring (for tests and diagnostics). */
	public int trackedThreads() {
		return this.threads.size();
	}

}
