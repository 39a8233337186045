package dev.spanprofile.tracking;

/**
 * Told, on the thread itself, when a platform thread starts and stops running inside a
 * span. A wall-clock sampler uses it to sample only threads that have something to
 * attribute to.
 */
public interface SpanThreadListener {

	/** The current thread now runs inside a span (it did not just before). */
	void entered(Thread thread);

	/** The current thread no longer runs inside any span. */
	void left(Thread thread);

}
