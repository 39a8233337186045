package dev.spanprofile.benchmarks.overhead;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which threads a setting's cost lands on, in a side-by-side run: per thread group, the
 * "on" copy's CPU a request minus the "off" copy's, one figure per switch pair (half from
 * each of its two windows), reported as the median over the pairs.
 */
final class ThreadGroupCosts {

	private final Map<String, List<Double>> differences = new TreeMap<>();

	/**
	 * CPU a request per thread group over one window, from the groups' figures before and
	 * after it.
	 */
	static Map<String, Double> perRequest(Map<String, ProcessCpu.GroupUsage> before,
			Map<String, ProcessCpu.GroupUsage> after, LoadDriver.Window window) {
		double requests = Math.max(1, window.requests());
		Map<String, Double> perRequest = new TreeMap<>();
		after.forEach((group, usage) -> {
			ProcessCpu.GroupUsage earlier = before.getOrDefault(group, new ProcessCpu.GroupUsage(0, 0));
			perRequest.put(group, (usage.runNanos() - earlier.runNanos()) / 1000.0 / requests);
		});
		return perRequest;
	}

	/**
	 * One window of a pair: {@code firstOfPair} starts the pair's figure, the second
	 * window adds its half to it.
	 */
	void add(Map<String, Double> on, Map<String, Double> off, boolean firstOfPair) {
		Set<String> groups = new TreeSet<>(on.keySet());
		groups.addAll(off.keySet());
		for (String group : groups) {
			double half = (on.getOrDefault(group, 0.0) - off.getOrDefault(group, 0.0)) / 2;
			List<Double> pairs = this.differences.computeIfAbsent(group, (g) -> new ArrayList<>());
			if (firstOfPair) {
				pairs.add(half);
			}
			else if (!pairs.isEmpty()) {
				pairs.set(pairs.size() - 1, pairs.get(pairs.size() - 1) + half);
			}
		}
	}

	/**
	 * Print each group's median and quartiles, then start afresh for the next setting.
	 */
	void report() {
		System.out.println("  thread groups, µs a request on minus off, median over the pairs [quartiles]:");
		this.differences.forEach((group, pairs) -> {
			List<Double> sorted = new ArrayList<>(pairs);
			Collections.sort(sorted);
			double median = sorted.get(sorted.size() / 2);
			if (Math.abs(median) >= 0.5) {
				System.out.println(String.format(Locale.ROOT, "    %-34s %+7.1f [%+.1f..%+.1f]", "[" + group + "]",
						median, sorted.get(sorted.size() / 4), sorted.get(sorted.size() * 3 / 4)));
			}
		});
		this.differences.clear();
	}

}
