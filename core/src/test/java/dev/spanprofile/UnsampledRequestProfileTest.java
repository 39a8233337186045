package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.spanprofile.aggregate.NameProfile;
import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.attribution.AttributionCounters.Result;
import dev.spanprofile.lifecycle.UnsampledProfilingRate;
import dev.spanprofile.lifecycle.UnsampledRequests;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.UnsampledRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests that tracing did not sample: their samples, taken while a thread works for
 * them (their own unsampled spans attached and detached meanwhile), fold into their
 * name's profile once every sample up to their end is joined, and their latency counts at
 * once; nothing of them is stored as a span. Samples are scripted, so every count is
 * exact.
 */
class UnsampledRequestProfileTest {

	private static final String NAME = "http get /things/{id}";

	private static final Duration WINDOW = Duration.ofHours(1);

	@TempDir
	Path temp;

	@Test
	void samplesFoldIntoTheNameOnceCompleteAndLatencyCountsAtOnce() {
		ScriptedEngine engine = new ScriptedEngine();
		AtomicLong promised = new AtomicLong(Long.MIN_VALUE);
		engine.deliveredUpTo(promised::get);
		ActivationRecorder recorder = ActivationRecorder.global();
		try (SpanProfiler profiler = new SpanProfiler(settings(), (frames) -> engine)) {
			assertThat(profiler.start()).as("%s", profiler.status()).isTrue();
			FrameTable frames = profiler.store().frames();
			int[] hot = { frames.intern("app.Things.get", FrameKind.JAVA),
					frames.intern("app.Things.hot", FrameKind.JAVA) };
			int[] idle = { frames.intern("pool.Worker.idle", FrameKind.JAVA) };
			long thread = Thread.currentThread().getId();
			UnsampledRequests requests = profiler.unsampledRequests();
			long secondEnded = 0;
			for (int i = 0; i < 3; i++) {
				UnsampledRequest request = requests.started(UnsampledProfilingRate.UNLIMITED);
				requests.entered(request);
				// Its own spans are unsampled too: attaching one leaves the request what
				// the thread runs.
				recorder.spanActivated(null);
				for (int sample = 0; sample < 4; sample++) {
					engine.deliver(SampleKind.CPU, thread, System.nanoTime(), hot);
				}
				requests.left(request);
				LockSupport.parkNanos(100_000);
				engine.deliver(SampleKind.CPU, thread, System.nanoTime(), idle);
				requests.ended(request, NAME, i == 2);
				if (i == 1) {
					secondEnded = System.nanoTime();
				}
				LockSupport.parkNanos(100_000);
			}

			// Samples are joined up to the end of the second request only: the third
			// waits for the rest of its own.
			promised.set(secondEnded);
			profiler.collectNow();
			NameSummary summary = profiler.aggregates().summary(NAME, WINDOW);
			assertThat(summary.count()).as("requests counted as they ended").isEqualTo(3);
			assertThat(summary.unsampled()).isEqualTo(3);
			assertThat(summary.sampled()).isZero();
			assertThat(summary.errors()).isEqualTo(1);
			assertThat(summary.slowest()).as("no span ids to list").isEmpty();
			assertThat(summary.unsampledProfiled()).as("requests folded, complete").isEqualTo(2);
			assertThat(summary.cpuSamples()).isEqualTo(8);

			promised.set(System.nanoTime());
			profiler.collectNow();
			summary = profiler.aggregates().summary(NAME, WINDOW);
			assertThat(summary.count()).isEqualTo(3);
			assertThat(summary.unsampledProfiled()).isEqualTo(3);
			assertThat(summary.cpuSamples()).as("four samples each, none from outside the requests").isEqualTo(12);
			NameProfile profile = profiler.aggregates().profile(NAME, WINDOW, SampleKind.CPU, 0, Long.MAX_VALUE);
			assertThat(profile.spans()).isEqualTo(3);
			assertThat(profile.unsampled()).isEqualTo(3);
			assertThat(CollapsedStacks.render(profile.samples(), frames).strip())
				.isEqualTo("app.Things.get;app.Things.hot 12");

			assertThat(profiler.store().size()).as("spans stored").isZero();
			assertThat(profiler.attributionCounters().samples(SampleKind.CPU, Result.ATTRIBUTED)).isZero();
			assertThat(profiler.attributionCounters().samples(SampleKind.CPU, Result.OUTSIDE)).isEqualTo(15);
		}
	}

