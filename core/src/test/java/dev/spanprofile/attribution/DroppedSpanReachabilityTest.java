package dev.spanprofile.attribution;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.UnsampledRequest;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The attributor keeps change points for a while after their span may have left the
 * store, or after a request tracing did not sample was folded into its name's profile; it
 * must not keep the span's record or the request alive with them, or every request of
 * that stretch survives young collections (the GC cost found on the page benchmark).
 */
class DroppedSpanReachabilityTest {

	private static final String TRACE = "0123456789abcdef0123456789abcdef";

	private final SpanProfileStore store = new SpanProfileStore(
			new StoreSettings(1, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));

	private final SampleAttributor attributor = new SampleAttributor(this.store);

	@Test
	void changePointsOfADroppedSpanDoNotKeepItsRecordReachable() {
		WeakReference<SpanRecord> dropped = new WeakReference<>(
				this.store.spanStarted(TRACE, "000000000000000a", null, false, "first", "SERVER", 100, "worker"));
		this.attributor.changed(1, 100, context("000000000000000a"));
		this.attributor.changed(1, 200, null);
		this.store.spanEnded("000000000000000a", "first", "OK", 200, false);
		// Its samples are all in: the store lets it go for good when the next request
		// pushes it out.
		this.store.profilesCompleteUpTo(300);
		this.store.spanStarted(TRACE, "000000000000000b", null, false, "second", "SERVER", 300, "worker");
		this.attributor.changed(1, 300, context("000000000000000b"));
		this.attributor.changePointsCompleteUpTo(1_000);
		assertThat(this.store.find("000000000000000a")).isNull();
		assertThat(this.store.findTracked("000000000000000a")).isNull();

		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
			System.gc();
			return dropped.get() == null;
		});

		// The change points are still there and still say what ran when.
		int[] stack = { 1, 2 };
		this.attributor.sample(SampleKind.CPU, 1, 150, stack, 1);
		this.attributor.sample(SampleKind.CPU, 1, 250, stack, 1);
		this.attributor.sample(SampleKind.CPU, 1, 350, stack, 1);
		assertThat(this.attributor.timelineCount()).isEqualTo(1);
		// A sample of the dropped span counts as its span's, as when the store refused it
		// from a live record.
		assertThat(this.attributor.stats().attributed()).isEqualTo(2);
		assertThat(this.attributor.stats().outsideSpans()).isEqualTo(1);
		assertThat(InclusiveSamples.count(this.store.find("000000000000000b"), SampleKind.CPU)).isEqualTo(1);
	}

	/**
	 * A thread whose last change point left a request keeps that stretch's end (its
	 * clocks) for a thread that comes straight back, not the request's record or its CPU
	 * figures: its next change point may come long after the store let the request go.
	 */
	@Test
	void aThreadThatLeftADroppedRequestLastDoesNotKeepItsCpuFiguresReachable() {
		SpanRecord first = this.store.spanStarted(TRACE, "000000000000000a", null, false, "first", "SERVER", 100,
				"worker");
		WeakReference<SpanRecord> request = new WeakReference<>(first);
		first = null;
		this.attributor.changed(1, 100, context("000000000000000a"), 1_000, 10, 100);
		this.attributor.changed(1, 200, null, 5_000, 20, 200);
		WeakReference<SpanCpuTime.Measured> figures = new WeakReference<>(
				this.store.findTracked("000000000000000a").measuredCpu());
		assertThat(figures.get()).as("the figures of its closed stretch").isNotSameAs(SpanCpuTime.Measured.NONE);
		this.store.spanEnded("000000000000000a", "first", "OK", 200, false);
		this.store.profilesCompleteUpTo(300);
		this.store.spanStarted(TRACE, "000000000000000b", null, false, "second", "SERVER", 300, "other");
		this.attributor.changePointsCompleteUpTo(1_000);
		assertThat(this.store.findTracked("000000000000000a")).isNull();

		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
			System.gc();
			return request.get() == null && figures.get() == null;
		});
	}

	@Test
	void changePointsOfAFoldedUnsampledRequestDoNotKeepItReachable() {
		UnsampledRequest request = new UnsampledRequest(100);
		WeakReference<UnsampledRequest> reference = new WeakReference<>(request);
		int[] stack = { 1, 2 };
		this.attributor.changed(1, 100, request);
		this.attributor.changed(1, 200, null);
		this.attributor.changePointsCompleteUpTo(1_000);
		this.attributor.sample(SampleKind.CPU, 1, 150, stack, 1);
		request.end("http get /a", false, 200);
		List<String> folded = new ArrayList<>();
		this.store.onUnsampledComplete((done, samples) -> folded
			.add(done.name() + ": " + samples[SampleKind.CPU.ordinal()].totalSamples() + " cpu"));
		this.attributor.completeUnsampledUpTo(300, 300, Long.MAX_VALUE);
		assertThat(folded).containsExactly("http get /a: 1 cpu");
		request = null;

		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
			System.gc();
			return reference.get() == null;
		});

		// A sample joined late to the folded request counts outside any span, as before,
		// and is folded nowhere.
		this.attributor.sample(SampleKind.CPU, 1, 160, stack, 1);
		this.attributor.completeUnsampledUpTo(Long.MAX_VALUE, 300, Long.MAX_VALUE);
		assertThat(folded).hasSize(1);
		assertThat(this.attributor.stats().outsideSpans()).isEqualTo(2);
		assertThat(this.attributor.stats().attributed()).isZero();
		assertThat(this.attributor.timelineCount()).isEqualTo(1);
	}

	private static SpanContext context(String spanId) {
		return SpanContext.create(TRACE, spanId, TraceFlags.getSampled(), TraceState.getDefault());
	}

}
