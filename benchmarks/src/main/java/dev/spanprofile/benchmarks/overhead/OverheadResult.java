package dev.spanprofile.benchmarks.overhead;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Every measured window of the overhead benchmark, and the on/off ratios derived from
 * them.
 *
 * @param processes windows of separate application runs
 * @param switched windows of one application switched on and off, per setting label
 * @param twinParameters how the side-by-side comparisons were run
 * @param twins the side-by-side comparisons, one per application and setting
 */
public record OverheadResult(OverheadParameters parameters, List<Window> processes, Map<String, List<Window>> switched,
		TwinParameters twinParameters, List<TwinResult> twins) {

	/**
	 * The side-by-side comparison of {@code setting} on {@code workload}, or {@code null}
	 * if there was none.
	 */
	public TwinResult twin(Workload workload, ProfilerSetting setting) {
		for (TwinResult twin : this.twins) {
			if (twin.workload().equals(workload) && twin.setting().equals(setting)) {
				return twin;
			}
		}
		return null;
	}

	/** On/off ratios of separate runs, paired by round. */
	public Ratio processRatio(ProfilerSetting setting, Metric metric) {
		String on = setting.configuration();
		List<Double> ratios = new ArrayList<>();
		for (int round = 0; round < this.parameters.processRounds(); round++) {
			Window onWindow = find(this.processes, on, round);
			Window offWindow = find(this.processes, OverheadBenchmark.OFF, round);
			if (onWindow != null && offWindow != null) {
				ratios.add(metric.of(onWindow) / metric.of(offWindow));
			}
		}
		return Ratio.of(ratios);
	}

	/** On/off ratios of the switched application, paired by adjacent windows. */
	public Ratio switchRatio(ProfilerSetting setting, Metric metric) {
		List<Window> windows = this.switched.getOrDefault(setting.label(), List.of());
		String on = setting.configuration();
		List<Double> ratios = new ArrayList<>();
		for (int pair = 0; pair < this.parameters.switchPairs(); pair++) {
			Window onWindow = find(windows, on, pair);
			Window offWindow = find(windows, OverheadBenchmark.OFF, pair);
			if (onWindow != null && offWindow != null) {
				ratios.add(metric.of(onWindow) / metric.of(offWindow));
			}
		}
		return Ratio.of(ratios);
	}

	/**
	 * The collector thread's share of the application's CPU in the windows with profiling
	 * on with {@code setting}, median over the windows: the part of the overhead that
	 * does not run on request threads.
	 */
	public double collectorShare(ProfilerSetting setting) {
		String on = setting.configuration();
		List<Double> shares = new ArrayList<>();
		for (Window window : this.processes) {
			if (window.configuration().equals(on)) {
				shares.add(window.collectorMicrosPerRequest() / window.cpuMicrosPerRequest());
			}
		}
		for (Window window : this.switched.getOrDefault(setting.label(), List.of())) {
			if (window.configuration().equals(on)) {
				shares.add(window.collectorMicrosPerRequest() / window.cpuMicrosPerRequest());
			}
		}
		return Ratio.of(shares).median();
	}

	private static Window find(List<Window> windows, String configuration, int round) {
		for (Window window : windows) {
			if (window.configuration().equals(configuration) && window.round() == round) {
				return window;
			}
		}
		return null;
	}

	/**
	 * One measured window.
	 *
	 * @param configuration {@code off} or {@code on, } and the setting's label
	 * @param round the round (separate runs) or pair (switch) it belongs to
	 * @param cpuMicrosPerRequest the application's process CPU time in the window over
	 * its requests
	 * @param cpuMicrosPerRequestWithoutJit the same without the JIT compiler threads
	 * @param collectorMicrosPerRequest of the CPU time, spanprofile's collector thread's
	 */
	public record Window(String configuration, int round, long requests, long errors, double throughput,
			double p50Millis, double p99Millis, double cpuMicrosPerRequest, double cpuMicrosPerRequestWithoutJit,
			double collectorMicrosPerRequest) {

	}

	/** The measures compared. */
	public enum Metric {

		THROUGHPUT("throughput", Window::throughput), P50("p50 latency", Window::p50Millis),
		P99("p99 latency", Window::p99Millis), CPU_PER_REQUEST("CPU per request", Window::cpuMicrosPerRequest),
		CPU_PER_REQUEST_WITHOUT_JIT("CPU per request without the JIT", Window::cpuMicrosPerRequestWithoutJit);

		private final String title;

		private final ToDoubleFunction<Window> value;

		Metric(String title, ToDoubleFunction<Window> value) {
			this.title = title;
			this.value = value;
		}

		public String title() {
			return this.title;
		}

		double of(Window window) {
			return this.value.applyAsDouble(window);
		}

	}

	/**
	 * Ratios of on to off, one per round or pair.
	 */
	public record Ratio(double median, double min, double max, int count) {

		static Ratio of(List<Double> ratios) {
			if (ratios.isEmpty()) {
				return new Ratio(Double.NaN, Double.NaN, Double.NaN, 0);
			}
			double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
			int n = sorted.length;
			double median = (n % 2 == 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
			return new Ratio(median, sorted[0], sorted[n - 1], n);
		}

		/** The ratio as a change in percent, e.g. +0.4 % or -1.2 %. */
		public double medianPercent() {
			return (this.median - 1) * 100;
		}

		@Override
		public String toString() {
			return String.format("%.3f [%.3f..%.3f]", this.median, this.min, this.max);
		}

	}

}
