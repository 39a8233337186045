package dev.spanprofile;

/**
 * Where a {@link SpanProfiler} is in its life: the one answer to "is it running?" that
 * the span processor, the endpoint and the application context's lifecycle all read.
 *
 * @param phase the phase
 * @param reason why it is not running, for people; {@code null} while running
 */
public record ProfilerState(Phase phase, String reason) {

	static final ProfilerState NEW = new ProfilerState(Phase.NEW, "not started");

	static final ProfilerState RUNNING = new ProfilerState(Phase.RUNNING, null);

	static final ProfilerState STOPPED = new ProfilerState(Phase.STOPPED, "stopped");

	static ProfilerState failed(String reason) {
		return new ProfilerState(Phase.FAILED, (reason != null) ? reason : "failed to start");
	}

	public boolean isRunning() {
		return this.phase == Phase.RUNNING;
	}

	public enum Phase {

		/** Built, never started: nothing samples. */
		NEW,

		/** Sampling; spans that start are stored and get samples. */
		RUNNING,

		/**
		 * Stopped on request; profiles stored before stay readable, new spans are not
		 * stored.
		 */
		STOPPED,

		/**
		 * The last start failed (see the reason); nothing samples, new spans are not
		 * stored.
		 */
		FAILED

	}

}
