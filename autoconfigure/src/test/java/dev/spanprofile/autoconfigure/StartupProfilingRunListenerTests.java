package dev.spanprofile.autoconfigure;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplingEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.metrics.ApplicationStartup;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The early engine where it cannot profile the start: another engine owns the JVM (a
 * cached test context's), or something fails once it started.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupProfilingRunListenerTests {

	@Test
	void anEarlyEngineThatDidNotStartRecordsNoStartAndSaysWhyInOneLine(CapturedOutput output) {
		try (SpanProfiler owner = new SpanProfiler(SpanProfilerSettings.defaults(), (frames) -> new IdleEngine())) {
			assertThat(owner.start()).isTrue();
			SpringApplication application = new SpringApplication(Object.class);
			new StartupProfilingRunListener(application, new String[0])
				.environmentPrepared(new DefaultBootstrapContext(), new StandardEnvironment());
			assertThat(application.getApplicationStartup()).isSameAs(ApplicationStartup.DEFAULT);
			assertThat(owner.startup()).isNull();
			assertThat(owner.state().isRunning()).isTrue();
			// Not a warning with a stack trace from recording on an engine that is not
			// running: the refusal is expected, in a test run's cached contexts.
			assertThat(output).contains("the start is not profiled: its engine did not start")
				.doesNotContain("the profiler is not running");
		}
	}

	@Test
	void anEarlyEngineThatStartedIsStoppedWhenWhatFollowsFails(CapturedOutput output) {
		SpringApplication application = new SpringApplication(Object.class) {

			@Override
			public ApplicationStartup getApplicationStartup() {
				throw new IllegalStateException("no startup to wrap");
			}

		};
		new StartupProfilingRunListener(application, new String[0]).environmentPrepared(new DefaultBootstrapContext(),
				new StandardEnvironment());
		// Only an engine that started gets this far: one refused returns before.
		assertThat(output).as("the engine started, then the start failed to be wrapped")
			.contains("the start is not profiled: no startup to wrap");
		// Had it kept running, it would still own the JVM.
		try (SpanProfiler next = new SpanProfiler(SpanProfilerSettings.defaults(), (frames) -> new IdleEngine())) {
			assertThat(next.start()).as("the JVM is free again").isTrue();
		}
	}

	/** An engine that takes no samples: enough to own the JVM. */
	private static final class IdleEngine implements SamplingEngine {

		@Override
		public String name() {
			return "idle";
		}

		@Override
		public void start() {
		}

		@Override
		public long collect(SampleSink sink) {
			return System.nanoTime();
		}

		@Override
		public String activeEvent() {
			return "cpu";
		}

		@Override
		public void close() {
		}

	}

}
