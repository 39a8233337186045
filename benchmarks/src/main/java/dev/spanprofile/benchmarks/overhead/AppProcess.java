package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark application in a JVM of its own, on a free loopback port, with its output
 * in a log file. Its CPU time comes from the operating system ({@link ProcessCpu}).
 */
final class AppProcess implements AutoCloseable {

	/**
	 * Generous: on a 2-core machine shared with other builds the page application has
	 * taken over 90 s to start, and with five builds and their tests beside it (load
	 * average above 30) even the small applications have taken more than 4 minutes.
	 */
	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(600);

	/**
	 * Spring Boot's share of requests traced; a property given twice on the command line
	 * becomes a list.
	 */
	private static final String TRACING_PROBABILITY = "management.tracing.sampling.probability";

	private final Process process;

	private final int port;

	private final Path log;

	private final ProcessCpu cpu;

	/**
	 * HTTP/1.1 outright: the default first offers each new connection an upgrade to
	 * HTTP/2, which the applications (Tomcat without h2c) ignore, one more exchange that
	 * can go wrong in a measurement.
	 */
	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(2))
		.build();

	/** Switched instead of spanprofile when set. */
	private AsyncProfilerAlone alone;

	private boolean aloneRunning;

	private AppProcess(Process process, int port, Path log) {
		this.process = process;
		this.port = port;
		this.log = log;
		this.cpu = new ProcessCpu(process.toHandle());
	}

	/**
	 * Start the application with these Spring properties and wait until it serves
	 * requests.
	 */
	static AppProcess start(String mainClass, Map<String, String> properties, List<String> jvmOptions, Path log)
			throws IOException, InterruptedException {
		return start(List.of(), mainClass, properties, jvmOptions, log);
	}

	/**
	 * The same, the JVM started through {@code launcher} (e.g. {@code taskset -c 0} to
	 * keep it on one CPU), unless that is empty.
	 */
	static AppProcess start(List<String> launcher, String mainClass, Map<String, String> properties,
			List<String> jvmOptions, Path log) throws IOException, InterruptedException {
		int port = freeLoopbackPort();
		List<String> command = new ArrayList<>(launcher);
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		// A fixed heap, so that the heap sizing policy does not differ between runs.
		command.add("-Xms512m");
		command.add("-Xmx512m");
		command.addAll(jvmOptions);
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(mainClass);
		command.add("--server.address=127.0.0.1");
		command.add("--server.port=" + port);
		command.add("--spring.main.banner-mode=off");
		// Connections held open as a load balancer holds them; Tomcat would otherwise
		// close each after 100 requests.
		command.add("--server.tomcat.max-keep-alive-requests=-1");
		if (!properties.containsKey(TRACING_PROBABILITY)) {
			// Every request traced unless a setting says otherwise: the dearest case for
			// spanprofile.
			command.add("--" + TRACING_PROBABILITY + "=1.0");
		}
		command.add("--management.endpoints.web.exposure.include=health,spanprofile");
		command.add("--management.otlp.metrics.export.enabled=false");
		command.add("--logging.level.root=WARN");
		properties.forEach((name, value) -> command.add("--" + name + "=" + value));
		Files.createDirectories(log.getParent());
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		AppProcess app = new AppProcess(process, port, log);
		try {
			app.awaitReady();
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			app.close();
			throw ex;
		}
		return app;
	}

	private static int freeLoopbackPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private void awaitReady() throws IOException, InterruptedException {
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IOException(
						"The benchmark application exited with " + this.process.exitValue() + ":\n" + logTail());
			}
			try {
				if (get("/actuator/health").statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// Not listening yet.
			}
			Thread.sleep(200);
		}
		throw new IOException("The benchmark application did not start within " + STARTUP_TIMEOUT + ":\n" + logTail());
	}

	int port() {
		return this.port;
	}

	long pid() {
		return this.process.pid();
	}

	/** CPU time the application's process has used so far. */
	ProcessCpu.Usage cpuTime() {
		return this.cpu.used();
	}

	private long logLinesSeen;

	/**
	 * With {@code -XX:+PrintCompilation}: compilations and deoptimisations ("made not
	 * entrant") the application logged since the last call.
	 */
	String compilationsLogged() {
		try {
			List<String> lines = Files.readAllLines(this.log);
			List<String> fresh = lines.subList((int) Math.min(this.logLinesSeen, lines.size()), lines.size());
			this.logLinesSeen = lines.size();
			long notEntrant = fresh.stream().filter((line) -> line.contains("made not entrant")).count();
			long compiled = fresh.stream()
				.filter((line) -> line.matches("^\\s*\\d+\\s+\\d+ .*") && !line.contains("made "))
				.count();
			return compiled + " compiled, " + notEntrant + " made not entrant";
		}
		catch (IOException ex) {
			return "(no log)";
		}
	}

	/** CPU time so far per thread group, see {@link ProcessCpu#byThreadGroup()}. */
	Map<String, ProcessCpu.GroupUsage> cpuByThreadGroup() {
		return this.cpu.byThreadGroup();
	}

	HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * From now on {@link #setProfiling} switches async-profiler alone, for an application
	 * run without spanprofile.
	 */
	void switchWith(AsyncProfilerAlone alone) {
		this.alone = alone;
	}

	/**
	 * Switch profiling on or off through the actuator endpoint; fails unless the engine
	 * reports the new state. With {@link #switchWith} async-profiler alone instead.
	 */
	void setProfiling(boolean enabled) throws IOException, InterruptedException {
		if (this.alone != null) {
			if (enabled != this.aloneRunning) {
				this.alone.set(this.process.pid(), enabled, this.log.resolveSibling(this.log.getFileName() + ".jfr"));
				this.aloneRunning = enabled;
			}
			return;
		}
		HttpResponse<String> response = sendSwitch(HttpRequest.newBuilder(uri("/actuator/spanprofile"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"enabled\": " + enabled + "}")));
		if (response.statusCode() != 200 || !response.body().contains("\"running\":" + enabled)) {
			throw new IOException("Switching profiling " + (enabled ? "on" : "off") + " failed: "
					+ response.statusCode() + " " + response.body());
		}
	}

	/**
	 * Switch the context propagation of an application with
	 * {@code handoff.PropagationSwitch} on or off; fails unless it reports the new state.
	 */
	void setContextPropagation(boolean on) throws IOException, InterruptedException {
		HttpResponse<String> response = sendSwitch(
				HttpRequest.newBuilder(uri("/propagation?on=" + on)).POST(HttpRequest.BodyPublishers.noBody()));
		if (response.statusCode() != 200 || !response.body().contains("\"on\":" + on)) {
			throw new IOException("Switching context propagation " + (on ? "on" : "off") + " failed: "
					+ response.statusCode() + " " + response.body());
		}
	}

	/**
	 * Switch the reads of how long a request waited for a core on or off in the page
	 * application ({@code pages.CoreWaitSwitch}); fails unless it reports the new state.
	 */
	void setCoreWait(boolean on) throws IOException, InterruptedException {
		HttpResponse<String> response = sendSwitch(
				HttpRequest.newBuilder(uri("/core-wait?on=" + on)).POST(HttpRequest.BodyPublishers.noBody()));
		if (response.statusCode() != 200 || !response.body().contains("\"on\":" + on)) {
			throw new IOException("Switching core-wait reads " + (on ? "on" : "off") + " failed: "
					+ response.statusCode() + " " + response.body());
		}
	}

	/**
	 * Send a switch, which sets a state and so can be sent again: twice in 17 runs a
	 * switch of profiling got no answer in 30 s (both times early in a run, after an idle
	 * spell; the cause is not known), while 378 switches sent by {@code curl} to the same
	 * application under the same load all answered within 0.7 s. A switch not answered in
	 * 10 s is sent again, at most twice, and said on the standard error, so that a run
	 * reports it instead of failing.
	 */
	private HttpResponse<String> sendSwitch(HttpRequest.Builder request) throws IOException, InterruptedException {
		HttpRequest built = request.timeout(Duration.ofSeconds(10)).build();
		for (int attempt = 1;; attempt++) {
			try {
				return this.http.send(built, HttpResponse.BodyHandlers.ofString());
			}
			catch (HttpTimeoutException ex) {
				if (attempt == 3) {
					throw ex;
				}
				System.err.printf("%s %s on port %d: no answer in 10 s, sent again (attempt %d of 3)%n", built.method(),
						built.uri().getPath(), this.port, attempt + 1);
			}
		}
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	String logTail() {
		try {
			List<String> lines = Files.readAllLines(this.log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
	}

}
