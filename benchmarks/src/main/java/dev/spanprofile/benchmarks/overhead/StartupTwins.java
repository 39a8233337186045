package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.spanprofile.benchmarks.report.Machine;
import dev.spanprofile.benchmarks.report.ResultFigures;
import dev.spanprofile.benchmarks.report.ResultsFile;

/**
 * What a setting fixed at startup costs, where the profiling switch cannot toggle it
 * (context propagation, on-demand profiling's filters): two copies of the application
 * side by side under the same load, one started with the setting and one without, both
 * profiling throughout. Both are measured over the same seconds, so that what the machine
 * does to one it does to the other; each pair starts two new JVMs, which copy starts
 * first alternating, so that what one JVM's JIT compiler happened to choose counts in one
 * pair only and the median over the pairs cancels it. A pair's ratio, with over without,
 * is the geometric mean of its windows' ratios.
 * <p>
 * Arguments: {@code --workload pages|work|async|reactive}, {@code --rounds N} (loop
 * rounds a request for {@code work}, {@code async} and {@code reactive}),
 * {@code --pairs N}, {@code --windows N} (windows a pair), {@code --window SECONDS},
 * {@code --warmup SECONDS}, {@code --connections N} (each copy's), {@code --rate N}
 * (requests a second each copy is sent on a fixed schedule; 0 for closed-loop load),
 * {@code --jvm OPTION} (repeatable), {@code --logs DIR}, {@code --label LABEL} (the
 * setting's name in the results), {@code --with name=value,...} and
 * {@code --without name=value,...} (the two copies' properties; every request traced
 * unless {@code management.tracing.sampling.probability} is given),
 * {@code --with-header "Name: value"} (sent with every request to the copy with the
 * setting, e.g. the header that asks for an on-demand profile), {@code --results FILE}
 * and {@code --commit ID} as for {@link SwitchProbe}.
 */
public final class StartupTwins {

	private final Workload workload;

	private final int connectionsEach;

	private final double requestsPerSecondEach;

	private final Duration warmup;

	private final Duration window;

	private final int windows;

	private final int pairs;

	private final List<String> jvmOptions;

	private final Path logs;

	/**
	 * A header ({@code Name: value}) every request to the copy with the setting carries,
	 * e.g. the one that asks for an on-demand profile; empty for none.
	 */
	String withHeader = "";

	StartupTwins(Workload workload, int connectionsEach, double requestsPerSecondEach, Duration warmup, Duration window,
			int windows, int pairs, List<String> jvmOptions, Path logs) {
		this.workload = workload;
		this.connectionsEach = connectionsEach;
		this.requestsPerSecondEach = requestsPerSecondEach;
		this.warmup = warmup;
		this.window = window;
		this.windows = windows;
		this.pairs = pairs;
		this.jvmOptions = jvmOptions;
		this.logs = logs;
	}

