package dev.spanprofile.autoconfigure.startup;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.spanprofile.SpanProfiler;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The waits are recorded by the JDK's Flight Recorder, the largest part of what profiling
 * costs a start: by default none runs until the application is ready (read by a bean made
 * during the start), and one does from then on; with
 * {@code spanprofile.startup.waits=true} one runs while the application starts too.
 */
class StartupWaitsTests {

	private static final String[] PROPERTIES = { "--spring.main.web-application-type=none",
			"--management.otlp.metrics.export.enabled=false" };

	@Test
	void withStartupWaitsTheyAreRecordedDuringTheStart() {
		String[] properties = { PROPERTIES[0], PROPERTIES[1], "--spanprofile.startup.waits=true" };
		try (ConfigurableApplicationContext context = new SpringApplication(WaitsApplication.class).run(properties)) {
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			assertThat(profiler.startup()).as("the start is profiled").isNotNull();
			assertThat(context.getBean(RecordingsDuringStart.class).running).as("recordings during the start")
				.isNotEmpty();
			assertThat(runningRecordings()).as("recordings once ready").isNotEmpty();
			assertThat(profiler.settings().sampler().waits()).isTrue();
		}
		assertThat(runningRecordings()).as("recordings once closed").isEmpty();
	}

	@Test
	void byDefaultTheWaitsAreRecordedFromWhenTheApplicationIsReady() {
		try (ConfigurableApplicationContext context = new SpringApplication(WaitsApplication.class).run(PROPERTIES)) {
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			assertThat(profiler.startup()).as("the start is profiled").isNotNull();
			assertThat(context.getBean(RecordingsDuringStart.class).running).as("recordings during the start")
				.isEmpty();
			assertThat(runningRecordings()).as("recordings once ready").isNotEmpty();
			assertThat(profiler.settings().sampler().waits()).isTrue();
		}
		assertThat(runningRecordings()).as("recordings once closed").isEmpty();
	}

	@Test
	void withoutWaitsNoneIsRecordedAfterTheStartEither() {
		String[] properties = { PROPERTIES[0], PROPERTIES[1], "--spanprofile.waits.enabled=false" };
		try (ConfigurableApplicationContext context = new SpringApplication(WaitsApplication.class).run(properties)) {
			assertThat(context.getBean(RecordingsDuringStart.class).running).isEmpty();
			assertThat(runningRecordings()).isEmpty();
			assertThat(context.getBean(SpanProfiler.class).settings().sampler().waits()).isFalse();
		}
	}

	private static List<String> runningRecordings() {
		if (!FlightRecorder.isInitialized()) {
			return List.of();
		}
		return FlightRecorder.getFlightRecorder()
			.getRecordings()
			.stream()
			// Recordings that record something: once Flight Recorder ran, the engine
			// keeps one without events for good (its periodic thread's sake).
			.filter((recording) -> recording.getState() == RecordingState.RUNNING && !recording.getSettings().isEmpty())
			.map(Recording::getName)
			.toList();
	}

	/** The Flight Recorder recordings that ran when this bean was made. */
	static class RecordingsDuringStart {

		final List<String> running = new CopyOnWriteArrayList<>(runningRecordings());

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WaitsApplication {

		@Bean
		RecordingsDuringStart recordingsDuringStart() {
			return new RecordingsDuringStart();
		}

	}

}
