package dev.spanprofile.benchmarks.overhead;

import java.time.Duration;
import java.util.List;

/**
 * The side-by-side comparison of the overhead benchmark ({@link TwinSwitch}): per case
 * two copies of an application, switched in opposite phase.
 *
 * @param connectionsEach keep-alive connections of each copy's closed-loop load
 * @param warmup load before the switching starts; longer while the JIT is still busy, up
 * to three times as long
 * @param window length of one measured window
 * @param settle load after each switch before the window
 * @param pairs switch pairs per case
 * @param cases the applications and settings compared with profiling off
 */
public record TwinParameters(int connectionsEach, Duration warmup, Duration window, Duration settle, int pairs,
		List<Case> cases) {

	/**
	 * Switches in opposite phase before the first pair: each of the first few is followed
	 * by a recompile burst.
	 */
	public static final int SWITCH_WARMUPS = 8;

	/**
	 * What docs/performance.md reports: both applications with the defaults and with the
	 * recommended production setting, 8 pairs each. A minute of warm-up at least: with
	 * less, the page application's copies were still compiling during the first pairs on
	 * a busy 2-core machine. Four for the page application: its copies still ran at twice
	 * the CPU per request of four minutes later after one (2,000–4,400 µs against
	 * 1,300–2,200, 2026-11-27), and the JIT compiler threads' share of the profiled
	 * windows was ten times as large (+49 µs a request against +5, 2026-11-27). The
	 * JIT-busy check alone had let the switching begin: compiling comes in bursts, and
	 * one quiet 2 s window ended the warm-up.
	 * <p>
	 * 30 s of load after each switch before a 15 s window: the copy just switched on runs
	 * slower code for a while (what the switch made the JIT recompile), which a running
	 * application pays once; after 3 s the window still caught it (the production
	 * setting's request threads measured 1.022 then, 1.011 after 12 s, 2026-11-26), and
	 * 12 s after it the compiler threads still took 4 µs of the work application's
	 * requests against 2 after 30 s, while 5 s windows left its pairs 14 points apart
	 * against 2 with 15 s ones (2026-11-27). About 75 minutes for the four cases.
	 */
	public static TwinParameters full() {
		Duration pageWarmup = Duration.ofMinutes(4);
		List<Case> cases = List.of(new Case(Workload.pages(), ProfilerSetting.defaults(), pageWarmup),
				new Case(Workload.pages(), ProfilerSetting.production(), pageWarmup),
				new Case(Workload.work(300_000), ProfilerSetting.defaults()),
				new Case(Workload.work(300_000), ProfilerSetting.production()));
		return new TwinParameters(2, Duration.ofSeconds(60), Duration.ofSeconds(15), Duration.ofSeconds(30), 8, cases);
	}

	/** No side-by-side comparison. */
	public static TwinParameters none() {
		return new TwinParameters(2, Duration.ZERO, Duration.ZERO, Duration.ZERO, 0, List.of());
	}

	/** How long {@code c} is warmed up: its own warm-up if longer than the others'. */
	public Duration warmupOf(Case c) {
		return (c.warmup().compareTo(this.warmup) > 0) ? c.warmup() : this.warmup;
	}

	/**
	 * One application with one setting.
	 *
	 * @param workload the application and its request
	 * @param setting the profiler setting compared with profiling off
	 * @param warmup the least warm-up this application needs; the comparison's own
	 * applies when it is longer
	 */
	public record Case(Workload workload, ProfilerSetting setting, Duration warmup) {

		/** A case warmed up as long as every other. */
		public Case(Workload workload, ProfilerSetting setting) {
			this(workload, setting, Duration.ZERO);
		}

	}

}
