package dev.spanprofile.actuate;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.opentelemetry.context.Context;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Requests that allocate or wait for locks in methods with recognisable names, in pairs
 * that meet before they start so that their work really overlaps: on two request threads,
 * or interleaved on one shared pool thread.
 */
@RestController
class ContentionController implements DisposableBean {

	/** Bytes of one {@code byte[1024]} or {@code long[128]}, header included. */
	static final int ARRAY_BYTES = 1040;

	static volatile Object escape;

	/**
	 * Two requests of a pair wait here for each other; it resets itself for the next
	 * pair.
	 */
	private final CyclicBarrier pair = new CyclicBarrier(2);

	/** One thread shared by all requests that hand work to the pool. */
	private final ExecutorService pool = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "shared-alloc-pool");
		thread.setDaemon(true);
		return thread;
	});

	/** Whose slice ran last on the pool thread; only that thread reads and writes it. */
	private Object lastSliceOwner;

	private final Object monitor = new Object();

	private final ReentrantLock reentrantLock = new ReentrantLock();

	@GetMapping("/together/alpha")
	String togetherAlpha(@RequestParam long megabytes) throws Exception {
		meet();
		long start = System.nanoTime();
		recognisablyAllocatingAlpha(megabytes << 20);
		return start + " " + System.nanoTime();
	}

	@GetMapping("/together/beta")
	String togetherBeta(@RequestParam long megabytes) throws Exception {
		meet();
		long start = System.nanoTime();
		recognisablyAllocatingBeta(megabytes << 20);
		return start + " " + System.nanoTime();
	}

	/**
	 * Allocates {@code megabytes} on the shared pool thread in {@code slices} tasks, in
	 * rounds with the other request of its pair, each carrying this request's context;
	 * answers how many of its slices ran right after another request's.
	 */
	@GetMapping("/pool/alpha")
	String poolAlpha(@RequestParam long megabytes, @RequestParam int slices) throws Exception {
		return Integer.toString(onPool(megabytes, slices, ContentionController::recognisablyAllocatingAlpha));
	}

	@GetMapping("/pool/beta")
	String poolBeta(@RequestParam long megabytes, @RequestParam int slices) throws Exception {
		return Integer.toString(onPool(megabytes, slices, ContentionController::recognisablyAllocatingBeta));
	}

	private int onPool(long megabytes, int slices, Allocation allocation) throws Exception {
		Object owner = new Object();
		int[] afterOther = new int[1];
		long perSlice = (megabytes << 20) / slices;
		for (int i = 0; i < slices; i++) {
			// Both requests hand over one slice per round and wait for it before the next
			// round: every round runs one slice of each on the pool thread, so the thread
			// switches between the two requests at least once a round.
			meet();
			Future<?> slice = this.pool.submit(Context.current().wrap(() -> {
				if (this.lastSliceOwner != null && this.lastSliceOwner != owner) {
					afterOther[0]++;
				}
				this.lastSliceOwner = owner;
				allocation.allocate(perSlice);
			}));
			slice.get(30, TimeUnit.SECONDS);
		}
		// The pool thread wrote afterOther; get() above orders that write before this
		// read.
		return afterOther[0];
	}

	/**
	 * Blocks on a monitor that a thread outside any span holds for {@code holdMillis};
	 * answers the nanoseconds this request waited to enter it, measured around the
	 * attempt.
	 */
	@GetMapping("/locks/monitor")
	String blockedOnMonitor(@RequestParam long holdMillis) throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		Thread holder = new Thread(() -> {
			synchronized (this.monitor) {
				held.countDown();
				sleep(holdMillis);
			}
		}, "monitor-holder");
		holder.start();
		held.await();
		long waited = recognisablyBlockedOnMonitor();
		holder.join();
		return Long.toString(waited);
	}

	/**
	 * Like {@link #blockedOnMonitor} with a {@link ReentrantLock}, on which a waiting
	 * thread parks.
	 */
	@GetMapping("/locks/reentrant")
	String parkedOnReentrantLock(@RequestParam long holdMillis) throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		Thread holder = new Thread(() -> {
			this.reentrantLock.lock();
			try {
				held.countDown();
				sleep(holdMillis);
			}
			finally {
				this.reentrantLock.unlock();
			}
		}, "reentrant-holder");
		holder.start();
		held.await();
		long waited = recognisablyParkedOnReentrantLock();
		holder.join();
		return Long.toString(waited);
	}

	/**
	 * Allocates in {@link #recognisablyAllocatingAlpha}, then waits for the monitor like
	 * {@link #blockedOnMonitor}.
	 */
	@GetMapping("/allocate-and-wait")
	String allocateAndWait(@RequestParam long megabytes, @RequestParam long holdMillis) throws Exception {
		recognisablyAllocatingAlpha(megabytes << 20);
		return blockedOnMonitor(holdMillis);
	}

	long recognisablyBlockedOnMonitor() {
		long start = System.nanoTime();
		synchronized (this.monitor) {
			return System.nanoTime() - start;
		}
	}

	long recognisablyParkedOnReentrantLock() {
		long start = System.nanoTime();
		this.reentrantLock.lock();
		try {
			return System.nanoTime() - start;
		}
		finally {
			this.reentrantLock.unlock();
		}
	}

	static void recognisablyAllocatingAlpha(long bytes) {
		for (long done = 0; done < bytes; done += ARRAY_BYTES) {
			escape = new byte[1024];
		}
	}

	static void recognisablyAllocatingBeta(long bytes) {
		// long[128] is as big as alpha's byte[1024], but different code, so neither can
		// stand in for the other.
		for (long done = 0; done < bytes; done += ARRAY_BYTES) {
			escape = new long[128];
		}
	}

	private void meet() throws Exception {
		this.pair.await(20, TimeUnit.SECONDS);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void destroy() {
		this.pool.shutdownNow();
	}

	@FunctionalInterface
	private interface Allocation {

		void allocate(long bytes);

	}

}
