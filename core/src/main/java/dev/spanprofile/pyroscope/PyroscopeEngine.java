package dev.spanprofile.pyroscope;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

import dev.spanprofile.sampling.NativeProfiler;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.upload.UploadQueue;
import io.pyroscope.PyroscopeAsyncProfiler;
import io.pyroscope.javaagent.EventType;
import io.pyroscope.javaagent.PyroscopeAgent;
import io.pyroscope.javaagent.Snapshot;
import io.pyroscope.javaagent.api.Exporter;
import io.pyroscope.javaagent.api.ProfilerApi;
import io.pyroscope.javaagent.api.ProfilerApiHolder;
import io.pyroscope.javaagent.config.Config;
import io.pyroscope.javaagent.impl.PyroscopeExporter;
import io.pyroscope.labels.pb.JfrLabels;
import io.pyroscope.vendor.one.profiler.AsyncProfiler;

/**
 * Samples with the Pyroscope agent's own async-profiler, the only native profiler in the
 * JVM in this mode, and uses every profile it cuts twice: uploaded to the Pyroscope
 * server (span ids, names and trace ids as labels) and parsed into the local store that
 * the actuator endpoint reads.
 * <p>
 * The agent stops, dumps and restarts its recording every upload interval, so local
 * profiles are complete only up to the last cut: a span's flame graph fills in within one
 * upload interval after the span ends.
 */
public final class PyroscopeEngine implements SamplingEngine {

	private static final System.Logger logger = System.getLogger(PyroscopeEngine.class.getName());

	/**
	 * Profiles waiting for the local collector; it runs every dump interval, so more than
	 * two means it is stuck.
	 */
	private static final int LOCAL_QUEUE_CAPACITY = 2;

	private final PyroscopeSettings settings;

	private final SamplerSettings sampler;

	private final SpanLabels labels;

	private final AgentRecordingParser parser;

	private final ActivationRecorder recorder;

	/**
	 * This instance's draw against {@code sample-rate}: once for the engine's life, so a
	 * restart does not re-draw.
	 */
	private final double drawn;

	private final ArrayDeque<Snapshot> local = new ArrayDeque<>(LOCAL_QUEUE_CAPACITY);

	private final LongAdder localDropped = new LongAdder();

	private UploadQueue<Snapshot> uploads;

	private Exporter uploader;

	private volatile boolean started;

	private long completeUpTo;

	public PyroscopeEngine(PyroscopeSettings settings, SpanLabels labels, SamplerSettings sampler, FrameTable frames) {
		this(settings, labels, sampler, frames, ActivationRecorder.global(), Math::random);
	}

	PyroscopeEngine(PyroscopeSettings settings, SpanLabels labels, SamplerSettings sampler, FrameTable frames,
			ActivationRecorder recorder, DoubleSupplier draw) {
		this.settings = settings;
		this.sampler = sampler;
		this.labels = labels;
		this.parser = new AgentRecordingParser(frames, sampler.kinds(), sampler.workDirectory(),
				sampler.lockThreshold().toNanos());
		this.recorder = recorder;
		this.drawn = draw.getAsDouble();
	}

	@Override
	public String name() {
		return "pyroscope";
	}

	@Override
	public String activeEvent() {
		return this.sampler.eventsDescriptionOn(System.getProperty("os.name"));
	}

	@Override
	public synchronized void start() throws SamplerUnavailableException {
		EventType event = AgentConfig.eventType(this.sampler);
		if (this.settings.applicationName() == null || this.settings.applicationName().isBlank()) {
			throw new SamplerUnavailableException("Pyroscope export needs an application name: set "
					+ "spanprofile.pyroscope.application-name or spring.application.name (it must equal the spans' "
					+ "service.name for Grafana to link traces to profiles)");
		}
		if (this.drawn >= this.settings.sampleRate()) {
			throw new SamplerUnavailableException("this instance does not profile: spanprofile.pyroscope.sample-rate="
					+ this.settings.sampleRate() + " selects that fraction of instances, and this instance drew "
					+ String.format("%.3f", this.drawn));
		}
		refuseIfAnotherProfilerRuns();
		AgentLogger agentLogger = new AgentLogger(this.settings.secrets());
		Config config;
		try {
			config = AgentConfig.config(this.settings, this.sampler, event);
		}
		catch (IllegalArgumentException ex) {
			throw new SamplerUnavailableException(
					"Pyroscope rejected the configuration: " + agentLogger.redact(String.valueOf(ex.getMessage())), ex);
		}
		AsyncProfiler profiler = NativeProfiler.loadPyroscopeCopy(PyroscopeAsyncProfiler::getAsyncProfiler);
		// The agent's exporter retries with backoff itself and reports every attempt
		// through the agent's logger.
		Exporter uploader = new PyroscopeExporter(config, agentLogger);
		UploadQueue<Snapshot> uploads = new UploadQueue<>(uploader::export, this.settings.queueCapacity(),
				this.settings.redactedServerAddress(), "spanprofile-pyroscope-upload");
		agentLogger.reportUploadsTo(uploads);
		Exporter tee = new Exporter() {

			@Override
			public void export(Snapshot snapshot) {
				keepLocally(snapshot);
				uploads.add(withSpanNames(snapshot));
			}

			@Override
			public void stop() {
				uploads.stop();
				uploader.stop();
			}

		};
		// Labels must be in place before the first sample is taken.
		this.labels.startExporting();
		this.recorder.setActivationListener(new TracingContextUpdater(this.labels, profiler,
				this.settings.spanNameLabel(), this.settings.traceIdLabel()));
		this.completeUpTo = System.nanoTime();
		PyroscopeAgent
			.start(new PyroscopeAgent.Options.Builder(config).setExporter(tee).setLogger(agentLogger).build());
		if (!PyroscopeAgent.isStarted()) {
			this.recorder.setActivationListener(null);
			this.labels.stopExporting();
			uploads.stop();
			uploader.stop();
			throw new SamplerUnavailableException("the Pyroscope agent did not start"
					+ ((agentLogger.lastError() != null) ? ": " + agentLogger.lastError() : ""));
		}
		this.uploads = uploads;
		this.uploader = uploader;
		this.started = true;
		logger.log(System.Logger.Level.INFO,
				"spanprofile: exporting span profiles to Pyroscope at " + this.settings.redactedServerAddress() + " as "
						+ this.settings.applicationName() + " every " + this.settings.uploadInterval().toSeconds()
						+ "s");
	}

