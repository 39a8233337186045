package dev.spanprofile.tracking;

import java.util.ArrayList;
import java.util.List;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hook records a change point exactly when the span active on the thread changes,
 * behaves as OpenTelemetry's own storage does, and keeps recording right across a stop
 * and a restart.
 */
class TrackingContextStorageTest {

	private final ActivationRecorder recorder = new ActivationRecorder(64);

	private final TrackingContextStorage storage = new TrackingContextStorage(this.recorder);

	private final SpanContext a = span("00f067aa0ba902b7");

	private final SpanContext b = span("00f067aa0ba902b8");

	private final List<Object> points = new ArrayList<>();

	@Test
	void reattachingTheActiveSpanRecordsNothing() {
		this.recorder.setRecording(true);
		Context inA = Context.root().with(Span.wrap(this.a));
		try (Scope outer = this.storage.attach(inA)) {
			// Same span, another entry in the context (baggage, say): the span active
			// does not change.
			try (Scope inner = this.storage.attach(inA.with(ContextKey.named("other"), "value"))) {
				assertThat(Span.fromContext(this.storage.current()).getSpanContext()).isSameAs(this.a);
			}
			try (Scope again = this.storage.attach(Context.root().with(Span.wrap(this.a)))) {
				assertThat(this.storage.current()).isNotSameAs(inA);
			}
		}
		assertThat(drain()).containsExactly(this.a, null);
	}

	@Test
	void aScopeOpenedWhileStoppedRecordsItsCloseAfterARestart() {
		this.recorder.setRecording(true);
		try (Scope inA = this.storage.attach(Context.root().with(Span.wrap(this.a)))) {
			this.recorder.setRecording(false);
			Scope inB = this.storage.attach(Context.root().with(Span.wrap(this.b)));
			this.recorder.setRecording(true);
			// The thread goes back to a: recorded although a was the span last recorded
			// before the stop.
			inB.close();
		}
		assertThat(drain()).containsExactly(this.a, this.a, null);
	}

	@Test
	void scopesClosedOutOfOrderChangeNothingAsInOpenTelemetrysOwnStorage() {
		this.recorder.setRecording(true);
		Context inA = Context.root().with(Span.wrap(this.a));
		Context inB = Context.root().with(Span.wrap(this.b));
		Scope outer = this.storage.attach(inA);
		Scope inner = this.storage.attach(inB);
		outer.close();
		assertThat(this.storage.current()).isSameAs(inB);
		inner.close();
		assertThat(this.storage.current()).isSameAs(inA);
		inner.close();
		assertThat(this.storage.current()).isSameAs(inA);
		assertThat(drain()).containsExactly(this.a, this.b, this.a);
	}

	/**
	 * Requests the tracer's sampler dropped (most of them under Spring Boot's default of
	 * 10 %) have no profile: their spans are no span to the hook, so a thread serving one
	 * after another records nothing.
	 */
	@Test
	void spansTheSamplerDroppedAreNoSpan() {
		this.recorder.setRecording(true);
		SpanContext dropped = SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b9",
				TraceFlags.getDefault(), TraceState.getDefault());
		for (int request = 0; request < 3; request++) {
			try (Scope inDropped = this.storage.attach(Context.root().with(Span.wrap(dropped)))) {
				assertThat(Span.fromContext(this.storage.current()).getSpanContext()).isSameAs(dropped);
			}
		}
		try (Scope inA = this.storage.attach(Context.root().with(Span.wrap(this.a)))) {
			try (Scope inDropped = this.storage.attach(Context.root().with(Span.wrap(dropped)))) {
				// Still the thread's context, as in OpenTelemetry's own storage: only the
				// recorder looks past it.
				assertThat(Span.fromContext(this.storage.current()).getSpanContext()).isSameAs(dropped);
			}
		}
		// The first null is the thread's first point of the session, recorded whatever it
		// is.
		assertThat(drain()).containsExactly(null, this.a, null, this.a, null);
	}

	@Test
	void stoppedRecordsNothing() {
		try (Scope inA = this.storage.attach(Context.root().with(Span.wrap(this.a)))) {
			assertThat(this.storage.current()).isNotNull();
		}
		assertThat(this.recorder.trackedThreads()).isZero();
	}

	private List<Object> drain() {
		this.recorder.drainTo(new ThreadActivity.ChangePointSink() {

			@Override
			public void changed(long threadId, long time, Object span) {
				TrackingContextStorageTest.this.points.add(span);
			}

			@Override
			public void gap(long threadId, long time) {
				TrackingContextStorageTest.this.points.add("gap");
			}

		});
		return this.points;
	}

	private static SpanContext span(String spanId) {
		return SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", spanId, TraceFlags.getSampled(),
				TraceState.getDefault());
	}

}
