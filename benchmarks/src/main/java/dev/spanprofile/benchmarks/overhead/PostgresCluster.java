package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private PostgreSQL cluster for one benchmark run: {@code initdb} into a temporary
 * directory, the server on a free loopback port with its socket in that directory, and
 * stopped and deleted on close. The server refuses to run as root, so when the benchmark
 * does its commands run as the {@code postgres} user (Debian's package creates it).
 * Durability is off ({@code fsync=off}): the benchmark measures round trips, not disks.
 */
final class PostgresCluster implements AutoCloseable {

	/** Where Debian's {@code postgresql} package puts each major version's binaries. */
	private static final Path DEBIAN_VERSIONS = Path.of("/usr/lib/postgresql");

	static final String DATABASE = "petclinic";

	static final String USER = "postgres";

	private final Path bin;

	private final Path directory;

	private final int port;

	private final List<String> asUser;

	private PostgresCluster(Path bin, Path directory, int port, List<String> asUser) {
		this.bin = bin;
		this.directory = directory;
		this.port = port;
		this.asUser = asUser;
	}

	/**
	 * The binaries of the newest PostgreSQL installed, or why there are none (the
	 * benchmark then says so and skips).
	 */
	static Optional<Path> binaries() throws IOException {
		if (!Files.isDirectory(DEBIAN_VERSIONS)) {
			return Optional.empty();
		}
		try (Stream<Path> versions = Files.list(DEBIAN_VERSIONS)) {
			return versions.map((v) -> v.resolve("bin"))
				.filter((bin) -> Files.isExecutable(bin.resolve("pg_ctl")) && Files.isExecutable(bin.resolve("initdb")))
				.max(Comparator.comparing((Path bin) -> bin.getParent().getFileName().toString(),
						Comparator.comparingInt((String v) -> v.matches("\\d+") ? Integer.parseInt(v) : 0)));
		}
	}

	/** Initialise, start and create the {@value #DATABASE} database. */
	static PostgresCluster start(Path bin) throws IOException, InterruptedException, SQLException {
		Path directory = Files.createTempDirectory("spanprofile-postgres");
		boolean root = "root".equals(System.getProperty("user.name"));
		List<String> asUser = root ? List.of("runuser", "-u", USER, "--") : List.of();
		if (root) {
			run(List.of("chown", USER, directory.toString()));
		}
		PostgresCluster cluster = new PostgresCluster(bin, directory, freeLoopbackPort(), asUser);
		try {
			cluster.command("initdb", "-D", cluster.data().toString(), "-U", USER, "--auth=trust", "-E", "UTF8",
					"--no-sync");
			cluster.command("pg_ctl", "-D", cluster.data().toString(), "-l", directory.resolve("server.log").toString(),
					"-w", "-o", "-p " + cluster.port + " -k " + directory + " -c listen_addresses=127.0.0.1"
							+ " -c fsync=off -c synchronous_commit=off -c max_connections=50",
					"start");
			try (Connection connection = DriverManager.getConnection(cluster.jdbcUrl(cluster.port, "postgres"), USER,
					""); Statement statement = connection.createStatement()) {
				statement.execute("create database " + DATABASE);
			}
		}
		catch (IOException | InterruptedException | SQLException | RuntimeException ex) {
			cluster.close();
			throw ex;
		}
		return cluster;
	}

	int port() {
		return this.port;
	}

	/** A JDBC URL for {@code database} on {@code port} (the server's, or a proxy's). */
	String jdbcUrl(int port, String database) {
		return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?sslmode=disable";
	}

	private Path data() {
		return this.directory.resolve("data");
	}

	private void command(String program, String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(this.asUser);
		command.add(this.bin.resolve(program).toString());
		command.addAll(List.of(arguments));
		run(command);
	}

	private static void run(List<String> command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
			throw new IOException(String.join(" ", command) + " failed:\n" + output);
		}
	}

	private static int freeLoopbackPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	@Override
	public void close() throws InterruptedException {
		try {
			if (Files.isDirectory(data())) {
				command("pg_ctl", "-D", data().toString(), "-m", "fast", "-w", "stop");
			}
		}
		catch (IOException ex) {
			System.err.println("Stopping PostgreSQL: " + ex.getMessage());
		}
		try (Stream<Path> files = Files.walk(this.directory)) {
			for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(file);
			}
		}
		catch (IOException ex) {
			System.err.println("Could not delete " + this.directory + ": " + ex.getMessage());
		}
	}

}
