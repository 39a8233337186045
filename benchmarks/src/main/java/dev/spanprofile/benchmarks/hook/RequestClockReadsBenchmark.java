package dev.spanprofile.benchmarks.hook;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.ActivationTracking;
import dev.spanprofile.tracking.ThreadActivity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the clocks a thread reads where it enters and leaves a request cost: one request's
 * entry and exit on its thread, with the recorder recording and reading nothing
 * ({@code no-reads}), the run-queue figure only ({@code core-wait}, the default), or it
 * and the CPU clock ({@code exact-cpu-time}). Two requests take turns, so that no entry
 * comes straight back into the span just left (which reads nothing); a request served on
 * one thread reads at its entry and at its exit, as this does once per operation.
 * <p>
 * A single thread on a quiet core: the reads' own cost. On a machine whose cores are all
 * busy, each system call is also a chance for the scheduler to switch threads, which this
 * does not show (the twin benchmarks do).
 */
@State(org.openjdk.jmh.annotations.Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RequestClockReadsBenchmark {

	@Param({ "no-reads", "core-wait", "exact-cpu-time" })
	public String reads;

	private Context first;

	private Context second;

	private ScheduledExecutorService collector;

	@Setup(Level.Trial)
	public void setUp() {
		ActivationTracking.install();
		if (!ActivationTracking.isActive()) {
			throw new IllegalStateException("activation hook not in OpenTelemetry's context storage");
		}
		ActivationRecorder recorder = ActivationRecorder.global();
		recorder.setReadingCpuClocks(this.reads.equals("exact-cpu-time"));
		recorder.setReadingRunQueues(!this.reads.equals("no-reads"));
		if (!this.reads.equals("no-reads") && !recorder.isReadingRunQueues()) {
			throw new IllegalStateException("the kernel's run-queue figure cannot be read here");
		}
		recorder.setRecording(true);
		this.collector = Executors.newSingleThreadScheduledExecutor();
		this.collector.scheduleWithFixedDelay(() -> recorder.drainTo(new DiscardingSink()), 50, 50,
				TimeUnit.MILLISECONDS);
		this.first = request("00f067aa0ba902b7");
		this.second = request("00f067aa0ba902b8");
	}

	private static Context request(String spanId) {
		return Context.root()
			.with(Span.wrap(SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", spanId, TraceFlags.getSampled(),
					TraceState.getDefault())));
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.collector.shutdownNow();
		ActivationRecorder recorder = ActivationRecorder.global();
		recorder.setRecording(false);
		recorder.setReadingCpuClocks(false);
		recorder.setReadingRunQueues(false);
	}

	@Benchmark
	public void twoRequestsEnteredAndLeft() {
		try (Scope scope = this.first.makeCurrent()) {
			// One request: its entry and its exit read.
		}
		try (Scope scope = this.second.makeCurrent()) {
			// The next, in another span.
		}
	}

	private static final class DiscardingSink implements ThreadActivity.ChangePointSink {

		@Override
		public void changed(long threadId, long time, Object span) {
		}

		@Override
		public void gap(long threadId, long time) {
		}

	}

}