	/**
	 * Requests the profiling rate leaves out count in their name's latency and nowhere
	 * else: their threads' samples are outside any request, and their name's graph holds
	 * only the profiled ones'.
	 */
	@Test
	void requestsTheRateLeavesOutCountInLatencyOnly() {
		ScriptedEngine engine = new ScriptedEngine();
		try (SpanProfiler profiler = new SpanProfiler(settings(), (frames) -> engine)) {
			assertThat(profiler.start()).as("%s", profiler.status()).isTrue();
			FrameTable frames = profiler.store().frames();
			int[] hot = { frames.intern("app.Things.get", FrameKind.JAVA),
					frames.intern("app.Things.hot", FrameKind.JAVA) };
			long thread = Thread.currentThread().getId();
			UnsampledRequests requests = profiler.unsampledRequests();
			// A burst of five at two a second: the first two are let in.
			UnsampledProfilingRate rate = new UnsampledProfilingRate(2);
			for (int i = 0; i < 5; i++) {
				UnsampledRequest request = requests.started(rate);
				assertThat(request.isProfiled()).as("request %d profiled", i).isEqualTo(i < 2);
				requests.entered(request);
				for (int sample = 0; sample < 3; sample++) {
					engine.deliver(SampleKind.CPU, thread, System.nanoTime(), hot);
				}
				requests.left(request);
				requests.ended(request, NAME, false);
			}
			profiler.collectNow();
			NameSummary summary = profiler.aggregates().summary(NAME, WINDOW);
			assertThat(summary.count()).isEqualTo(5);
			assertThat(summary.unsampled()).isEqualTo(5);
			assertThat(summary.unsampledProfiled()).isEqualTo(2);
			assertThat(summary.cpuSamples()).as("three samples each of the two profiled").isEqualTo(6);
			NameProfile profile = profiler.aggregates().profile(NAME, WINDOW, SampleKind.CPU, 0, Long.MAX_VALUE);
			assertThat(profile.spans()).isEqualTo(2);
			assertThat(profiler.attributionCounters().samples(SampleKind.CPU, Result.OUTSIDE)).isEqualTo(15);
		}
	}

	@Test
	void aRequestEndedWithoutANameCountsNowhere() {
		ScriptedEngine engine = new ScriptedEngine();
		try (SpanProfiler profiler = new SpanProfiler(settings(), (frames) -> engine)) {
			assertThat(profiler.start()).as("%s", profiler.status()).isTrue();
			int[] stack = { profiler.store().frames().intern("app.Actuator.read", FrameKind.JAVA) };
			UnsampledRequests requests = profiler.unsampledRequests();
			UnsampledRequest request = requests.started(UnsampledProfilingRate.UNLIMITED);
			requests.entered(request);
			engine.deliver(SampleKind.CPU, Thread.currentThread().getId(), System.nanoTime(), stack);
			requests.left(request);
			requests.ended(request, null, false);
			// Ended twice (a second stop): once only.
			requests.ended(request, NAME, false);
			profiler.collectNow();
			assertThat(profiler.aggregates().summaries(WINDOW)).isEmpty();
		}
	}

	private SpanProfilerSettings settings() {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		// Collections only when the test asks.
		return new SpanProfilerSettings(sampler, new StoreSettings(100, Long.MAX_VALUE, false), Duration.ofHours(1));
	}

}
