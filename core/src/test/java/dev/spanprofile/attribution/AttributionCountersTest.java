package dev.spanprofile.attribution;

import dev.spanprofile.attribution.AttributionCounters.Result;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AttributionCountersTest {

	private static final String TRACE = "0123456789abcdef0123456789abcdef";

	private static final String SPAN = "0123456789abcdef";

	private final SpanProfileStore store = new SpanProfileStore(new StoreSettings(100, Long.MAX_VALUE, false));

	private final SampleAttributor attributor = new SampleAttributor(this.store);

	@Test
	void countsEachResultPerKindOfSampleAndAgreesWithTheTotals() {
		this.store.spanStarted(TRACE, SPAN, null, false, "work", "SERVER", 1, "worker");
		SpanContext span = SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(), TraceState.getDefault());
		// Thread 1 runs the span from 100 to 200 and loses its change points from 300;
		// thread 2 runs no span.
		this.attributor.changed(1, 100, span);
		this.attributor.changed(1, 200, null);
		this.attributor.changed(2, 50, null);
		// The drain that handed over these change points covered every sample below.
		this.attributor.changePointsCompleteUpTo(1_000);
		int[] stack = { 1, 2 };
		this.attributor.sample(SampleKind.CPU, 1, 150, stack, 1);
		this.attributor.sample(SampleKind.CPU, 1, 160, stack, 1);
		this.attributor.sample(SampleKind.WALL, 1, 170, stack, 3);
		this.attributor.sample(SampleKind.CPU, 1, 250, stack, 1);
		this.attributor.sample(SampleKind.WALL, 2, 150, stack, 1);
		this.attributor.gap(1, 300);
		this.attributor.sample(SampleKind.CPU, 1, 350, stack, 2);
		// Bytes and nanoseconds count in their own kinds, not among the samples of the
		// totals.
		this.attributor.sample(SampleKind.ALLOC, 1, 180, stack, 524_288);
		this.attributor.sample(SampleKind.LOCK, 2, 150, stack, 3_000_000);

		AttributionCounters counters = this.attributor.counters();
		assertThat(counters.samples(SampleKind.CPU, Result.ATTRIBUTED)).isEqualTo(2);
		assertThat(counters.samples(SampleKind.WALL, Result.ATTRIBUTED)).isEqualTo(3);
		assertThat(counters.samples(SampleKind.CPU, Result.OUTSIDE)).isEqualTo(1);
		assertThat(counters.samples(SampleKind.WALL, Result.OUTSIDE)).isEqualTo(1);
		assertThat(counters.samples(SampleKind.CPU, Result.UNKNOWN)).isEqualTo(2);
		assertThat(counters.samples(SampleKind.WALL, Result.UNKNOWN)).isZero();
		assertThat(counters.samples(SampleKind.ALLOC, Result.ATTRIBUTED)).isEqualTo(524_288);
		assertThat(counters.samples(SampleKind.LOCK, Result.OUTSIDE)).isEqualTo(3_000_000);
		assertThat(counters.timelineGaps()).isEqualTo(1);
		AttributionStats stats = this.attributor.stats();
		assertThat(stats.attributed()).isEqualTo(5);
		assertThat(stats.outsideSpans()).isEqualTo(2);
		assertThat(stats.unknown()).isEqualTo(2);
	}

}
