package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.spanprofile.benchmarks.overhead.chatty.ChattyApplication;
import dev.spanprofile.benchmarks.report.Figure;
import dev.spanprofile.benchmarks.report.Machine;
import dev.spanprofile.benchmarks.report.ResultFigures;
import dev.spanprofile.benchmarks.report.ResultsFile;

/**
 * Issue 47's goals on a real application with a real database: {@link ChattyApplication}
 * (four queries a request) on a private PostgreSQL ({@link PostgresCluster}) reached
 * through a {@link DelayingProxy} that holds each answer 8 ms and counts the round trips.
 * Each run starts the application once with {@code spanprofile.exact-cpu-time} off and
 * once with it on and measures, from the endpoint's own JSON against the proxy's and the
 * kernel's counts:
 * <ul>
 * <li>light load (one connection, paced): the share of the time the proxy held answers
 * that the name's waits attribute to the database, and round trips per request as the
 * requests' breakdowns count them against the proxy's count;</li>
 * <li>the tail, requests at or above their window's p90, light and saturated (8
 * connections, closed loop): what their breakdowns leave unaccounted, as a share of their
 * duration;</li>
 * <li>saturated: the wait for a core the breakdowns report against the run-queue wait the
 * kernel counted for the request threads over the same window
 * ({@code /proc/PID/task/TID/schedstat}).</li>
 * </ul>
 * With {@code --twin PAIRS} it then measures what the 1 ms socket threshold costs on this
 * application: {@link TwinSwitch} on / off with the threshold at 1 ms and at 20 ms,
 * paced.
 * <p>
 * Not part of the suite nor of the build: run by hand, e.g.
 * {@code java -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmark-classpath.txt)" dev.spanprofile.benchmarks.overhead.ChattyDatabaseBenchmark --twin 6 --results benchmarks/results/DATE-chatty-db.csv}.
 * Without PostgreSQL's binaries it says so and exits.
 */
public final class ChattyDatabaseBenchmark {

	static final String BENCHMARK = "chatty-db";

	static final String APPLICATION = "chatty";

	static final Duration DELAY = Duration.ofMillis(8);

	private static final String PATH = "/owners?lastName=D";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Map<String, List<Double>> values = new LinkedHashMap<>();

	private final Map<String, String[]> keys = new LinkedHashMap<>();

	private final Path logs;

	private final Duration light;

	private final Duration saturated;

	private final double lightRate;

	private ChattyDatabaseBenchmark(Path logs, Duration light, Duration saturated, double lightRate) {
		this.logs = logs;
		this.light = light;
		this.saturated = saturated;
		this.lightRate = lightRate;
	}

