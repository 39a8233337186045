package dev.spanprofile.view;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EmptyProfilesTest {

	private static final EngineStatus CPU = new EngineStatus("async-profiler", "cpu", true, null, null);

	private static final EngineStatus ALLOC = new EngineStatus("async-profiler", "alloc,lock", true, null, null);

	private static final EngineStatus WALL = new EngineStatus("async-profiler", "wall", true, null, null);

	private final SpanProfileStore store = new SpanProfileStore(StoreSettings.defaults());

	@Test
	void aProfileWithSamplesNeedsNoReason() {
		assertThat(EmptyProfiles.explain(ended(1_000), 1, true, CPU, 10, 1000, 2_000_000_000L)).isNull();
	}

	@Test
	void aSpanShorterThanTheIntervalIsSaidToBeSo() {
		assertThat(EmptyProfiles.explain(ended(4_000_000), 0, true, CPU, 10, 1000, 2_000_000_000L))
			.startsWith("No sample: this span lasted 4.0 ms, shorter than the 10.0 ms sampling interval");
	}

	@Test
	void aLongSpanWithoutCpuSamplesWasWaiting() {
		assertThat(EmptyProfiles.explain(ended(1_500_000_000), 0, true, CPU, 10, 1000, 2_000_000_000L))
			.startsWith("No sample in 1,500 ms: with event=cpu")
			.contains("spanprofile.event=wall");
		assertThat(EmptyProfiles.explain(ended(1_500_000_000), 0, true, WALL, 10, 1000, 2_000_000_000L))
			.startsWith("No sample in 1,500 ms: its work may have run on threads");
	}

	@Test
	void samplesNotCollectedYetAskForAReload() {
		assertThat(EmptyProfiles.explain(ended(1_500_000_000), 0, false, CPU, 10, 250, 2_000_000_000L))
			.contains("still being collected (every 250 ms)");
		SpanRecord running = this.store.spanStarted("t", "running", null, false, "GET /", "SERVER", 1_000_000_000L,
				"main");
		assertThat(EmptyProfiles.explain(running, 0, false, CPU, 10, 250, 1_030_000_000L))
			.isEqualTo("No sample yet: the span has run for 30.0 ms. Samples are joined to spans every 250 ms; "
					+ "reload to see them.");
	}

	@Test
	void anEmptyAllocationGraphSaysTheSpanAllocatedLessThanTheInterval() {
		SamplerSettings sampler = sampler(Duration.ZERO);
		assertThat(EmptyProfiles.explain(ended(1_500_000_000), SampleKind.ALLOC, 0, true, ALLOC, sampler, 1000,
				2_000_000_000L))
			.isEqualTo("No allocation sample in 1,500 ms: a thread is sampled about once every 512 KB it allocates "
					+ "(spanprofile.alloc-interval), and this span allocated less than that. Lower "
					+ "spanprofile.alloc-interval to see smaller allocations.");
		assertThat(EmptyProfiles.explain(ended(1_500_000_000), SampleKind.ALLOC, 0, true,
				new EngineStatus("jfr", "alloc", true, null, null), sampler, 1000, 2_000_000_000L))
			.contains("Flight Recorder takes at most 300/s allocation samples across the whole JVM");
		assertThat(EmptyProfiles.explain(ended(1_500_000_000), SampleKind.ALLOC, 1, true, ALLOC, sampler, 1000,
				2_000_000_000L))
			.isNull();
	}

	@Test
	void anEmptyLockGraphSaysTheSpanNeverWaitedLongEnoughForTheThreshold() {
		assertThat(EmptyProfiles.explain(ended(1_500_000_000), SampleKind.LOCK, 0, true, ALLOC,
				sampler(Duration.ofMillis(10)), 1000, 2_000_000_000L))
			.startsWith("No lock wait in 1,500 ms: this span never waited to enter a contended monitor or "
					+ "java.util.concurrent lock long enough to be recorded at spanprofile.lock-threshold=10.0 ms "
					+ "(lower it to see shorter waits).");
		assertThat(EmptyProfiles.explain(ended(1_500_000_000), SampleKind.LOCK, 0, true, ALLOC, sampler(Duration.ZERO),
				1000, 2_000_000_000L))
			.contains("java.util.concurrent lock at all.");
	}

	@Test
	void allocationAndLockGraphsNotCollectedYetAskForAReloadToo() {
		assertThat(EmptyProfiles.explain(ended(1_500_000_000), SampleKind.LOCK, 0, false, ALLOC, sampler(Duration.ZERO),
				250, 2_000_000_000L))
			.startsWith("No sample yet: the span ended moments ago");
	}

	private static SamplerSettings sampler(Duration lockThreshold) {
		return new SamplerSettings(Set.of(ProfilingEvent.ALLOC, ProfilingEvent.LOCK), Duration.ofMillis(10),
				Path.of("/tmp"), null, null, SamplerSettings.DEFAULT_ALLOC_INTERVAL, lockThreshold);
	}

	private SpanRecord ended(long durationNanos) {
		String id = "s" + durationNanos;
		SpanRecord record = this.store.spanStarted("t", id, null, false, "GET /", "SERVER", 1_000, "main");
		this.store.spanEnded(id, "GET /", "OK", 1_000 + durationNanos, false);
		return record;
	}

}
