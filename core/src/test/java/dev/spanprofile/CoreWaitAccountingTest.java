package dev.spanprofile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import dev.spanprofile.aggregate.RequestsBreakdown;
import dev.spanprofile.profile.SampleKind;
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

	/**
	 * What 20 sleeps of 5 ms leave blocked at least. Not the full 100 ms: a sleep's
	 * deadline is set before the thread leaves its core, and it is runnable (waiting for
	 * a core, or running) from the moment the deadline passes, so each sleep can lose
	 * some of its 5 ms to the CPU and run queue around it (seen 1.4 ms over the 20 on a
	 * loaded machine); half a millisecond a sleep is several times that.
	 */
	private static final long TWENTY_SLEEPS_BLOCKED = 20 * (5 * MS - MS / 2);

	private static final int CORES = Runtime.getRuntime().availableProcessors();

	@TempDir
	Path temp;

	private SpanProfiler profiler;

	private SdkTracerProvider tracing;

	private Tracer tracer;

	private final BusyCores busyCores = new BusyCores();

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
		this.busyCores.stop();
		this.profiler.close();
		this.tracing.close();
	}

	@Test
	void aBusyRequestRunsASleepingOneIsBlocked() throws Exception {
		Request busy = new Request("busy", () -> BusyCores.burnFor(200 * MS));
		Request sleeping = new Request("sleeping", () -> {
			for (int i = 0; i < 20; i++) {
				sleep(5);
			}
		});
		runTogether(busy, sleeping);
		this.profiler.collectNow();

		Figures burnt = busy.figures();
		burnt.assertWithinTheKernels();
		assertThat(burnt.cpu.blockedNanos()).as("busy: blocked, against its CPU").isLessThan(burnt.cpu.nanos());
		Figures slept = sleeping.figures();
		slept.assertWithinTheKernels();
		assertThat(slept.cpu.blockedNanos()).as("sleeping: 20 sleeps of 5 ms")
			.isGreaterThanOrEqualTo(TWENTY_SLEEPS_BLOCKED);
		assertThat(slept.breakdown().shortWaitNanos()).as("none recorded: short waits")
			.isEqualTo(slept.cpu.blockedNanos());
	}

	@Test
	void threadsCompetingForFewerCoresWaitForOne() throws Exception {
		int threads = 2 * CORES;
		Request[] requests = new Request[threads];
		for (int i = 0; i < threads; i++) {
			requests[i] = new Request("busy-" + i, () -> BusyCores.burnFor(300 * MS));
		}
		runTogether(requests);
		this.profiler.collectNow();

		long kernelRunQueue = 0;
		long kernelBlocked = 0;
		long onThreads = 0;
		long from = Long.MAX_VALUE;
		long to = Long.MIN_VALUE;
		for (Request request : requests) {
			Figures figures = request.figures();
			figures.assertWithinTheKernels();
			kernelRunQueue += figures.inner.runQueue;
			kernelBlocked += figures.inner.blocked();
			onThreads += figures.inner.wall;
			from = Math.min(from, request.innerFrom);
			to = Math.max(to, request.innerFrom + figures.inner.wall);
		}
		// More threads wanted to run than there were cores: whatever else ran on the
		// machine, their time runnable but not running adds up to at least what did not
		// fit on the cores.
		assertThat(kernelRunQueue).as("the kernel's run-queue wait of %d busy threads on %d cores", threads, CORES)
			.isGreaterThanOrEqualTo(onThreads - (long) CORES * (to - from) - kernelBlocked)
			.isPositive();
	}

	/**
	 * One thread: CPU, 5 ms sleeps (under any recording threshold), and other threads
	 * competing for the cores. Its breakdown adds up to its duration with at most a tenth
	 * unaccounted.
	 */
	@Test
	void aRequestMixingCpuShortSleepsAndContentionAddsUp() throws Exception {
		this.busyCores.start(2 * CORES);
		Request mixed = new Request("mixed", () -> {
			for (int i = 0; i < 20; i++) {
				BusyCores.burnFor(5 * MS);
				sleep(5);
			}
		});
		runTogether(mixed);
		this.profiler.collectNow();

		Figures figures = mixed.figures();
		figures.assertWithinTheKernels();
		TimeBreakdown breakdown = figures.breakdown();
		long parts = breakdown.cpuNanos() + breakdown.coreWaitNanos() + breakdown.shortWaitNanos()
				+ breakdown.unaccountedNanos() - breakdown.overlapNanos();
		assertThat(parts).as("the parts add up to the duration").isEqualTo(breakdown.durationNanos());
		assertThat(breakdown.unaccountedNanos()).as("unaccounted, %s", breakdown.summary(Double::toString))
			.isLessThanOrEqualTo(breakdown.durationNanos() / 10);
		assertThat(breakdown.shortWaitNanos()).as("20 sleeps of 5 ms").isGreaterThanOrEqualTo(TWENTY_SLEEPS_BLOCKED);
		assertThat(breakdown.coreWaitNanos()).as("waiting for a core, competing with %d threads", 2 * CORES)
			.isPositive();
		assertThat(breakdown.summary(Double::toString)).contains("waiting for a core ", "short waits ");
	}

	/**
	 * The default: the CPU clocks not read, the run-queue figure still is. A busy request
	 * among more busy threads than cores states its wait for a core as the kernel counted
	 * it around its scope, beside a CPU time from samples, in its own breakdown and its
	 * name's; its short waits are not stated.
	 */
	@Test
	void withoutTheCpuClocksAWaitForACoreIsStillTheKernels() throws Exception {
		this.profiler.setExactCpuTime(false);
		assertThat(this.profiler.isCoreWait()).as("the default").isTrue();
		this.busyCores.start(2 * CORES);
		Request busy = new Request("busy-sampled", () -> BusyCores.burnFor(200 * MS));
		runTogether(busy);
		this.profiler.collectNow();

		SpanRecord record = this.profiler.store().find(busy.spanId);
		SpanCpuTime cpu = SpanCpuTime.of(record, 3, 0, 10 * MS);
		assertThat(cpu.measured()).as("CPU from samples").isFalse();
		assertThat(cpu.nanos()).isEqualTo(30 * MS);
		assertThat(cpu.runQueueNanos()).as("waiting for a core, kernel inside %s, outside %s", busy.inner, busy.outer)
			.isBetween(busy.inner.runQueue, busy.outer.runQueue);
		assertThat(busy.inner.runQueue).as("%d busy threads on %d cores: it waited", 2 * CORES + 1, CORES)
			.isGreaterThanOrEqualTo(busy.inner.wall / 4);
		TimeBreakdown breakdown = TimeBreakdown.of(record.durationNanos(record.endEpochNanos()), cpu.nanos(),
				cpu.measured(), 0, cpu.runQueueNanos(), cpu.blockedNanos(), new StackTree(), null);
		assertThat(breakdown.coreWaitNanos()).as("no recorded wait holds any of it").isEqualTo(cpu.runQueueNanos());
		assertThat(breakdown.shortWaitsMeasured()).isFalse();
		assertThat(breakdown.summary(Double::toString)).contains("waiting for a core ").doesNotContain("short waits");

		RequestsBreakdown name = this.profiler.aggregates()
			.profile("busy-sampled", Duration.ofMinutes(5), SampleKind.CPU, 0, Long.MAX_VALUE)
			.breakdown();
		assertThat(name.scheduledRequests()).as("its name's breakdown").isEqualTo(1);
		assertThat(name.coreWaitNanos()).isBetween(busy.inner.runQueue, busy.outer.runQueue);
		assertThat(name.shortWaitNanos()).isZero();
	}

	@Test
	void turnedOffNoFigureIsRead() throws Exception {
		this.profiler.setExactCpuTime(false);
		this.profiler.setCoreWait(false);
		Request busy = new Request("unread", () -> BusyCores.burnFor(20 * MS));
		runTogether(busy);
		this.profiler.collectNow();

		SpanCpuTime cpu = SpanCpuTime.of(this.profiler.store().find(busy.spanId), 1, 0, 10 * MS);
		assertThat(cpu.runQueueNanos()).isNegative();
		assertThat(cpu.blockedNanos()).isNegative();
	}

	private void runTogether(Request... requests) throws Exception {
		CountDownLatch ready = new CountDownLatch(requests.length);
		CountDownLatch go = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (Request request : requests) {
			Thread thread = new Thread(() -> {
				ready.countDown();
				request.run(go);
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

	/**
	 * The kernel's counters of the calling thread, read the plain way. The wall clock is
	 * read right before the counters, with no system call in between: a thread switched
	 * out on its way back from the read then has that wait after both readings.
	 */
	private static Kernel kernelNow() {
		try (FileChannel file = FileChannel.open(Path.of("/proc/thread-self/schedstat"))) {
			ByteBuffer text = ByteBuffer.allocate(128);
			long wall = System.nanoTime();
			file.read(text, 0);
			String[] fields = new String(text.array(), 0, text.position(), StandardCharsets.US_ASCII).trim().split(" ");
			return new Kernel(Long.parseLong(fields[0]), Long.parseLong(fields[1]), wall);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * A request on its own thread, with the kernel's counters read around it twice: just
	 * outside its span and just inside its scope (the recorder reads its own in between,
	 * as the scope opens and closes).
	 */
	private final class Request {

		final String name;

		final Runnable work;

		String spanId;

		/** The kernel's counts from just inside the scope to just before it closes. */
		Kernel inner;

		/** From just before the span starts to just after it ends. */
		Kernel outer;

		long innerFrom;

		RuntimeException failure;

		Request(String name, Runnable work) {
			this.name = name;
			this.work = work;
		}

		void run(CountDownLatch go) {
			try {
				Kernel outerBefore = kernelNow();
				Span span = CoreWaitAccountingTest.this.tracer.spanBuilder(this.name).setNoParent().startSpan();
				Kernel innerBefore;
				Kernel innerAfter;
				try (Scope scope = span.makeCurrent()) {
					await(go);
					innerBefore = kernelNow();
					this.work.run();
					innerAfter = kernelNow();
				}
				span.end();
				Kernel outerAfter = kernelNow();
				this.spanId = span.getSpanContext().getSpanId();
				this.innerFrom = innerBefore.wall;
				this.inner = innerAfter.since(innerBefore);
				this.outer = outerAfter.since(outerBefore);
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
			return new Figures(this.name, record, cpu, this.inner, this.outer);
		}

	}

	private record Figures(String name, SpanRecord record, SpanCpuTime cpu, Kernel inner, Kernel outer) {

		/**
		 * The kernel's on-CPU figure of a running thread lags by up to a scheduler tick
		 * (the CPU clock's does not): 10 ms, a tick at the slowest common rate.
		 */
		private static final long TICK = 10 * MS;

		/** Its breakdown, with waits recorded and none of them long enough to be. */
		TimeBreakdown breakdown() {
			return TimeBreakdown.of(this.record.durationNanos(this.record.endEpochNanos()), this.cpu.nanos(), true, 0,
					this.cpu.runQueueNanos(), this.cpu.blockedNanos(), new StackTree(), null);
		}

		/**
		 * Each of the request's figures lies between the kernel's count over the window
		 * just inside its scope and the one just outside its span: the counters only
		 * grow, and the recorder read them between the two. What is unaccounted is at
		 * most the time between the two windows.
		 */
		void assertWithinTheKernels() {
			assertThat(this.cpu.runQueueNanos())
				.as("%s: waiting for a core, kernel inside %s, outside %s", this.name, this.inner, this.outer)
				.isBetween(this.inner.runQueue, this.outer.runQueue);
			assertThat(this.cpu.nanos()).as("%s: CPU, kernel inside %s, outside %s", this.name, this.inner, this.outer)
				.isBetween(this.inner.cpu - TICK, this.outer.cpu + TICK);
			assertThat(this.cpu.blockedNanos())
				.as("%s: blocked, kernel inside %s, outside %s", this.name, this.inner, this.outer)
				.isBetween(this.inner.blocked() - TICK, this.outer.blocked() + TICK);
			assertThat(breakdown().unaccountedNanos()).as("%s: unaccounted", this.name)
				.isLessThanOrEqualTo(this.outer.wall - this.inner.wall);
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
