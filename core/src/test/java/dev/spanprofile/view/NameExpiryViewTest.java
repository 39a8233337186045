package dev.spanprofile.view;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.aggregate.AggregateSettings;
import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.FrameClassifier;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A name can leave the window while its view is being made (a sweep runs at every turn of
 * a bucket): the answer is then "not found" or the view of what was there, never an
 * error.
 */
class NameExpiryViewTest {

	private static final long START = Duration.ofDays(20_000).toNanos();

	@Test
	void aNameExpiringWhileItsProfileIsReadIsNotFoundOrServed() {
		for (boolean compare : new boolean[] { false, true }) {
			int served = 0;
			int notFound = 0;
			// Whichever read of the clock the window passes at, in turn.
			for (int readsBeforeExpiry = 1; readsBeforeExpiry <= 12; readsBeforeExpiry++) {
				AtomicInteger reads = new AtomicInteger();
				int expiry = readsBeforeExpiry;
				NameAggregates aggregates = new NameAggregates(AggregateSettings.defaults(),
						this.profiler.store().frames(),
						() -> (reads.incrementAndGet() <= expiry) ? START : START + Duration.ofHours(3).toNanos());
				aggregates.spanEnded("GET /owners", "00000000000000a1", 5_000_000, false, START);
				SpanProfileViews views = new SpanProfileViews(this.profiler, new FrameClassifier(List.of("app")),
						aggregates);
				NamesQuery query = new NamesQuery(Duration.ofHours(1), "GET /owners", null, null, compare, null,
						SampleKind.CPU);
				try {
					FlameGraphView view = (FlameGraphView) views.names(query);
					assertThat(JsonBodies.map(view.json())).isNotEmpty();
					served++;
				}
				catch (ViewException ex) {
					assertThat(ex.problem()).isEqualTo(ViewException.Problem.NOT_FOUND);
					notFound++;
				}
				catch (RuntimeException ex) {
					fail("compare=%s, window passed after %d clock reads: %s", compare, expiry, ex, ex);
				}
			}
			assertThat(served).as("served before it expired").isPositive();
			assertThat(notFound).as("not found after").isPositive();
		}
	}

	private final SpanProfiler profiler = new SpanProfiler(SpanProfilerSettings.defaults(),
			(frames) -> new IdleEngine());

}
