package dev.spanprofile.autoconfigure.ondemand;

/**
 * The request thread's wish that the next span it starts be sampled: armed by the web
 * layer before the server observation starts the request's span, taken by the tracer's
 * sampler ({@link ForcingSampler}, {@link ForcingBraveSampler}) as it decides on that
 * span, and cleared by the web layer once the request is through, whatever happened.
 */
public final class ForcedSampling {

	private static final ThreadLocal<Boolean> armed = new ThreadLocal<>();

	private ForcedSampling() {
	}

	/** The next span this thread starts is sampled. */
	public static void arm() {
		armed.set(Boolean.TRUE);
	}

	/** Nothing forced on this thread any more (the thread-local gone). */
	public static void disarm() {
		armed.remove();
	}

	/**
	 * Whether the span being started now is forced; only the first asks with
	 * {@code true}: the request's own span, not those it starts later (sampled anyway as
	 * its children).
	 */
	static boolean take() {
		if (armed.get() == null) {
			return false;
		}
		armed.remove();
		return true;
	}

}
