package dev.spanprofile.sampling;

import java.io.IOException;

/**
 * {@code spanprofile.engine=auto}: the preferred engine where it can run, the fallback
 * otherwise, and one log line saying which and why.
 */
public final class FallbackSamplingEngine implements SamplingEngine {

	private static final System.Logger logger = System.getLogger(FallbackSamplingEngine.class.getName());

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
		logger.log(System.Logger.Level.WARNING,
				"spanprofile: " + this.fallbackReason + "; using " + this.fallback.name() + " instead");
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