	/**
	 * Two async-profiler copies in one process steal each other's samples; two Pyroscope
	 * agents cannot run in one JVM either. Refuse rather than lose samples silently.
	 */
	private static void refuseIfAnotherProfilerRuns() throws SamplerUnavailableException {
		if (PyroscopeAgent.isStarted()) {
			throw new SamplerUnavailableException("the Pyroscope agent was already started by someone else in this JVM "
					+ "(a -javaagent, or the application); spanprofile will not share it. Remove the other start, or set "
					+ "spanprofile.pyroscope.enabled=false");
		}
		ProfilerApi published = ProfilerApiHolder.INSTANCE.get();
		if (published != null && published.isProfilingStarted()) {
			throw new SamplerUnavailableException("a Pyroscope agent from another class loader is already profiling "
					+ "(e.g. the OpenTelemetry Java agent's Pyroscope extension); two copies steal each other's samples");
		}
		NativeProfiler.refuseIfAnotherCopyRunsBesidePyroscope();
	}

	private void keepLocally(Snapshot snapshot) {
		synchronized (this.local) {
			if (this.local.size() >= LOCAL_QUEUE_CAPACITY) {
				this.local.pollFirst();
				this.localDropped.increment();
			}
			this.local.addLast(snapshot);
		}
	}

	private Snapshot withSpanNames(Snapshot snapshot) {
		Map<Long, String> names = new HashMap<>();
		this.labels.drainNames(names);
		if (names.isEmpty()) {
			return snapshot;
		}
		JfrLabels.LabelsSnapshot merged = snapshot.labels.toBuilder().putAllStrings(names).build();
		return new Snapshot(snapshot.format, snapshot.eventType, snapshot.started, snapshot.ended, snapshot.data,
				merged);
	}

	@Override
	public long collect(SampleSink sink) throws IOException {
		while (true) {
			Snapshot snapshot;
			synchronized (this.local) {
				snapshot = this.local.pollFirst();
			}
			if (snapshot == null) {
				return this.completeUpTo;
			}
			this.parser.parse(snapshot.data, sink);
			// The agent stamped the dump's end with the wall clock moments ago: pair the
			// clocks now, not at start-up.
			this.completeUpTo = Math.max(this.completeUpTo, MonotonicEpoch.Anchor.now().toNanoTime(snapshot.ended));
		}
	}

	@Override
	public String note() {
		UploadQueue<Snapshot> uploads = this.uploads;
		if (uploads == null) {
			return null;
		}
		StringBuilder note = new StringBuilder("exporting to Pyroscope at ")
			.append(this.settings.redactedServerAddress())
			.append(" as ")
			.append(this.settings.applicationName())
			.append("; local profiles fill in after each upload interval (")
			.append(this.settings.uploadInterval().toSeconds())
			.append("s); uploaded ")
			.append(uploads.uploaded())
			.append(", failed ")
			.append(uploads.failed())
			.append(", dropped ")
			.append(uploads.dropped());
		if (uploads.inOutage()) {
			note.append("; the server cannot be reached");
		}
		if (this.labels.overflowed() > 0) {
			note.append("; ").append(this.labels.overflowed()).append(" spans unlabelled (too many spans in progress)");
		}
		return note.toString();
	}

	/** Upload statistics, for diagnostics and tests. */
	public UploadStats uploadStats() {
		UploadQueue<Snapshot> uploads = this.uploads;
		return (uploads != null)
				? new UploadStats(uploads.uploaded(), uploads.failed(), uploads.dropped(), uploads.queued(),
						uploads.inOutage(), this.localDropped.sum())
				: new UploadStats(0, 0, 0, 0, false, this.localDropped.sum());
	}

	@Override
	public synchronized void close() {
		if (!this.started) {
			return;
		}
		this.started = false;
		this.recorder.setActivationListener(null);
		PyroscopeAgent.stop();
		// After the agent's last cut: nothing uploads the names of labels left now.
		this.labels.stopExporting();
		this.uploads.stop();
		this.uploader.stop();
	}

	/**
	 * @param uploaded profiles the server accepted
	 * @param failed profiles given up after all attempts
	 * @param dropped profiles dropped unsent because the queue was full
	 * @param queued profiles waiting now
	 * @param outage whether the last attempt failed
	 * @param droppedLocally profiles the local view missed because its collector fell
	 * behind
	 */
	public record UploadStats(long uploaded, long failed, long dropped, int queued, boolean outage,
			long droppedLocally) {
	}

}
