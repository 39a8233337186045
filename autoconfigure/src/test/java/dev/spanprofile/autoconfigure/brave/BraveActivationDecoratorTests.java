package dev.spanprofile.autoconfigure.brave;

import java.util.ArrayList;
import java.util.List;

import brave.propagation.CurrentTraceContext;
import brave.propagation.CurrentTraceContext.Scope;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.ThreadActivity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decorator in Brave's own current-trace-context: the recorder hears each span change
 * on the thread, in order, and nothing when nothing changes. Runs in a JVM of its own
 * (the recorder is JVM-wide).
 */
class BraveActivationDecoratorTests {

	private final ActivationRecorder recorder = ActivationRecorder.global();

	private final CurrentTraceContext current = ThreadLocalCurrentTraceContext.newBuilder()
		.addScopeDecorator(new BraveActivationDecorator(this.recorder))
		.build();

	private final TraceContext request = context(1, true);

	private final TraceContext child = context(2, true);

	@BeforeEach
	void record() {
		drain();
		this.recorder.setRecording(true);
	}

	@AfterEach
	void stopRecording() {
		this.recorder.setRecording(false);
	}

	@Test
	void nestedScopesRecordEachSpanAndRestoreTheOneBefore() {
		try (Scope outer = this.current.newScope(this.request)) {
			try (Scope inner = this.current.newScope(this.child)) {
				assertThat(this.current.get()).isSameAs(this.child);
			}
		}
		assertThat(drain()).containsExactly(this.request.spanIdString(), this.child.spanIdString(),
				this.request.spanIdString(), null);
	}

	@Test
	void reenteringTheCurrentContextRecordsNothing() {
		try (Scope outer = this.current.newScope(this.request)) {
			try (Scope again = this.current.maybeScope(this.request)) {
				assertThat(again).isSameAs(Scope.NOOP);
			}
			assertThat(this.current.get()).isSameAs(this.request);
		}
		assertThat(drain()).containsExactly(this.request.spanIdString(), null);
	}

	@Test
	void aSpanBraveDoesNotRecordCountsAsNone() {
		try (Scope outer = this.current.newScope(this.request)) {
			try (Scope unsampled = this.current.newScope(context(3, false))) {
				// Brave clears to a null context too: both are "no recorded span".
				try (Scope cleared = this.current.newScope(null)) {
				}
			}
		}
		assertThat(drain()).containsExactly(this.request.spanIdString(), null, this.request.spanIdString(), null);
	}

	@Test
	void scopesClosedOutOfOrderEndAsBravesOwnDo() {
		Scope outer = this.current.newScope(this.request);
		Scope inner = this.current.newScope(this.child);
		outer.close();
		// Brave's outer scope restores what was before it (nothing); its inner one then
		// restores the request.
		assertThat(this.current.get()).isNull();
		inner.close();
		assertThat(this.current.get()).isSameAs(this.request);
		this.current.newScope(null).close();
		assertThat(drain()).containsExactly(this.request.spanIdString(), this.child.spanIdString(), null,
				this.request.spanIdString(), null, this.request.spanIdString());
	}

	private static TraceContext context(long spanId, boolean sampled) {
		return TraceContext.newBuilder().traceId(99).spanId(spanId).sampled(sampled).build();
	}

	/** The spans recorded on this thread since the last drain, in order. */
	private List<Object> drain() {
		long thread = Thread.currentThread().getId();
		List<Object> spans = new ArrayList<>();
		this.recorder.drainTo(new ThreadActivity.ChangePointSink() {

			@Override
			public void changed(long threadId, long time, Object span) {
				if (threadId == thread) {
					spans.add(span);
				}
			}

			@Override
			public void gap(long threadId, long time) {
			}

		});
		return spans;
	}

}
