package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The collector drains the threads' rings of change points at its own pace, seldom while
 * few spans switch; a burst of switches that fills a ring to half asks for a drain at
 * once, so that the ring is not lapped before the collector's next look.
 */
class ChangePointBurstTest {

	@TempDir
	Path workDirectory;

	@Test
	void aBurstAfterAQuietStretchLosesNoChangePoint() throws InterruptedException {
		try (TracedProfiler traced = new TracedProfiler(StoreSettings.defaults(), Duration.ofSeconds(60),
				this.workDirectory)) {
			// Quiet: the collector slows down to its slowest pace.
			Thread.sleep(600);
			long gapsBefore = traced.profiler.attributionCounters().timelineGaps();
			Span alpha = traced.tracer.spanBuilder("alpha").startSpan();
			Span beta = traced.tracer.spanBuilder("beta").startSpan();
			long start = System.nanoTime();
			// 2,000 rounds of four change points in about 400 ms: eight rings' worth
			// (1,024
			// points each) in the time the slowest pace looks once or twice.
			for (int i = 0; i < 2_000; i++) {
				try (Scope scope = alpha.makeCurrent()) {
					spin(100);
				}
				try (Scope scope = beta.makeCurrent()) {
					spin(100);
				}
			}
			long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			alpha.end();
			beta.end();
			traced.profiler.collectNow();
			long gaps = traced.profiler.attributionCounters().timelineGaps() - gapsBefore;
			System.out.printf("8,000 change points in %d ms: %d gap(s)%n", millis, gaps);
			assertThat(gaps).isZero();
		}
	}

	private static void spin(long micros) {
		long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(micros);
		while (System.nanoTime() < until) {
			Thread.onSpinWait();
		}
	}

}
