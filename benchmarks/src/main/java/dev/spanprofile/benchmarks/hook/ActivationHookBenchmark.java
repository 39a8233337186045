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
import io.opentelemetry.context.ContextStorage;
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
 * One span activation and its deactivation, {@code Context.makeCurrent()} and
 * {@code Scope.close()}, exactly as instrumentation calls them.
 * <p>
 * The hook is JVM-wide once installed, and JMH runs every parameter value in JVMs of its
 * own, so the three variants compare in one run: {@code none} is OpenTelemetry's own
 * storage, {@code stopped} has the hook installed with the profiler stopped (what the
 * runtime switch leaves behind), {@code recording} is a profiling application, with a
 * collector thread draining the change points every 50 ms as the engine does. The
 * {@code single-scope-*} values measure {@link SingleScopeTrackingStorage}, the proposal
 * the hook's {@code TrackingContextStorage} grew from, kept for comparison.
 */
@State(org.openjdk.jmh.annotations.Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ActivationHookBenchmark {

	@Param({ "none", "stopped", "recording", "single-scope-stopped", "single-scope-recording" })
	public String hook;

	private Context context;

	private ScheduledExecutorService collector;

	@Setup(Level.Trial)
	public void setUp() {
		if (this.hook.startsWith("single-scope")) {
			ContextStorage.addWrapper((storage) -> new SingleScopeTrackingStorage(ActivationRecorder.global()));
			if (!(ContextStorage.get() instanceof SingleScopeTrackingStorage)) {
				throw new IllegalStateException("single-scope storage not in use: " + ContextStorage.get());
			}
		}
		else if (!this.hook.equals("none")) {
			// The starter's own path: register the wrapper before anything touches the
			// context.
			ActivationTracking.install();
			if (!ActivationTracking.isActive()) {
				throw new IllegalStateException("activation hook not in OpenTelemetry's context storage");
			}
		}
		if (this.hook.endsWith("recording")) {
			ActivationRecorder.global().setRecording(true);
			this.collector = Executors.newSingleThreadScheduledExecutor();
			this.collector.scheduleWithFixedDelay(() -> ActivationRecorder.global().drainTo(new DiscardingSink()), 50,
					50, TimeUnit.MILLISECONDS);
		}
		SpanContext span = SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
				TraceFlags.getSampled(), TraceState.getDefault());
		this.context = Context.root().with(Span.wrap(span));
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		if (this.collector != null) {
			this.collector.shutdownNow();
		}
		ActivationRecorder.global().setRecording(false);
	}

	@Benchmark
	public void makeCurrentAndClose() {
		try (Scope scope = this.context.makeCurrent()) {
			// Instrumentation runs the request here; the pair around it is what is
			// measured.
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