	public static void main(String[] args) throws Exception {
		int runs = 3;
		int twinPairs = 0;
		Path results = null;
		Path logs = Path.of("benchmarks/target/benchmark-logs/chatty-db");
		String commit = "";
		Duration light = Duration.ofSeconds(40);
		Duration saturated = Duration.ofSeconds(12);
		double lightRate = 5;
		double twinRate = 60;
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--runs" -> runs = Integer.parseInt(args[++i]);
				case "--twin" -> twinPairs = Integer.parseInt(args[++i]);
				case "--twin-rate" -> twinRate = Double.parseDouble(args[++i]);
				case "--results" -> results = Path.of(args[++i]);
				case "--logs" -> logs = Path.of(args[++i]);
				case "--commit" -> commit = args[++i];
				case "--light" -> light = Duration.ofSeconds(Long.parseLong(args[++i]));
				case "--saturated" -> saturated = Duration.ofSeconds(Long.parseLong(args[++i]));
				case "--rate" -> lightRate = Double.parseDouble(args[++i]);
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]
						+ "; expected --runs N, --twin PAIRS, --twin-rate R, --results FILE, --logs DIR, "
						+ "--commit ID, --light SECONDS, --saturated SECONDS, --rate R");
			}
		}
		Optional<Path> bin = PostgresCluster.binaries();
		if (bin.isEmpty()) {
			System.out.println("SKIPPED: no PostgreSQL binaries (pg_ctl, initdb) under /usr/lib/postgresql/*/bin; "
					+ "install Debian's postgresql package to run this benchmark");
			return;
		}
		System.out.println("machine: " + Machine.current().description() + "; " + uptime());
		List<Figure> figures = new ArrayList<>();
		ChattyDatabaseBenchmark benchmark = new ChattyDatabaseBenchmark(logs, light, saturated, lightRate);
		try (PostgresCluster cluster = PostgresCluster.start(bin.get());
				DelayingProxy proxy = new DelayingProxy(cluster.port(), DELAY)) {
			seed(cluster);
			String url = cluster.jdbcUrl(proxy.port(), PostgresCluster.DATABASE);
			for (int run = 0; run < runs; run++) {
				for (boolean exact : new boolean[] { false, true }) {
					benchmark.run(url, proxy, exact, run);
				}
			}
			String machine = Machine.current().description();
			String command = "ChattyDatabaseBenchmark " + String.join(" ", args);
			LocalDate today = LocalDate.now(ZoneOffset.UTC);
			figures.addAll(benchmark.figures(today, commit, machine, command));
			if (twinPairs > 0) {
				System.out.println("twin: " + uptime());
				TwinSwitch twins = new TwinSwitch(new Workload(APPLICATION, ChattyApplication.class.getName(), PATH), 4,
						Duration.ofSeconds(40), Duration.ofSeconds(8), Duration.ofSeconds(4), twinPairs, false,
						List.of(), logs, null);
				twins.requestsPerSecondEach = twinRate;
				List<TwinResult> measured = new ArrayList<>();
				for (String threshold : List.of("1ms", "20ms")) {
					Map<String, String> properties = new LinkedHashMap<>(dataSource(url));
					properties.put("spanprofile.waits.socket-threshold", threshold);
					measured.add(twins.run(new ProfilerSetting(
							"defaults, socket threshold " + threshold.replace("ms", " ms"), properties, false)));
				}
				figures.addAll(ResultFigures.ofTwins(measured, String.format(Locale.ROOT, "paced %.0f/s", twinRate),
						today, commit, machine, command));
				System.out.println("twin done: " + uptime());
			}
		}
		if (results != null) {
			Files.createDirectories(results.toAbsolutePath().getParent());
			Files.writeString(results, ResultsFile.write(figures));
			System.out.println("wrote " + results);
		}
	}

	/** Owners under ten last names, four each, two pets each. */
	private static void seed(PostgresCluster cluster) throws SQLException {
		try (Connection connection = DriverManager
			.getConnection(cluster.jdbcUrl(cluster.port(), PostgresCluster.DATABASE), PostgresCluster.USER, "");
				Statement statement = connection.createStatement()) {
			statement.execute(
					"create table owners (id serial primary key, first_name text, last_name text, " + "city text)");
			statement.execute(
					"create table pets (id serial primary key, owner_id int references owners(id), " + "name text)");
			statement.execute("create index on owners (last_name)");
			statement.execute("create index on pets (owner_id)");
			String[] lastNames = { "Davis", "Black", "Coleman", "Escobito", "Estaban", "Franklin", "McTavish",
					"Rodriquez", "Schroeder", "Dubois" };
			try (PreparedStatement owner = connection
				.prepareStatement("insert into owners (first_name, last_name, city) values (?, ?, ?)")) {
				for (String lastName : lastNames) {
					for (int i = 0; i < 4; i++) {
						owner.setString(1, "Owner" + i);
						owner.setString(2, lastName);
						owner.setString(3, "Madison");
						owner.addBatch();
					}
				}
				owner.executeBatch();
			}
			statement.execute("insert into pets (owner_id, name) select id, 'Leo' || id from owners "
					+ "union all select id, 'Max' || id from owners");
			statement.execute("analyze");
		}
	}

	private static Map<String, String> dataSource(String url) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spring.datasource.url", url);
		properties.put("spring.datasource.username", PostgresCluster.USER);
		properties.put("spring.datasource.password", "");
		properties.put("spring.jpa.open-in-view", "false");
		return properties;
	}

	private void run(String url, DelayingProxy proxy, boolean exact, int run) throws Exception {
		String setting = exact ? "exact-cpu-time on" : "exact-cpu-time off";
		System.out.println("## run " + run + ", " + setting + "; " + uptime());
		Map<String, String> properties = new LinkedHashMap<>(dataSource(url));
		properties.put("spanprofile.exact-cpu-time", Boolean.toString(exact));
		properties.put("spanprofile.max-spans", "20000");
		properties.put("spanprofile.max-memory", "256MB");
		properties.put("spring.datasource.hikari.maximum-pool-size", "10");
		try (AppProcess app = AppProcess.start(ChattyApplication.class.getName(), properties, List.of(),
				this.logs.resolve("run" + run + "-" + (exact ? "exact" : "sampled") + ".log"))) {
			try (LoadDriver warmup = new LoadDriver(app.port(), PATH, 2)) {
				warmup.measure(Duration.ofSeconds(30));
			}
			Thread.sleep(4000);
			String name = ownersName(app);

			// Light load: one connection, paced.
			Names before = names(app, name, proxy);
			Instant start = Instant.now();
			LoadDriver.Window lightWindow;
			try (LoadDriver load = new LoadDriver(app.port(), PATH, 1, this.lightRate)) {
				lightWindow = load.measure(this.light);
			}
			Instant end = Instant.now();
			DelayingProxy.Counts proxied = proxy.counts().minus(before.proxy);
			Thread.sleep(4000);
			Names after = names(app, name, proxy);
			long requests = after.count - before.count;
			double databaseMillis = after.databaseMillis - before.databaseMillis;
			double heldMillis = proxied.heldNanos() / 1e6;
			List<JsonNode> spans = breakdowns(app, start, end);
			double reportedTrips = spans.stream().mapToLong((s) -> roundTrips(s, proxy.port())).average().orElse(0);
			double spansDatabaseMillis = spans.stream().mapToDouble((s) -> roundTripMillis(s, proxy.port())).sum();
			double spansHeldMillis = heldMillis * spans.size() / requests;
			double proxyTrips = (double) proxied.roundTrips() / requests;
			String light = String.format(Locale.ROOT, "paced %.0f/s, 1 connection", this.lightRate);
			System.out.printf(Locale.ROOT,
					"  light: %d requests, proxy %d round trips held %.0f ms; name's database waits %.0f ms = %.1f %% "
							+ "of held; round trips a request: breakdowns %.2f (%d spans), proxy %.2f%n",
					requests, proxied.roundTrips(), heldMillis, databaseMillis, 100 * databaseMillis / heldMillis,
					reportedTrips, spans.size(), proxyTrips);
			System.out.printf(Locale.ROOT,
					"  light: the requests' own breakdowns: %.0f ms of round trips to the database against %.0f ms "
							+ "held for as many requests = %.1f %%; client latency p50 %.1f ms, p90 %.1f ms%n",
					spansDatabaseMillis, spansHeldMillis, 100 * spansDatabaseMillis / spansHeldMillis,
					lightWindow.latencyMillis(0.5), lightWindow.latencyMillis(0.9));
			record(setting, light, "database_share_of_held", databaseMillis / heldMillis);
			record(setting, light, "database_share_of_held_requests", spansDatabaseMillis / spansHeldMillis);
			record(setting, light, "round_trips_reported_per_request", reportedTrips);
			record(setting, light, "round_trips_proxy_per_request", proxyTrips);
			record(setting, light, "round_trips_reported_over_proxy", reportedTrips / proxyTrips);
			tail(setting, light, spans);

			// Saturated: 8 connections, closed loop, on the machine's cores.
			Map<Long, Long> runQueueBefore = runQueueNanos(app.pid());
			start = Instant.now();
			LoadDriver.Window window;
			try (LoadDriver load = new LoadDriver(app.port(), PATH, 8)) {
				window = load.measure(this.saturated);
				end = Instant.now();
			}
			Map<Long, Long> runQueueAfter = runQueueNanos(app.pid());
			Thread.sleep(4000);
			spans = breakdowns(app, start, end);
			String saturated = "closed loop, 8 connections";
			System.out.printf(Locale.ROOT, "  saturated: %.0f req/s, p99 %.1f ms, %d spans in the window%n",
					window.throughput(), window.latencyMillis(0.99), spans.size());
			tail(setting, saturated, spans);
			// Read in both settings: the run-queue figure is read by default
			// (spanprofile.core-wait).
			long kernel = 0;
			for (Map.Entry<Long, Long> thread : runQueueAfter.entrySet()) {
				kernel += thread.getValue() - runQueueBefore.getOrDefault(thread.getKey(), 0L);
			}
			double durations = spans.stream().mapToDouble((s) -> s.path("durationMillis").asDouble()).sum();
			double reported = spans.stream()
				.mapToDouble((s) -> s.path("coreWaitMillis").asDouble() + s.path("coreWaitInWaitsMillis").asDouble())
				.sum();
			double kernelMillis = kernel / 1e6;
			double beforeStart = spans.stream().mapToDouble((s) -> s.path("coreWaitBeforeMillis").asDouble()).sum();
			long withBefore = spans.stream().filter((s) -> s.has("coreWaitBeforeMillis")).count();
			List<JsonNode> unscheduled = spans.stream().filter((s) -> !s.has("coreWaitMillis")).toList();
			long straddling = window.requests() - spans.size();
			System.out.printf(Locale.ROOT,
					"  where the kernel's run-queue wait went: in the spans %.0f ms; before they started (since "
							+ "the thread's previous request) %.0f ms over %d of %d spans; %d spans without the "
							+ "kernel's figures (%.0f ms of duration); %d requests the client counted beyond the "
							+ "spans in the window%n",
					reported, beforeStart, withBefore, spans.size(), unscheduled.size(),
					unscheduled.stream().mapToDouble((s) -> s.path("durationMillis").asDouble()).sum(), straddling);
			record(setting, saturated, "core_wait_before_over_kernel", beforeStart / kernelMillis);
			record(setting, saturated, "core_wait_with_before_over_kernel", (reported + beforeStart) / kernelMillis);
			double clientMillis = 0;
			for (long latency : window.latencies()) {
				clientMillis += latency / 1e6;
			}
			System.out.printf(Locale.ROOT,
					"  outside the spans: client latency %.1f ms a request on average against the spans' %.1f ms; "
							+ "the kernel's run-queue wait beyond the spans' %.1f ms a request%n",
					clientMillis / window.requests(), durations / spans.size(),
					(kernelMillis - reported) / spans.size());
			record(setting, saturated, "client_latency_over_span_duration",
					(clientMillis / window.requests()) / (durations / spans.size()));
			System.out.printf(Locale.ROOT,
					"  waiting for a core: reported %.0f ms (%.1f %% of the requests' %.0f ms), kernel %.0f ms "
							+ "(%.1f %%) over %d request threads; reported / kernel %.3f%n",
					reported, 100 * reported / durations, durations, kernelMillis, 100 * kernelMillis / durations,
					runQueueAfter.size(), reported / kernelMillis);
			record(setting, saturated, "core_wait_share_reported", reported / durations);
			record(setting, saturated, "core_wait_share_kernel", kernelMillis / durations);
			record(setting, saturated, "core_wait_reported_over_kernel", reported / kernelMillis);
		}
	}

	/**
	 * Requests at or above the p90 of the window's: what their breakdowns leave
	 * unaccounted, as a share of their duration, and what the rest is made of.
	 */
	private void tail(String setting, String load, List<JsonNode> spans) {
		List<Double> durations = new ArrayList<>(
				spans.stream().map((s) -> s.path("durationMillis").asDouble()).toList());
		Collections.sort(durations);
		if (durations.isEmpty()) {
			return;
		}
		double p90 = TwinResult.quantile(durations, 0.9);
		double total = 0;
		double unaccounted = 0;
		double cpu = 0;
		double waits = 0;
		double core = 0;
		double shortWaits = 0;
		double cpuClocksOverSamples = 0;
		int count = 0;
		for (JsonNode span : spans) {
			if (span.path("durationMillis").asDouble() >= p90) {
				count++;
				total += span.path("durationMillis").asDouble();
				unaccounted += span.path("unaccountedMillis").asDouble();
				cpu += span.path("cpuMillis").asDouble();
				waits += span.path("waitMillis").asDouble();
				core += span.path("coreWaitMillis").asDouble();
				shortWaits += span.path("shortWaitMillis").asDouble();
				if ("thread CPU clocks".equals(span.path("cpuFrom").asString())) {
					cpuClocksOverSamples += span.path("cpuMillis").asDouble()
							- span.path("sampledCpuMillis").asDouble();
				}
			}
		}
		if (core + shortWaits > 0) {
			// With the clocks read: what the same requests' breakdowns would leave
			// unaccounted
			// from samples alone, part by part.
			System.out.printf(Locale.ROOT,
					"  tail (%s) without the clocks would leave unaccounted %.1f %%: waiting for a core %.1f %%, "
							+ "short waits %.1f %%, CPU the samples miss %.1f %%, threads not in the request %.1f %%%n",
					load, 100 * (unaccounted + core + shortWaits + cpuClocksOverSamples) / total, 100 * core / total,
					100 * shortWaits / total, 100 * cpuClocksOverSamples / total, 100 * unaccounted / total);
			record(setting, load, "tail_unaccounted_from_samples_share",
					(unaccounted + core + shortWaits + cpuClocksOverSamples) / total);
			record(setting, load, "tail_core_wait_share", core / total);
			record(setting, load, "tail_short_wait_share", shortWaits / total);
			record(setting, load, "tail_cpu_samples_miss_share", cpuClocksOverSamples / total);
			record(setting, load, "tail_not_in_request_share", unaccounted / total);
		}
		System.out.printf(Locale.ROOT,
				"  tail (%s): %d requests at or above p90 %.1f ms, %.0f ms: unaccounted %.1f %%, CPU %.1f %%, "
						+ "recorded waits %.1f %%, waiting for a core %.1f %%, short waits %.1f %%%n",
				load, count, p90, total, 100 * unaccounted / total, 100 * cpu / total, 100 * waits / total,
				100 * core / total, 100 * shortWaits / total);
		record(setting, load, "tail_unaccounted_share", unaccounted / total);
		record(setting, load, "tail_p90_ms", p90);
	}

	private void record(String setting, String load, String measure, double value) {
		String key = String.join("|", setting, load, measure);
		this.keys.putIfAbsent(key, new String[] { setting, load, measure });
		this.values.computeIfAbsent(key, (k) -> new ArrayList<>()).add(value);
	}

	private List<Figure> figures(LocalDate date, String commit, String machine, String command) {
		List<Figure> figures = new ArrayList<>();
		this.values.forEach((key, list) -> {
			String[] parts = this.keys.get(key);
			List<Double> sorted = new ArrayList<>(list);
			Collections.sort(sorted);
			String unit = parts[2].endsWith("_ms") ? "ms"
					: parts[2].startsWith("round_trips") && !parts[2].endsWith("over_proxy") ? "count"
							: parts[2].endsWith("_share") || parts[2].contains("share_") ? "share" : "ratio";
			figures.add(new Figure(date, commit, BENCHMARK, APPLICATION, parts[0], parts[1], parts[2],
					TwinResult.quantile(sorted, 0.5), TwinResult.quantile(sorted, 0.25),
					TwinResult.quantile(sorted, 0.75), sorted.get(0), sorted.get(sorted.size() - 1), sorted.size(),
					unit, machine, command));
		});
		return figures;
	}

	/**
	 * The span name of the owners list, as tracing named it ({@code http get /owners}).
	 */
	private static String ownersName(AppProcess app) throws IOException, InterruptedException {
		for (JsonNode name : json(app, "/actuator/spanprofile/names").path("names")) {
			if (name.path("name").asString().contains("/owners")) {
				return name.path("name").asString();
			}
		}
		throw new IOException("No span name for /owners in " + json(app, "/actuator/spanprofile/names"));
	}

	/**
	 * The name's request count and its socket waits on the proxy, with the proxy's
	 * counts.
	 */
	private static Names names(AppProcess app, String name, DelayingProxy proxy)
			throws IOException, InterruptedException {
		DelayingProxy.Counts counts = proxy.counts();
		for (JsonNode entry : json(app, "/actuator/spanprofile/names").path("names")) {
			if (entry.path("name").asString().equals(name)) {
				double database = 0;
				for (JsonNode category : entry.path("waits").path("on")) {
					for (JsonNode detail : category.path("details")) {
						if (detail.path("detail").asString().contains(":" + proxy.port())) {
							database += detail.path("millis").asDouble();
						}
					}
				}
				return new Names(entry.path("count").asLong(), database, counts);
			}
		}
		throw new IOException("No span name " + name);
	}

	private record Names(long count, double databaseMillis, DelayingProxy.Counts proxy) {
	}

	/**
	 * The time breakdowns of the stored owners requests that started and ended between
	 * {@code start} and {@code end}.
	 */
	private static List<JsonNode> breakdowns(AppProcess app, Instant start, Instant end)
			throws IOException, InterruptedException {
		List<JsonNode> breakdowns = new ArrayList<>();
		for (JsonNode span : json(app, "/actuator/spanprofile?name=owners&limit=20000").path("spans")) {
			Instant started = Instant.parse(span.path("startTime").asString());
			Instant ended = started.plusNanos((long) (span.path("durationMillis").asDouble() * 1e6));
			if (!started.isBefore(start) && !ended.isAfter(end)) {
				JsonNode profile = json(app, "/actuator/spanprofile/" + span.path("spanId").asString());
				JsonNode breakdown = profile.path("timeBreakdown");
				if (breakdown instanceof ObjectNode object) {
					// What the CPU samples alone say, beside a figure read from the
					// clocks.
					object.put("sampledCpuMillis", profile.path("span").path("samplesByEvent").path("cpu").asDouble()
							* profile.path("intervalMillis").asDouble());
				}
				breakdowns.add(breakdown);
			}
		}
		return breakdowns;
	}

	private static long roundTrips(JsonNode breakdown, int proxyPort) {
		long trips = 0;
		for (JsonNode peer : breakdown.path("roundTrips")) {
			if (peer.path("peer").asString().contains(":" + proxyPort)) {
				trips += peer.path("count").asLong();
			}
		}
		return trips;
	}

	private static double roundTripMillis(JsonNode breakdown, int proxyPort) {
		double millis = 0;
		for (JsonNode peer : breakdown.path("roundTrips")) {
			if (peer.path("peer").asString().contains(":" + proxyPort)) {
				millis += peer.path("millis").asDouble();
			}
		}
		return millis;
	}

	private static JsonNode json(AppProcess app, String path) throws IOException, InterruptedException {
		var response = app.get(path);
		if (response.statusCode() != 200) {
			throw new IOException(path + ": " + response.statusCode() + " " + response.body());
		}
		return JSON.readTree(response.body());
	}

	/**
	 * The kernel's run-queue wait so far of each of the application's request threads
	 * (Tomcat's {@code http-nio-…-exec-…}), by thread id: the second field of
	 * {@code /proc/PID/task/TID/schedstat}. Linux keeps 15 characters of a thread's name,
	 * too few to tell the request threads from Tomcat's poller, so their ids come from
	 * {@code jcmd PID Thread.print} ({@code nid=0x…}).
	 */
	static Map<Long, Long> runQueueNanos(long pid) throws IOException, InterruptedException {
		Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
				Long.toString(pid), "Thread.print")
			.redirectErrorStream(true)
			.start();
		String threadDump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		jcmd.waitFor();
		Map<Long, Long> threads = new LinkedHashMap<>();
		Matcher thread = REQUEST_THREAD.matcher(threadDump);
		while (thread.find()) {
			long tid = Long.parseLong(thread.group(1), 16);
			try {
				String[] fields = Files
					.readString(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "schedstat"))
					.strip()
					.split("\\s+");
				threads.put(tid, Long.parseLong(fields[1]));
			}
			catch (IOException ex) {
				// The thread ended.
			}
		}
		return threads;
	}

	private static final Pattern REQUEST_THREAD = Pattern.compile("^\"http-nio-[^\"]*-exec-\\d+\".* nid=0x([0-9a-f]+)",
			Pattern.MULTILINE);

	private static String uptime() {
		try {
			return "load average " + Files.readString(Path.of("/proc/loadavg")).strip();
		}
		catch (IOException ex) {
			return "load average unknown";
		}
	}

}
