package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.ReadableSpan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request that ends while the store is full: other threads may drop it the moment it
 * counts as finished, before the end processing has queued it for the listeners of
 * completed requests. It must still reach them, once.
 * <p>
 * The drop is made to happen once the store has the request as finished,
 * deterministically: a processor after spanprofile's starts other requests that push it
 * out, as another thread would.
 */
class EndedRootDroppedBeforeQueuedTest {

	private static final int MAX_SPANS = 2;

	@TempDir
	Path temp;

	@Test
	void aRequestDroppedAsItEndsStillReachesTheListenersOnce() {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler,
				new StoreSettings(MAX_SPANS, Long.MAX_VALUE, false, RetentionSettings.recentOnly()),
				Duration.ofHours(1));
		ScriptedEngine engine = new ScriptedEngine();
		// Every sample up to an hour from now is joined: a request is complete as it
		// ends, and dropping it hands it on at once rather than keeping it awaiting
		// samples.
		engine.deliveredUpTo(() -> System.nanoTime() + Duration.ofHours(1).toNanos());
		try (SpanProfiler profiler = new SpanProfiler(settings, (frames) -> engine)) {
			List<SpanRecord> completed = new CopyOnWriteArrayList<>();
			profiler.onProfileComplete(completed::add);
			AtomicBoolean droppedAsItEnded = new AtomicBoolean();
			try (SdkTracerProvider tracing = SdkTracerProvider.builder()
				.addSpanProcessor(profiler.spanProcessor((span) -> false))
				.addSpanProcessor(new OnSpanEnd((span) -> pushOutIfFinished(profiler.store(), span, droppedAsItEnded)))
				.build()) {
				assertThat(profiler.start()).as("%s", profiler.status()).isTrue();
				profiler.collectNow();
				Span request = tracing.get("test").spanBuilder("GET /request").setNoParent().startSpan();
				request.end();
				String id = request.getSpanContext().getSpanId();
				assertThat(droppedAsItEnded).as("dropped between finished and queued").isTrue();
				assertThat(profiler.store().findTracked(id)).as("still stored").isNull();
				profiler.collectNow();
				assertThat(completed).as("requests handed to the listeners")
					.filteredOn((root) -> root.spanId().equals(id))
					.hasSize(1);
			}
		}
	}

	/**
	 * When asked about a finished request still stored, fill the store so that it goes.
	 */
	private static void pushOutIfFinished(SpanProfileStore store, ReadableSpan span, AtomicBoolean dropped) {
		String id = span.getSpanContext().getSpanId();
		SpanRecord record = store.find(id);
		if (span.getName().equals("GET /request") && record != null && !record.inFlight()) {
			for (int i = 0; i <= MAX_SPANS; i++) {
				String other = "other" + i;
				store.spanStarted(other, other, null, false, "GET /other", "SERVER", record.endEpochNanos() + 1 + i,
						"w");
				store.spanEnded(other, "GET /other", "OK", record.endEpochNanos() + 2 + i, false);
			}
			dropped.set(store.find(id) == null);
		}
	}

}
