package dev.spanprofile.aggregate;

import java.time.Duration;
import java.util.Random;

import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an hour of sample-app-like traffic costs: about 100 requests/s over 10 span names,
 * each request with a log-normal duration and a few CPU and wall samples drawn from its
 * endpoint's code paths (a shared 35-frame server prefix, then a few hundred
 * endpoint-specific stacks with skewed frequencies, as a real endpoint's samples
 * concentrate on a few hot paths).
 */
class AggregateMemoryTest {

	private static final int NAMES = 10;

	private static final int REQUESTS_PER_SECOND = 100;

	private static final int PATHS_PER_NAME = 300;

	@Test
	void anHourOfSampleAppLoadFitsTheDefaultBudget() {
		AggregateSettings defaults = AggregateSettings.defaults();
		Hour hour = simulate(new AggregateSettings(defaults.window(), defaults.bucket(), defaults.maxNames(),
				defaults.maxStacks(), Long.MAX_VALUE));
		System.out.printf(
				"aggregate memory, 1 h at %d req/s over %d names: estimate %.1f MB, heap %.1f MB "
						+ "(default budget %.1f MB)%n",
				REQUESTS_PER_SECOND, NAMES, hour.estimate / 1e6, hour.heap / 1e6, defaults.maxBytes() / 1e6);
		assertThat(hour.estimate).as("an hour fits the default budget").isLessThanOrEqualTo(defaults.maxBytes());
		// The estimate is what the budget is enforced on: it must be close to the real
		// heap.
		assertThat((double) hour.heap).isBetween(hour.estimate * 0.7, hour.estimate * 1.3);
		assertThat(hour.statisticsCount).isEqualTo(3600L * REQUESTS_PER_SECOND);
		assertThat(hour.profiledMinutes).as("profiles of the whole hour kept").isEqualTo(60);
	}

	private record Hour(long estimate, long heap, int profiledMinutes, long statisticsCount) {
	}

	private static Hour simulate(AggregateSettings settings) {
		Random random = new Random(42);
		long[] clock = { Duration.ofDays(20_000).toNanos() };
		// A store of one span, recent requests only: the heap measured is the
		// aggregates', not the store's.
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(1, Long.MAX_VALUE, true, RetentionSettings.recentOnly()));
		FrameTable frames = store.frames();
		int[][][] paths = codePaths(frames, random);
		long heapBefore = usedHeap();
		NameAggregates aggregates = new NameAggregates(settings, frames, () -> clock[0]);
		long tick = 1_000_000_000L / REQUESTS_PER_SECOND;
		for (long request = 0; request < 3600L * REQUESTS_PER_SECOND; request++) {
			clock[0] += tick;
			int name = (int) Math.min(NAMES - 1, Math.abs(random.nextGaussian()) * NAMES / 2.5);
			long duration = (long) (Math.exp(Math.log(30e6) + 0.7 * random.nextGaussian()));
			String spanId = Long.toHexString(request);
			SpanRecord root = store.spanStarted(spanId, spanId, null, false, "GET /endpoint" + name, "SERVER",
					clock[0] - duration, "http-nio-1");
			int cpuSamples = (int) (duration / 15_000_000) / 2 + random.nextInt(2);
			int wallSamples = (int) (duration / 10_000_000);
			for (int i = 0; i < cpuSamples; i++) {
				store.addSample(root, SampleKind.CPU, pick(paths[name], random), 1);
			}
			for (int i = 0; i < wallSamples; i++) {
				store.addSample(root, SampleKind.WALL, pick(paths[name], random), 1);
			}
			store.spanEnded(spanId, null, "OK", clock[0], false);
			aggregates.spanEnded(root.name(), spanId, duration, false, clock[0]);
			aggregates.fold(root);
		}
		long heap = usedHeap() - heapBefore;
		int profiled = 0;
		for (int minute = 0; minute < 60; minute++) {
			NameProfile profile = aggregates.profile("GET /endpoint0", Duration.ofMinutes(minute + 1), SampleKind.WALL,
					0, Long.MAX_VALUE);
			NameProfile previous = (minute > 0) ? aggregates.profile("GET /endpoint0", Duration.ofMinutes(minute),
					SampleKind.WALL, 0, Long.MAX_VALUE) : null;
			if (previous == null || profile.samples().totalSamples() > previous.samples().totalSamples()) {
				profiled = minute + 1;
			}
		}
		long count = 0;
		// 61 buckets: the one the first request ended in to the one the last did.
		for (NameSummary summary : aggregates.summaries(Duration.ofMinutes(61))) {
			count += summary.count();
		}
		// Keep the aggregates reachable until the heap was measured.
		return new Hour(aggregates.approximateBytes(), heap, profiled, count);
	}

	/** Per name: a few hundred root-first stacks, as its samples would show them. */
	private static int[][][] codePaths(FrameTable frames, Random random) {
		int[] prefix = new int[35];
		for (int i = 0; i < prefix.length; i++) {
			prefix[i] = frames.intern("org.server.Layer" + i + ".invoke", FrameKind.JAVA);
		}
		int[][][] paths = new int[NAMES][PATHS_PER_NAME][];
		for (int name = 0; name < NAMES; name++) {
			for (int p = 0; p < PATHS_PER_NAME; p++) {
				int depth = 10 + random.nextInt(30);
				int[] stack = new int[prefix.length + 1 + depth];
				System.arraycopy(prefix, 0, stack, 0, prefix.length);
				stack[prefix.length] = frames.intern("app.Controller" + name + ".handle", FrameKind.JAVA);
				int branch = 0;
				for (int d = 0; d < depth; d++) {
					// Stacks share their upper frames and part ways further down, as
					// callees fan out.
					branch = branch * 3 + ((random.nextInt(4) == 0) ? random.nextInt(3) : 0);
					branch %= 997;
					stack[prefix.length + 1 + d] = frames.intern("lib.Depth" + d + ".m" + branch, FrameKind.JAVA);
				}
				paths[name][p] = stack;
			}
		}
		return paths;
	}

	/** Zipf-like: low path numbers far more often. */
	private static int[] pick(int[][] paths, Random random) {
		int index = (int) Math.min(paths.length - 1, Math.floor(Math.pow(paths.length, random.nextDouble())) - 1);
		return paths[index];
	}

	private static long usedHeap() {
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		Runtime runtime = Runtime.getRuntime();
		return runtime.totalMemory() - runtime.freeMemory();
	}

}
