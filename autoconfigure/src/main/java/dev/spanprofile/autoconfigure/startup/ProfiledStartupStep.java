package dev.spanprofile.autoconfigure.startup;

import java.util.function.Supplier;

import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupStep;

/**
 * Spring's step as the application's {@code ApplicationStartup} made it, and the recorded
 * step beside it (none where the start is over or too many were recorded): tags go to
 * both, the end ends both, the application's first.
 */
final class ProfiledStartupStep implements org.springframework.core.metrics.StartupStep {

	private final org.springframework.core.metrics.StartupStep delegate;

	private final StartupRecording recording;

	private final StartupStep step;

	ProfiledStartupStep(org.springframework.core.metrics.StartupStep delegate, StartupRecording recording,
			StartupStep step) {
		this.delegate = delegate;
		this.recording = recording;
		this.step = step;
	}

	@Override
	public String getName() {
		return this.delegate.getName();
	}

	@Override
	public long getId() {
		return this.delegate.getId();
	}

	@Override
	public Long getParentId() {
		return this.delegate.getParentId();
	}

	@Override
	public org.springframework.core.metrics.StartupStep tag(String key, String value) {
		this.delegate.tag(key, value);
		if (this.step != null) {
			this.step.tag(key, value);
		}
		return this;
	}

	@Override
	public org.springframework.core.metrics.StartupStep tag(String key, Supplier<String> value) {
		if (this.step == null) {
			this.delegate.tag(key, value);
			return this;
		}
		String read = value.get();
		this.delegate.tag(key, read);
		this.step.tag(key, read);
		return this;
	}

	@Override
	public Tags getTags() {
		return this.delegate.getTags();
	}

	@Override
	public void end() {
		this.delegate.end();
		if (this.step != null) {
			long ended = this.recording.now();
			this.recording.end(this.step, ended, this.recording.coreWaitNow());
		}
	}

}
