package dev.spanprofile.tracking;

import java.util.function.Consumer;

import io.opentelemetry.api.trace.SpanContext;

/**
 * Who hears about a platform thread's span changes besides its ring: a native profiler's
 * tracing context ({@link SpanActivationListener}, every change) and a wall-clock
 * sampler's thread filter ({@link SpanThreadListener}, entering and leaving spans). Kept
 * apart from the recording itself, whose change point must stay a few stores; the one
 * thing the two share is the {@code inSpan} handshake of {@link #setThreadListener}.
 * <p>
 * Virtual threads are left out: a native per-thread slot set from one would belong to its
 * carrier, and stay there after the virtual thread unmounts. A listener that throws is
 * ignored: the application's thread must never fail because of the profiler.
 */
final class ActivationListeners {

	private final Iterable<ThreadActivity> threads;

	private volatile SpanThreadListener threadListener;

	private volatile SpanActivationListener activationListener;

	/**
	 * @param threads every thread's ring, for a new thread listener to hear about threads
	 * already inside spans
	 */
	ActivationListeners(Iterable<ThreadActivity> threads) {
		this.threads = threads;
	}

	/** On the thread of {@code activity}, whose active span changed to {@code span}. */
	void activated(ThreadActivity activity, Object span) {
		SpanActivationListener listener = this.activationListener;
		if (listener != null && !activity.virtual) {
			try {
				listener.activated((span instanceof SpanContext spanContext) ? spanContext : null);
			}
			catch (RuntimeException | LinkageError ex) {
				// Ignored, see the class javadoc.
			}
		}
	}

	/**
	 * On the thread of {@code activity}, which entered ({@code inSpan}) or left spans.
	 */
	void enteredOrLeft(ThreadActivity activity, boolean inSpan) {
		// A volatile write, then a volatile read of the listener: see setThreadListener.
		activity.inSpan = inSpan;
		SpanThreadListener listener = this.threadListener;
		if (listener == null || activity.virtual) {
			return;
		}
		try {
			if (inSpan) {
				listener.entered(Thread.currentThread());
			}
			else {
				listener.left(Thread.currentThread());
			}
		}
		catch (RuntimeException ex) {
			// Ignored, see the class javadoc.
		}
	}

	void setActivationListener(SpanActivationListener listener) {
		this.activationListener = listener;
	}

	/**
	 * A thread entering a span meanwhile writes its {@code inSpan} flag, then reads the
	 * listener; this method writes the listener, then reads the flags. Both sides are
	 * volatile, so the four accesses fall in one order and at least one side sees the
	 * other's write: the thread tells the new listener itself, or this method tells it
	 * about the thread (or both, and registering a thread twice is harmless). With a
	 * plain flag a store-load reordering on either side could let both miss, and the
	 * thread would stay out of a wall-clock filter until its next change. The race the
	 * other way, a thread leaving just as this tells the listener it is in, can leave it
	 * registered until its next change: samples outside spans, never given to one.
	 */
	void setThreadListener(SpanThreadListener listener) {
		this.threadListener = listener;
		if (listener != null) {
			forEachThreadInSpan(listener::entered);
		}
	}

	void forEachThreadInSpan(Consumer<Thread> action) {
		for (ThreadActivity activity : this.threads) {
			Thread owner = activity.owner();
			if (activity.inSpan && !activity.virtual && owner != null && owner.isAlive()) {
				try {
					action.accept(owner);
				}
				catch (RuntimeException ex) {
					// A thread that ended meanwhile cannot be registered; nothing to
					// attribute to it either.
				}
			}
		}
	}

}
