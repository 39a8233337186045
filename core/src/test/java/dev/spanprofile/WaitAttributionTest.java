package dev.spanprofile;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.JfrWaitEngine;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With waits on (the starter's default), a request that waits gets each wait as one
 * sample of its exact length, under the waiting code, with a leaf that says what it
 * waited on: a socket read by its peer, a monitor by its class, a park, a sleep, a
 * collector's pause. Real async-profiler CPU sampling, real Flight Recorder wait events,
 * real waits.
 */
class WaitAttributionTest {

	private static final Duration THRESHOLD = Duration.ofMillis(10);

	/**
	 * How long the slow server takes to answer, a held monitor is held, a pool stays
	 * empty, a sleep lasts.
	 */
	private static final long WAIT_MILLIS = 400;

	static volatile Object escape;

	@Test
	void eachKindOfWaitIsRecordedWithItsLengthUnderTheWaitingCodeAndWhatItWaitedOn() throws Exception {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10),
				Path.of(System.getProperty("java.io.tmpdir")), null, null, SamplerSettings.DEFAULT_ALLOC_INTERVAL,
				SamplerSettings.DEFAULT_LOCK_THRESHOLD, THRESHOLD);
		try (ProfilingHarness harness = new ProfilingHarness(sampler, true, 1000, EngineChoice.ASYNC_PROFILER,
				Duration.ofMillis(200), Function.identity());
				ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			Thread collector = Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter((thread) -> thread.getName().equals(JfrWaitEngine.COLLECTOR_THREAD))
				.findFirst()
				.orElseThrow();
			harness.keepSampleTimes(SampleKind.WAIT, collector);
			Thread answering = slowServer(server);
			Map<String, Long> injected = new HashMap<>();
			Map<String, String> spans = new HashMap<>();

			spans.put("socket", inSpan(harness, "socket", injected, () -> {
				try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
					OutputStream out = socket.getOutputStream();
					InputStream in = socket.getInputStream();
					out.write(1);
					out.flush();
					return timed(() -> in.read());
				}
			}));
			spans.put("sleep", inSpan(harness, "sleep", injected, () -> timed(() -> Thread.sleep(WAIT_MILLIS))));
			Inventory inventory = new Inventory();
			spans.put("monitor", inSpan(harness, "monitor", injected, () -> {
				CountDownLatch held = new CountDownLatch(1);
				Thread holder = new Thread(() -> inventory.hold(held), "holder");
				holder.start();
				held.await();
				long waited = timed(inventory::enter);
				holder.join();
				return waited;
			}));
			Semaphore pool = new Semaphore(0);
			spans.put("pool", inSpan(harness, "pool", injected, () -> {
				Thread returning = new Thread(() -> {
					sleepQuietly(WAIT_MILLIS);
					pool.release();
				}, "returning");
				returning.start();
				long waited = timed(pool::acquire);
				returning.join();
				return waited;
			}));
			// Enough live objects for a full collection to take far longer than the
			// threshold, made before the span so that the collections their allocation
			// causes are not in it.
			Object[] live = new Object[2_000_000];
			for (int i = 0; i < live.length; i++) {
				live[i] = new int[] { i };
			}
			// The pause is the JVM's own collection time, not the call's: the call also
			// waits for every thread to reach the safepoint and for the VM's thread to
			// run the collection, which on a loaded two-core machine is a tenth of it.
			long[] called = new long[1];
			spans.put("gc", inSpan(harness, "gc", injected, () -> {
				long collecting = collectionMillis();
				called[0] = timed(System::gc);
				return Duration.ofMillis(collectionMillis() - collecting).toNanos();
			}));
			escape = live;
			answering.join();
			harness.collect();

			FrameTable frames = harness.profiler.store().frames();
			// The peer as the application named it: the loopback address's name. The
			// read's own frames are in the stack (and the sleep's) on JDK 17; JDK 25
			// records both events after the call returned, so their stacks end in the
			// code that called.
			String peer = InetAddress.getLoopbackAddress().getHostName() + ":" + server.getLocalPort();
			assertWaited(harness, frames, spans.get("socket"), WaitKind.SOCKET_READ, peer,
					"WaitAttributionTest.lambda$", injected.get("socket"));
			assertWaited(harness, frames, spans.get("sleep"), WaitKind.SLEEP, null, "WaitAttributionTest.lambda$",
					injected.get("sleep"));
			assertWaited(harness, frames, spans.get("monitor"), WaitKind.MONITOR_ENTER, Inventory.class.getName(),
					"Inventory.enter", injected.get("monitor"));
			assertWaited(harness, frames, spans.get("pool"), WaitKind.PARK, null, "Semaphore.acquire",
					injected.get("pool"));
			// The collector's own waits between its cycles (about a hundred parks of 50
			// ms here) are never delivered.
			assertThat(harness.sampleTimes()).as("waits of the collector's thread").isEmpty();
			// The pause has no stack of its own: the leaf is the whole stack.
			System.out.printf("System.gc() took %.1f ms, the collectors counted %.1f ms%n", called[0] / 1e6,
					injected.get("gc") / 1e6);
			assertThat(injected.get("gc")).as("collection time within the call").isLessThanOrEqualTo(called[0]);
			assertWaited(harness, frames, spans.get("gc"), WaitKind.GC_PAUSE, null, null, injected.get("gc"));
		}
	}

	/**
	 * All of the span's waits are the injected one, within 10 % of its length as the test
	 * timed it (a pause: as the collectors counted it), in one sample whose leaf names it
	 * and whose stack holds the waiting code.
	 */
	private static void assertWaited(ProfilingHarness harness, FrameTable frames, String spanId, WaitKind kind,
			String detail, String waitingCode, long injectedNanos) {
		SpanRecord record = harness.record(spanId);
		StackTree waits = record.ownSamples(SampleKind.WAIT);
		Map<String, Long> byLeaf = new HashMap<>();
		Map<String, Boolean> underCode = new HashMap<>();
		Map<String, String> stacks = new HashMap<>();
		waits.visit((path, depth, total, self) -> {
			if (self > 0) {
				int leaf = path[depth - 1];
				assertThat(frames.kind(leaf)).as("leaf of a wait sample").isEqualTo(FrameKind.WAIT);
				String name = frames.name(leaf);
				byLeaf.merge(name, self, Long::sum);
				boolean found = waitingCode == null;
				StringBuilder stack = new StringBuilder();
				for (int i = 0; i < depth - 1; i++) {
					found |= frames.name(path[i]).contains(waitingCode);
					stack.append(frames.name(path[i])).append(';');
				}
				stacks.put(name, stack.toString());
				underCode.merge(name, found, Boolean::logicalOr);
			}
		});
		System.out.printf("%s waits: %s (injected %.1f ms)%n", record.name(), byLeaf, injectedNanos / 1e6);
		String expectedLeaf = (detail != null) ? kind.frameName(detail) : null;
		long ofKind = 0;
		for (Map.Entry<String, Long> leaf : byLeaf.entrySet()) {
			if (WaitKind.ofFrameName(leaf.getKey()) == kind
					&& (expectedLeaf == null || expectedLeaf.equals(leaf.getKey()))) {
				ofKind += leaf.getValue();
				assertThat(underCode.get(leaf.getKey()))
					.as("%s under %s: %s", leaf.getKey(), waitingCode, stacks.get(leaf.getKey()))
					.isTrue();
			}
		}
		assertThat((double) ofKind).as("%s nanoseconds waiting in %s (%s) vs injected", kind, record.name(), byLeaf)
			.isBetween(0.9 * injectedNanos, 1.1 * injectedNanos);
	}

	private static String inSpan(ProfilingHarness harness, String name, Map<String, Long> injected, Wait wait)
			throws Exception {
		Span span = harness.tracer.spanBuilder(name).setNoParent().startSpan();
		try (Scope scope = span.makeCurrent()) {
			injected.put(name, wait.run());
		}
		finally {
			span.end();
		}
		return span.getSpanContext().getSpanId();
	}

	private static long collectionMillis() {
		return ManagementFactory.getGarbageCollectorMXBeans()
			.stream()
			.mapToLong(GarbageCollectorMXBean::getCollectionTime)
			.sum();
	}

	private static long timed(Blocking blocking) throws Exception {
		long start = System.nanoTime();
		blocking.run();
		return System.nanoTime() - start;
	}

	private static Thread slowServer(ServerSocket server) {
		Thread thread = new Thread(() -> {
			try (Socket client = server.accept()) {
				client.getInputStream().read();
				sleepQuietly(WAIT_MILLIS);
				client.getOutputStream().write(2);
				client.getOutputStream().flush();
				client.getInputStream().read();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, "slow-server");
		thread.start();
		return thread;
	}

	private static void sleepQuietly(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@FunctionalInterface
	private interface Wait {

		long run() throws Exception;

	}

	@FunctionalInterface
	private interface Blocking {

		void run() throws Exception;

	}

	/** A monitor with a name of its own, as the monitor-enter leaf reports it. */
	static final class Inventory {

		synchronized void hold(CountDownLatch held) {
			held.countDown();
			sleepQuietly(WAIT_MILLIS);
		}

		synchronized void enter() {
		}

	}

}
