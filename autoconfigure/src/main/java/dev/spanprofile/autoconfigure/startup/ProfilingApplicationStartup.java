package dev.spanprofile.autoconfigure.startup;

import dev.spanprofile.startup.StartupRecording;

import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;

/**
 * The application's {@code ApplicationStartup} with each step recorded beside it. What
 * the application set keeps working as before: its steps are made first and get every tag
 * and end.
 */
public final class ProfilingApplicationStartup implements ApplicationStartup {

	private final ApplicationStartup delegate;

	private final StartupRecording recording;

	private ProfilingApplicationStartup(ApplicationStartup delegate, StartupRecording recording) {
		this.delegate = delegate;
		this.recording = recording;
	}

	/**
	 * {@code applicationStartup} with its steps recorded into {@code recording}; a
	 * {@link BufferingApplicationStartup} stays one, so that {@code /actuator/startup}
	 * finds it and reads the same timeline.
	 */
	public static ApplicationStartup wrap(ApplicationStartup applicationStartup, StartupRecording recording) {
		if (applicationStartup instanceof BufferingApplicationStartup buffering) {
			return new ProfilingBufferingApplicationStartup(buffering, recording);
		}
		return new ProfilingApplicationStartup(applicationStartup, recording);
	}

	static StartupStep start(ApplicationStartup delegate, StartupRecording recording, String name) {
		// Our time is read right before the application's step reads its own, and at the
		// end right after: a BufferingApplicationStartup then times the same stretch as
		// we do, without our bookkeeping (or a thread switch during it) in between. The
		// thread's wait for a core is read after both times, its system call outside
		// that pair: a wait on the way back from it is inside the step in every figure
		// (one during the application's own bookkeeping before it goes uncounted).
		long begun = recording.now();
		StartupStep step = delegate.start(name);
		long queued = recording.coreWaitNow();
		return new ProfiledStartupStep(step, recording, recording.begin(name, begun, queued));
	}

	@Override
	public StartupStep start(String name) {
		return start(this.delegate, this.recording, name);
	}

}
