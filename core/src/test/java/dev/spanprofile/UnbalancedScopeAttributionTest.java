package dev.spanprofile;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Application code that gets scopes wrong: closed out of order, closed twice, closed on
 * another thread, never closed, spans never ended. OpenTelemetry ignores the closes that
 * do not match the current context; what it then calls current is what samples are
 * attributed to, and the next request on the thread starts clean: its flame graph holds
 * its own hot method and nothing of the broken span's.
 */
class UnbalancedScopeAttributionTest {

	private static final long CPU_MILLIS = 250;

	@TempDir
	Path workDirectory;

	private final ExecutorService first = Executors.newSingleThreadExecutor((task) -> new Thread(task, "first"));

	private final ExecutorService second = Executors.newSingleThreadExecutor((task) -> new Thread(task, "second"));

	@AfterEach
	void stopThreads() {
		this.first.shutdownNow();
		this.second.shutdownNow();
	}

	@Test
	void scopesClosedOutOfOrderFollowWhatOpenTelemetryCallsCurrent() throws Exception {
		try (TracedProfiler traced = perSpan()) {
			String[] ids = on(this.first, () -> {
				Span a = traced.tracer.spanBuilder("a").setNoParent().startSpan();
				Scope aScope = a.makeCurrent();
				Workloads.burnAlpha(CPU_MILLIS);
				Span b = traced.tracer.spanBuilder("b").startSpan();
				Scope bScope = b.makeCurrent();
				// Out of order: OpenTelemetry ignores it and b stays current.
				aScope.close();
				Workloads.burnBeta(CPU_MILLIS);
				bScope.close();
				b.end();
				a.end();
				String c = traced.inRootSpan("c", () -> Workloads.burnGamma(CPU_MILLIS));
				return new String[] { id(a), id(b), c };
			});
			traced.profiler.collectNow();

			print(traced, "out of order", ids);
			traced.assertGotWhatWasTaken(ids[1], "betaHotMethod", CPU_MILLIS);
			assertThat(traced.samplesIn(ids[1], "alphaHotMethod")).isZero();
			traced.assertGotWhatWasTaken(ids[0], "alphaHotMethod", CPU_MILLIS);
			assertThat(traced.samplesIn(ids[0], "betaHotMethod")).isZero();
			assertClean(traced, ids[2]);
		}
	}

	@Test
	void aScopeClosedTwiceOrANoopScopeChangesNothing() throws Exception {
		try (TracedProfiler traced = perSpan()) {
			String[] ids = on(this.first, () -> {
				Span e = traced.tracer.spanBuilder("e").setNoParent().startSpan();
				Scope eScope = e.makeCurrent();
				Workloads.burnAlpha(CPU_MILLIS);
				eScope.close();
				e.end();
				Span f = traced.tracer.spanBuilder("f").setNoParent().startSpan();
				try (Scope fScope = f.makeCurrent()) {
					// A stale scope closed again, and a scope of the context that is
					// already current.
					eScope.close();
					try (Scope same = Context.current().makeCurrent()) {
						Workloads.burnBeta(CPU_MILLIS / 2);
					}
					Workloads.burnBeta(CPU_MILLIS / 2);
				}
				finally {
					f.end();
				}
				return new String[] { id(e), id(f) };
			});
			traced.profiler.collectNow();

			print(traced, "closed twice", ids);
			traced.assertGotWhatWasTaken(ids[1], "betaHotMethod", CPU_MILLIS);
			assertThat(traced.samplesIn(ids[1], "alphaHotMethod")).isZero();
			assertThat(traced.samplesIn(ids[0], "betaHotMethod")).isZero();
		}
	}

