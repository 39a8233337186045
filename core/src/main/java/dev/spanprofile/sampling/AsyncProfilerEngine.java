package dev.spanprofile.sampling;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.tracking.ActivationRecorder;
import one.profiler.AsyncProfiler;

/**
 * Samples with async-profiler: one long JFR recording with {@code clock=monotonic}, so
 * that sample times are directly comparable with {@code System.nanoTime()}. What this
 * class knows is how to drive the profiler (the start command, the event it fell back to,
 * the wall-clock thread filter); the library is {@link NativeProfiler}'s, and the
 * recording file's life (dumps, rotation, restarts, deletion) is
 * {@link ChunkedRecording}'s.
 */
public final class AsyncProfilerEngine implements SamplingEngine {

	private final SamplerSettings settings;

	private final ActivationRecorder recorder;

	private final ChunkedRecording recording;

	private AsyncProfiler profiler;

	private String activeEvent;

	public AsyncProfilerEngine(SamplerSettings settings, FrameTable frames) {
		this(settings, frames, ActivationRecorder.global());
	}

	AsyncProfilerEngine(SamplerSettings settings, FrameTable frames, ActivationRecorder recorder) {
		this.settings = settings;
		this.recorder = recorder;
		JfrChunkParser parser = new JfrChunkParser(frames, settings.kinds(), settings.lockThreshold().toNanos());
		this.recording = new ChunkedRecording(settings.workDirectory(), parser, new ProfilerCommands());
	}

	@Override
	public String name() {
		return "async-profiler";
	}

	@Override
	public String activeEvent() {
		return (this.activeEvent != null) ? this.activeEvent : this.settings.eventsDescription();
	}

	@Override
	public synchronized void start() throws SamplerUnavailableException {
		this.profiler = NativeProfiler.acquire(this.settings);
		this.recording.start();
	}

	@Override
	public synchronized long collect(SampleSink sink) throws IOException {
		return this.recording.collect(sink);
	}

	@Override
	public synchronized void close() {
		this.recording.close();
		this.recorder.setThreadListener(null);
	}

	String startCommand(Path file) {
		long interval = this.settings.interval().toNanos();
		ProfilingEvent cpuEvent = cpuEventOnThisPlatform();
		// The stack walk is async-profiler's default (the JVM's own structures): frame
		// pointers moved its cost into the JVM's AsyncGetCallTrace, about the same.
		StringBuilder command = new StringBuilder("start,jfr,clock=monotonic");
		if (cpuEvent != null) {
			command.append(",event=").append(cpuEvent.id()).append(",interval=").append(interval);
			if (this.settings.wall()) {
				command.append(",wall=").append(interval);
			}
		}
		else if (this.settings.wall()) {
			command.append(",event=wall,interval=").append(interval);
		}
		if (this.settings.wall()) {
			// Wall samples only for threads inside a span, one event per sample so that
			// each lands at its own time.
			command.append(",filter,nobatch");
		}
		if (this.settings.alloc()) {
			command.append(",alloc=").append(this.settings.allocInterval());
		}
		if (this.settings.lock()) {
			command.append(",lock=").append(this.settings.lockThreshold().toNanos());
		}
		return command.append(",file=").append(file).toString();
	}

	private ProfilingEvent cpuEventOnThisPlatform() {
		ProfilingEvent requested = this.settings.cpuEvent();
		return (requested != null) ? requested.onPlatform(System.getProperty("os.name")) : null;
	}

	/**
	 * The events in use: async-profiler says which engine it fell back to, e.g. when
	 * perf_events are not permitted, and ctimer is itimer where there are no per-thread
	 * timers.
	 */
	private String detectEvent(String response) {
		String requested = this.settings.eventsDescriptionOn(System.getProperty("os.name"));
		if (response == null || this.settings.cpuEvent() != ProfilingEvent.CPU) {
			return requested;
		}
		String lower = response.toLowerCase(Locale.ROOT);
		for (String fallback : new String[] { "ctimer", "itimer" }) {
			if (lower.contains(fallback)) {
				return requested.replace("cpu", fallback);
			}
		}
		return requested;
	}

	/**
	 * The commands the recording gives the profiler, with what each start and stop means
	 * for the thread filter.
	 */
	private final class ProfilerCommands implements ChunkedRecording.Recorder {

		@Override
		public void start(Path file) throws SamplerUnavailableException {
			String command = startCommand(file);
			try {
				AsyncProfilerEngine.this.activeEvent = detectEvent(AsyncProfilerEngine.this.profiler.execute(command));
			}
			catch (IllegalStateException | IllegalArgumentException | IOException ex) {
				throw new SamplerUnavailableException("async-profiler refused '" + command + "': " + ex.getMessage(),
						ex);
			}
			if (AsyncProfilerEngine.this.settings.wall()) {
				// Every start clears the thread filter: register the threads that are
				// inside a span right now, then follow threads as they enter and leave
				// spans.
				AsyncProfilerEngine.this.recorder
					.setThreadListener(new WallClockThreadFilter(AsyncProfilerEngine.this.profiler));
			}
		}

		@Override
		public void dump() throws IOException {
			AsyncProfilerEngine.this.profiler.execute("dump,jfr");
		}

		@Override
		public void stop() throws IOException {
			AsyncProfilerEngine.this.recorder.setThreadListener(null);
			AsyncProfilerEngine.this.profiler.execute("stop");
		}

	}

}