	public static void main(String[] args) throws Exception {
		String workload = "async";
		int rounds = 300_000;
		int pairs = 6;
		int windows = 2;
		int connections = 2;
		double rate = 0;
		Duration window = Duration.ofSeconds(15);
		Duration warmup = Duration.ofSeconds(60);
		Path logs = Path.of("benchmarks/target/benchmark-logs");
		List<String> jvm = new ArrayList<>();
		String label = null;
		Map<String, String> with = Map.of();
		Map<String, String> without = Map.of();
		String withHeader = "";
		Path results = null;
		String commit = "";
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--workload" -> workload = args[++i];
				case "--rounds" -> rounds = Integer.parseInt(args[++i]);
				case "--pairs" -> pairs = Integer.parseInt(args[++i]);
				case "--windows" -> windows = Integer.parseInt(args[++i]);
				case "--connections" -> connections = Integer.parseInt(args[++i]);
				case "--rate" -> rate = Double.parseDouble(args[++i]);
				case "--window" -> window = Duration.ofMillis((long) (Double.parseDouble(args[++i]) * 1000));
				case "--warmup" -> warmup = Duration.ofSeconds(Long.parseLong(args[++i]));
				case "--jvm" -> jvm.add(args[++i]);
				case "--logs" -> logs = Path.of(args[++i]);
				case "--label" -> label = args[++i];
				case "--with" -> with = properties(args[++i]);
				case "--without" -> without = properties(args[++i]);
				case "--with-header" -> withHeader = args[++i];
				case "--results" -> results = Path.of(args[++i]);
				case "--commit" -> commit = args[++i];
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
			}
		}
		if (label == null || (with.equals(without) && withHeader.isEmpty())) {
			throw new IllegalArgumentException("--label and two different --with and --without settings are needed");
		}
		StartupTwins twins = new StartupTwins(Workload.named(workload, rounds), connections, rate, warmup, window,
				windows, pairs, jvm, logs);
		twins.withHeader = withHeader;
		TwinResult result = twins.run(new ProfilerSetting(label, with, false), without);
		if (results != null) {
			String load = (rate > 0) ? String.format(Locale.ROOT, "paced %.0f/s", rate) : ResultFigures.CLOSED_LOOP;
			Files.writeString(results,
					ResultsFile.write(ResultFigures.ofTwins(List.of(result), load, LocalDate.now(ZoneOffset.UTC),
							commit, Machine.current().description(), "StartupTwins " + String.join(" ", args))));
		}
	}

	/** {@code name=value,...}, split where the next Spring property's name starts. */
	static Map<String, String> properties(String list) {
		Map<String, String> properties = new LinkedHashMap<>();
		for (String pair : list.split(",(?=(spanprofile|management|spring)\\.)")) {
			int eq = pair.indexOf('=');
			if (eq <= 0) {
				throw new IllegalArgumentException("Not name=value: " + pair);
			}
			properties.put(pair.substring(0, eq), pair.substring(eq + 1));
		}
		return properties;
	}

	/**
	 * Measure {@code with} (its properties) against {@code without}; prints every window
	 * and the ratios, with over without.
	 */
	TwinResult run(ProfilerSetting with, Map<String, String> without) throws IOException, InterruptedException {
		System.out.println("## startup twins " + with.label() + ": " + with.properties() + " against " + without);
		List<double[]> measured = new ArrayList<>();
		for (int pair = 0; pair < this.pairs; pair++) {
			measured.add(pair(pair, with, without));
		}
		TwinResult result = new TwinResult(this.workload, with, measured);
		System.out.println("  with / without, " + measured.size() + " pairs: median [lower quartile..upper quartile] "
				+ "{lowest..highest}");
		for (TwinResult.Measure measure : TwinResult.Measure.values()) {
			System.out.println(String.format(Locale.ROOT, "    %-34s %s", measure.title(), result.spread(measure)));
		}
		return result;
	}

	private double[] pair(int pair, ProfilerSetting with, Map<String, String> without)
			throws IOException, InterruptedException {
		RunningApp first = null;
		RunningApp second = null;
		try {
			boolean withFirst = pair % 2 == 0;
			// Started together: on a loaded machine a copy takes a minute or more to
			// start.
			CompletableFuture<RunningApp> starting = CompletableFuture.supplyAsync(() -> withFirst
					? start(without, "", pair, "without") : start(with.properties(), this.withHeader, pair, "with"));
			try {
				first = withFirst ? start(with.properties(), this.withHeader, pair, "with")
						: start(without, "", pair, "without");
			}
			finally {
				second = starting.join();
			}
			RunningApp withCopy = withFirst ? first : second;
			RunningApp withoutCopy = withFirst ? second : first;
			TwinSwitch.warmUpTogether(withCopy, withoutCopy, this.warmup);
			double[] logSums = new double[TwinResult.Measure.values().length];
			for (int w = 0; w < this.windows; w++) {
				TwinSwitch.Snapshot withBefore = TwinSwitch.snapshot(withCopy.app());
				TwinSwitch.Snapshot withoutBefore = TwinSwitch.snapshot(withoutCopy.app());
				List<LoadDriver.Window> measuredWindows = LoadDriver.measureTogether(this.window, withCopy.load(),
						withoutCopy.load());
				TwinSwitch.Figures withFigures = TwinSwitch.Figures.of(measuredWindows.get(0), withBefore,
						TwinSwitch.snapshot(withCopy.app()));
				TwinSwitch.Figures withoutFigures = TwinSwitch.Figures.of(measuredWindows.get(1), withoutBefore,
						TwinSwitch.snapshot(withoutCopy.app()));
				System.out.println(String.format(Locale.ROOT,
						"  pair %2d  with    %s, %d errors%n           without %s, %d errors", pair, withFigures,
						measuredWindows.get(0).errors(), withoutFigures, measuredWindows.get(1).errors()));
				for (int m = 0; m < logSums.length; m++) {
					logSums[m] += Math.log(withFigures.value(m) / withoutFigures.value(m));
				}
			}
			double[] ratios = new double[logSums.length];
			for (int m = 0; m < ratios.length; m++) {
				ratios[m] = Math.exp(logSums[m] / this.windows);
			}
			return ratios;
		}
		finally {
			if (second != null) {
				second.close();
			}
			if (first != null) {
				first.close();
			}
		}
	}

	private RunningApp start(Map<String, String> properties, String header, int pair, String name) {
		try {
			AppProcess app = AppProcess.start(this.workload.mainClass(), properties, this.jvmOptions,
					this.logs.resolve("startup-twins-" + this.workload.label() + "-" + pair + "-" + name + ".log"));
			return new RunningApp(app, new LoadDriver(app.port(), this.workload.path(), this.connectionsEach,
					this.requestsPerSecondEach, header));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while starting the " + name + " copy", ex);
		}
	}

}
