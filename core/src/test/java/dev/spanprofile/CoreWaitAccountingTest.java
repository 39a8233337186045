package dev.spanprofile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationTracking;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A request's time on its threads split as the kernel counts it (Linux's per-thread
 * scheduler statistics, read with the CPU clocks where threads enter and leave spans):
 * running, waiting for a core, blocked. Real threads that burn CPU, sleep, and compete
 * for fewer cores than there are threads; each figure is held against the kernel's own
 * counters for the same threads over the same window, read by each thread itself around
 * its request, never against what the wall clock should give, so that a loaded build
 * machine changes the figures but not the verdict.
 */
class CoreWaitAccountingTest {

	static {
		ActivationTracking.install();
	}

	private static final long MS = 1_000_000;

	private static final int CORES = Runtime.getRuntime().availableProcessors();

	@TempDir
	Path temp;

	private SpanProfiler profiler;

	private SdkTracerProvider tracing;

	private Tracer tracer;

	private final AtomicBoolean compete = new AtomicBoolean();

	private final List<Thread> competitors = new ArrayList<>();

	@BeforeEach
	void start() {
		assertThat(System.getProperty("os.name").toLowerCase(Locale.ROOT)).as("the kernel's figures are Linux's")
			.startsWith("linux");
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		this.profiler = new SpanProfiler(
				new SpanProfilerSettings(sampler, new StoreSettings(1000, Long.MAX_VALUE, false), Duration.ofHours(1)),
				(frames) -> new ScriptedEngine());
		this.tracing = SdkTracerProvider.builder()
			.addSpanProcessor(this.profiler.spanProcessor((span) -> false))
			.build();
		this.tracer = this.tracing.get("test");
		this.profiler.setExactCpuTime(true);
		assertThat(this.profiler.start()).as("%s", this.profiler.status()).isTrue();
	}

	@AfterEach
	void stop() throws InterruptedException {
		this.compete.set(false);
		for (Thread competitor : this.competitors) {
			competitor.join();
		}
		this.profiler.close();
		this.tracing.close();
	}

	@Test
	void aBusyRequestRunsASleepingOneIsBlocked() throws Exception {
		Request busy = new Request("busy", () -> burnFor(200 * MS));
		Request sleeping = new Request("sleeping", () -> {
			for (int i = 0; i < 20; i++) {
				sleep(5);
			}
		});
		runTogether(busy, sleeping);
		this.profiler.collectNow();

		Figures burnt = busy.figures();
		assertThat(burnt.cpu.nanos()).as("busy: CPU, kernel %s", burnt.kernel)
			.isCloseTo(burnt.kernel.cpu, within(bound(burnt.kernel.cpu)));
		assertThat(burnt.cpu.runQueueNanos()).as("busy: waiting for a core, kernel %s", burnt.kernel)
			.isCloseTo(burnt.kernel.runQueue, within(bound(burnt.kernel.runQueue)));
		assertThat(burnt.cpu.blockedNanos()).as("busy: blocked, kernel %s", burnt.kernel)
			.isLessThanOrEqualTo(Math.max(2 * MS, burnt.kernel.blocked() + bound(burnt.kernel.blocked())));

		Figures slept = sleeping.figures();
		assertThat(slept.cpu.blockedNanos()).as("sleeping: blocked, kernel %s", slept.kernel)
			.isCloseTo(slept.kernel.blocked(), within(bound(slept.kernel.blocked())))
			.isGreaterThanOrEqualTo(90 * MS);
		assertThat(slept.cpu.runQueueNanos()).as("sleeping: waiting for a core, kernel %s", slept.kernel)
			.isCloseTo(slept.kernel.runQueue, within(bound(slept.kernel.runQueue)));
		TimeBreakdown breakdown = slept.breakdown();
		assertThat(breakdown.shortWaitNanos()).as("20 sleeps of 5 ms, none recorded: short waits")
			.isEqualTo(slept.cpu.blockedNanos());
	}

	@Test
	void threadsCompetingForFewerCoresWaitForOne() throws Exception {
		int threads = 2 * CORES;
		Request[] requests = new Request[threads];
		for (int i = 0; i < threads; i++) {
			requests[i] = new Request("busy-" + i, () -> burnFor(300 * MS));
		}
		runTogether(requests);
		this.profiler.collectNow();

		long reported = 0;
		long kernel = 0;
		long onThreads = 0;
		long window = 0;
		for (Request request : requests) {
			Figures figures = request.figures();
			reported += figures.cpu.runQueueNanos();
			kernel += figures.kernel.runQueue;
			onThreads += figures.kernel.wall;
			window = Math.max(window, figures.kernel.wall);
			TimeBreakdown breakdown = figures.breakdown();
			assertThat(breakdown.unaccountedNanos())
				.as("%s: unaccounted of %d ns", request.name, breakdown.durationNanos())
				.isLessThanOrEqualTo(breakdown.durationNanos() / 10);
		}
		// More threads wanted to run than there were cores: whatever else ran on the
		// machine, their time runnable but not running adds up to at least what did not
		// fit on the cores, less the edges where they did not all run at once.
		assertThat(kernel).as("the kernel's own run-queue wait of %d busy threads on %d cores", threads, CORES)
			.isGreaterThanOrEqualTo((onThreads - (long) CORES * window) / 2);
		assertThat(reported).as("waiting for a core, all requests, kernel %d ns", kernel)
			.isCloseTo(kernel, within(kernel / 5));
	}

