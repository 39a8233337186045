package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.slowlog.LoggedLines;
import dev.spanprofile.slowlog.SlowSpanLogSettings;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real spans on a real profiler: a slow one gets one line naming its hot method once its
 * profile is complete, a fast one none, and the rate limit holds.
 */
class SlowSpanLogTest {

	private static final Pattern CPU = Pattern.compile("CPU (\\d+) ms of (\\d+) ms");

	@TempDir
	Path workDirectory;

	@Test
	void slowRequestGetsOneLineNamingItsHotMethodAndFastOnesNone() throws Exception {
		// Far above what the fast requests take even on a loaded machine, far below the
		// slow one.
		SlowSpanLogSettings settings = new SlowSpanLogSettings(Duration.ofSeconds(1), 10, "/actuator/spanprofile");
		try (LoggedLines log = new LoggedLines();
				TracedProfiler traced = new TracedProfiler(StoreSettings.defaults(), settings, this.workDirectory,
						Function.identity())) {
			List<String> fast = new ArrayList<>();
			for (int i = 0; i < 20; i++) {
				fast.add(traced.inRootSpan("GET /fast", () -> Workloads.burnBeta(1)));
			}
			String slow = traced.inRootSpan("GET /slow", () -> {
				long start = System.nanoTime();
				Workloads.burnAlpha(300);
				// Then waits: slow by the clock whatever the machine's load, with a CPU
				// share well under its duration.
				sleepUntil(start + Duration.ofMillis(1500).toNanos());
			});
			// Written only once the samples up to the span's end are in: not when it
			// ends.
			traced.profiler.collectNow();
			traced.profiler.collectNow();
			assertThat(log.lines()).hasSize(1);
			String line = log.lines().get(0);
			assertThat(line).contains("\"GET /slow\"")
				.contains("flame graph: /actuator/spanprofile/" + slow)
				.contains("Workloads.alphaHotMethod");
			for (String id : fast) {
				assertThat(line).doesNotContain(id);
			}
			// 300 ms of CPU at 10 ms per sample: 30 samples, Poisson spread about 5; 15
			// to 45 is three spreads.
			Matcher cpu = CPU.matcher(line);
			assertThat(cpu.find()).as(line).isTrue();
			assertThat(Long.parseLong(cpu.group(1))).isBetween(150L, 450L);
			assertThat(Long.parseLong(cpu.group(2))).isGreaterThanOrEqualTo(1500L);
			// The hot method holds most of the self time: its share comes first.
			Matcher share = Pattern.compile("top cpu self time: (\\d+)% Workloads.alphaHotMethod").matcher(line);
			assertThat(share.find()).as(line).isTrue();
			assertThat(Integer.parseInt(share.group(1))).isGreaterThan(50);
		}
	}

	@Test
	void atMostMaxPerMinuteLinesAreWritten() throws Exception {
		SlowSpanLogSettings settings = new SlowSpanLogSettings(Duration.ofMillis(20), 2, "/actuator/spanprofile");
		try (LoggedLines log = new LoggedLines();
				TracedProfiler traced = new TracedProfiler(StoreSettings.defaults(), settings, this.workDirectory,
						Function.identity())) {
			for (int i = 0; i < 6; i++) {
				traced.inRootSpan("GET /slow", () -> Workloads.burnAlpha(40));
				traced.profiler.collectNow();
			}
			traced.profiler.collectNow();
			assertThat(log.lines()).hasSize(2);
		}
	}

	private static void sleepUntil(long nanoTime) {
		long left;
		while ((left = nanoTime - System.nanoTime()) > 0) {
			try {
				Thread.sleep(left / 1_000_000 + 1);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

}
