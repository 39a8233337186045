package dev.spanprofile;

import java.util.ArrayList;
import java.util.List;

/**
 * Threads that keep the cores busy in no span, so that a thread under test waits for a
 * core: what the kernel counts as run-queue time. Shared by the tests that bound the
 * reported wait by the kernel's own counters.
 */
public final class BusyCores {

	private static final long MS = 1_000_000;

	private static long sink;

	private volatile boolean running;

	private final List<Thread> competitors = new ArrayList<>();

	/** Starts {@code threads} busy threads, until {@link #stop}. */
	public void start(int threads) {
		this.running = true;
		for (int i = 0; i < threads; i++) {
			Thread competitor = new Thread(() -> {
				while (this.running) {
					burnFor(MS);
				}
			}, "competitor-" + i);
			competitor.start();
			this.competitors.add(competitor);
		}
	}

	/** Stops the busy threads and waits for them to end. */
	public void stop() throws InterruptedException {
		this.running = false;
		for (Thread competitor : this.competitors) {
			competitor.join();
		}
		this.competitors.clear();
	}

	/**
	 * Run (or wait for a core) until {@code nanos} of the calling thread's wall time
	 * passed.
	 */
	public static void burnFor(long nanos) {
		long end = System.nanoTime() + nanos;
		long x = 0;
		while (System.nanoTime() < end) {
			for (int i = 0; i < 1000; i++) {
				x += i * (long) i;
			}
		}
		sink += x;
	}

}
