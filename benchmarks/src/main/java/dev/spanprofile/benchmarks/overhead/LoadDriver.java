package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Load over a fixed number of connections: closed-loop (each connection sends its next
 * request as soon as the previous answer arrived) or paced at a fixed rate. Every
 * response's latency is logged; {@link #measure} reports one window of them.
 * <p>
 * Closed-loop load keeps the machine saturated, which throughput needs; its latencies are
 * mostly the wait for a core, so that a tail percentile moves by a multiple of any CPU
 * added. Paced load leaves cores idle between requests, as a service below capacity does:
 * there a tail percentile says what a request itself takes longer.
 */
final class LoadDriver implements AutoCloseable {

	private final List<Client> clients = new ArrayList<>();

	private volatile boolean running = true;

	private volatile boolean headerSent = true;

	LoadDriver(int port, String path, int connections) {
		this(port, path, connections, 0);
	}

	/**
	 * @param requestsPerSecond {@code 0} for closed-loop load; otherwise what the
	 * connections send together each second, on a fixed schedule, each latency counted
	 * from when its request was due (an answer that comes late delays the requests due
	 * after it on its connection, and they count that delay)
	 */
	LoadDriver(int port, String path, int connections, double requestsPerSecond) {
		this(port, path, connections, requestsPerSecond, "");
	}

	/**
	 * The same, every request carrying {@code header} ({@code Name: value}) unless it is
	 * empty or {@link #sendHeader} turned it off.
	 */
	LoadDriver(int port, String path, int connections, double requestsPerSecond, String header) {
		long periodNanos = (requestsPerSecond > 0) ? (long) (1e9 * connections / requestsPerSecond) : 0;
		for (int i = 0; i < connections; i++) {
			// Staggered, so that the connections' requests do not come in pairs.
			Client client = new Client(port, path, header, "load-" + i, periodNanos, periodNanos * i / connections);
			this.clients.add(client);
			client.start();
		}
	}

	/** Whether the requests sent from now on carry the driver's header. */
	void sendHeader(boolean sent) {
		this.headerSent = sent;
	}

	/**
	 * Throughput and latencies of the responses that arrive in the next {@code length}.
	 */
	Window measure(Duration length) throws InterruptedException {
		return measureTogether(length, this).get(0);
	}

	/**
	 * The same for several drivers over one and the same stretch of time, one window per
	 * driver, in order.
	 */
	static List<Window> measureTogether(Duration length, LoadDriver... drivers) throws InterruptedException {
		long start = System.nanoTime();
		for (LoadDriver driver : drivers) {
			for (Client client : driver.clients) {
				client.log.drain();
			}
		}
		Thread.sleep(length.toMillis());
		long elapsed = System.nanoTime() - start;
		List<Window> windows = new ArrayList<>();
		for (LoadDriver driver : drivers) {
			windows.add(driver.collect(elapsed));
		}
		return windows;
	}

	private Window collect(long elapsedNanos) {
		LatencyLog all = new LatencyLog();
		long errors = 0;
		for (Client client : this.clients) {
			LatencyLog.Drained drained = client.log.drain();
			all.addAll(drained.latencies(), drained.count());
			errors += drained.errors();
		}
		long[] latencies = Arrays.copyOf(all.latencies, all.count);
		Arrays.sort(latencies);
		return new Window(elapsedNanos, latencies, errors);
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		for (Client client : this.clients) {
			client.interrupt();
			client.join(15_000);
		}
	}

	private final class Client extends Thread {

		private final int port;

		private final String path;

		private final String header;

		private final LatencyLog log = new LatencyLog();

		/** Between two requests due on this connection; 0 for closed-loop load. */
		private final long periodNanos;

		private long dueNanos;

		Client(int port, String path, String header, String name, long periodNanos, long offsetNanos) {
			super(name);
			setDaemon(true);
			this.port = port;
			this.path = path;
			this.header = header;
			this.periodNanos = periodNanos;
			this.dueNanos = System.nanoTime() + offsetNanos;
		}

		@Override
		public void run() {
			HttpConnection connection = null;
			while (LoadDriver.this.running) {
				try {
					if (connection == null) {
						connection = new HttpConnection(this.port, this.path, this.header);
					}
					long start = nextStart();
					int status = connection.exchange(LoadDriver.this.headerSent);
					long latency = System.nanoTime() - start;
					this.log.add(latency, status == 200);
					if (connection.isClosedByServer()) {
						connection.close();
						connection = null;
					}
				}
				catch (IOException | RuntimeException ex) {
					this.log.add(0, false);
					if (connection != null) {
						connection.close();
						connection = null;
					}
					pause();
					// A schedule missed while the application could not be reached (still
					// starting) is not sent all at once when it can.
					this.dueNanos = Math.max(this.dueNanos, System.nanoTime());
				}
			}
			if (connection != null) {
				connection.close();
			}
		}

		/**
		 * When the next request counts from: now for closed-loop load, else when it is
		 * due, after waiting for that moment if it is still to come.
		 */
		private long nextStart() {
			if (this.periodNanos == 0) {
				return System.nanoTime();
			}
			long due = this.dueNanos;
			this.dueNanos += this.periodNanos;
			for (long early = due - System.nanoTime(); early > 0; early = due - System.nanoTime()) {
				LockSupport.parkNanos(early);
			}
			return due;
		}

		private void pause() {
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	/**
	 * One client's latencies since the last drain; guarded by its own lock, contended
	 * only at a drain.
	 */
	private static final class LatencyLog {

		private long[] latencies = new long[1024];

		private int count;

		private long errors;

		synchronized void add(long latency, boolean ok) {
			if (!ok) {
				this.errors++;
				return;
			}
			if (this.count == this.latencies.length) {
				this.latencies = Arrays.copyOf(this.latencies, this.count * 2);
			}
			this.latencies[this.count++] = latency;
		}

		synchronized Drained drain() {
			Drained drained = new Drained(this.latencies, this.count, this.errors);
			this.latencies = new long[Math.max(1024, this.count)];
			this.count = 0;
			this.errors = 0;
			return drained;
		}

		void addAll(long[] more, int moreCount) {
			if (this.count + moreCount > this.latencies.length) {
				this.latencies = Arrays.copyOf(this.latencies, Math.max(this.count + moreCount, this.count * 2));
			}
			System.arraycopy(more, 0, this.latencies, this.count, moreCount);
			this.count += moreCount;
		}

		record Drained(long[] latencies, int count, long errors) {
		}

	}

	/**
	 * @param elapsedNanos length of the window
	 * @param latencies latencies of the successful responses in it, sorted
	 * @param errors failed requests in it
	 */
	record Window(long elapsedNanos, long[] latencies, long errors) {

		long requests() {
			return this.latencies.length;
		}

		double throughput() {
			return this.latencies.length / (this.elapsedNanos / 1e9);
		}

		/** Latency at {@code quantile} (0.5, 0.99) in milliseconds. */
		double latencyMillis(double quantile) {
			if (this.latencies.length == 0) {
				return Double.NaN;
			}
			int index = (int) Math.min(this.latencies.length - 1, Math.ceil(quantile * this.latencies.length) - 1);
			return this.latencies[Math.max(0, index)] / 1e6;
		}

	}

}
