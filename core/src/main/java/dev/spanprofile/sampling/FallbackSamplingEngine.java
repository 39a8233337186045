package dev.spanprofile.sampling;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code spanprofile.engine=auto}: the preferred engine where it can run, the fallback
 * otherwise, and one log line saying which and why: one for the life of the JVM, not one
 * at each start (an engine made anew to add the waits once the application is ready,
 * profiling switched off and on again), which would say nothing new.
 */
public final class FallbackSamplingEngine implements SamplingEngine {

	private static final System.Logger logger = System.getLogger(FallbackSamplingEngine.class.getName());

	/**
	 * The fallbacks already said at WARNING in this JVM; a few at most (one per reason an
	 * engine cannot run), and bounded all the same.
	 */
	private static final Set<String> warned = ConcurrentHashMap.newKeySet();

	private static final int MAX_WARNED = 16;

	private final SamplingEngine preferred;

	private final SamplingEngine fallback;

	private volatile SamplingEngine active;

	private volatile String fallbackReason;

	public FallbackSamplingEngine(SamplingEngine preferred, SamplingEngine fallback) {
		this.preferred = preferred;
		this.fallback = fallback;
		this.active = preferred;
	}

	@Override
	public String name() {
		return this.active.name();
	}

	@Override
	public synchronized void start() throws SamplerUnavailableException {
		try {
			this.preferred.start();
			this.active = this.preferred;
			this.fallbackReason = null;
			return;
		}
		catch (SamplerUnavailableException | RuntimeException | LinkageError ex) {
			this.fallbackReason = this.preferred.name() + " unavailable: " + ex.getMessage();
		}
		this.fallback.start();
		this.active = this.fallback;
		String message = "spanprofile: " + this.fallbackReason + "; using " + this.fallback.name() + " instead";
		boolean first = warned.size() < MAX_WARNED && warned.add(message);
		logger.log(first ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG, message);
	}

	@Override
	public long collect(SampleSink sink) throws IOException {
		return this.active.collect(sink);
	}

	@Override
	public String activeEvent() {
		return this.active.activeEvent();
	}

	@Override
	public String note() {
		String note = this.active.note();
		if (this.fallbackReason == null || this.active == this.preferred) {
			return note;
		}
		return this.fallbackReason + ((note != null) ? "; " + note : "");
	}

	@Override
	public synchronized void close() {
		this.active.close();
	}

}
