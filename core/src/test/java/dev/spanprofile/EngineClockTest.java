package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.lifecycle.SpanLifecycle;
import dev.spanprofile.lifecycle.UnsampledProfilingRate;
import dev.spanprofile.lifecycle.UnsampledRequests;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.tracking.UnsampledRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine reads one clock, the one it is built with: a request's start and end, and
 * what is shown of them in epoch time, follow a clock the test steps, however long the
 * test itself takes.
 */
class EngineClockTest {

	private static final String NAME = "http get /things/{id}";

	private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

	@TempDir
	Path temp;

	private final AtomicLong now = new AtomicLong(System.nanoTime());

	@Test
	void anUnsampledRequestLastsWhatTheEngineClockSays() {
		try (SpanProfiler profiler = new SpanProfiler(settings(), (frames) -> new ScriptedEngine(), this.now::get)) {
			UnsampledRequests requests = profiler.unsampledRequests();
			UnsampledRequest request = requests.started(UnsampledProfilingRate.UNLIMITED);
			this.now.addAndGet(300 * MS);
			requests.ended(request, NAME, false);
			NameSummary summary = profiler.aggregates().summary(NAME, Duration.ofHours(1));
			assertThat(summary.count()).isOne();
			assertThat(summary.maxNanos()).as("the stepped 300 ms, not the moments the test took").isEqualTo(300 * MS);
		}
	}

	@Test
	void aSpanStartsOnTheEngineClock() {
		try (SpanProfiler profiler = new SpanProfiler(settings(), (frames) -> new ScriptedEngine(), this.now::get)) {
			assertThat(profiler.start()).isTrue();
			SpanLifecycle spans = profiler.spanLifecycle();
			this.now.addAndGet(Duration.ofMinutes(5).toNanos());
			long startedAt = this.now.get();
			spans.started("0123456789abcdef0123456789abcdef", "00000000000000aa", null, false, NAME, "SERVER");
			SpanRecord record = profiler.store().find("00000000000000aa");
			assertThat(record.startEpochNanos()).as("five stepped minutes on, mapped to epoch time in one place")
				.isEqualTo(MonotonicEpoch.toEpochNanos(startedAt));
			this.now.addAndGet(40 * MS);
			spans.ended("00000000000000aa", true, NAME, false, 40 * MS, false);
			assertThat(record.endEpochNanos()).isEqualTo(MonotonicEpoch.toEpochNanos(startedAt + 40 * MS));
		}
	}

	private SpanProfilerSettings settings() {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		return new SpanProfilerSettings(sampler, new StoreSettings(100, Long.MAX_VALUE, false), Duration.ofHours(1));
	}

}
