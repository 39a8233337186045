package dev.spanprofile.sampling;

import java.io.IOException;

/**
 * A source of stack samples with thread and time. The collector calls {@link #collect}
 * periodically from one thread.
 */
public interface SamplingEngine extends AutoCloseable {

	/** Short name reported to users, e.g. {@code async-profiler}. */
	String name();

	/**
	 * Start sampling.
	 * @throws SamplerUnavailableException when this engine cannot run here; the message
	 * says why
	 */
	void start() throws SamplerUnavailableException;

	/**
	 * Hand every sample taken since the last call to {@code sink}.
	 * @return the time (System.nanoTime clock) up to which all samples have been
	 * delivered
	 */
	long collect(SampleSink sink) throws IOException;

	/**
	 * The event actually in use (the engine may have fallen back from the requested one).
	 */
	String activeEvent();

	/**
	 * What a user should know about this engine's results here (limits, fallbacks), or
	 * {@code null}.
	 */
	default String note() {
		return null;
	}

	/** Stop sampling and release files; samples not yet collected are lost. */
	@Override
	void close();

}
