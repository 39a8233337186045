package dev.spanprofile.sampling;

import java.io.IOException;

import dev.spanprofile.profile.FrameTable;

/**
 * An engine that samples (CPU, wall, allocations, locks) with the waits of
 * {@link JfrWaitEngine} beside it, so that a request's time is explained whether it
 * computed or waited. The waits are an addition: when Flight Recorder cannot run them, or
 * their stream ends, the engine carries on without them and says so in its note.
 */
public final class EngineWithWaits implements SamplingEngine {

	private static final System.Logger logger = System.getLogger(EngineWithWaits.class.getName());

	private final SamplingEngine engine;

	private final SamplingEngine waits;

	private boolean waitsRunning;

	private String waitsProblem;

	private volatile long sampledUpTo = Long.MIN_VALUE;

	EngineWithWaits(SamplingEngine engine, SamplingEngine waits) {
		this.engine = engine;
		this.waits = waits;
	}

	/**
	 * {@code engine} with waits beside it when the settings ask for them, else
	 * {@code engine} itself.
	 */
	public static SamplingEngine around(SamplingEngine engine, SamplerSettings settings, FrameTable frames) {
		if (!settings.waits()) {
			return engine;
		}
		try {
			return new EngineWithWaits(engine,
					new JfrWaitEngine(settings.waitThreshold(), settings.socketWaits(), frames));
		}
		catch (LinkageError ex) {
			// A runtime image without the jdk.jfr module: sample without waits rather
			// than fail the application.
			logger.log(System.Logger.Level.WARNING, "spanprofile: waits are not recorded, JDK Flight Recorder is "
					+ "missing from this runtime: " + ex);
			return engine;
		}
	}

	@Override
	public String name() {
		return this.engine.name();
	}

	@Override
	public synchronized void start() throws SamplerUnavailableException {
		this.engine.start();
		try {
			this.waits.start();
			this.waitsRunning = true;
			this.waitsProblem = null;
		}
		catch (SamplerUnavailableException | RuntimeException | LinkageError ex) {
			this.waitsProblem = "waits are not recorded: " + ex.getMessage();
			logger.log(System.Logger.Level.WARNING, "spanprofile: " + this.waitsProblem);
		}
	}

	@Override
	public synchronized long collect(SampleSink sink) throws IOException {
		long upTo = this.engine.collect(sink);
		this.sampledUpTo = upTo;
		if (this.waitsRunning) {
			try {
				upTo = Math.min(upTo, this.waits.collect(sink));
			}
			catch (IOException | RuntimeException ex) {
				// Losing the waits must not hold every profile back: carry on with the
				// samples.
				this.waitsRunning = false;
				this.waitsProblem = "waits are no longer recorded: " + ex.getMessage();
				logger.log(System.Logger.Level.WARNING, "spanprofile: " + this.waitsProblem);
				this.waits.close();
			}
		}
		return upTo;
	}

	/**
	 * What the last {@link #collect} promised for the samples alone: the waits' stream
	 * delivers about a second later, and holds the promise of the whole back by that.
	 */
	public long sampledUpTo() {
		return this.sampledUpTo;
	}

	@Override
	public synchronized String activeEvent() {
		return this.engine.activeEvent() + (this.waitsRunning ? ",waits" : "");
	}

	@Override
	public synchronized String note() {
		String engineNote = this.engine.note();
		String waitsNote = this.waitsRunning ? this.waits.note() : this.waitsProblem;
		if (engineNote == null) {
			return waitsNote;
		}
		return (waitsNote == null) ? engineNote : engineNote + "; " + waitsNote;
	}

	@Override
	public synchronized void close() {
		if (this.waitsRunning) {
			this.waits.close();
			this.waitsRunning = false;
		}
		this.engine.close();
	}

}
