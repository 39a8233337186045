package dev.spanprofile.autoconfigure.startup;

import java.util.function.Predicate;

import dev.spanprofile.startup.StartupRecording;

import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;
import org.springframework.core.metrics.StartupStep;

/**
 * The application's {@link BufferingApplicationStartup}, still one for
 * {@code /actuator/startup} (which asks for that type): everything goes to the
 * application's, whose timeline the endpoint reads unchanged.
 */
final class ProfilingBufferingApplicationStartup extends BufferingApplicationStartup {

	private final BufferingApplicationStartup delegate;

	private final StartupRecording recording;

	ProfilingBufferingApplicationStartup(BufferingApplicationStartup delegate, StartupRecording recording) {
		super(1);
		this.delegate = delegate;
		this.recording = recording;
	}

	@Override
	public StartupStep start(String name) {
		return ProfilingApplicationStartup.start(this.delegate, this.recording, name);
	}

	@Override
	public void startRecording() {
		this.delegate.startRecording();
	}

	@Override
	public void addFilter(Predicate<StartupStep> filter) {
		this.delegate.addFilter(filter);
	}

	@Override
	public StartupTimeline getBufferedTimeline() {
		return this.delegate.getBufferedTimeline();
	}

	@Override
	public StartupTimeline drainBufferedTimeline() {
		return this.delegate.drainBufferedTimeline();
	}

}