	/**
	 * One thread: CPU, 5 ms sleeps (under any recording threshold), and other threads
	 * competing for the cores. Its breakdown adds up to its duration with at most a tenth
	 * unaccounted.
	 */
	@Test
	void aRequestMixingCpuShortSleepsAndContentionAddsUp() throws Exception {
		compete(2 * CORES);
		Request mixed = new Request("mixed", () -> {
			for (int i = 0; i < 20; i++) {
				burnFor(5 * MS);
				sleep(5);
			}
		});
		runTogether(mixed);
		this.profiler.collectNow();

		Figures figures = mixed.figures();
		TimeBreakdown breakdown = figures.breakdown();
		long parts = breakdown.cpuNanos() + breakdown.coreWaitNanos() + breakdown.shortWaitNanos()
				+ breakdown.unaccountedNanos() - breakdown.overlapNanos();
		assertThat(parts).as("the parts add up to the duration").isEqualTo(breakdown.durationNanos());
		assertThat(breakdown.unaccountedNanos()).as("unaccounted, %s", breakdown.summary(Double::toString))
			.isLessThanOrEqualTo(breakdown.durationNanos() / 10);
		assertThat(breakdown.shortWaitNanos()).as("20 sleeps of 5 ms, kernel %s", figures.kernel)
			.isGreaterThanOrEqualTo(90 * MS)
			.isCloseTo(figures.kernel.blocked(), within(bound(figures.kernel.blocked())));
		assertThat(breakdown.coreWaitNanos()).as("waiting for a core, kernel %s", figures.kernel)
			.isCloseTo(figures.kernel.runQueue, within(bound(figures.kernel.runQueue)));
		assertThat(breakdown.summary(Double::toString)).contains("waiting for a core ", "short waits ");
	}

	/**
	 * 20 % of the kernel's figure, or 2 ms for a figure too small for a share to hold.
	 */
	private static long bound(long kernelNanos) {
		return Math.max(2 * MS, kernelNanos / 5);
	}

	private void runTogether(Request... requests) throws Exception {
		CountDownLatch ready = new CountDownLatch(requests.length);
		CountDownLatch go = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (Request request : requests) {
			Thread thread = new Thread(() -> {
				ready.countDown();
				await(go);
				request.run();
			}, request.name);
			thread.start();
			threads.add(thread);
		}
		ready.await();
		go.countDown();
		for (Thread thread : threads) {
			thread.join();
		}
		for (Request request : requests) {
			if (request.failure != null) {
				throw request.failure;
			}
		}
	}

	/** Busy threads in no request, until the test ends. */
	private void compete(int threads) {
		this.compete.set(true);
		for (int i = 0; i < threads; i++) {
			Thread competitor = new Thread(() -> {
				while (this.compete.get()) {
					burnFor(MS);
				}
			}, "competitor-" + i);
			competitor.start();
			this.competitors.add(competitor);
		}
	}

	private static long sink;

	/** Run (or wait for a core) until {@code nanos} of this thread's wall time passed. */
	private static void burnFor(long nanos) {
		long end = System.nanoTime() + nanos;
		long x = 0;
		while (System.nanoTime() < end) {
			for (int i = 0; i < 1000; i++) {
				x += i * (long) i;
			}
		}
		sink += x;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The kernel's counters of the calling thread, read the plain way. */
	private static Kernel kernelNow() {
		try {
			String[] fields = Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split(" ");
			return new Kernel(Long.parseLong(fields[0]), Long.parseLong(fields[1]), System.nanoTime());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** A request on its own thread, with the kernel's counters read around it. */
	private final class Request {

		final String name;

		final Runnable work;

		String spanId;

		Kernel kernel;

		Exception failure;

		Request(String name, Runnable work) {
			this.name = name;
			this.work = work;
		}

		void run() {
			try {
				// The counters read outside the span: what a request's thread does between
				// its span's start and its scope (here, nothing) is unaccounted.
				Kernel before = kernelNow();
				Span span = CoreWaitAccountingTest.this.tracer.spanBuilder(this.name).setNoParent().startSpan();
				try (Scope scope = span.makeCurrent()) {
					this.work.run();
				}
				span.end();
				Kernel after = kernelNow();
				this.spanId = span.getSpanContext().getSpanId();
				this.kernel = after.since(before);
			}
			catch (RuntimeException ex) {
				this.failure = ex;
			}
		}

		Figures figures() {
			SpanRecord record = CoreWaitAccountingTest.this.profiler.store().find(this.spanId);
			assertThat(record).as(this.name).isNotNull();
			SpanCpuTime cpu = SpanCpuTime.of(record, 0, 0, 10 * MS);
			assertThat(cpu.measured()).as("%s measured", this.name).isTrue();
			assertThat(cpu.runQueueNanos()).as("%s: the kernel's figures read", this.name).isNotNegative();
			return new Figures(record, cpu, this.kernel);
		}

	}

	private record Figures(SpanRecord record, SpanCpuTime cpu, Kernel kernel) {

		/** Its breakdown, with waits recorded and none of them long enough to be. */
		TimeBreakdown breakdown() {
			return TimeBreakdown.of(this.record.durationNanos(this.record.endEpochNanos()), this.cpu.nanos(), true, 0,
					this.cpu.runQueueNanos(), this.cpu.blockedNanos(), new StackTree(), null);
		}

	}

	/** The kernel's counters: on-CPU and run-queue wait, and the wall clock. */
	private record Kernel(long cpu, long runQueue, long wall) {

		Kernel since(Kernel before) {
			return new Kernel(this.cpu - before.cpu, this.runQueue - before.runQueue, this.wall - before.wall);
		}

		long blocked() {
			return Math.max(0, this.wall - this.cpu - this.runQueue);
		}

	}

}
