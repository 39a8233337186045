package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Closed-loop load: a fixed number of connections, each sending its next request as soon
 * as the previous answer arrived. Every response's latency is logged; {@link #measure}
 * reports one window of them.
 */
final class LoadDriver implements AutoCloseable {

	private final List<Client> clients = new ArrayList<>();

	private volatile boolean running = true;

	LoadDriver(int port, String path, int connections) {
		for (int i = 0; i < connections; i++) {
			Client client = new Client(port, path, "load-" + i);
			this.clients.add(client);
			client.start();
		}
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

		private final LatencyLog log = new LatencyLog();

		Client(int port, String path, String name) {
			super(name);
			setDaemon(true);
			this.port = port;
			this.path = path;
		}

		@Override
		public void run() {
			HttpConnection connection = null;
			while (LoadDriver.this.running) {
				try {
					if (connection == null) {
						connection = new HttpConnection(this.port, this.path);
					}
					long start = System.nanoTime();
					int status = connection.exchange();
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
				}
			}
			if (connection != null) {
				connection.close();
			}
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
