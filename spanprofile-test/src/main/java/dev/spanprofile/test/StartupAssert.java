package dev.spanprofile.test;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupStep;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on the start of the application context the test runs in: its steps' own
 * time (measured by the clock, exact), and what their samples say (CPU, class loading,
 * the share of a frame), which pass or fail only when the samples are enough to tell,
 * like the request budgets.
 */
public final class StartupAssert extends AbstractAssert<StartupAssert, StartupRecording> {

	private final SpanProfiler profiler;

	StartupAssert(SpanProfiler profiler) {
		super(recording(profiler), StartupAssert.class);
		this.profiler = profiler;
		awaitSamples();
	}

	private static StartupRecording recording(SpanProfiler profiler) {
		StartupRecording recording = profiler.startup();
		if (recording == null) {
			throw new IllegalStateException("The start of this test's application context was not recorded: "
					+ "spanprofile.startup.enabled=false, or the profiler did not start with the application "
					+ "(an application SpanProfiler bean of its own, or profiler settings that needed another engine)");
		}
		if (!recording.isFinished()) {
			throw new IllegalStateException("The application context is still starting");
		}
		return recording;
	}

	/**
	 * Every sample up to the end of the start joined, at most
	 * {@link ProfiledRequests#TIMEOUT}.
	 */
	private void awaitSamples() {
		long end = this.actual.root().endEpochNanos();
		long deadline = System.nanoTime() + ProfiledRequests.TIMEOUT.toNanos();
		while (this.profiler.completeUpToEpochNanos() < end && System.nanoTime() < deadline) {
			this.profiler.collectNow();
		}
	}

	/**
	 * The step named {@code name} (e.g. {@code spring.beans.instantiate}) that worked on
	 * {@code detail} (a bean's name); the longest, where there were several.
	 */
	public StartupStepAssert step(String name, String detail) {
		List<StartupStep> matching = this.actual.steps()
			.stream()
			.filter((step) -> step.name().equals(name) && Objects.equals(step.detail(), detail))
			.toList();
		return longest(matching, name + " " + detail);
	}

	/** The longest step named {@code name}, e.g. {@code spring.context.refresh}. */
	public StartupStepAssert step(String name) {
		return longest(this.actual.steps().stream().filter((step) -> step.name().equals(name)).toList(), name);
	}

	/**
	 * The whole start, from the moment the application began to run until it was ready.
	 */
	public StartupStepAssert whole() {
		return new StartupStepAssert(this.profiler, this.actual, this.actual.root());
	}

	/** CPU the whole start spent loading classes, from its samples. */
	public SampledMillisAssert classLoadingMillis() {
		return new SampledMillisAssert("class loading of the whole start", this.actual.wholeClassLoadingCpuSamples(),
				interval(this.profiler));
	}

	private StartupStepAssert longest(List<StartupStep> matching, String description) {
		if (matching.isEmpty()) {
			throw new AssertionError(
					"No startup step " + description + " was recorded; the slowest steps were: " + slowest(5));
		}
		long now = System.nanoTime();
		StartupStep step = matching.stream()
			.max(Comparator.comparingLong((StartupStep candidate) -> candidate.durationNanos(now)))
			.orElseThrow();
		return new StartupStepAssert(this.profiler, this.actual, step);
	}

	private String slowest(int limit) {
		var own = this.actual.ownNanos(this.actual.root().endEpochNanos());
		return own.entrySet()
			.stream()
			.sorted(Comparator.comparingLong((java.util.Map.Entry<StartupStep, Long> entry) -> entry.getValue())
				.reversed())
			.limit(limit)
			.map((entry) -> entry.getKey() + " (own " + entry.getValue() / 1_000_000 + " ms)")
			.toList()
			.toString();
	}

	static Duration interval(SpanProfiler profiler) {
		if (!profiler.settings().sampler().kinds().contains(SampleKind.CPU)) {
			throw new IllegalStateException("No CPU samples are taken here (@ProfiledTest(event = \"cpu\"))");
		}
		return profiler.settings().sampler().interval();
	}

}