	@Test
	void aScopeClosedOnAnotherThreadDisturbsNeitherThread() throws Exception {
		try (TracedProfiler traced = perSpan()) {
			Object[] opened = on(this.first, () -> {
				Span a = traced.tracer.spanBuilder("a").setNoParent().startSpan();
				Scope aScope = a.makeCurrent();
				Workloads.burnAlpha(CPU_MILLIS);
				a.end();
				return new Object[] { id(a), aScope };
			});
			String d = on(this.second, () -> traced.inRootSpan("d", () -> {
				Workloads.burnBeta(CPU_MILLIS / 5);
				// Wrong thread: OpenTelemetry ignores the close here, and d stays
				// current.
				((Scope) opened[1]).close();
				Workloads.burnBeta(CPU_MILLIS);
			}));
			// a is still current on the first thread (its scope never closed there); the
			// next request starts fresh.
			String c = on(this.first, () -> traced.inRootSpan("c", () -> Workloads.burnGamma(CPU_MILLIS)));
			traced.profiler.collectNow();

			String a = (String) opened[0];
			print(traced, "other thread", a, d, c);
			traced.assertGotWhatWasTaken(d, "betaHotMethod", CPU_MILLIS + CPU_MILLIS / 5);
			assertThat(traced.samplesIn(d, "alphaHotMethod")).isZero();
			traced.assertGotWhatWasTaken(a, "alphaHotMethod", CPU_MILLIS);
			assertThat(traced.samplesIn(a, "betaHotMethod") + traced.samplesIn(a, "gammaHotMethod")).isZero();
			assertClean(traced, c);
		}
	}

	@Test
	void aScopeNeverClosedAndSpansNeverEndedDoNotLeakIntoTheNextRequest() throws Exception {
		// Root-span-only, the default: a leak would show as samples of the next request
		// going to the broken root.
		try (TracedProfiler traced = new TracedProfiler(this.workDirectory)) {
			String[] ids = on(this.first, () -> {
				Span broken = traced.tracer.spanBuilder("broken").setNoParent().startSpan();
				broken.makeCurrent();
				Workloads.burnAlpha(CPU_MILLIS);
				Span orphan = traced.tracer.spanBuilder("orphan").setNoParent().startSpan();
				try (Scope scope = orphan.makeCurrent()) {
					Workloads.burnBeta(CPU_MILLIS);
				}
				// Neither span is ever ended, and broken's scope is never closed.
				String next = traced.inRootSpan("next", () -> Workloads.burnGamma(CPU_MILLIS));
				return new String[] { id(broken), id(orphan), next };
			});
			traced.profiler.collectNow();

			print(traced, "never closed", ids);
			assertThat(traced.record(ids[0]).inFlight()).isTrue();
			assertThat(traced.record(ids[1]).inFlight()).isTrue();
			traced.assertGotWhatWasTaken(ids[0], "alphaHotMethod", CPU_MILLIS);
			assertThat(traced.samplesIn(ids[0], "betaHotMethod") + traced.samplesIn(ids[0], "gammaHotMethod")).isZero();
			traced.assertGotWhatWasTaken(ids[1], "betaHotMethod", CPU_MILLIS);
			assertClean(traced, ids[2]);
		}
	}

	private TracedProfiler perSpan() {
		return new TracedProfiler(new StoreSettings(1000, 64L * 1024 * 1024, false), this.workDirectory,
				(engine) -> engine);
	}

	/** The next span: its own hot method, nothing of the broken ones'. */
	private static void assertClean(TracedProfiler traced, String spanId) {
		traced.assertGotWhatWasTaken(spanId, "gammaHotMethod", CPU_MILLIS);
		assertThat(traced.samplesIn(spanId, "alphaHotMethod") + traced.samplesIn(spanId, "betaHotMethod"))
			.as("the next span's samples of the broken spans' methods")
			.isZero();
	}

	private static void print(TracedProfiler traced, String scenario, String... ids) {
		StringBuilder line = new StringBuilder("unbalanced scopes, " + scenario + ":");
		for (String id : ids) {
			line.append(' ')
				.append(traced.record(id).name())
				.append("(alpha=")
				.append(traced.samplesIn(id, "alphaHotMethod"))
				.append(" beta=")
				.append(traced.samplesIn(id, "betaHotMethod"))
				.append(" gamma=")
				.append(traced.samplesIn(id, "gammaHotMethod"))
				.append(')');
		}
		System.out.println(line);
	}

	private static String id(Span span) {
		return span.getSpanContext().getSpanId();
	}

	private static <T> T on(ExecutorService thread, Callable<T> work) throws Exception {
		return thread.submit(work).get(60, TimeUnit.SECONDS);
	}

}
