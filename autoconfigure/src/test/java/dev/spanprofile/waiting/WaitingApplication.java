package dev.spanprofile.waiting;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real Spring MVC application whose requests are slow the way real services are: each
 * endpoint waits in one real way for as long as asked (a downstream service's answer on a
 * socket, a {@code synchronized} block another thread holds, a connection pool whose one
 * connection is taken, a sleep) and answers the nanoseconds it measured around that wait.
 * Outside {@code dev.spanprofile.actuate}, so that the other test applications do not
 * scan it.
 */
@SpringBootApplication
public class WaitingApplication {

	@Bean(destroyMethod = "close")
	SlowPeer slowPeer() throws IOException {
		return new SlowPeer();
	}

	/**
	 * Opens the pool at startup, as an application that checks its database does, rather
	 * than in a request.
	 */
	@Bean
	ApplicationRunner openPool(DataSource dataSource) {
		return (arguments) -> {
			try (Connection connection = dataSource.getConnection()) {
				connection.createStatement().execute("select 1");
			}
		};
	}

	/**
	 * The class a contended monitor is an instance of, as the wait's leaf frame names it.
	 */
	public static final class Inventory {

	}

	@RestController
	static class WaitingController {

		private final SlowPeer peer;

		private final DataSource dataSource;

		private final Inventory inventory = new Inventory();

		/**
		 * Some tens of megabytes of small objects for full collections to mark and move,
		 * allocated at start-up: the young collections their allocation brings about
		 * would otherwise fall inside the request.
		 */
		private final Object[] retained = retainedGraph();

		WaitingController(SlowPeer peer, DataSource dataSource) {
			this.peer = peer;
			this.dataSource = dataSource;
		}

		@GetMapping("/waits/socket")
		String socket(@RequestParam long millis) throws IOException {
			return Long.toString(this.peer.ask(millis));
		}

		/**
		 * A downstream quote service: mostly quick, sometimes slow (the span-name views
		 * compare the two).
		 */
		@GetMapping("/quotes")
		String quotes(@RequestParam long millis) throws IOException {
			return Long.toString(this.peer.ask(millis));
		}

		@GetMapping("/waits/monitor")
		String monitor(@RequestParam long millis) throws Exception {
			return Long.toString(whileHeldElsewhere(millis, (held) -> {
				synchronized (this.inventory) {
					held.countDown();
					Thread.sleep(millis);
				}
			}, () -> {
				long start = System.nanoTime();
				synchronized (this.inventory) {
					return System.nanoTime() - start;
				}
			}));
		}

		@GetMapping("/waits/pool")
		String pool(@RequestParam long millis) throws Exception {
			return Long.toString(whileHeldElsewhere(millis, (held) -> {
				try (Connection taken = this.dataSource.getConnection()) {
					held.countDown();
					Thread.sleep(millis);
				}
			}, () -> {
				long start = System.nanoTime();
				try (Connection connection = this.dataSource.getConnection()) {
					long waited = System.nanoTime() - start;
					connection.createStatement().execute("select 1");
					return waited;
				}
			}));
		}

		@GetMapping("/waits/sleep")
		String sleep(@RequestParam long millis) throws InterruptedException {
			long start = System.nanoTime();
			Thread.sleep(millis);
			return Long.toString(System.nanoTime() - start);
		}

		/**
		 * Full collections of a heap that holds {@link #retained}, each a stop-the-world
		 * pause of well over the waits' threshold, until {@code millis} have gone by: the
		 * time spent in them.
		 */
		@GetMapping("/waits/gc")
		String gc(@RequestParam long millis) {
			long paused = 0;
			while (paused < millis * 1_000_000) {
				long start = System.nanoTime();
				System.gc();
				paused += System.nanoTime() - start;
			}
			return Long.toString(paused);
		}

		/** CPU work alone: the thread's own CPU time spent, in nanoseconds. */
		@GetMapping("/work")
		String work(@RequestParam long millis) {
			long start = cpuNanos();
			long sum = 0;
			while (cpuNanos() - start < millis * 1_000_000) {
				for (int i = 0; i < 10_000; i++) {
					sum += Long.numberOfTrailingZeros(sum + i) ^ i;
				}
			}
			return (sum != 42) ? Long.toString(cpuNanos() - start) : "";
		}

		private static long cpuNanos() {
			return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
		}

		private static Object[] retainedGraph() {
			Object[] nodes = new Object[1 << 20];
			for (int i = 0; i < nodes.length; i++) {
				nodes[i] = new Object[] { (i > 0) ? nodes[i - 1] : null, Integer.valueOf(i) };
			}
			return nodes;
		}

		/**
		 * Runs {@code holder} on a thread outside any span until it says it holds what
		 * the request needs, then the request's {@code wait}: the request waits for as
		 * long as the holder keeps it.
		 */
		private static long whileHeldElsewhere(long millis, Holder holder, Wait wait) throws Exception {
			CountDownLatch held = new CountDownLatch(1);
			Thread thread = new Thread(() -> {
				try {
					holder.hold(held);
				}
				catch (Exception ex) {
					held.countDown();
					throw new IllegalStateException(ex);
				}
			}, "holder");
			thread.start();
			if (!held.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("The holder did not take what the request needs");
			}
			long waited = wait.waitFor();
			thread.join(millis + 10_000);
			return waited;
		}

	}

	@FunctionalInterface
	interface Holder {

		void hold(CountDownLatch held) throws InterruptedException, SQLException;

	}

	@FunctionalInterface
	interface Wait {

		long waitFor() throws SQLException;

	}

}
