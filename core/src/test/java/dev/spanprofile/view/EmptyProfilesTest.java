package dev.spanprofile.view;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EmptyProfilesTest {

	private static final EngineStatus CPU = new EngineStatus("async-profiler", "cpu", true, null, null);

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

	private SpanRecord ended(long durationNanos) {
		String id = "s" + durationNanos;
		SpanRecord record = this.store.spanStarted("t", id, null, false, "GET /", "SERVER", 1_000, "main");
		this.store.spanEnded(id, "GET /", "OK", 1_000 + durationNanos, false);
		return record;
	}

}
